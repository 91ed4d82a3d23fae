import path from 'node:path';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { RequiredUnit, Site } from '../../analysis/site.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import { isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { markerText } from '../../edits/markers.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import { braces, semicolon } from '../../edits/source-style.js';
import { KEYS_TODO } from '../request-state/sealer-setup.js';
import type { EligibleHandler } from './eligible-handlers.js';
import { serverOptionsEdits } from './server-options.js';
import { TRANSFORM_ID } from './transform-id.js';

/*
 * SDK v2 handlers registered on a server another module creates (`import { server } from
 * './server.js'`). The adapter goes into the module that creates the server, declared and exported
 * right before it, and the construction takes its serverOptions(); every handler module imports
 * that adapter instead of creating its own. So the module graph has one runtime per server, the
 * server verifies retries with the same keys and journal the handlers seal them with, and the
 * handler modules import the server module as before (putting the adapter in a handler module
 * instead would make the server module import it back: a cycle, evaluated before it is set).
 */

const ADAPTER_NAME = 'mrtr';

/** Terms of a file the mrtr-handlers transform rewrites itself: it sets its own adapter up. */
const OWN_QUESTIONS = /\b(?:elicitInput|createMessage|listRoots|requestSampling|SdkV2Adapter)\b/;

/** The adapter planned for one server module, shared by every handler module of the run. */
interface PlannedAdapter {
  readonly name: string;
  /** The sites that write it, taken by the first handler module whose rewrite uses it. */
  sites: Site[];
  readonly unit: string;
}

const planned = new WeakMap<FileContext, PlannedAdapter | undefined>();

/** The adapter a handler module imports from the module creating its server. */
export interface SharedAdapter {
  /** The adapter's local name in the handler module. */
  readonly name: string;
  readonly imports: readonly ImportRequest[];
  /** The server module's sites (its edits and keys marker): the first call gets them, later ones none. */
  takeSites(): Site[];
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
  construction: ImportedConstruction,
): PlannedAdapter | undefined {
  if (planned.has(server)) return planned.get(server);
  planned.set(server, undefined);
  if (OWN_QUESTIONS.test(server.text) || server.run?.mayWrite(server.path) !== true) return undefined;
  const point = moduleSetupPoint(server.sourceFile);
  if (point === undefined || point.offset > construction.statement.getStart(server.sourceFile))
    return undefined;
  const name = server.declarationName(ADAPTER_NAME);
  const wraps = serverOptionsEdits(server, name);
  if (wraps.length === 0) return undefined;
  const style = server.style;
  const keyring = server.importFor(RUNTIME_PACKAGE, 'Keyring');
  const runtime = server.importFor(RUNTIME_PACKAGE, 'MrtrRuntime');
  const adapter = server.importFor('@mcp-mrtr/runtime/sdk-v2', 'SdkV2Adapter');
  const text = server.text;
  const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1)) ? [''] : [];
  const lines = [
    ...before,
    `// ${markerText(REQUEST_STATE_RULE_ID, KEYS_TODO)}`,
    `/** The MRTR adapter of this server: the modules registering handlers on it import it. */`,
    `export const ${name} = new ${adapter.local}(new ${runtime.local}(${braces(style, `keyring: ${keyring.local}.fromEnv()`)}))${semicolon(style)}`,
    '',
    '',
  ];
  const base = {
    transform: TRANSFORM_ID,
    category: 'request-state' as const,
    node: construction.declaration,
  };
  const unit = `${server.path}#adapter`;
  const rewrite = server.rewriteSite(
    {
      ...base,
      kind: 'shared-adapter',
      todo: 'Create the SDK v2 server with the adapter’s serverOptions() and export the adapter to the modules registering handlers on it.',
    },
    [{ start: point.offset, end: point.offset, text: lines.join(style.newline) }, ...wraps],
    { imports: [keyring, runtime, adapter], packages: [RUNTIME_PACKAGE] },
  );
  const keys = server.manualSite(
    { ...base, kind: 'state-keys', todo: KEYS_TODO },
    'the keys that seal the journal must come from the deployment’s configuration; the codemod cannot choose or store a secret',
  );
  const result: PlannedAdapter = {
    name,
    unit,
    sites: [
      { ...rewrite, link: { unit, requires: [] } },
      { ...keys, anchor: { kind: 'in-rewrite' } },
    ],
  };
  planned.set(server, result);
  return result;
}

/**
 * The adapter the module creating the server of all these SDK v2 handlers exports, when that
 * module can be rewritten: it is in the run, creates the server at its top level after its imports,
 * and asks no questions of its own (it would set its own adapter up). Otherwise undefined, and the
 * handler module sets its own adapter up and notes where the server must be wrapped.
 */
export function sharedAdapter(
  context: FileContext,
  handlers: readonly EligibleHandler[],
): SharedAdapter | undefined {
  const run = context.run;
  const v2 = handlers.filter((handler) => handler.generation === 'v2');
  if (run === undefined || v2.length === 0 || v2.length !== handlers.length) return undefined;
  const constructions = v2.map((handler) => importedConstruction(context, handler.access.expression));
  const first = constructions[0];
  if (first === undefined || constructions.some((each) => each?.declaration !== first.declaration))
    return undefined;
  const serverFile = first.declaration.getSourceFile();
  if (!run.mayWrite(serverFile.fileName)) return undefined;
  const server = run.contextOf(serverFile);
  // The server is an SDK v2 one only by the handlers' syntax: its module's sites say so too.
  if (v2.some((handler) => context.isFromSyntax(handler.registration)))
    server.noteFromSyntax(first.declaration);
  if (!run.relate(serverFile.fileName, TRANSFORM_ID)) return undefined;
  const adapter = planServerModule(server, first);
  if (adapter === undefined) return undefined;
  const request = context.importFor(first.specifier, adapter.name);
  const relative = path.relative(path.dirname(context.path), server.path).replaceAll('\\', '/');
  return {
    name: request.local,
    imports: [request],
    takeSites: () => adapter.sites.splice(0),
    requires: { unit: adapter.unit, label: `the adapter set up in ${relative}` },
  };
}
