import { hash } from 'node:crypto';
import type { InputRequest } from '../protocol.js';
import { canonicalJson } from '../state/canonical-json.js';
import type { AnswerOptions } from './answers.js';

/** Params of a URL request that may change every round while the question stays the same. */
const VOLATILE_URL_PARAMS = new Set(['url', 'elicitationId']);

/**
 * A digest of what a question asks: its method and params (message, schema, mode, sampling
 * messages, …) as canonical JSON. Left out are `_meta`, and a URL request's `url` and
 * `elicitationId` (a fresh ticket or nonce per round). An answer taken without validation
 * (`validate: false`) answers another question than a validated one. An answer is replayed only to
 * a question with the same digest.
 */
export function questionDigest(request: InputRequest, { validate = true }: AnswerOptions = {}): string {
  const params = request.params ?? {};
  const asked = Object.entries(params).filter(
    ([name]) => name !== '_meta' && !(params.mode === 'url' && VOLATILE_URL_PARAMS.has(name)),
  );
  // Validated questions digest as they did before the option existed, so journals stay readable.
  const json = canonicalJson({
    method: request.method,
    params: Object.fromEntries(asked),
    ...(!validate && { unvalidated: true }),
  });
  // 128 bits: it tells one version of a question from another, inside an authenticated payload.
  return hash('sha256', json, 'base64url').slice(0, 22);
}
