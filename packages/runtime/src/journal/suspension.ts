import { MrtrUsageError } from '../errors.js';

const BRAND = Symbol.for('@mcp-mrtr/runtime.suspension');

/**
 * Unwinds a handler whose `round.ask` has no answer yet. Not a failure: the runtime turns it into
 * an input_required result. A `catch` block must let it through: `if (isSuspension(e)) throw e`.
 */
export class Suspension extends Error {
  readonly [BRAND] = true;

  constructor(
    /** The key of the ask that suspended (with its occurrence suffix). */
    readonly key: string,
  ) {
    super(
      `round.ask("${key}") is waiting for the client's answer. This is not a failure: catch blocks must rethrow it (if (isSuspension(e)) throw e).`,
    );
    this.name = 'Suspension';
  }
}

/**
 * Whether a caught value is the signal `round.ask` unwinds a handler with while it waits for an
 * answer. Put `if (isSuspension(e)) throw e;` first in every `catch` around code that asks.
 */
export function isSuspension(error: unknown): error is Suspension {
  return typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

/** A suspension anywhere in an error's `cause` chain: a catch block wrapped it in its own error. */
export function wrapsSuspension(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null;) {
    if (seen.has(current)) return false;
    seen.add(current);
    if (isSuspension(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The error for a handler that went on after an ask suspended it, instead of letting it unwind. */
export function swallowedSuspension(
  keys: readonly string[],
  outcome: unknown,
  returned: boolean,
): MrtrUsageError {
  const asks = keys.map((key) => `round.ask("${key}")`).join(', ');
  const what = returned
    ? 'the handler returned a result'
    : `the handler threw ${outcome instanceof Error ? `${outcome.name}: ${outcome.message}` : String(outcome)}`;
  const error = new MrtrUsageError(
    `${asks} suspended the handler to wait for the client's answer, but ${what} instead of letting the suspension through: a catch block swallowed it. Add \`if (isSuspension(e)) throw e;\` as the first line of that catch block.`,
  );
  if (!returned) error.cause = outcome;
  return error;
}
