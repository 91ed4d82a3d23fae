import { InvalidParamsError } from '../errors.js';

/** Deeper than any real argument object; it keeps hostile input from exhausting the stack. */
const MAX_DEPTH = 256;

function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function write(value: unknown, depth: number): string {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') throw new InvalidParamsError('Arguments must be JSON; a BigInt is not.');
    return JSON.stringify(value) ?? 'null';
  }
  if (depth > MAX_DEPTH) {
    throw new InvalidParamsError(`Arguments nest deeper than ${MAX_DEPTH} levels (or refer to themselves).`);
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return write(withJson.toJSON(), depth + 1);
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      out += `${index === 0 ? '' : ','}${omitted(item) ? 'null' : write(item, depth + 1)}`;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(record).sort()) {
    const child = record[key];
    if (omitted(child)) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${write(child, depth + 1)}`;
  }
  return `${out}}`;
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
