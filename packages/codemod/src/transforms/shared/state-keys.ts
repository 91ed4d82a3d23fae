import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import { isBlankLine, lineStartOf } from '../../edits/line-ranges.js';
import { moduleSetupPoint } from '../../edits/module-setup-point.js';
import { braces, quoteString, semicolon, type SourceStyle } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { ServedTransport } from '../mrtr-handlers/served-transport.js';

// Where the code migrate writes reads the requestState keys from: `Keyring.fromEnv()`, which never
// throws at import. Unset keys fail the first sealed round, the safe branch wherever a retry may
// reach another process; a server the run shows is served over stdio only (one process per client)
// seals on a random key per process instead, saying so on stderr. A module that both seals state
// by hand (request-state) and runs handlers on the runtime (mrtr-handlers) reads the keys once: a
// second per-process key would be a second secret and a second line on stderr.

/** The variable `Keyring.fromEnv()` reads by default (the runtime's `DEFAULT_KEYS_VARIABLE`). */
export const KEYS_VARIABLE = 'MCP_MRTR_STATE_KEYS';

/** What to do about the keys, without the closing "Then delete this comment.". */
export const KEYS_ADVICE = `Give every instance that may handle a retry the same requestState keys: set ${KEYS_VARIABLE} to "id:base64secret" entries, current key first (generate a secret with: node -e "console.log(require('node:crypto').randomBytes(32).toString('base64url'))"), or load them from your secret manager with Keyring.fromProvider.`;

const STDIO_KEYS_ADVICE = `Served over stdio only, so while ${KEYS_VARIABLE} is unset each process seals with a random key of its own and says so on stderr. If it is ever served over HTTP, or a retry may reach another process, set ${KEYS_VARIABLE} on every instance and drop whenUnset (docs/runtime.md).`;

const FAIL_CLOSED = 'Until then the first round that seals state fails, saying how to set them.';

export const THEN_DELETE = 'Then delete this comment.';

/** What the keys marker says to do, without the closing "Then delete this comment.". */
export function keysAdvice(transport: ServedTransport): string[] {
  return transport.kind === 'stdio-only' ? [STDIO_KEYS_ADVICE] : [KEYS_ADVICE, FAIL_CLOSED];
}

/** Why the keys are the deployment's to set, and what the codemod assumed about the transport. */
export function keysReason(transport: ServedTransport): string {
  return transport.kind === 'stdio-only'
    ? `assumed served over stdio only (${transport.where}, no other transport in the run), so a per-process key works until the deployment sets its own; the codemod cannot choose or store a shared secret`
    : `assumed it may be served over HTTP or by several instances (${transport.why}), so the keys must come from the deployment’s configuration; the codemod cannot choose or store a secret`;
}

/**
 * `Keyring.fromEnv(…)` for the transport, with `keyring` the local name of the runtime's Keyring,
 * written in the file's own quotes and braces.
 */
export function keyringFromEnv(keyring: string, transport: ServedTransport, style: SourceStyle): string {
  const options =
    transport.kind === 'stdio-only'
      ? braces(style, `whenUnset: ${quoteString(style, 'per-process-key')}`)
      : '';
  return `${keyring}.fromEnv(${options})`;
}

/** Whether keys an earlier run wrote (`Keyring.fromEnv(…)`) are a per-process key while unset. */
export function perProcessKeyWritten(keys: string): boolean {
  return /whenUnset/.test(keys);
}

const FROM_ENV = /\.fromEnv\s*\(/;

/**
 * The `Keyring.fromEnv(…)` a sealer or adapter declaration of an earlier run reads its keys from:
 * in the declaration itself, or in the module's `const requestStateKeys = Keyring.fromEnv(…)` its
 * `keyring:` names. Undefined when it reads them some other way (the deployment's own code).
 */
export function keysReadBy(context: FileContext, statement: ts.Statement): string | undefined {
  const text = context.textOf(statement);
  if (FROM_ENV.test(text)) return text;
  const named = /\bkeyring\s*:\s*([A-Za-z_$][\w$]*)\s*[,}]/.exec(text)?.[1];
  if (named === undefined) return undefined;
  for (const each of context.sourceFile.statements) {
    if (!ts.isVariableStatement(each)) continue;
    for (const declaration of each.declarationList.declarations) {
      const init = declaration.initializer;
      if (ts.isIdentifier(declaration.name) && declaration.name.text === named && init !== undefined)
        return FROM_ENV.test(context.textOf(init)) ? context.textOf(init) : undefined;
    }
  }
  return undefined;
}

/** Code of this run that reads the keys: the request-state sealer, or an adapter's runtime. */
export interface KeyringUser {
  readonly kind: 'sealer' | 'runtime';
  readonly transport: ServedTransport;
  /**
   * Its edits and imports, held by its site: the shared declaration joins them, first, when a user
   * of the other kind joins the module.
   */
  readonly edits: TextEdit[];
  readonly imports: ImportRequest[];
  /** Writes its code again to read the keys from `keyring`, under the keys advice of `transport`. */
  render(keyring: string, transport: ServedTransport): void;
}

/** The keys of one module: inline in the first user's code until a user of the other kind joins. */
interface ModuleKeys {
  readonly users: KeyringUser[];
  shared?: { readonly name: string; readonly edit: TextEdit; readonly transport: ServedTransport };
}

const modules = new WeakMap<FileContext, ModuleKeys>();

/** Stdio only when every user is: a per-process key shared with code that takes the deployment's keys would not do. */
function sharedTransport(users: readonly KeyringUser[]): ServedTransport {
  return users.find((user) => user.transport.kind !== 'stdio-only')?.transport ?? users[0]!.transport;
}

/**
 * Where `user` reads the keys from: `Keyring.fromEnv(…)` while it is the module's only kind of
 * user, else a `const requestStateKeys = Keyring.fromEnv(…)` declared once after the imports,
 * which the users that joined before are rewritten to read too. Returns the expression and the
 * transport whose advice the user's marker gives.
 */
export function joinModuleKeys(
  context: FileContext,
  user: KeyringUser,
): { readonly keyring: string; readonly transport: ServedTransport } {
  let keys = modules.get(context);
  if (keys === undefined) modules.set(context, (keys = { users: [] }));
  keys.users.push(user);
  const keyring = context.importFor(RUNTIME_PACKAGE, 'Keyring');
  user.imports.push(keyring);
  const point = moduleSetupPoint(context.sourceFile);
  const together = new Set(keys.users.map((each) => each.kind)).size > 1;
  if (!together || point === undefined)
    return {
      keyring: keyringFromEnv(keyring.local, user.transport, context.style),
      transport: user.transport,
    };
  const transport = sharedTransport(keys.users);
  const earlier = keys.shared;
  if (earlier !== undefined && earlier.transport.kind === transport.kind) {
    user.edits.unshift(earlier.edit);
    return { keyring: earlier.name, transport: earlier.transport };
  }
  const name = earlier?.name ?? context.declarationName('requestStateKeys');
  const text = context.text;
  const before = point.offset > 0 && !isBlankLine(text, lineStartOf(text, point.offset - 1));
  const declaration = `const ${name} = ${keyringFromEnv(keyring.local, transport, context.style)}${semicolon(context.style)}`;
  const edit = {
    start: point.offset,
    end: point.offset,
    text: `${before ? context.style.newline : ''}${declaration}${context.style.newline}${context.style.newline}`,
  };
  keys.shared = { name, edit, transport };
  // The users so far read the declaration (this one, or an earlier one it replaces) and give its advice.
  for (const each of keys.users) {
    const at = earlier === undefined ? -1 : each.edits.indexOf(earlier.edit);
    if (at === -1) each.edits.unshift(edit);
    else each.edits[at] = edit;
    if (each !== user) each.render(name, transport);
  }
  return { keyring: name, transport };
}
