import {
  createCipheriv,
  createDecipheriv,
  hash,
  createHmac,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto';
import type { SensitiveNameOptions } from '@mcp-mrtr/core';
import { JournalFormatError, MrtrUsageError, RequestStateError, RuntimeConfigError } from '../errors.js';
import {
  describeEntry,
  JOURNAL_FORMAT,
  journalFormatOf,
  parseJournal,
  type Journal,
} from '../journal/journal.js';
import type { DerivedKeys, Keyring } from './keyring.js';
import type { RedemptionStore } from './redemption-store.js';
import { requestDigest, type RequestIdentity } from './request-identity.js';
import { secretNameFinder, type SecretNameHit } from './secret-names.js';

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

/** What a token carries: the handler's own state and the journal of a handler on journaled replay. */
export interface OpenedState<T = unknown> {
  /** `undefined` when only a journal was sealed. */
  readonly value: T | undefined;
  readonly journal: Journal | undefined;
}

/**
 * A binding with its request digest computed once: a round opens the state it received and seals
 * the next one for the same request, so it prepares the binding once for both.
 */
export class PreparedBinding implements RequestStateBinding {
  constructor(
    readonly principal: string,
    readonly request: RequestIdentity,
    readonly digest: string,
  ) {}
}

const VERSION = 'm1';
/** Principal tags remembered per key, so a busy principal costs one HMAC per key, not per token. */
const MAX_REMEMBERED_PRINCIPALS = 4096;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PRINCIPAL_TAG_BYTES = 16;
const DEFAULT_MAX_STATE_BYTES = 16_384;
/** Room in a token for all but the encoded payload: version, algorithm, key id, nonce or MAC, dots. */
const TOKEN_OVERHEAD = 128;

/**
 * The longest token a payload of `maxStateBytes` seals to (base64url of the payload and the AEAD
 * tag, and the overhead); anything longer is refused before it is decoded or parsed.
 */
function maxTokenLength(maxStateBytes: number): number {
  return Math.ceil(((maxStateBytes + TAG_BYTES) * 4) / 3) + TOKEN_OVERHEAD;
}

interface Payload {
  /** Expiry, ms since the epoch. */
  readonly e: number;
  /** Principal tag. */
  readonly p: string;
  /** Request digest. */
  readonly r: string;
  /** The sealed value; absent when only a journal was sealed. */
  readonly v?: unknown;
  /** The journal of a handler on journaled replay. */
  readonly j?: Journal;
}

function isPayload(value: unknown): value is Payload {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    typeof fields.e === 'number' &&
    typeof fields.p === 'string' &&
    typeof fields.r === 'string' &&
    ('v' in fields || 'j' in fields)
  );
}

/** Random nonces drawn from a pool refilled in bulk: one small random read per token is slow. */
const noncePool = Buffer.alloc(IV_BYTES * 256);
let nonceOffset = noncePool.length;

function freshNonce(): Buffer {
  if (nonceOffset + IV_BYTES > noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  // A copy, so a later refill never changes a nonce already handed out.
  return Buffer.from(noncePool.subarray(nonceOffset, (nonceOffset += IV_BYTES)));
}

/**
 * Decodes canonical base64url only. Node's decoder skips foreign characters and ignores the
 * unused bits of the last one, so two spellings could open alike; re-encoding catches both.
 */
function decode(part: string | undefined): Buffer | undefined {
  if (part === undefined) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

/** The error for state over `maxStateBytes`, naming the journal entry that takes it past the limit. */
function oversize(bytes: number, limit: number, journal: Journal | undefined): MrtrUsageError {
  const over = `requestState would be ${bytes} bytes of JSON, over the ${limit}-byte limit (maxStateBytes)`;
  if (!journal || journal.e.length === 0) return new MrtrUsageError(`${over}; carry ids, not data.`);
  const sizes = journal.e.map((entry) => Buffer.byteLength(JSON.stringify(entry)));
  // The entries serialize as `[e0,e1,…]`: their sizes and a comma between each two.
  const entries = sizes.reduce((sum, size) => sum + size, 0) + sizes.length - 1;
  // Everything but the entries is fixed per round: find the entry the running total crosses at.
  let running = bytes - entries;
  let crossing = journal.e.length - 1;
  for (const [index, size] of sizes.entries()) {
    running += size + (index > 0 ? 1 : 0);
    if (running > limit) {
      crossing = index;
      break;
    }
  }
  const largest = sizes.indexOf(Math.max(...sizes));
  const named = (index: number) => `${describeEntry(journal.e[index]!)} (${sizes[index]} bytes)`;
  const biggest = largest === crossing ? '' : `; the largest entry is ${named(largest)}`;
  return new MrtrUsageError(
    `${over}: the journal grows past it with ${named(crossing)}${biggest}. Journal ids, not data: have the step return an id and keep the data on the server, or raise maxStateBytes.`,
  );
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
  private readonly findSecretNames: (value: unknown) => SecretNameHit[];
  private readonly principalTags = new WeakMap<DerivedKeys, Map<string, string>>();
  private readonly headers = new Map<string, Buffer>();
  private readonly maxStateBytes: number;
  private readonly maxTokenLength: number;

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
    this.findSecretNames = secretNameFinder(options.sensitiveNames);
    this.maxStateBytes = options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES;
    if (!Number.isSafeInteger(this.maxStateBytes) || this.maxStateBytes <= 0) {
      throw new RuntimeConfigError(
        `maxStateBytes must be a positive whole number, not ${this.maxStateBytes}.`,
      );
    }
    this.maxTokenLength = maxTokenLength(this.maxStateBytes);
  }

  /** Computes the request digest of a binding once, for opening and sealing in the same round. */
  prepare(binding: RequestStateBinding): PreparedBinding {
    return binding instanceof PreparedBinding
      ? binding
      : new PreparedBinding(binding.principal, binding.request, requestDigest(binding.request));
  }

  /** Seals a JSON value for one principal and request. Throws on secret names or oversize state. */
  seal(value: unknown, binding: RequestStateBinding): string {
    if (value === undefined) throw new MrtrUsageError('There is no state to seal: the value is undefined.');
    return this.sealRound({ value, journal: undefined }, binding);
  }

  /**
   * Seals a round's state and journal (either may be absent, not both). Throws on secret names or
   * oversize state, naming the journal entry at fault.
   */
  sealRound(state: OpenedState, binding: RequestStateBinding): string {
    const { value, journal } = state;
    if (value === undefined && journal === undefined) {
      throw new MrtrUsageError('There is no state to seal: the value is undefined.');
    }
    if (this.options.secretNames !== 'allow') this.refuseSecretNames(value, journal);
    const json = JSON.stringify({
      e: this.now() + this.ttlMs,
      p: this.principalTag(this.keyring.current, binding.principal),
      r: this.prepare(binding).digest,
      ...(value !== undefined && { v: value }),
      ...(journal !== undefined && { j: journal }),
    } satisfies Payload);
    const limit = this.maxStateBytes;
    const bytes = Buffer.byteLength(json);
    if (bytes > limit) throw oversize(bytes, limit, journal);
    const keys = this.keyring.current;
    if (this.algorithm === 'aes-256-gcm') {
      const header = `${VERSION}.g.${keys.id}`;
      const iv = freshNonce();
      const cipher = createCipheriv('aes-256-gcm', keys.aead, iv);
      cipher.setAAD(this.headerBytes(header));
      const encrypted = cipher.update(json, 'utf8');
      cipher.final();
      const body = Buffer.concat([encrypted, cipher.getAuthTag()]);
      return `${header}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    }
    const signed = `${VERSION}.h.${keys.id}.${Buffer.from(json).toString('base64url')}`;
    return `${signed}.${createHmac('sha256', keys.mac).update(signed).digest('base64url')}`;
  }

  /**
   * Opens a token for a principal and request. Throws {@link RequestStateError} with the reason
   * when the token is malformed, forged or altered, expired, sealed for someone or something else,
   * sealed with a retired key, or (single use) already redeemed; and {@link JournalFormatError}
   * when it verified but holds a journal of another format.
   */
  async open<T = unknown>(token: unknown, binding: RequestStateBinding): Promise<T> {
    return (await this.openRound<T>(token, binding)).value as T;
  }

  /** Opens a token like {@link open}, returning the journal sealed with the state as well. */
  async openRound<T = unknown>(token: unknown, binding: RequestStateBinding): Promise<OpenedState<T>> {
    if (typeof token !== 'string') fail('malformed', `requestState is ${typeof token}, not a string`);
    if (token.length > this.maxTokenLength)
      fail('malformed', `requestState is ${token.length} characters long`);
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
      payload = JSON.parse(plain);
    } catch {
      fail('malformed', 'the authenticated payload is not JSON');
    }
    if (!isPayload(payload)) fail('malformed', 'the authenticated payload lacks its fields');
    const now = this.now();
    if (now > payload.e) fail('expired', `expired ${now - payload.e} ms ago`);
    if (payload.p !== this.principalTag(keys, binding.principal))
      fail('principal', 'sealed for another principal');
    if (payload.r !== this.prepare(binding).digest) {
      fail('request', `sealed for another request than ${binding.request.method} ${binding.request.target}`);
    }
    if (this.singleUse) {
      const tokenId = hash('sha256', token, 'base64url');
      if (!(await this.singleUse.redeem(tokenId, payload.e))) fail('replayed', 'already redeemed');
    }
    if (payload.j === undefined) return { value: payload.v as T | undefined, journal: undefined };
    const format = journalFormatOf(payload.j);
    if (format !== JOURNAL_FORMAT) throw new JournalFormatError(format, JOURNAL_FORMAT);
    const journal = parseJournal(payload.j);
    if (!journal) fail('malformed', 'the sealed journal lacks its fields');
    return { value: payload.v as T | undefined, journal };
  }

  private refuseSecretNames(value: unknown, journal: Journal | undefined): void {
    const found = this.findSecretNames(value).map((hit) => `${hit.path}: ${hit.match.kind}`);
    for (const entry of journal?.e ?? []) {
      for (const hit of this.findSecretNames(entry.v)) {
        found.push(`${describeEntry(entry)} ${hit.path}: ${hit.match.kind}`);
      }
    }
    if (found.length > 0) {
      throw new MrtrUsageError(
        `Refusing to seal requestState with secret-named properties (${found.join(', ')}): keep secrets on the server and store a reference, or pass secretNames: 'allow' if these are not secrets.`,
      );
    }
  }

  private decrypt(keys: DerivedKeys, parts: string[]): string {
    const iv = decode(parts[3]);
    const body = decode(parts[4]);
    if (iv?.length !== IV_BYTES || body === undefined || body.length < TAG_BYTES) {
      fail('malformed', 'the nonce or the ciphertext is malformed');
    }
    const decipher = createDecipheriv('aes-256-gcm', keys.aead, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(this.headerBytes(`${parts[0]}.${parts[1]}.${parts[2]}`));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      const plain = decipher.update(body.subarray(0, body.length - TAG_BYTES), undefined, 'utf8');
      decipher.final();
      return plain;
    } catch {
      return fail('mac', 'the AEAD tag does not verify');
    }
  }

  private verifyMac(keys: DerivedKeys, parts: string[]): string {
    const plain = decode(parts[3]);
    const mac = decode(parts[4]);
    if (plain === undefined || mac === undefined) fail('malformed', 'the payload or the MAC is malformed');
    const expected = createHmac('sha256', keys.mac)
      .update(`${parts[0]}.${parts[1]}.${parts[2]}.${parts[3]}`)
      .digest();
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected))
      fail('mac', 'the MAC does not verify');
    return plain.toString('utf8');
  }

  /** The authenticated header's bytes. Only headers naming a key of the ring get here: few. */
  private headerBytes(header: string): Buffer {
    let bytes = this.headers.get(header);
    if (!bytes) this.headers.set(header, (bytes = Buffer.from(header)));
    return bytes;
  }

  private principalTag(keys: DerivedKeys, principal: string): string {
    let tags = this.principalTags.get(keys);
    if (!tags) this.principalTags.set(keys, (tags = new Map<string, string>()));
    let tag = tags.get(principal);
    if (tag === undefined) {
      tag = createHmac('sha256', keys.binding)
        .update(principal)
        .digest()
        .subarray(0, PRINCIPAL_TAG_BYTES)
        .toString('base64url');
      if (tags.size >= MAX_REMEMBERED_PRINCIPALS) tags.clear();
      tags.set(principal, tag);
    }
    return tag;
  }
}
