import { isJsonObject } from '../protocol.js';

/**
 * The format of the journal this runtime seals. A journal of another format is never replayed:
 * the call starts again (`JournalFormatError`). Raise it whenever what a journal holds changes
 * meaning. Format 1, unnumbered, had no call id and no question digests.
 */
export const JOURNAL_FORMAT = 2;

/** An answer to `round.ask`, as it was validated when it arrived. */
export interface AnswerEntry {
  /** The ask's key, with its occurrence suffix. */
  readonly k: string;
  readonly t: 'a';
  /** The digest of the question it answers (`questionDigest`). */
  readonly q: string;
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
  readonly f: typeof JOURNAL_FORMAT;
  /** The call's id: random, drawn on its first round and carried by all later ones. */
  readonly c: string;
  readonly e: readonly JournalEntry[];
  /** The asks sent to the client with the sealing round: key to question digest. */
  readonly p?: Readonly<Record<string, string>>;
}

function isEntry(value: unknown): value is JournalEntry {
  if (!isJsonObject(value) || typeof value.k !== 'string') return false;
  return value.t === 's' || (value.t === 'a' && typeof value.q === 'string');
}

/** The format a sealed journal declares: 1 when it has none, as before formats were numbered. */
export function journalFormatOf(value: unknown): unknown {
  return isJsonObject(value) && 'f' in value ? value.f : 1;
}

/** A journal of this format read back from verified state; `undefined` when it has the wrong shape. */
export function parseJournal(value: unknown): Journal | undefined {
  if (!isJsonObject(value) || value.f !== JOURNAL_FORMAT || typeof value.c !== 'string') return undefined;
  if (!Array.isArray(value.e) || !value.e.every(isEntry)) return undefined;
  const pending = value.p;
  if (
    pending !== undefined &&
    !(isJsonObject(pending) && Object.values(pending).every((digest) => typeof digest === 'string'))
  ) {
    return undefined;
  }
  return value as unknown as Journal;
}

export function describeEntry(entry: JournalEntry): string {
  return entry.t === 'a' ? `the answer to round.ask("${entry.k}")` : `the result of round.step("${entry.k}")`;
}
