import { InvalidParamsError } from '../errors.js';

/** Deeper than any real argument object; it keeps hostile input from exhausting the stack. */
const MAX_DEPTH = 256;

function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) {
    throw new InvalidParamsError(`Arguments nest deeper than ${MAX_DEPTH} levels (or refer to themselves).`);
  }
  if (value !== null && typeof value === 'object') {
    const withJson = value as { toJSON?: () => unknown };
    if (typeof withJson.toJSON === 'function') return write(withJson.toJSON(), depth + 1);
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown) => write(omitted(item) ? null : item, depth + 1)).join(',')}]`;
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => !omitted(record[key]))
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], depth + 1)}`).join(',')}}`;
  }
  if (typeof value === 'bigint') throw new InvalidParamsError('Arguments must be JSON; a BigInt is not.');
  return JSON.stringify(value) ?? 'null';
}

/**
 * Canonical JSON of a value: object keys sorted by UTF-16 code units, no whitespace, numbers as
 * JSON.stringify writes them (the RFC 8785 ordering and number form). Unlike strict RFC 8785 it
 * accepts every string JSON.parse can produce, lone surrogates included, because it only feeds a
 * digest of untrusted wire input and must never fail on it.
 */
export function canonicalJson(value: unknown): string {
  return write(value, 0);
}
