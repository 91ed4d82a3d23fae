import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { Site } from '../../analysis/site.js';
import { existingImportLocal, type ImportRequest } from '../../edits/imports.js';
import { indentationAt, isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { hasMarkerAbove, markerText } from '../../edits/markers.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import { earlierSingleUse, hasSingleUse } from './earlier-single-use.js';
import type { EligibleHandler, Generation } from './eligible-handlers.js';
import { ownAdapterReason, serverOptionsNotes, serverOptionsNotesAbove } from './server-construction.js';
import { serverOptionsEdits } from './server-options.js';
import {
  ADAPTER_CLASS,
  ADAPTER_MODULE,
  adapterDeclaration,
  choiceWritten,
  deploymentReason,
  deploymentTodo,
} from './runtime-construction.js';
import { servedTransport, type ServedTransport } from './served-transport.js';
import { ownServerAdapter, sharedAdapter, type SharedAdapter } from './shared-adapter.js';
import { joinModuleKeys, keysReadBy, type KeyringUser } from '../shared/state-keys.js';
import { TRANSFORM_ID } from './transform-id.js';

// Once per module, or once per server when another module creates it (shared-adapter.ts): the
// adapter of the SDK the file uses, on a runtime whose keys and single use the deployment may
// have to configure (runtime-construction.ts; the marker says what).

export { ADAPTER_MODULE };

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
  const keys = keysReadBy(context, statement);
  if (keys === undefined) return undefined;
  const lineStart = lineStartOf(context.text, statement.getStart(context.sourceFile));
  if (!hasMarkerAbove(context.text, lineStart, REQUEST_STATE_RULE_ID)) return undefined;
  const choice = choiceWritten(context.textOf(statement), keys, servedTransport(context));
  return context.manualSite(
    {
      transform: TRANSFORM_ID,
      category: 'request-state',
      kind: 'state-keys',
      node: statement,
      todo: deploymentTodo(choice),
    },
    deploymentReason(choice.transport),
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

/** What the setup writes, once the file's rewrites say whether they journal steps. */
export interface FinishedSetup {
  readonly edits: readonly TextEdit[];
  readonly imports: readonly ImportRequest[];
  /**
   * The keys site, whose marker the inserted code carries, and the servers created elsewhere that
   * need the adapter's serverOptions(), whose markers the setup carries too; or the sites of the
   * module the adapter is shared from.
   */
  readonly sites: readonly Site[];
}

export interface AdapterSetup {
  /** The adapter's identifier in the file. */
  readonly name: string;
  /** The setup, on a runtime with single use when `singleUse` (a rewrite journals a step). */
  finish(singleUse: boolean): FinishedSetup;
  /** The adapter is imported from the module creating the server (see shared-adapter.ts). */
  readonly shared?: SharedAdapter;
}

/**
 * The adapter to register through: the one an earlier run declared (given single use when this
 * run's handlers journal steps), one shared from the module
 * creating the server, or a new one after the imports. For SDK v2 it also wraps the servers
 * created in the file, and notes above the adapter which servers the handlers register on are
 * created elsewhere.
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
    const sites = notes.map((note) => serverOptionsSite(context, existing.statement, note));
    return {
      name: existing.name,
      finish: (singleUse) => {
        if (!singleUse || hasSingleUse(context, existing)) return { edits, imports: [], sites };
        const added = earlierSingleUse(context, existing);
        return {
          edits: [...edits, ...added.edits],
          imports: added.imports,
          sites: [...sites, ...added.sites],
        };
      },
    };
  }
  const shared = sharedAdapter(context, generation, handlers);
  if (shared !== undefined)
    return {
      name: shared.name,
      finish: (singleUse) => ({ edits: [], imports: shared.imports, sites: shared.take(singleUse) }),
      shared,
    };
  const beside = ownServerAdapter(context, generation, handlers);
  if (beside !== undefined)
    return {
      name: beside.name,
      finish: (singleUse) => ({ edits: [], imports: [], sites: beside.take(singleUse) }),
    };
  const point = moduleSetupPoint(context.sourceFile);
  if (point === undefined) return undefined;
  const name = context.declarationName(ADAPTER_NAME);
  const notes = serverOptionsNotes(context, handlers, name);
  // A per-process key belongs to one keyring: the adapter whose serverOptions() verify the SDK v2
  // server's retries elsewhere would not open what this one seals.
  const served = servedTransport(context);
  const transport: ServedTransport =
    served.kind === 'stdio-only' && notes.length > 0
      ? {
          kind: 'unknown',
          why: `served over stdio only (${served.where}), but the SDK v2 server these handlers register on verifies retries with another adapter's keys`,
        }
      : served;
  return {
    name,
    finish: (singleUse) => {
      // Its edits are the site's once returned: it reads the keys the module's sealer reads, if
      // any, but is not written again for a user joining later (one more adapter of the module).
      const user: KeyringUser = {
        kind: 'runtime',
        transport,
        edits: [],
        imports: [],
        render: () => undefined,
      };
      const joined = joinModuleKeys(context, user);
      const choice = { transport: joined.transport, singleUse };
      const declaration = adapterDeclaration(context, generation, name, choice, joined.keyring, false, notes);
      const text = context.text;
      const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1)) ? [''] : [];
      const keys = context.manualSite(
        {
          transform: TRANSFORM_ID,
          category: 'request-state',
          kind: 'state-keys',
          node: point.statement,
          todo: deploymentTodo(choice),
        },
        deploymentReason(joined.transport, ownAdapterReason(context, handlers)),
      );
      const lines = [...before, ...declaration.lines, '', ''];
      return {
        edits: [
          ...user.edits,
          { start: point.offset, end: point.offset, text: lines.join(context.style.newline) },
          ...(generation === 'v2' ? serverOptionsEdits(context, name) : []),
        ],
        imports: [...user.imports, ...declaration.imports],
        sites: [
          { ...keys, anchor: { kind: 'in-rewrite' } },
          ...notes.map((note) => serverOptionsSite(context, point.statement, note)),
        ],
      };
    },
  };
}
