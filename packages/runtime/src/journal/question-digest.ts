import { hash } from 'node:crypto';
import type { InputRequest } from '../protocol.js';
import { canonicalJson } from '../state/canonical-json.js';

/**
 * A digest of what a question asks: its method and params (message, schema, mode, sampling
 * messages, …) as canonical JSON. Left out are the fields that may change between rounds while the
 * question stays the same: `_meta`, and a URL request's `url` and `elicitationId` (a fresh ticket
 * or nonce per round). An answer is replayed only to a question with the same digest.
 */
export function questionDigest(request: InputRequest): string {
  const { _meta, url, elicitationId, ...asked } = request.params ?? {};
  const params = request.params?.mode === 'url' ? asked : { ...asked, url, elicitationId };
  // 128 bits: it tells one version of a question from another, inside an authenticated payload.
  return hash('sha256', canonicalJson({ method: request.method, params }), 'base64url').slice(0, 22);
}
