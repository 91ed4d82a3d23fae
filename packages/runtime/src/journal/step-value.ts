/**
 * Why a step result is not plain JSON that replays as the same value, or `undefined` when it is.
 * `undefined` properties are allowed (JSON drops them, and the handler sees the JSON copy from the
 * first round on); dates, maps, class instances, functions, bigints and non-finite numbers are not.
 */
export function jsonProblem(value: unknown): string | undefined {
  return visit(value, '', new Set());
}

function at(path: string): string {
  return path === '' ? '' : ` at ${path}`;
}

function visit(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${value}${at(path)}`;
    case 'bigint':
    case 'function':
    case 'symbol':
      return `a ${typeof value}${at(path)}`;
  }
  if (value === null) return undefined;
  const object = value as object;
  if (ancestors.has(object)) return `a circular reference${at(path)}`;
  const prototype: unknown = Object.getPrototypeOf(object);
  if (!Array.isArray(object) && prototype !== Object.prototype && prototype !== null) {
    const name = (object.constructor as { name?: string } | undefined)?.name ?? 'object';
    return `a ${name}${at(path)}`;
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      for (let index = 0; index < object.length; index++) {
        const problem = visit(object[index], `${path}[${index}]`, ancestors);
        if (problem) return problem;
      }
      return undefined;
    }
    for (const [key, child] of Object.entries(object)) {
      const problem = visit(child, `${path}.${key}`, ancestors);
      if (problem) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(object);
  }
}
