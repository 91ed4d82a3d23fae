import { isJsonObject } from '../protocol.js';

/** An answer to `round.ask`, as it was validated when it arrived. */
export interface AnswerEntry {
  /** The ask's key, with its occurrence suffix. */
  readonly k: string;
  readonly t: 'a';
  readonly v: unknown;
}

/** The JSON result of a `round.step`; `v` is absent when the step returned `undefined`. */
export interface StepEntry {
  readonly k: string;
  readonly t: 's';
  readonly v?: unknown;
}

export type JournalEntry = AnswerEntry | StepEntry;

/**
 * What a handler on journaled replay has done so far in a multi-round call: answers and step
 * results in the order they were recorded, and the asks the last round is waiting on. It travels
 * sealed in requestState next to the handler's own state.
 */
export interface Journal {
  readonly e: readonly JournalEntry[];
  /** Keys of the asks sent to the client with the sealing round; only their answers are read. */
  readonly p?: readonly string[];
}

function isEntry(value: unknown): value is JournalEntry {
  return isJsonObject(value) && typeof value.k === 'string' && (value.t === 'a' || value.t === 's');
}

/** A journal read back from verified state; `undefined` when it has the wrong shape. */
export function parseJournal(value: unknown): Journal | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.e) || !value.e.every(isEntry)) return undefined;
  if (value.p !== undefined && !(Array.isArray(value.p) && value.p.every((key) => typeof key === 'string'))) {
    return undefined;
  }
  return value as unknown as Journal;
}

export function describeEntry(entry: JournalEntry): string {
  return entry.t === 'a' ? `the answer to round.ask("${entry.k}")` : `the result of round.step("${entry.k}")`;
}
