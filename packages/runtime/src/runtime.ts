import { isMrtrEligibleMethod, type MrtrEligibleMethod } from '@mcp-mrtr/core';
import { MrtrUsageError } from './errors.js';
import type { MrtrHandler } from './handlers.js';
import { checkInputRequest, type BuilderOptions } from './input/input-request-builders.js';
import { InputResponses } from './input/input-responses.js';
import type { Journal } from './journal/journal.js';
import { Replay } from './journal/replay.js';
import { isSuspension, swallowedSuspension, wrapsSuspension } from './journal/suspension.js';
import {
  isInputRequiredResult,
  isJsonObject,
  type ClientCapabilities,
  type CompleteResultByMethod,
  type InputRequiredResult,
} from './protocol.js';
import { Round, type RoundInit } from './round.js';
import type { RequestIdentity } from './state/request-identity.js';
import {
  RequestStateSealer,
  type RequestStateBinding,
  type RequestStateSealerOptions,
} from './state/request-state-sealer.js';

export interface MrtrRuntimeOptions extends RequestStateSealerOptions {
  /** Options for the form/URL checks applied to every input request a handler returns. */
  readonly builders?: BuilderOptions;
}

/** Where this round's state comes from. */
export type RoundState =
  /** The wire `requestState`, to be opened and verified here (any JSON value; non-strings fail). */
  | { readonly token: unknown }
  /** Already opened and verified by the transport (SDK v2's `requestState.verify` hook). */
  | { readonly opened: unknown; readonly journal?: Journal };

/** One incoming round of an MRTR-eligible request, as an adapter hands it over. */
export interface RoundCall<Args> {
  readonly request: RequestIdentity;
  /** What the handler receives: arguments (parsed by the SDK, if any), or the resource target. */
  readonly args: Args;
  readonly principal: string;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The wire `inputResponses` (any JSON value; a non-object fails with `-32602`). */
  readonly inputResponses: unknown;
  /** Absent on the first round. */
  readonly state?: RoundState;
  readonly signal?: AbortSignal;
}

/** Makes the round a handler receives; adapters use it to add the SDK's own request context. */
export type RoundFactory<State, R extends Round<State>> = (init: RoundInit<State>) => R;

const RESULT_MEMBER: Readonly<Record<MrtrEligibleMethod, string>> = {
  'tools/call': 'content',
  'prompts/get': 'messages',
  'resources/read': 'contents',
};

function checkInputRequired(result: InputRequiredResult, method: string, builders: BuilderOptions): void {
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isJsonObject(inputRequests)) {
    throw new MrtrUsageError(`The ${method} handler returned inputRequests that is not an object.`);
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw new MrtrUsageError(`The ${method} handler returned a requestState that is not a string.`);
  }
  const entries = Object.entries(inputRequests ?? {});
  if (entries.length === 0 && requestState === undefined) {
    throw new MrtrUsageError(
      `The ${method} handler returned input_required with neither inputRequests nor requestState.`,
    );
  }
  for (const [key, request] of entries) checkInputRequest(key, request, builders);
}

/**
 * The transport-neutral core every adapter runs on: it opens and verifies state, reads answers,
 * runs one round of a handler and checks what the handler returned.
 */
export class MrtrRuntime {
  readonly sealer: RequestStateSealer;
  private readonly builders: BuilderOptions;

  constructor(options: MrtrRuntimeOptions) {
    this.sealer = new RequestStateSealer(options);
    this.builders = options.builders ?? {};
  }

  /** Opens a wire requestState for a principal and request; throws `RequestStateError` on failure. */
  openState<T = unknown>(token: unknown, binding: RequestStateBinding): Promise<T> {
    return this.sealer.open<T>(token, binding);
  }

  /** What a suspended round answers: every pending ask, and the journal sealed with the state. */
  private suspended(replay: Replay, state: unknown, binding: RequestStateBinding): InputRequiredResult {
    return {
      resultType: 'input_required',
      inputRequests: replay.pending,
      requestState: this.sealer.sealRound({ value: state, journal: replay.journal() }, binding),
    };
  }

  /**
   * Runs one round. Resolves with the handler's complete result or a checked input_required
   * result; rejects with `-32602` errors for bad `inputResponses` or state, with `MrtrUsageError`
   * for handler bugs, and with whatever the handler throws.
   */
  async runRound<M extends MrtrEligibleMethod, Args, State, R extends Round<State> = Round<State>>(
    handler: MrtrHandler<M, Args, State, R>,
    call: RoundCall<Args> & { readonly request: RequestIdentity & { readonly method: M } },
    createRound?: RoundFactory<State, R>,
  ): Promise<CompleteResultByMethod[M] | InputRequiredResult> {
    const method = call.request.method;
    if (!isMrtrEligibleMethod(method)) {
      throw new MrtrUsageError(
        `${String(method)} cannot return input_required; only tools/call, resources/read and prompts/get can.`,
      );
    }
    const responses = new InputResponses(call.inputResponses);
    const binding = this.sealer.prepare({ principal: call.principal, request: call.request });
    let state: State | undefined;
    let journal: Journal | undefined;
    if (call.state && 'opened' in call.state) {
      state = call.state.opened as State | undefined;
      journal = call.state.journal;
    } else if (call.state) {
      ({ value: state, journal } = await this.sealer.openRound<State>(call.state.token, binding));
    }
    const replay = new Replay(journal, responses, this.builders);
    const round = this.newRound({ method, binding, state, responses, replay }, call, createRound);
    let result: unknown;
    try {
      result = await handler(call.args, round);
    } catch (error) {
      const waiting = Object.keys(replay.pending);
      if (!isSuspension(error)) {
        // Another error after a suspension reached the handler swallowed it (a usage error is the
        // more precise report); one thrown before that is the handler's own failure.
        const swallowed =
          !(error instanceof MrtrUsageError) &&
          (wrapsSuspension(error) || (waiting.length > 0 && replay.suspensionDelivered));
        throw swallowed ? swallowedSuspension(waiting, error, false) : error;
      }
      // Steps started next to the suspended ask finish and are journaled; late asks join the round.
      await replay.settle();
      return this.suspended(replay, state, binding);
    }
    const waiting = Object.keys(replay.pending);
    if (waiting.length > 0) throw swallowedSuspension(waiting, result, true);
    if (isInputRequiredResult(result)) {
      checkInputRequired(result, method, this.builders);
      return result;
    }
    const member = RESULT_MEMBER[method];
    if (!isJsonObject(result) || !Array.isArray(result[member])) {
      throw new MrtrUsageError(
        `The ${method} handler must return a result with a ${member} array, or input_required.`,
      );
    }
    return result as unknown as CompleteResultByMethod[M];
  }
  /**
   * Serves a request whose handler code runs its own round trip (it builds input_required itself
   * and reads the retry's fields on its own): one call, no state opened, no journal, and the
   * result goes back untouched, input_required included, as the SDK's own `setRequestHandler`
   * would return it. Only `round.extra` / `round.ctx` and `round.step` are meaningful on this path;
   * a question asked through the round is a `MrtrUsageError`.
   */
  async runOwnRoundTrip<M extends MrtrEligibleMethod, Args, State, R extends Round<State> = Round<State>>(
    handler: MrtrHandler<M, Args, State, R>,
    call: RoundCall<Args> & { readonly request: RequestIdentity & { readonly method: M } },
    createRound?: RoundFactory<State, R>,
  ): Promise<unknown> {
    const method = call.request.method;
    const responses = new InputResponses(undefined);
    const binding = this.sealer.prepare({ principal: call.principal, request: call.request });
    const replay = new Replay(undefined, responses, this.builders);
    const round = this.newRound({ method, binding, state: undefined, responses, replay }, call, createRound);
    const asked = () =>
      new MrtrUsageError(
        `The ${method} handler for ${call.request.target} runs its own round trip, yet asked through round.ask(); ask the way its own round trip does, or take ${call.request.target} out of ownRoundTrip.`,
      );
    let result: unknown;
    try {
      result = await handler(call.args, round);
    } catch (error) {
      throw isSuspension(error) ? asked() : error;
    }
    if (Object.keys(replay.pending).length > 0) throw asked();
    return result;
  }

  private newRound<State, R extends Round<State>>(
    parts: Pick<RoundInit<State>, 'method' | 'binding' | 'state' | 'responses' | 'replay'>,
    call: RoundCall<unknown>,
    createRound: RoundFactory<State, R> | undefined,
  ): R {
    const init: RoundInit<State> = {
      ...parts,
      clientCapabilities: call.clientCapabilities,
      signal: call.signal ?? new AbortController().signal,
      sealer: this.sealer,
      builderOptions: this.builders,
    };
    return createRound ? createRound(init) : (new Round<State>(init) as R);
  }
}
