/** A value `JSON.stringify` writes as it is. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Turns any value into a JSON value without throwing: errors keep their name, message, stack and
 * cause, bigints become strings, dates ISO strings, maps and sets objects and arrays, circular
 * references the string "[Circular]", functions and symbols are dropped the way JSON drops them.
 */
export function toJsonValue(value: unknown): JsonValue | undefined {
  return convert(value, new Set());
}

function convert(value: unknown, ancestors: Set<object>): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return '[Circular]';
  ancestors.add(object);
  try {
    return convertObject(object, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function convertObject(object: object, ancestors: Set<object>): JsonValue | undefined {
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  if (object instanceof Error) {
    const error: Record<string, JsonValue> = { name: object.name, message: object.message };
    if (object.stack !== undefined) error.stack = object.stack;
    const cause = convert(object.cause, ancestors);
    if (cause !== undefined) error.cause = cause;
    return error;
  }
  if (Array.isArray(object)) return object.map((item: unknown) => convert(item, ancestors) ?? null);
  if (object instanceof Set) return [...object].map((item: unknown) => convert(item, ancestors) ?? null);
  if (object instanceof Map) return convertEntries([...object.entries()], ancestors);
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      return convert((toJSON as () => unknown).call(object), ancestors);
    } catch {
      return '[Unserializable]';
    }
  }
  return convertEntries(Object.entries(object), ancestors);
}

function convertEntries(entries: [unknown, unknown][], ancestors: Set<object>): JsonValue {
  const result: Record<string, JsonValue> = {};
  for (const [key, item] of entries) {
    const converted = convert(item, ancestors);
    if (converted !== undefined) result[String(key)] = converted;
  }
  return result;
}
