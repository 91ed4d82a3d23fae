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
import { servedTransport } from './served-transport.js';
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

/** Terms of a file the mrtr-handlers transform rewrites itself: it sets its own adapter up. */
const OWN_QUESTIONS = /\b(?:elicitInput|createMessage|listRoots|requestSampling|SdkV[12]Adapter)\b/;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The adapter planned for one server module, shared by every handler module of the run. */
class PlannedAdapter {
  /** The edits and imports of the server module's rewrite; the declaration is the first edit. */
  readonly #edits: TextEdit[];
  readonly #imports: ImportRequest[];
  /** The sites that write it, until the first handler module whose rewrite uses it takes them. */
  #sites: Site[] | undefined;
  readonly #keys: Writable<Site>;
  #choice: RuntimeChoice;

  constructor(
    readonly server: FileContext,
    readonly generation: Generation,
    readonly name: string,
    readonly unit: string,
    private readonly point: { readonly offset: number },
    construction: ts.VariableDeclaration,
  ) {
    this.#choice = { transport: servedTransport(server), singleUse: false };
    const declaration = this.#declaration();
    const wraps = generation === 'v2' ? serverOptionsEdits(server, name) : [];
    this.#edits = [declaration.edit, ...wraps];
    this.#imports = declaration.imports;
    const base = { transform: TRANSFORM_ID, category: 'request-state' as const, node: construction };
    const rewrite = server.rewriteSite(
      {
        ...base,
        kind: 'shared-adapter',
        todo:
          generation === 'v2'
            ? 'Create the SDK v2 server with the adapter’s serverOptions() and export the adapter to the modules registering handlers on it.'
            : 'Export the adapter to the modules registering handlers on the server.',
      },
      this.#edits,
      { imports: this.#imports, packages: [RUNTIME_PACKAGE] },
    );
    const keys = server.manualSite(
      { ...base, kind: 'state-keys', todo: deploymentTodo(this.#choice) },
      deploymentReason(this.#choice.transport),
    );
    this.#keys = { ...keys, anchor: { kind: 'in-rewrite' } };
    this.#sites = [{ ...rewrite, link: { unit, requires: [] } }, this.#keys];
  }

  /** Whether the server module can take it: a SDK v2 one must be created there, to be wrapped. */
  get writable(): boolean {
    return this.#edits.length > (this.generation === 'v2' ? 1 : 0);
  }

  #declaration(): { edit: TextEdit; imports: ImportRequest[] } {
    const server = this.server;
    const text = server.text;
    const offset = this.point.offset;
    const before = offset > 0 && !isBlankLine(text, lineStartOf(text, offset - 1)) ? [''] : [];
    const declaration = adapterDeclaration(server, this.generation, this.name, this.#choice, true);
    const lines = [...before, ...declaration.lines, '', ''];
    return {
      edit: { start: offset, end: offset, text: lines.join(server.style.newline) },
      imports: declaration.imports,
    };
  }

  /** The server module's sites for the first caller, none for later ones; single use when asked. */
  take(singleUse: boolean): Site[] {
    if (singleUse && !this.#choice.singleUse) {
      this.#choice = { ...this.#choice, singleUse };
      const declaration = this.#declaration();
      this.#edits[0] = declaration.edit;
      this.#imports.splice(0, this.#imports.length, ...declaration.imports);
      this.#keys.todo = deploymentTodo(this.#choice);
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

/** `const server = new McpServer(…)` at the top level of its module, imported under a relative path. */
interface ImportedConstruction {
  readonly declaration: ts.VariableDeclaration;
  readonly statement: ts.VariableStatement;
  readonly specifier: string;
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
  const declaration = context.checker.getAliasedSymbol(alias).valueDeclaration;
  if (declaration === undefined || !ts.isVariableDeclaration(declaration)) return undefined;
  const statement = declaration.parent.parent;
  if (
    declaration.initializer === undefined ||
    !ts.isNewExpression(unwrapExpression(declaration.initializer)) ||
    !ts.isVariableStatement(statement) ||
    !ts.isSourceFile(statement.parent) ||
    statement.getSourceFile() === context.sourceFile
  )
    return undefined;
  return { declaration, statement, specifier };
}

/** Plans, once per server module, the exported adapter right before the server it creates. */
function planServerModule(
  server: FileContext,
  generation: Generation,
  construction: ImportedConstruction,
): PlannedAdapter | undefined {
  if (planned.has(server)) {
    const adapter = planned.get(server);
    return adapter?.generation === generation ? adapter : undefined;
  }
  planned.set(server, undefined);
  if (OWN_QUESTIONS.test(server.text) || server.run?.mayWrite(server.path) !== true) return undefined;
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
 * be rewritten: it is in the run, creates the server at its top level after its imports, and asks
 * no questions of its own (it would set its own adapter up). Otherwise undefined, and the handler
 * module sets its own adapter up (on SDK v2 noting where the server must be wrapped).
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
