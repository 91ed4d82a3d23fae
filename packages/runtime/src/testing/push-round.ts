import { randomBytes, randomUUID } from 'node:crypto';
import { MrtrUsageError } from '../errors.js';
import { InputResponses } from '../input/input-responses.js';
import type { AnswerOf } from '../journal/answers.js';
import { Replay } from '../journal/replay.js';
import type { StepContext, StepResult } from '../journal/step-value.js';
import type { ClientCapabilities, InputRequest } from '../protocol.js';
import { Round } from '../round.js';
import { Keyring } from '../state/keyring.js';
import { RequestStateSealer } from '../state/request-state-sealer.js';

// A project's own tests often call a helper that asks (`confirm(server, …)`) with a fake server
// whose `elicitInput` is stubbed. Once `migrate` has the helper take a round instead, those tests
// pass `pushRound(server)`: a round that puts each question to the server it is given, through the
// SDK v1 push API the helper used to call, so the test's stub still answers, and whose steps just
// run their function. It is for tests only: it keeps no journal and seals nothing.

/** The SDK v1 push APIs a round asks through; any of them may be missing on a test's fake. */
export interface PushApi {
  elicitInput?(params: never, options?: never): Promise<unknown>;
  createMessage?(params: never, options?: never): Promise<unknown>;
  listRoots?(params?: never, options?: never): Promise<unknown>;
  getClientCapabilities?(): unknown;
}

/** A low-level `Server` (or a fake of one), or an `McpServer` whose `server` is one. */
export type PushTarget = PushApi | { readonly server: PushApi };

type PushMethod = 'elicitInput' | 'createMessage' | 'listRoots';

/** The object that has `method`: the target itself, else the low-level server an `McpServer` holds. */
function holderOf(target: PushTarget, method: PushMethod): PushApi | undefined {
  if (typeof (target as PushApi)[method] === 'function') return target as PushApi;
  const inner = (target as { readonly server?: PushApi }).server;
  return inner !== undefined && typeof inner[method] === 'function' ? inner : undefined;
}

/** Calls the push API `method` on the target, as the code before the migration did. */
async function push(target: PushTarget, method: PushMethod, ...args: unknown[]): Promise<unknown> {
  const holder = holderOf(target, method);
  if (holder === undefined)
    throw new MrtrUsageError(
      `pushRound(): the server given has no ${method}(), so it cannot answer this question; give it the server (or the fake) whose ${method}() the test stubs.`,
    );
  return await (holder[method] as (...all: unknown[]) => Promise<unknown>)(...args);
}

/** The request as the SDK v1 push call took it. */
function send(target: PushTarget, request: InputRequest): Promise<unknown> {
  const params = request.params ?? {};
  switch (request.method) {
    case 'elicitation/create': {
      if (params.mode === 'url')
        // 2025 URL elicitation needs an id; 2026-07-28 has none, so one is made up per question.
        return push(target, 'elicitInput', { ...params, elicitationId: randomUUID() });
      // SDK v1 callers wrote form requests without a mode, form being the default.
      const { mode: _form, ...form } = params;
      return push(target, 'elicitInput', form);
    }
    case 'sampling/createMessage':
      return push(target, 'createMessage', params);
    case 'roots/list':
      return push(target, 'listRoots');
  }
}

/** A round answered through a server's push APIs; see {@link pushRound}. */
class PushRound extends Round {
  readonly #target: PushTarget;
  readonly #call = randomUUID();

  constructor(target: PushTarget) {
    // Nothing is ever sealed: the key only makes the round whole.
    const sealer = new RequestStateSealer({
      keyring: new Keyring({ current: { id: 'push-round', secret: randomBytes(32) } }),
    });
    const request = { method: 'tools/call', target: 'push-round' } as const;
    const responses = new InputResponses(undefined);
    super({
      method: 'tools/call',
      binding: sealer.prepare({ principal: 'push-round', request }),
      state: undefined,
      responses,
      clientCapabilities: holderOf(target, 'elicitInput')?.getClientCapabilities?.() as
        ClientCapabilities | undefined,
      signal: new AbortController().signal,
      sealer,
      builderOptions: {},
      replay: new Replay(undefined, responses, {}),
    });
    this.#target = target;
  }

  /** Puts the question to the server now, through its push API, and returns its answer as is. */
  override ask<const R extends InputRequest>(_key: string, request: R): Promise<AnswerOf<R>> {
    return send(this.#target, request) as Promise<AnswerOf<R>>;
  }

  /** Runs the step's function, as the code before the migration ran it, every time. */
  override async step<T>(
    key: string,
    fn: (context: StepContext) => (T & StepResult<T>) | Promise<T & StepResult<T>>,
  ): Promise<Awaited<T>> {
    return (await fn({ idempotencyKey: `${this.#call}:${key}` })) as Awaited<T>;
  }
}

/**
 * A round for a test that calls a migrated helper directly: each `round.ask` puts its question to
 * `server` through the SDK v1 push API (`elicitInput`, `createMessage`, `listRoots`, on the server
 * or on the low-level server an `McpServer` holds) and resolves with what it returns, so a test's
 * stub answers as it did before the migration; each `round.step` runs its function.
 */
export function pushRound(server: PushTarget): Round {
  return new PushRound(server);
}
