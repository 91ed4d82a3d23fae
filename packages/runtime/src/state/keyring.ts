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

/**
 * The keys requestState is sealed and opened with. New tokens are sealed with the current key;
 * tokens carry the key id, so tokens sealed with a previous key still open until that key is
 * removed from the ring (retired). Every instance that may see a retry must hold the same ring.
 */
export class Keyring {
  readonly currentId: string;
  private readonly keys: ReadonlyMap<string, DerivedKeys>;

  constructor(spec: KeyringSpec, source = 'requestState keyring') {
    const all = [spec.current, ...(spec.previous ?? [])];
    const keys = new Map<string, DerivedKeys>();
    for (const key of all) {
      checkKey(key, source);
      if (keys.has(key.id)) throw new RuntimeConfigError(`${source}: key id "${key.id}" appears twice.`);
      keys.set(key.id, derive(key));
    }
    this.currentId = spec.current.id;
    this.keys = keys;
  }

  /**
   * Reads `id:base64secret` entries, separated by commas or whitespace, the current key first:
   * `MCP_MRTR_STATE_KEYS="k2:…,k1:…"`. A missing, malformed or short key is a startup error.
   */
  static fromEnv(variable = DEFAULT_KEYS_VARIABLE, env: NodeJS.ProcessEnv = process.env): Keyring {
    const value = env[variable]?.trim();
    if (!value) {
      throw new RuntimeConfigError(
        `Set ${variable} to the requestState keys as "id:base64secret", current key first (${GENERATE_HINT}).`,
      );
    }
    const keys = value.split(/[\s,]+/).map((entry, index): StateKey => {
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
    const [current, ...previous] = keys;
    if (!current) throw new RuntimeConfigError(`${variable} holds no key.`);
    return new Keyring({ current, previous }, variable);
  }

  /** Loads keys from a provider, e.g. a secret manager, once at startup. */
  static async fromProvider(provider: () => KeyringSpec | Promise<KeyringSpec>): Promise<Keyring> {
    return new Keyring(await provider(), 'requestState key provider');
  }

  get current(): DerivedKeys {
    const key = this.keys.get(this.currentId);
    if (!key) throw new RuntimeConfigError('The current requestState key is missing from the keyring.');
    return key;
  }

  /** The keys for a token's key id, or undefined when the id is unknown or retired. */
  get(id: string): DerivedKeys | undefined {
    return this.keys.get(id);
  }
}

/** A fresh random key secret, base64url, for configuration. */
export function generateStateKeySecret(): string {
  return randomBytes(MIN_KEY_BYTES).toString('base64url');
}
