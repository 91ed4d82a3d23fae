/**
 * What "sealed" means for a `requestState` value the server hands the client, and what
 * lint and codemod say about unsealed ones. requestState is attacker-controlled: whenever it
 * influences behaviour it must be integrity-protected (HMAC or AEAD) and verified on the retry.
 */

/**
 * Functions whose result is a sealed requestState: this project's runtime and the SDK v2 codec's
 * `mint` (`createRequestStateCodec(…).mint(payload, ctx)`). Matched on the called function's name or
 * the final property of a method call.
 */
export const DEFAULT_REQUEST_STATE_SEALERS: readonly string[] = [
  'seal',
  'sealRequestState',
  'sealState',
  'mint',
];

/** Functions that verify a received requestState before anything reads it. */
export const DEFAULT_REQUEST_STATE_OPENERS: readonly string[] = [
  'open',
  'openRequestState',
  'openState',
  'unseal',
  'verify',
];

/** Calls that only encode, and how a message describes their output (readable and forgeable). */
export const PLAINTEXT_ENCODERS: Readonly<Record<string, string>> = {
  'JSON.stringify': 'JSON.stringify() output',
  btoa: 'btoa() of plaintext (base64 is an encoding, not protection)',
};

/** Calls that only decode: reading state through them trusts whatever the client sent. */
export const PLAINTEXT_DECODERS: readonly string[] = ['JSON.parse', 'atob', 'Buffer.from'];

/**
 * Calls that show a function checks a MAC or decrypts, i.e. verifies state itself before it decodes
 * it (`crypto.timingSafeEqual`, `createHmac`, `createDecipheriv`, WebCrypto `subtle.verify`/`decrypt`).
 */
export const REQUEST_STATE_VERIFICATION_CALLS: readonly string[] = [
  'timingSafeEqual',
  'createHmac',
  'createDecipheriv',
  'subtle.verify',
  'subtle.decrypt',
];

/** Buffer encodings that are an encoding, not protection. */
export const PLAINTEXT_BUFFER_ENCODINGS = ['base64', 'base64url', 'hex'] as const;

/** Whether `buffer.toString(encoding)` / `Buffer.from(text, encoding)` only encodes the bytes. */
export function isPlaintextBufferEncoding(encoding: string | undefined): boolean {
  return (PLAINTEXT_BUFFER_ENCODINGS as readonly (string | undefined)[]).includes(encoding);
}

export const UNSEALED_REQUEST_STATE_GUIDANCE =
  'Seal requestState with HMAC or AEAD bound to the principal, an expiry and the request (the runtime’s sealer or the SDK codec’s mint) instead of sending readable state.';

export const UNVERIFIED_REQUEST_STATE_GUIDANCE =
  'Verify the received requestState (the runtime’s opener or the SDK codec’s verify hook) and reject it with -32602 on failure before reading it.';
