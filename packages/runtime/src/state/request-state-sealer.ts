import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { SensitiveNameOptions } from '@mcp-mrtr/core';
import { MrtrUsageError, RequestStateError, RuntimeConfigError } from '../errors.js';
import type { DerivedKeys, Keyring } from './keyring.js';
import type { RedemptionStore } from './redemption-store.js';
import { requestDigest, type RequestIdentity } from './request-identity.js';
import { findSecretNames } from './secret-names.js';

export type SealingAlgorithm = 'aes-256-gcm' | 'hmac-sha256';

export interface RequestStateSealerOptions {
  readonly keyring: Keyring;
  /**
   * `aes-256-gcm` (default) encrypts and authenticates: the client cannot read the state.
   * `hmac-sha256` only authenticates: the state is readable base64url JSON.
   */
  readonly algorithm?: SealingAlgorithm;
  /** How long a sealed state stays valid. Default 300 s. */
  readonly ttlSeconds?: number;
  /** When set, each token opens at most once (at-most-once redemption). */
  readonly singleUse?: RedemptionStore;
  /**
   * Sealing a value with a secret-named property (`password`, `apiKey`, `accessToken`, …) is
   * refused unless this is `'allow'`: secrets stay on the server, even encrypted.
   */
  readonly secretNames?: 'refuse' | 'allow';
  /** Tunes the secret-name classifier, e.g. `{ allow: ['token budget'] }`. */
  readonly sensitiveNames?: SensitiveNameOptions;
  /** Largest JSON a state may serialize to. Default 16 KiB: it travels on every round. */
  readonly maxStateBytes?: number;
  readonly now?: () => number;
}

/** Whom and what a token is sealed for; opening checks both. */
export interface RequestStateBinding {
  /** The authenticated principal, from verified auth, never from anything the client declares. */
  readonly principal: string;
  readonly request: RequestIdentity;
}

const VERSION = 'm1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PRINCIPAL_TAG_BYTES = 16;
/** Far above any state this runtime seals (16 KiB of JSON, encoded); refuse without parsing. */
const MAX_TOKEN_LENGTH = 65_536;
const B64URL = /^[A-Za-z0-9_-]*$/;

interface Payload {
  /** Expiry, ms since the epoch. */
  readonly e: number;
  /** Principal tag. */
  readonly p: string;
  /** Request digest. */
  readonly r: string;
  /** The sealed value. */
  readonly v: unknown;
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    typeof fields.e === 'number' &&
    typeof fields.p === 'string' &&
    typeof fields.r === 'string' &&
    'v' in fields
  );
}

/** Decodes canonical base64url only: a lenient decoder would let two spellings open alike. */
function decode(part: string | undefined): Buffer | undefined {
  if (part === undefined || !B64URL.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

function fail(reason: RequestStateError['reason'], detail: string): never {
  throw new RequestStateError(reason, detail);
}

/**
 * Seals handler state into an opaque requestState and opens it on the next round. Tokens are
 * `m1.<alg>.<keyId>.…`: version, algorithm and key id are authenticated with the payload. The
 * payload binds an expiry, a keyed tag of the principal and a digest of the request.
 */
export class RequestStateSealer {
  readonly algorithm: SealingAlgorithm;
  readonly ttlMs: number;
  private readonly keyring: Keyring;
  private readonly singleUse: RedemptionStore | undefined;
  private readonly options: RequestStateSealerOptions;
  private readonly now: () => number;

  constructor(options: RequestStateSealerOptions) {
    const ttlSeconds = options.ttlSeconds ?? 300;
    if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
      throw new RuntimeConfigError(`ttlSeconds must be a positive number of seconds, not ${ttlSeconds}.`);
    }
    this.algorithm = options.algorithm ?? 'aes-256-gcm';
    if (this.algorithm !== 'aes-256-gcm' && this.algorithm !== 'hmac-sha256') {
      throw new RuntimeConfigError(`Unknown requestState algorithm ${JSON.stringify(this.algorithm)}.`);
    }
    this.ttlMs = ttlSeconds * 1000;
    this.keyring = options.keyring;
    this.singleUse = options.singleUse;
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  /** Seals a JSON value for one principal and request. Throws on secret names or oversize state. */
  seal(value: unknown, binding: RequestStateBinding): string {
    if (this.options.secretNames !== 'allow') {
      const hits = findSecretNames(value, this.options.sensitiveNames);
      if (hits.length > 0) {
        throw new MrtrUsageError(
          `Refusing to seal requestState with secret-named properties (${hits.map((hit) => `${hit.path}: ${hit.match.kind}`).join(', ')}): keep secrets on the server and store a reference, or pass secretNames: 'allow' if these are not secrets.`,
        );
      }
    }
    const json = JSON.stringify({
      e: this.now() + this.ttlMs,
      p: this.principalTag(this.keyring.current, binding.principal),
      r: requestDigest(binding.request),
      v: value,
    } satisfies Payload);
    const limit = this.options.maxStateBytes ?? 16_384;
    if (Buffer.byteLength(json) > limit) {
      throw new MrtrUsageError(
        `requestState would be ${Buffer.byteLength(json)} bytes of JSON, over the ${limit}-byte limit; carry ids, not data.`,
      );
    }
    const keys = this.keyring.current;
    const plain = Buffer.from(json);
    if (this.algorithm === 'aes-256-gcm') {
      const header = `${VERSION}.g.${keys.id}`;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keys.aead, iv);
      cipher.setAAD(Buffer.from(header));
      const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return `${header}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    }
    const signed = `${VERSION}.h.${keys.id}.${plain.toString('base64url')}`;
    return `${signed}.${createHmac('sha256', keys.mac).update(signed).digest('base64url')}`;
  }

  /**
   * Opens a token for a principal and request. Throws {@link RequestStateError} with the reason
   * when the token is malformed, forged or altered, expired, sealed for someone or something else,
   * sealed with a retired key, or (single use) already redeemed.
   */
  async open<T = unknown>(token: unknown, binding: RequestStateBinding): Promise<T> {
    if (typeof token !== 'string') fail('malformed', `requestState is ${typeof token}, not a string`);
    if (token.length > MAX_TOKEN_LENGTH) fail('malformed', `requestState is ${token.length} characters long`);
    const parts = token.split('.');
    const [version, letter, keyId] = parts;
    const expected = this.algorithm === 'aes-256-gcm' ? 'g' : 'h';
    if (parts.length !== 5 || version !== VERSION || letter !== expected || keyId === undefined) {
      fail('malformed', 'not a requestState token of this runtime and algorithm');
    }
    const keys = this.keyring.get(keyId);
    if (!keys) fail('key', `unknown or retired key id "${keyId}"`);

    const plain = letter === 'g' ? this.decrypt(keys, parts) : this.verifyMac(keys, parts);
    let payload: unknown;
    try {
      payload = JSON.parse(plain.toString('utf8'));
    } catch {
      fail('malformed', 'the authenticated payload is not JSON');
    }
    if (!isPayload(payload)) fail('malformed', 'the authenticated payload lacks its fields');
    const now = this.now();
    if (now > payload.e) fail('expired', `expired ${now - payload.e} ms ago`);
    if (payload.p !== this.principalTag(keys, binding.principal))
      fail('principal', 'sealed for another principal');
    if (payload.r !== requestDigest(binding.request)) {
      fail('request', `sealed for another request than ${binding.request.method} ${binding.request.target}`);
    }
    if (this.singleUse) {
      const tokenId = createHash('sha256').update(token).digest('base64url');
      if (!(await this.singleUse.redeem(tokenId, payload.e))) fail('replayed', 'already redeemed');
    }
    return payload.v as T;
  }

  private decrypt(keys: DerivedKeys, parts: string[]): Buffer {
    const iv = decode(parts[3]);
    const body = decode(parts[4]);
    if (iv?.length !== IV_BYTES || body === undefined || body.length < TAG_BYTES) {
      fail('malformed', 'the nonce or the ciphertext is malformed');
    }
    const decipher = createDecipheriv('aes-256-gcm', keys.aead, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`${parts[0]}.${parts[1]}.${parts[2]}`));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return fail('mac', 'the AEAD tag does not verify');
    }
  }

  private verifyMac(keys: DerivedKeys, parts: string[]): Buffer {
    const plain = decode(parts[3]);
    const mac = decode(parts[4]);
    if (plain === undefined || mac === undefined) fail('malformed', 'the payload or the MAC is malformed');
    const expected = createHmac('sha256', keys.mac)
      .update(`${parts[0]}.${parts[1]}.${parts[2]}.${parts[3]}`)
      .digest();
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected))
      fail('mac', 'the MAC does not verify');
    return plain;
  }

  private principalTag(keys: DerivedKeys, principal: string): string {
    return createHmac('sha256', keys.binding)
      .update(principal)
      .digest()
      .subarray(0, PRINCIPAL_TAG_BYTES)
      .toString('base64url');
  }
}
