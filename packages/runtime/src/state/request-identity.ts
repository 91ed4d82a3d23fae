import { hash } from 'node:crypto';
import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import { canonicalJson } from './canonical-json.js';

/**
 * What a requestState is bound to: the method, what it targets (tool name, prompt name or resource
 * URI) and the arguments. Never `_meta`, `inputResponses` or `requestState`: those change between
 * rounds of the same request.
 */
export interface RequestIdentity {
  readonly method: MrtrEligibleMethod;
  /** Tool name, prompt name or resource URI. */
  readonly target: string;
  /** Tool or prompt arguments as they arrived on the wire; absent means `{}`. */
  readonly arguments?: unknown;
}

/**
 * SHA-256 over the canonical JSON of the identity, base64url. Two requests that differ
 * only in key order or number spelling get the same digest; any other difference changes it.
 */
export function requestDigest(identity: RequestIdentity): string {
  const canonical = canonicalJson([identity.method, identity.target, identity.arguments ?? {}]);
  return hash('sha256', canonical, 'base64url');
}

/** The identity of a JSON-RPC request to an MRTR-eligible method, read from its params. */
export function requestIdentityOf(method: MrtrEligibleMethod, params: unknown): RequestIdentity | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const fields = params as Record<string, unknown>;
  const target = method === 'resources/read' ? fields.uri : fields.name;
  if (typeof target !== 'string') return undefined;
  return method === 'resources/read' ? { method, target } : { method, target, arguments: fields.arguments };
}
