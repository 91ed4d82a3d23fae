/**
 * What `round.step` accepts as its function's result, checked by the compiler: `T` itself when it
 * is JSON (strings, finite numbers, booleans, null, arrays, plain objects and interfaces of them,
 * `undefined` properties) or nothing (`undefined`, `void`); `never` in place of anything else
 * (functions, dates, maps, class instances with methods, bigints, symbols), so journaling a live
 * object fails to compile. `jsonProblem` checks the value again at run time.
 */
export type StepResult<T> = T extends string | number | boolean | null | undefined | void
  ? T
  : T extends bigint | symbol | ((...args: never) => unknown)
    ? never
    : T extends object
      ? { [K in keyof T]: StepResult<T[K]> }
      : never;

/** What a step's function receives. */
export interface StepContext {
  /**
   * A key for this call and this step, the same whenever the step runs again for the same call
   * (a retried, raced or replayed requestState). Pass it to the external API the step calls
   * (`Idempotency-Key`), so that API does the effect once even when the step runs twice.
   */
  readonly idempotencyKey: string;
}

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
