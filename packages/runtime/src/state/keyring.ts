import { hkdfSync, randomBytes } from 'node:crypto';
import { RuntimeConfigError } from '../errors.js';

/** Shortest key the runtime accepts: 256 bits, as for AES-256 and HMAC-SHA256. */
export const MIN_KEY_BYTES = 32;

export const DEFAULT_KEYS_VARIABLE = 'MCP_MRTR_STATE_KEYS';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const GENERATE_HINT =
  "generate one with: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64url'))\"";

/** One key as configured: an id that travels in every token, and the secret bytes. */
export interface StateKey {
  readonly id: string;
  readonly secret: Uint8Array;
}

/** The key that seals new tokens, and older keys that still open in-flight tokens. */
export interface KeyringSpec {
  readonly current: StateKey;
  readonly previous?: readonly StateKey[];
}

/** Sub-keys derived from one configured key, one per purpose, so no key is used twice. */
export interface DerivedKeys {
  readonly id: string;
  readonly aead: Buffer;
  readonly mac: Buffer;
  readonly binding: Buffer;
}

function derive(key: StateKey): DerivedKeys {
  const subKey = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', key.secret, Buffer.alloc(0), `mcp-mrtr requestState ${purpose} v1`, 32));
  return { id: key.id, aead: subKey('aes-256-gcm'), mac: subKey('hmac-sha256'), binding: subKey('binding') };
}

function checkKey(key: StateKey, source: string): void {
  if (!KEY_ID.test(key.id)) {
    throw new RuntimeConfigError(
      `${source}: key id ${JSON.stringify(key.id)} must be 1-32 characters of A-Z, a-z, 0-9, "_" or "-".`,
    );
  }
  if (key.secret.byteLength < MIN_KEY_BYTES) {
    throw new RuntimeConfigError(
      `${source}: key "${key.id}" is ${key.secret.byteLength} bytes; requestState keys need at least ${MIN_KEY_BYTES} random bytes (${GENERATE_HINT}).`,
    );
  }
}

/** What `Keyring.fromEnv` does when the variable is unset or empty. */
export type WhenKeysUnset =
  /**
   * Fail closed: the first round that seals or opens a requestState throws a
   * `RuntimeConfigError` saying how to set the keys. The safe choice wherever a retry may reach
   * another process (HTTP, several instances) or the transport is not known.
   */
  | 'fail'
  /**
   * Seal with a random key made for this process at first use, and say so in one line on
   * stderr. Only for a server whose every round reaches the same process: a stdio server, one
   * process per client. Its tokens die with the process.
   */
  | 'per-process-key';

export interface KeyringEnvOptions {
  /** Default `MCP_MRTR_STATE_KEYS`. */
  readonly variable?: string;
  /** Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default `'fail'`. */
  readonly whenUnset?: WhenKeysUnset;
}

interface Ring {
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, DerivedKeys>;
}

function ringOf(spec: KeyringSpec, source: string): Ring {
  const keys = new Map<string, DerivedKeys>();
  for (const key of [spec.current, ...(spec.previous ?? [])]) {
    checkKey(key, source);
    if (keys.has(key.id)) throw new RuntimeConfigError(`${source}: key id "${key.id}" appears twice.`);
    keys.set(key.id, derive(key));
  }
  return { currentId: spec.current.id, keys };
}

/** Parses `id:base64secret` entries, or returns undefined when the variable is unset or blank. */
function specFromEnv(variable: string, env: NodeJS.ProcessEnv): KeyringSpec | undefined {
  const value = env[variable]?.trim();
  if (!value) return undefined;
  const [current, ...previous] = value.split(/[\s,]+/).map((entry, index): StateKey => {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const encoded = entry.slice(separator + 1);
    if (separator <= 0 || !BASE64.test(encoded)) {
      throw new RuntimeConfigError(
        `${variable}: entry ${index + 1} must look like "id:base64secret" (${GENERATE_HINT}).`,
      );
    }
    return { id, secret: Buffer.from(encoded, 'base64') };
  });
  if (!current) throw new RuntimeConfigError(`${variable} holds no key.`);
  return { current, previous };
}

function unsetKeys(variable: string): RuntimeConfigError {
  return new RuntimeConfigError(
    `${variable} is not set, so requestState cannot be sealed or opened. Set it to "id:base64secret" entries, current key first, the same on every instance (${GENERATE_HINT}). A stdio server, one process per client, may use Keyring.fromEnv({ whenUnset: 'per-process-key' }) instead.`,
  );
}

function perProcessKey(variable: string): KeyringSpec {
  process.stderr.write(
    `mcp-mrtr: ${variable} is not set; requestState is sealed with a random key of this process, which suits a stdio server only. For HTTP or several instances set ${variable} to "id:base64secret" entries (${GENERATE_HINT}).\n`,
  );
  return { current: { id: 'process', secret: randomBytes(MIN_KEY_BYTES) } };
}

/**
 * The keys requestState is sealed and opened with. New tokens are sealed with the current key;
 * tokens carry the key id, so tokens sealed with a previous key still open until that key is
 * removed from the ring (retired). Every instance that may see a retry must hold the same ring.
 *
 * Keys given as a spec are checked at construction. Keys given as a function are read and
 * checked at first use, the first round that seals or opens a state: a failure then is that
 * round's error, and the next use reads them again.
 */
export class Keyring {
  private ring: Ring | undefined;
  private readonly load: () => Ring;

  constructor(spec: KeyringSpec | (() => KeyringSpec), source = 'requestState keyring') {
    if (typeof spec === 'function') {
      this.load = () => ringOf(spec(), source);
    } else {
      const ring = ringOf(spec, source);
      this.load = () => ring;
    }
  }

  /**
   * Reads `id:base64secret` entries, separated by commas or whitespace, the current key first:
   * `MCP_MRTR_STATE_KEYS="k2:…,k1:…"`. Never throws here: the variable is read at first use, where
   * a malformed or short key, or an unset variable under `whenUnset: 'fail'` (the default), fails
   * that round with a `RuntimeConfigError`. `whenUnset: 'per-process-key'` is for stdio servers.
   */
  static fromEnv(options?: KeyringEnvOptions): Keyring;
  static fromEnv(variable?: string, env?: NodeJS.ProcessEnv): Keyring;
  static fromEnv(first?: KeyringEnvOptions | string, secondEnv?: NodeJS.ProcessEnv): Keyring {
    const options: KeyringEnvOptions =
      typeof first === 'object' ? first : { variable: first, env: secondEnv };
    const variable = options.variable ?? DEFAULT_KEYS_VARIABLE;
    const env = options.env ?? process.env;
    const whenUnset = options.whenUnset ?? 'fail';
    return new Keyring(() => {
      const spec = specFromEnv(variable, env);
      if (spec) return spec;
      // Anything but an explicit per-process key fails closed.
      if (whenUnset === 'per-process-key') return perProcessKey(variable);
      throw unsetKeys(variable);
    }, variable);
  }

  /** Loads keys from a provider, e.g. a secret manager, once at startup. */
  static async fromProvider(provider: () => KeyringSpec | Promise<KeyringSpec>): Promise<Keyring> {
    return new Keyring(await provider(), 'requestState key provider');
  }

  /** The id new tokens are sealed under. Reads the keys if not read yet. */
  get currentId(): string {
    return this.keys().currentId;
  }

  get current(): DerivedKeys {
    const { currentId, keys } = this.keys();
    const key = keys.get(currentId);
    if (!key) throw new RuntimeConfigError('The current requestState key is missing from the keyring.');
    return key;
  }

  /** The keys for a token's key id, or undefined when the id is unknown or retired. */
  get(id: string): DerivedKeys | undefined {
    return this.keys().keys.get(id);
  }

  private keys(): Ring {
    return (this.ring ??= this.load());
  }
}

/** A fresh random key secret, base64url, for configuration. */
export function generateStateKeySecret(): string {
  return randomBytes(MIN_KEY_BYTES).toString('base64url');
}
