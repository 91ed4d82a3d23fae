import { JsonRpcError } from '../errors.js';
import {
  ERROR_CODES,
  isJsonObject,
  META_KEYS,
  PROTOCOL_VERSION,
  type ClientCapabilities,
} from '../protocol.js';

/** Header access as on a web `Headers` object (names are case-insensitive). */
export interface HeaderReader {
  get(name: string): string | null;
}

export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [PROTOCOL_VERSION];

/** An envelope error, answered with HTTP 400. */
export class EnvelopeError extends JsonRpcError {
  override name = 'EnvelopeError';
}

export interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
}

function targetOf(method: string, params: Record<string, unknown>): unknown {
  if (method === 'resources/read') return params.uri;
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  return undefined;
}

/**
 * Checks a 2026-07-28 request's per-request `_meta` envelope against its HTTP headers: the
 * protocol version in both places, the capabilities the client declares for this request, and the
 * `Mcp-Method` / `Mcp-Name` headers when sent. Throws {@link EnvelopeError} on the first mismatch.
 */
export function readEnvelope(method: string, params: unknown, headers: HeaderReader): Envelope {
  const meta = isJsonObject(params) ? params._meta : undefined;
  const version = isJsonObject(meta) ? meta[META_KEYS.protocolVersion] : undefined;
  const capabilities = isJsonObject(meta) ? meta[META_KEYS.clientCapabilities] : undefined;
  if (typeof version !== 'string' || !isJsonObject(capabilities)) {
    throw new EnvelopeError(
      ERROR_CODES.invalidParams,
      `Invalid _meta envelope: every 2026-07-28 request carries _meta["${META_KEYS.protocolVersion}"] and _meta["${META_KEYS.clientCapabilities}"].`,
    );
  }
  const headerVersion = headers.get('mcp-protocol-version');
  if (headerVersion !== version) {
    throw new EnvelopeError(
      ERROR_CODES.headerMismatch,
      `MCP-Protocol-Version header (${headerVersion ?? 'missing'}) does not match _meta protocol version ${version}.`,
    );
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new EnvelopeError(
      ERROR_CODES.unsupportedProtocolVersion,
      `Unsupported protocol version: ${version}`,
      {
        supported: [...SUPPORTED_PROTOCOL_VERSIONS],
        requested: version,
      },
    );
  }
  const headerMethod = headers.get('mcp-method');
  if (headerMethod !== null && headerMethod !== method) {
    throw new EnvelopeError(
      ERROR_CODES.headerMismatch,
      `Mcp-Method header (${headerMethod}) does not match ${method}.`,
    );
  }
  const headerName = headers.get('mcp-name');
  const target = targetOf(method, params as Record<string, unknown>);
  if (headerName !== null && target !== undefined && headerName !== target) {
    throw new EnvelopeError(
      ERROR_CODES.headerMismatch,
      `Mcp-Name header (${headerName}) does not match the request.`,
    );
  }
  return { protocolVersion: version, clientCapabilities: capabilities };
}
