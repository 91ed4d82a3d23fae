import { AsyncLocalStorage } from 'node:async_hooks';
import { hash, randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MrtrUsageError } from '../errors.js';
import { checkInputRequest, type BuilderOptions } from '../input/input-request-builders.js';
import type { InputResponses } from '../input/input-responses.js';
import type { InputRequest, InputRequests } from '../protocol.js';
import { readAnswer, type AnswerOf, type AnswerOptions } from './answers.js';
import { JOURNAL_FORMAT, type Journal, type JournalEntry } from './journal.js';
import { questionDigest } from './question-digest.js';
import { jsonProblem, type StepContext } from './step-value.js';
import { Suspension } from './suspension.js';

/** The step whose function is running, so that asks and steps inside it are refused. */
const runningStep = new AsyncLocalStorage<{ readonly replay: Replay; readonly key: string }>();

/**
 * The journal of one round of a handler on journaled replay. The handler runs from the top each
 * round; `ask` and `step` return what the journal already holds, take this round's answers to the
 * asks the last round sent, and otherwise ask (suspending the handler) or run the step.
 */
export class Replay {
  private readonly recorded = new Map<string, JournalEntry>();
  private entries: JournalEntry[];
  /** The call's id, the same on every round; steps' idempotency keys derive from it. */
  private readonly call: string;
  /**
   * Asks the previous round sent, with their question digests: only their answers are read from
   * this round's inputResponses, and only for the same question.
   */
  private readonly sent: ReadonlyMap<string, string>;
  private readonly occurrences = new Map<string, number>();
  private readonly keys = new Set<string>();
  /** Asks that suspended this round, with the digest their answers must match next round. */
  private readonly waiting = new Map<string, { readonly request: InputRequest; readonly digest: string }>();
  private readonly running = new Set<Promise<unknown>>();
  private used = false;
  private delivered = false;

  constructor(
    journal: Journal | undefined,
    private readonly responses: InputResponses,
    private readonly builderOptions: BuilderOptions,
  ) {
    this.entries = [...(journal?.e ?? [])];
    for (const entry of this.entries) this.recorded.set(entry.k, entry);
    this.call = journal?.c ?? randomBytes(16).toString('base64url');
    this.sent = new Map(Object.entries(journal?.p ?? {}));
  }

  /** Whether this round's handler used `ask` or `step`, or inherited a journal that must travel on. */
  get active(): boolean {
    return this.used || this.entries.length > 0;
  }

  /** Whether a suspension has reached the handler: after that, anything but unwinding swallowed it. */
  get suspensionDelivered(): boolean {
    return this.delivered;
  }

  /** The asks that suspended this round, by key. */
  get pending(): InputRequests {
    return Object.fromEntries([...this.waiting].map(([key, { request }]) => [key, request]));
  }

  ask<const R extends InputRequest>(
    key: string,
    request: R,
    options: AnswerOptions = {},
  ): Promise<AnswerOf<R>> {
    const occurrence = this.occurrence('round.ask', key);
    const checked = checkInputRequest(occurrence, request, this.builderOptions);
    const digest = questionDigest(checked, options);
    const entry = this.recorded.get(occurrence);
    // An answer to another question under this key (the handler changed between rounds) is stale:
    // it is dropped and the question asked again.
    if (entry?.t === 'a' && entry.q !== digest) this.forget(entry);
    else if (entry) return Promise.resolve(this.replayed(entry, 'a', 'round.ask') as AnswerOf<R>);
    if (this.sent.get(occurrence) === digest && this.responses.has(occurrence)) {
      const answer = readAnswer(occurrence, checked, this.responses.raw(occurrence), options);
      this.record({ k: occurrence, t: 'a', q: digest, v: answer });
      return Promise.resolve(structuredClone(answer) as AnswerOf<R>);
    }
    this.waiting.set(occurrence, { request: checked, digest });
    return this.suspend(occurrence);
  }

  step<T>(key: string, run: (context: StepContext) => T | Promise<T>): Promise<Awaited<T>> {
    const occurrence = this.occurrence('round.step', key);
    const entry = this.recorded.get(occurrence);
    if (entry) return Promise.resolve(this.replayed(entry, 's', 'round.step') as Awaited<T>);
    const context: StepContext = { idempotencyKey: this.idempotencyKey(occurrence) };
    const result = (async (): Promise<Awaited<T>> => {
      const value = await runningStep.run({ replay: this, key: occurrence }, () => run(context));
      const problem = jsonProblem(value);
      if (problem !== undefined) {
        throw new MrtrUsageError(
          `round.step("${occurrence}") returned ${problem}; a step's result must be JSON so that later rounds replay the same value. Return a string, number, boolean, null, plain object or array (a date as toISOString(), an id instead of an object).`,
        );
      }
      const json = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
      this.record(json === undefined ? { k: occurrence, t: 's' } : { k: occurrence, t: 's', v: json });
      return structuredClone(json) as Awaited<T>;
    })();
    this.running.add(result);
    const done = () => this.running.delete(result);
    result.then(done, done);
    return result;
  }

  /**
   * Waits until no step is running, so that a step started next to a suspended ask is journaled
   * rather than run again on the next round; asks started meanwhile join this round's requests.
   */
  async settle(): Promise<void> {
    while (this.running.size > 0) {
      await Promise.allSettled([...this.running]);
      // What ran after those steps (asks, more steps) starts before the next turn.
      await nextTurn();
    }
  }

  /** What to seal for the next round: everything recorded, and the asks this round sends. */
  journal(): Journal {
    const pending = [...this.waiting].map(([key, { digest }]) => [key, digest] as const);
    return {
      f: JOURNAL_FORMAT,
      c: this.call,
      e: this.entries,
      ...(pending.length > 0 && { p: Object.fromEntries(pending) }),
    };
  }

  /** The step's idempotency key: the call's id and the step's key, hashed so neither shows. */
  private idempotencyKey(occurrence: string): string {
    return hash('sha256', `${this.call}\n${occurrence}`, 'base64url').slice(0, 32);
  }

  /**
   * Rejects with a suspension on the next turn of the event loop, so that asks started together
   * (`Promise.all`, async callbacks of `map`) all join this round before the handler unwinds.
   */
  private suspend(key: string): Promise<never> {
    const suspension = new Suspension(key);
    const signal = nextTurn().then(() => {
      this.delivered = true;
      return Promise.reject(suspension);
    });
    // A handler that awaits one of several started asks leaves the others unawaited; that is fine.
    signal.catch(() => undefined);
    return signal;
  }

  /** The key of this call: the first use of a key is the key itself, the n-th is `key#n`. */
  private occurrence(api: string, key: string): string {
    if (typeof key !== 'string' || key === '') {
      throw new MrtrUsageError(`${api} needs a non-empty string key.`);
    }
    const outer = runningStep.getStore();
    if (outer?.replay === this) {
      // A replayed step does not run its function, so what it would ask or journal is never reached.
      throw new MrtrUsageError(
        `${api}("${key}") runs inside round.step("${outer.key}"): a step's function must not ask or run steps. Move it before or after the step.`,
      );
    }
    this.used = true;
    const count = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, count);
    const occurrence = count === 1 ? key : `${key}#${count}`;
    if (this.keys.has(occurrence)) {
      throw new MrtrUsageError(
        `${api}("${key}") makes the key "${occurrence}" in this round, which another call already has (a repeated key "k" is numbered "k#2", "k#3", …). Rename one of them.`,
      );
    }
    this.keys.add(occurrence);
    return occurrence;
  }

  private replayed(entry: JournalEntry, kind: JournalEntry['t'], api: string): unknown {
    if (entry.t !== kind) {
      throw new MrtrUsageError(
        `${api}("${entry.k}") finds ${entry.t === 'a' ? 'an answer' : 'a step result'} under its key in the journal: the handler did not run the same way as in the earlier round. Code between asks and steps must be deterministic, and asks and steps need distinct keys.`,
      );
    }
    return structuredClone(entry.v);
  }

  private forget(entry: JournalEntry): void {
    this.recorded.delete(entry.k);
    this.entries = this.entries.filter((kept) => kept !== entry);
  }

  private record(entry: JournalEntry): void {
    this.recorded.set(entry.k, entry);
    this.entries.push(entry);
  }
}
