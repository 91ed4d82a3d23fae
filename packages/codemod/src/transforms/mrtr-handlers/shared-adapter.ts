import path from 'node:path';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { RequiredUnit, Site } from '../../analysis/site.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import { isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { EligibleHandler, Generation } from './eligible-handlers.js';
import {
  adapterDeclaration,
  deploymentReason,
  deploymentTodo,
  type RuntimeChoice,
} from './runtime-construction.js';
import { servedTransport, type ServedTransport } from './served-transport.js';
import { joinModuleKeys } from '../shared/state-keys.js';
import { serverOptionsEdits } from './server-options.js';
import { TRANSFORM_ID } from './transform-id.js';

/*
 * Handlers registered on a server another module creates (`import { server } from './server.js'`),
 * on SDK v1 as on SDK v2. The adapter goes into the module that creates the server, declared and
 * exported right before it (on SDK v2 the construction also takes its serverOptions()); every
 * handler module imports that adapter instead of creating its own. So the module graph has one
 * runtime per server, reading the keys once, a v2 server verifies retries with the same keys and
 * journal the handlers seal them with, and the handler modules import the server module as before
 * (putting the adapter in a handler module instead would make the server module import it back: a
 * cycle, evaluated before it is set).
 *
 * The handler modules are analysed one after another, and the first whose rewrite uses the adapter
 * takes the server module's sites. A later one whose handlers journal steps turns single use on in
 * the declaration those sites write: nothing is applied before every file has been analysed.
 */

const ADAPTER_NAME = 'mrtr';

/** An adapter an earlier run declared: the module keeps it (see adapter-setup.ts). */
const EARLIER_ADAPTER = /\bSdkV[12]Adapter\b/;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The adapter planned for one server module, shared by every module registering handlers on the
 * server: the ones importing the server, and its own.
 */
class PlannedAdapter {
  /**
   * The edits and imports of the server module's rewrite: the keys the module shares (if its
   * sealer reads them too), the wraps of an SDK v2 server, and the declaration.
   */
  readonly #edits: TextEdit[];
  readonly #imports: ImportRequest[];
  readonly #wraps: number;
  #declared: TextEdit | undefined;
  /** The sites that write it, until the first module whose rewrite uses it takes them. */
  #sites: Site[] | undefined;
  readonly #keys: Writable<Site>;
  #choice: RuntimeChoice;
  #keyring = '';

  constructor(
    readonly server: FileContext,
    readonly generation: Generation,
    readonly name: string,
    readonly unit: string,
    private readonly point: { readonly offset: number; readonly statement: ts.Statement },
    construction: ts.VariableDeclaration,
  ) {
    this.#choice = { transport: servedTransport(server), singleUse: false };
    const wraps = generation === 'v2' ? serverOptionsEdits(server, name) : [];
    this.#wraps = wraps.length;
    this.#edits = [...wraps];
    this.#imports = [];
    const base = { transform: TRANSFORM_ID, category: 'request-state' as const };
    const keys = server.manualSite(
      { ...base, node: point.statement, kind: 'state-keys', todo: deploymentTodo(this.#choice) },
      deploymentReason(this.#choice.transport),
    );
    this.#keys = { ...keys, anchor: { kind: 'in-rewrite' } };
    if (this.writable) {
      const joined = joinModuleKeys(server, {
        kind: 'runtime',
        transport: this.#choice.transport,
        edits: this.#edits,
        imports: [],
        render: (keyring, transport) => this.#write(keyring, transport),
      });
      this.#write(joined.keyring, joined.transport);
    }
    const rewrite = server.rewriteSite(
      {
        ...base,
        node: construction,
        kind: 'shared-adapter',
        todo:
          generation === 'v2'
            ? 'Set the adapter up beside the server, create the SDK v2 server with its serverOptions(), and export it to the other modules registering handlers on the server.'
            : 'Set the adapter up beside the server, and export it to the other modules registering handlers on the server.',
      },
      this.#edits,
      { imports: this.#imports, packages: [RUNTIME_PACKAGE] },
    );
    this.#sites = [{ ...rewrite, link: { unit, requires: [] } }, this.#keys];
  }

  /** Whether the server module can take it: a SDK v2 one must be created there, to be wrapped. */
  get writable(): boolean {
    return this.generation !== 'v2' || this.#wraps > 0;
  }

  /** Writes the declaration (again) reading the keys from `keyring`, its marker advising for `transport`. */
  #write(keyring: string, transport: ServedTransport): void {
    this.#keyring = keyring;
    this.#choice = { ...this.#choice, transport };
    const server = this.server;
    const text = server.text;
    const offset = this.point.offset;
    const before = offset > 0 && !isBlankLine(text, lineStartOf(text, offset - 1)) ? [''] : [];
    const declaration = adapterDeclaration(server, this.generation, this.name, this.#choice, keyring, true);
    const lines = [...before, ...declaration.lines, '', ''];
    const edit = { start: offset, end: offset, text: lines.join(server.style.newline) };
    const at = this.#declared === undefined ? -1 : this.#edits.indexOf(this.#declared);
    if (at === -1) this.#edits.push(edit);
    else this.#edits[at] = edit;
    this.#declared = edit;
    this.#imports.splice(
      0,
      this.#imports.length,
      server.importFor(RUNTIME_PACKAGE, 'Keyring'),
      ...declaration.imports,
    );
    this.#keys.todo = deploymentTodo(this.#choice);
    this.#keys.reason = deploymentReason(transport);
  }

  /**
   * The server module's sites for the first caller, none for later ones. `singleUse` when the
   * caller's rewrites journal steps: that changes the declaration the sites write, which is
   * applied only once every module has been analysed.
   */
  take(singleUse: boolean): Site[] {
    if (singleUse && !this.#choice.singleUse) {
      this.#choice = { ...this.#choice, singleUse };
      this.#write(this.#keyring, this.#choice.transport);
    }
    const sites = this.#sites ?? [];
    this.#sites = undefined;
    return sites;
  }
}

const planned = new WeakMap<FileContext, PlannedAdapter | undefined>();

/** The adapter a handler module imports from the module creating its server. */
export interface SharedAdapter {
  /** The adapter's local name in the handler module. */
  readonly name: string;
  readonly imports: readonly ImportRequest[];
  /**
   * The server module's sites (its edits and keys marker): the first call gets them, later ones
   * none. `singleUse` when the caller's rewrites journal steps.
   */
  take(singleUse: boolean): Site[];
  readonly requires: RequiredUnit;
}

/** `const server = new McpServer(…)` at the top level of its module. */
interface Construction {
  readonly declaration: ts.VariableDeclaration;
  readonly statement: ts.VariableStatement;
}

/** A construction of another module, imported under a relative path. */
interface ImportedConstruction extends Construction {
  readonly specifier: string;
}

/** The top-level construction a variable declaration is, if it is one. */
function construction(declaration: ts.Declaration | undefined): Construction | undefined {
  if (declaration === undefined || !ts.isVariableDeclaration(declaration)) return undefined;
  const statement = declaration.parent.parent;
  if (
    declaration.initializer === undefined ||
    !ts.isNewExpression(unwrapExpression(declaration.initializer)) ||
    !ts.isVariableStatement(statement) ||
    !ts.isSourceFile(statement.parent)
  )
    return undefined;
  return { declaration, statement };
}

/** The construction in this module's top level the receiver names. */
function localConstruction(context: FileContext, receiver: ts.Expression): Construction | undefined {
  const inner = unwrapExpression(receiver);
  if (!ts.isIdentifier(inner)) return undefined;
  const symbol = context.checker.getSymbolAtLocation(inner);
  if (symbol === undefined || (symbol.flags & ts.SymbolFlags.Alias) !== 0) return undefined;
  const found = construction(symbol.valueDeclaration);
  return found?.statement.getSourceFile() === context.sourceFile ? found : undefined;
}

function importedConstruction(
  context: FileContext,
  receiver: ts.Expression,
): ImportedConstruction | undefined {
  const inner = unwrapExpression(receiver);
  if (!ts.isIdentifier(inner)) return undefined;
  const alias = context.checker.getSymbolAtLocation(inner);
  const specifierNode = alias?.declarations?.[0];
  if (alias === undefined || (alias.flags & ts.SymbolFlags.Alias) === 0 || specifierNode === undefined)
    return undefined;
  if (!ts.isImportSpecifier(specifierNode)) return undefined;
  const importDeclaration = specifierNode.parent.parent.parent;
  if (!ts.isStringLiteral(importDeclaration.moduleSpecifier)) return undefined;
  const specifier = importDeclaration.moduleSpecifier.text;
  if (!specifier.startsWith('.')) return undefined;
  const found = construction(context.checker.getAliasedSymbol(alias).valueDeclaration);
  if (found === undefined || found.statement.getSourceFile() === context.sourceFile) return undefined;
  return { ...found, specifier };
}

/** Plans, once per server module, the adapter right before the server it creates. */
function planServerModule(
  server: FileContext,
  generation: Generation,
  construction: Construction,
): PlannedAdapter | undefined {
  if (planned.has(server)) {
    const adapter = planned.get(server);
    return adapter?.generation === generation ? adapter : undefined;
  }
  planned.set(server, undefined);
  if (EARLIER_ADAPTER.test(server.text) || server.run?.mayWrite(server.path) !== true) return undefined;
  const point = moduleSetupPoint(server.sourceFile);
  if (point === undefined || point.offset > construction.statement.getStart(server.sourceFile))
    return undefined;
  const name = server.declarationName(ADAPTER_NAME);
  const adapter = new PlannedAdapter(
    server,
    generation,
    name,
    `${server.path}#adapter`,
    point,
    construction.declaration,
  );
  if (!adapter.writable) return undefined;
  planned.set(server, adapter);
  return adapter;
}

/**
 * The adapter the module creating the server of all these handlers exports, when that module can
 * be rewritten: it is in the run, creates the server at its top level after its imports, and has
 * no adapter of an earlier run. Otherwise undefined, and the handler module sets its own adapter
 * up (on SDK v2 noting where the server must be wrapped).
 */
export function sharedAdapter(
  context: FileContext,
  generation: Generation,
  handlers: readonly EligibleHandler[],
): SharedAdapter | undefined {
  const run = context.run;
  const own = handlers.filter((handler) => handler.generation === generation);
  if (run === undefined || own.length === 0 || own.length !== handlers.length) return undefined;
  const constructions = own.map((handler) => importedConstruction(context, handler.access.expression));
  const first = constructions[0];
  if (first === undefined || constructions.some((each) => each?.declaration !== first.declaration))
    return undefined;
  const serverFile = first.declaration.getSourceFile();
  if (!run.mayWrite(serverFile.fileName)) return undefined;
  const server = run.contextOf(serverFile);
  // The server is an SDK one only by the handlers' syntax: its module's sites say so too.
  if (own.some((handler) => context.isFromSyntax(handler.registration)))
    server.noteFromSyntax(first.declaration);
  if (!run.relate(serverFile.fileName, TRANSFORM_ID)) return undefined;
  const adapter = planServerModule(server, generation, first);
  if (adapter === undefined) return undefined;
  const request = context.importFor(first.specifier, adapter.name);
  const relative = path.relative(path.dirname(context.path), server.path).replaceAll('\\', '/');
  return {
    name: request.local,
    imports: [request],
    take: (singleUse) => adapter.take(singleUse),
    requires: { unit: adapter.unit, label: `the adapter set up in ${relative}` },
  };
}

/** The adapter a module's own handlers share with the other modules registering on its server. */
export interface OwnServerAdapter {
  readonly name: string;
  /** The module's sites for its first rewrite that uses it; single use when they journal steps. */
  take(singleUse: boolean): Site[];
}

/** Terms of a module that asks questions, as the transform's prefilter has them. */
const QUESTION_TERMS =
  /\b(?:elicitInput|createMessage|listRoots|requestSampling)\b|elicitation\/create|sampling\/createMessage|roots\/list/;

/** Whether another module of the run imports the declaration from this one and asks questions. */
function importedByQuestionModule(context: FileContext, declaration: ts.VariableDeclaration): boolean {
  if (!ts.isIdentifier(declaration.name)) return false;
  const name = declaration.name.text;
  return (context.run?.sourceFiles ?? []).some(
    (file) =>
      file !== context.sourceFile &&
      QUESTION_TERMS.test(file.text) &&
      file.statements.some((statement) => {
        if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
          return false;
        const named = statement.importClause?.namedBindings;
        if (named === undefined || !ts.isNamedImports(named)) return false;
        if (!named.elements.some((element) => (element.propertyName ?? element.name).text === name))
          return false;
        const module = context.checker.getSymbolAtLocation(statement.moduleSpecifier);
        return module?.declarations?.[0] === context.sourceFile;
      }),
  );
}

/**
 * The adapter a module's own handlers share with the modules that import its server: when every
 * one of these handlers registers on one server it creates at its top level, after its imports,
 * and a module registering handlers imports that server, or has already planned the adapter here.
 * Whichever module is analysed first, they all use one adapter; otherwise undefined, and the
 * module sets up its own, which the others then do not share.
 */
export function ownServerAdapter(
  context: FileContext,
  generation: Generation,
  handlers: readonly EligibleHandler[],
): OwnServerAdapter | undefined {
  // Planned by a module importing the server: this module's handlers register through it too.
  const earlier = planned.get(context);
  if (earlier !== undefined)
    return earlier.generation === generation
      ? { name: earlier.name, take: (singleUse) => earlier.take(singleUse) }
      : undefined;
  const own = handlers.filter((handler) => handler.generation === generation);
  if (context.run === undefined || own.length === 0 || own.length !== handlers.length) return undefined;
  const constructions = own.map((handler) => localConstruction(context, handler.access.expression));
  const first = constructions[0];
  if (first === undefined || constructions.some((each) => each?.declaration !== first.declaration))
    return undefined;
  if (!planned.has(context) && !importedByQuestionModule(context, first.declaration)) {
    // Decided: a module importing the server later keeps an adapter of its own.
    planned.set(context, undefined);
    return undefined;
  }
  const adapter = planServerModule(context, generation, first);
  if (adapter === undefined) return undefined;
  return { name: adapter.name, take: (singleUse) => adapter.take(singleUse) };
}
