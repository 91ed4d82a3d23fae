import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { Site } from '../../analysis/site.js';
import { existingImportLocal, type ImportRequest } from '../../edits/imports.js';
import { isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { hasMarkerAbove, markerText } from '../../edits/markers.js';
import { braces, quoteString, semicolon, type SourceStyle } from '../../edits/source-style.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { servedTransport, type ServedTransport } from '../mrtr-handlers/served-transport.js';
import {
  joinModuleKeys,
  keysAdvice,
  keysReadBy,
  keysReason,
  perProcessKeyWritten,
  THEN_DELETE,
  type KeyringUser,
} from '../shared/state-keys.js';
import { TRANSFORM_ID } from './transform-id.js';

// What sealing needs once per file: a sealer whose keys come from the deployment, and a helper
// that names whom and which request a state is bound to.

/** The keys todo of a sealer whose keys are read as `transport` calls for. */
function keysTodo(transport: ServedTransport): string {
  return [...keysAdvice(transport), THEN_DELETE].join(' ');
}

/** How an earlier run's sealer reads its keys, as far as the `Keyring.fromEnv(…)` it reads shows. */
function transportWritten(keys: string): ServedTransport {
  return perProcessKeyWritten(keys)
    ? { kind: 'stdio-only', where: 'as an earlier run found' }
    : { kind: 'unknown', why: 'an earlier run wrote Keyring.fromEnv() without whenUnset' };
}

const SEALER_NAME = 'requestStateSealer';
const BINDING_NAME = 'requestStateBinding';
const BINDING_PARAMETERS = 4;

/** The sealer and binding helper a file already has (from an earlier run), by name. */
export interface ExistingSetup {
  readonly sealer?: { readonly name: string; readonly statement: ts.VariableStatement };
  readonly binding?: string;
}

export function existingSetup(sourceFile: ts.SourceFile): ExistingSetup {
  const sealerClass =
    existingImportLocal(sourceFile, RUNTIME_PACKAGE, 'RequestStateSealer') ?? 'RequestStateSealer';
  let sealer: ExistingSetup['sealer'];
  let binding: string | undefined;
  for (const statement of sourceFile.statements) {
    if (ts.isVariableStatement(statement) && sealer === undefined) {
      const declaration = statement.declarationList.declarations[0];
      const init = declaration?.initializer;
      if (
        declaration !== undefined &&
        ts.isIdentifier(declaration.name) &&
        init !== undefined &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        init.expression.text === sealerClass
      )
        sealer = { name: declaration.name.text, statement };
    } else if (
      ts.isFunctionDeclaration(statement) &&
      statement.name !== undefined &&
      new RegExp(`^${BINDING_NAME}\\d*$`).test(statement.name.text) &&
      statement.parameters.length === BINDING_PARAMETERS
    ) {
      binding ??= statement.name.text;
    }
  }
  return { ...(sealer && { sealer }), ...(binding !== undefined && { binding }) };
}

/** The names sites use for the sealer and the binding helper: existing ones, or new ones. */
export interface SetupNames {
  readonly sealer: string;
  readonly binding: string;
}

export function setupNames(context: FileContext, existing: ExistingSetup): SetupNames {
  return {
    sealer: existing.sealer?.name ?? context.declarationName(SEALER_NAME),
    binding: existing.binding ?? context.declarationName(BINDING_NAME),
  };
}

/**
 * The sealer an earlier run created, while its marker is still there: the deployment's keys are
 * still to be configured, so the site stays listed until someone deletes the marker.
 */
export function pendingKeysSite(context: FileContext, existing: ExistingSetup): Site | undefined {
  const statement = existing.sealer?.statement;
  const keys = statement === undefined ? undefined : keysReadBy(context, statement);
  if (statement === undefined || keys === undefined) return undefined;
  const lineStart = lineStartOf(context.text, statement.getStart(context.sourceFile));
  if (!hasMarkerAbove(context.text, lineStart, REQUEST_STATE_RULE_ID)) return undefined;
  const transport = transportWritten(keys);
  return context.manualSite(
    {
      transform: TRANSFORM_ID,
      category: 'request-state',
      kind: 'state-keys',
      node: statement,
      todo: keysTodo(transport),
    },
    keysReason(transport),
  );
}

function isTypeScript(sourceFile: ts.SourceFile): boolean {
  return !/\.[cm]?jsx?$/.test(sourceFile.fileName);
}

/** The binding helper's source, in the file's style. */
function bindingHelper(style: SourceStyle, name: string, principal: string, typed: boolean): string[] {
  const q = (value: string) => quoteString(style, value);
  const s = semicolon(style);
  const i = style.indentUnit;
  const nl = style.newline;
  const methods = ['tools/call', 'prompts/get', 'resources/read'].map(q).join(' | ');
  const parameters = typed
    ? `(${nl}${i}auth: ${braces(style, 'clientId?: string; extra?: Record<string, unknown>')} | undefined,${nl}${i}method: ${methods},${nl}${i}target: string,${nl}${i}args?: object,${nl})`
    : '(auth, method, target, args)';
  return [
    '/**',
    ' * Whom and which request a sealed requestState belongs to: the caller, from verified auth (the',
    ' * token’s sub, else the OAuth client; without auth the state is bound to the request alone), and',
    ' * the request, whose arguments may carry the round-trip fields inputResponses and requestState.',
    ' */',
    `function ${name}${parameters} {`,
    `${i}const bound = Object.entries(args ?? {}).filter(`,
    `${i}${i}([key]) => key !== ${q('inputResponses')} && key !== ${q('requestState')},`,
    `${i})${s}`,
    `${i}return {`,
    `${i}${i}principal: ${principal}(auth),`,
    `${i}${i}request: ${braces(style, 'method, target, arguments: Object.fromEntries(bound)')},`,
    `${i}}${s}`,
    '}',
  ];
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The setup a file needs before its state can be sealed: the sealer (keys from the environment,
 * with the marker that says what the deployment must provide) and the binding helper, inserted
 * after the imports; plus the manual site for the keys. Undefined when the file has both. A server
 * the run shows is served over stdio only seals on a per-process key while the keys are unset; a
 * module whose handlers also run on the runtime reads the keys once for both (shared/state-keys.ts).
 */
export function planSetup(
  context: FileContext,
  existing: ExistingSetup,
  names: SetupNames,
): Site[] | undefined {
  if (existing.sealer !== undefined && existing.binding !== undefined) return [];
  const point = moduleSetupPoint(context.sourceFile);
  if (point === undefined) return undefined;
  const style = context.style;
  const principal = context.importFor(RUNTIME_PACKAGE, 'principalFromAuth');
  const bindingImports = existing.binding === undefined ? [principal] : [];
  const text = context.text;
  const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1)) ? [''] : [];
  const insertion = (sealerLines: readonly string[]): TextEdit => {
    const lines = [...before, ...sealerLines];
    if (existing.binding === undefined)
      lines.push(
        ...bindingHelper(style, names.binding, principal.local, isTypeScript(context.sourceFile)),
        '',
      );
    return { start: point.offset, end: point.offset, text: [...lines, ''].join(style.newline) };
  };
  const base = { transform: TRANSFORM_ID, category: 'request-state', node: point.statement } as const;
  const todo = 'Create a RequestStateSealer and bind each state to its principal and request.';
  if (existing.sealer !== undefined) {
    const edits = [insertion([])];
    return [
      context.rewriteSite({ ...base, kind: 'sealer-setup', todo }, edits, {
        imports: bindingImports,
        packages: [RUNTIME_PACKAGE],
      }),
    ];
  }
  const sealer = context.importFor(RUNTIME_PACKAGE, 'RequestStateSealer');
  const sealerLines = (keyring: string, transport: ServedTransport) => [
    `// ${markerText(REQUEST_STATE_RULE_ID, keysTodo(transport))}`,
    `const ${names.sealer} = new ${sealer.local}(${braces(style, `keyring: ${keyring}`)})${semicolon(style)}`,
    '',
  ];
  const transport = servedTransport(context);
  const keys: Writable<Site> = {
    ...context.manualSite({ ...base, kind: 'state-keys', todo: keysTodo(transport) }, keysReason(transport)),
    anchor: { kind: 'in-rewrite' },
  };
  const edits: TextEdit[] = [];
  const imports: ImportRequest[] = [];
  let written: TextEdit | undefined;
  const write = (keyring: string, readAs: ServedTransport) => {
    const edit = insertion(sealerLines(keyring, readAs));
    if (written === undefined) edits.push(edit);
    else edits[edits.indexOf(written)] = edit;
    written = edit;
    keys.todo = keysTodo(readAs);
    keys.reason = keysReason(readAs);
  };
  const user: KeyringUser = { kind: 'sealer', transport, edits, imports, render: write };
  const joined = joinModuleKeys(context, user);
  write(joined.keyring, joined.transport);
  imports.push(sealer, ...bindingImports);
  const setup = context.rewriteSite({ ...base, kind: 'sealer-setup', todo }, edits, {
    imports,
    packages: [RUNTIME_PACKAGE],
  });
  return [setup, keys];
}
