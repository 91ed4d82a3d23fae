import { ts } from 'ts-morph';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { Site } from '../../analysis/site.js';
import { existingImportLocal, type ImportRequest } from '../../edits/imports.js';
import { indentationAt, isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { hasMarkerAbove, markerText } from '../../edits/markers.js';
import { braces, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import { KEYS_TODO } from '../request-state/sealer-setup.js';
import type { EligibleHandler, Generation } from './eligible-handlers.js';
import { serverOptionsNotes, serverOptionsNotesAbove } from './server-construction.js';
import { serverOptionsEdits } from './server-options.js';
import { sharedAdapter, type SharedAdapter } from './shared-adapter.js';
import { TRANSFORM_ID } from './transform-id.js';

// Once per module: the runtime, whose requestState keys come from the deployment (the marker says
// so, as for the request-state transform's sealer), and the adapter of the SDK the file uses.

const KEYS_REASON =
  'the keys that seal the journal must come from the deployment’s configuration; the codemod cannot choose or store a secret';

export const ADAPTER_MODULE: Readonly<Record<Generation, string>> = {
  v1: '@mcp-mrtr/runtime/sdk-v1',
  v2: '@mcp-mrtr/runtime/sdk-v2',
};

const ADAPTER_CLASS: Readonly<Record<Generation, string>> = { v1: 'SdkV1Adapter', v2: 'SdkV2Adapter' };

const ADAPTER_NAME = 'mrtr';

/** The adapter an earlier run declared: `const mrtr = new SdkV1Adapter(…)`. */
export interface ExistingAdapter {
  readonly name: string;
  readonly statement: ts.VariableStatement;
}

export function existingAdapter(
  sourceFile: ts.SourceFile,
  generation: Generation,
): ExistingAdapter | undefined {
  const adapterClass =
    existingImportLocal(sourceFile, ADAPTER_MODULE[generation], ADAPTER_CLASS[generation]) ??
    ADAPTER_CLASS[generation];
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations[0];
    const init = declaration?.initializer;
    if (
      declaration !== undefined &&
      ts.isIdentifier(declaration.name) &&
      init !== undefined &&
      ts.isNewExpression(init) &&
      ts.isIdentifier(init.expression) &&
      init.expression.text === adapterClass
    )
      return { name: declaration.name.text, statement };
  }
  return undefined;
}

/** The adapter of an earlier run whose keys marker is still there: the deployment still has to set the keys. */
export function pendingAdapterKeysSite(context: FileContext, existing: ExistingAdapter): Site | undefined {
  const statement = existing.statement;
  if (!/\.fromEnv\s*\(/.test(context.textOf(statement))) return undefined;
  const lineStart = lineStartOf(context.text, statement.getStart(context.sourceFile));
  if (!hasMarkerAbove(context.text, lineStart, REQUEST_STATE_RULE_ID)) return undefined;
  return context.manualSite(
    {
      transform: TRANSFORM_ID,
      category: 'request-state',
      kind: 'state-keys',
      node: statement,
      todo: KEYS_TODO,
    },
    KEYS_REASON,
  );
}

/** The server-options notes of an earlier run above its adapter: the server still has to be wrapped. */
export function pendingServerOptionsSites(context: FileContext, existing: ExistingAdapter): Site[] {
  const lineStart = lineStartOf(context.text, existing.statement.getStart(context.sourceFile));
  return serverOptionsNotesAbove(context.text, lineStart).map((todo) =>
    serverOptionsSite(context, existing.statement, todo),
  );
}

function serverOptionsSite(context: FileContext, node: ts.Node, todo: string): Site {
  const site = context.manualSite(
    { transform: TRANSFORM_ID, category: 'request-state', kind: 'server-options', node, todo },
    'the SDK v2 server is not created in this file, so the codemod cannot give it the adapter’s serverOptions()',
  );
  return { ...site, anchor: { kind: 'in-rewrite' } };
}

export interface AdapterSetup {
  /** The adapter's identifier in the file. */
  readonly name: string;
  readonly edits: readonly TextEdit[];
  readonly imports: readonly ImportRequest[];
  /** The keys site, whose marker the inserted code carries. */
  readonly keysSite?: Site;
  /** Servers created elsewhere that need the adapter's serverOptions(); the setup carries their markers. */
  readonly noteSites: readonly Site[];
  /** The adapter is imported from the module creating the server (see shared-adapter.ts). */
  readonly shared?: SharedAdapter;
}

/**
 * The adapter to register through: the one an earlier run declared, or a new one after the
 * imports. For SDK v2 it also wraps the servers created in the file, and notes above the adapter
 * which servers the handlers register on are created elsewhere.
 */
export function planAdapterSetup(
  context: FileContext,
  generation: Generation,
  handlers: readonly EligibleHandler[],
): AdapterSetup | undefined {
  const existing = existingAdapter(context.sourceFile, generation);
  if (existing !== undefined) {
    const statementStart = existing.statement.getStart(context.sourceFile);
    const lineStart = lineStartOf(context.text, statementStart);
    const noted = serverOptionsNotesAbove(context.text, lineStart);
    const notes = serverOptionsNotes(context, handlers, existing.name).filter(
      (note) => !noted.includes(note),
    );
    const indent = indentationAt(context.text, statementStart);
    const edits: TextEdit[] = generation === 'v2' ? serverOptionsEdits(context, existing.name) : [];
    if (notes.length > 0)
      edits.push({
        start: lineStart,
        end: lineStart,
        text: notes
          .map((note) => `${indent}// ${markerText(REQUEST_STATE_RULE_ID, note)}${context.style.newline}`)
          .join(''),
      });
    return {
      name: existing.name,
      edits,
      imports: [],
      noteSites: notes.map((note) => serverOptionsSite(context, existing.statement, note)),
    };
  }
  const shared = generation === 'v2' ? sharedAdapter(context, handlers) : undefined;
  if (shared !== undefined)
    return { name: shared.name, edits: [], imports: shared.imports, noteSites: [], shared };
  const point = moduleSetupPoint(context.sourceFile);
  if (point === undefined) return undefined;
  const style = context.style;
  const name = context.declarationName(ADAPTER_NAME);
  const keyring = context.importFor(RUNTIME_PACKAGE, 'Keyring');
  const runtime = context.importFor(RUNTIME_PACKAGE, 'MrtrRuntime');
  const adapter = context.importFor(ADAPTER_MODULE[generation], ADAPTER_CLASS[generation]);
  const notes = serverOptionsNotes(context, handlers, name);
  const lines = [
    `// ${markerText(REQUEST_STATE_RULE_ID, KEYS_TODO)}`,
    ...notes.map((note) => `// ${markerText(REQUEST_STATE_RULE_ID, note)}`),
    `const ${name} = new ${adapter.local}(new ${runtime.local}(${braces(style, `keyring: ${keyring.local}.fromEnv()`)}))${semicolon(style)}`,
    '',
  ];
  const text = context.text;
  const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1)) ? [''] : [];
  const keys = context.manualSite(
    {
      transform: TRANSFORM_ID,
      category: 'request-state',
      kind: 'state-keys',
      node: point.statement,
      todo: KEYS_TODO,
    },
    KEYS_REASON,
  );
  return {
    name,
    edits: [
      { start: point.offset, end: point.offset, text: [...before, ...lines, ''].join(style.newline) },
      ...(generation === 'v2' ? serverOptionsEdits(context, name) : []),
    ],
    imports: [keyring, runtime, adapter],
    keysSite: { ...keys, anchor: { kind: 'in-rewrite' } },
    noteSites: notes.map((note) => serverOptionsSite(context, point.statement, note)),
  };
}
