import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { Site } from '../../analysis/site.js';
import { existingImportLocal } from '../../edits/imports.js';
import { isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { hasMarkerAbove, markerText } from '../../edits/markers.js';
import { braces, quoteString, semicolon, type SourceStyle } from '../../edits/source-style.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import { TRANSFORM_ID } from './transform-id.js';

// What sealing needs once per file: a sealer whose keys come from the deployment, and a helper
// that names whom and which request a state is bound to.

/** The variable `Keyring.fromEnv()` reads by default (the runtime's `DEFAULT_KEYS_VARIABLE`). */
export const KEYS_VARIABLE = 'MCP_MRTR_STATE_KEYS';

/** What to do about the keys, without the closing "Then delete this comment.". */
export const KEYS_ADVICE = `Give every instance that may handle a retry the same requestState keys: set ${KEYS_VARIABLE} to "id:base64secret" entries, current key first (generate a secret with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"), or load them from your secret manager with Keyring.fromProvider.`;

export const KEYS_TODO = `${KEYS_ADVICE} Then delete this comment.`;

const KEYS_REASON =
  'the keys must come from the deployment’s configuration; the codemod cannot choose or store a secret';

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
  if (statement === undefined || !/\.fromEnv\s*\(/.test(context.textOf(statement))) return undefined;
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

/**
 * The setup a file needs before its state can be sealed: the sealer (keys from the environment,
 * with the marker that says the deployment must provide them) and the binding helper, inserted
 * after the imports; plus the manual site for the keys. Undefined when the file has both.
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
  const lines: string[] = [];
  const imports = [];
  if (existing.sealer === undefined) {
    const keyring = context.importFor(RUNTIME_PACKAGE, 'Keyring');
    const sealer = context.importFor(RUNTIME_PACKAGE, 'RequestStateSealer');
    imports.push(keyring, sealer);
    lines.push(
      `// ${markerText(REQUEST_STATE_RULE_ID, KEYS_TODO)}`,
      `const ${names.sealer} = new ${sealer.local}(${braces(style, `keyring: ${keyring.local}.fromEnv()`)})${semicolon(style)}`,
      '',
    );
  }
  if (existing.binding === undefined) {
    const principal = context.importFor(RUNTIME_PACKAGE, 'principalFromAuth');
    imports.push(principal);
    lines.push(...bindingHelper(style, names.binding, principal.local, isTypeScript(context.sourceFile)), '');
  }
  const text = context.text;
  const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1)) ? [''] : [];
  const insertion = [...before, ...lines, ''].join(style.newline);
  const base = { transform: TRANSFORM_ID, category: 'request-state', node: point.statement } as const;
  const setup = context.rewriteSite(
    {
      ...base,
      kind: 'sealer-setup',
      todo: 'Create a RequestStateSealer and bind each state to its principal and request.',
    },
    [{ start: point.offset, end: point.offset, text: insertion }],
    { imports, packages: [RUNTIME_PACKAGE] },
  );
  if (existing.sealer !== undefined) return [setup];
  const keys = context.manualSite({ ...base, kind: 'state-keys', todo: KEYS_TODO }, KEYS_REASON);
  return [setup, { ...keys, anchor: { kind: 'in-rewrite' } }];
}
