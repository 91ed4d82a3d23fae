import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import { clientSupports, supportedInputRequests, type UnsupportedInputPolicy } from './capabilities.js';
import { MrtrUsageError } from './errors.js';
import { checkFormContent, type ContentProblem } from './input/form-content.js';
import type { FormContent, FormSchema } from './input/form-schema.js';
import { checkInputRequest, type BuilderOptions, type FormRequest } from './input/input-request-builders.js';
import {
  parseElicitResult,
  parseRoots,
  parseSamplingResult,
  type InputResponses,
  type InputResponseView,
} from './input/input-responses.js';
import type {
  ClientCapabilities,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  Root,
  SamplingResult,
} from './protocol.js';
import { readAnswer, type AnswerOf, type AnswerOptions } from './journal/answers.js';
import type { Replay } from './journal/replay.js';
import type { StepContext, StepResult } from './journal/step-value.js';
import type { RequestIdentity } from './state/request-identity.js';
import type { RequestStateBinding, RequestStateSealer } from './state/request-state-sealer.js';

/** A usable answer to a form: accepted content that passed the schema, or a decline or cancel. */
export type ElicitationAnswer<Content> =
  | { readonly action: 'accept'; readonly content: Content }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** The answer to a URL-mode elicitation. `accept` is consent to open the URL, not completion. */
export interface UrlElicitationAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
}

export interface InputRequiredSpec<State> {
  /** The input to ask for this round, under keys that are stable across rounds. */
  readonly inputRequests?: InputRequests;
  /** State for the next round; sealed, bound to this principal and request, and expiring. */
  readonly state?: State;
  /** What to do with requests the client declared no capability for. Default `require` (`-32021`). */
  readonly unsupported?: UnsupportedInputPolicy;
}

export interface RoundInit<State> {
  readonly method: MrtrEligibleMethod;
  /** Whom and what the state is sealed for, prepared once per round. */
  readonly binding: RequestStateBinding;
  readonly state: State | undefined;
  readonly responses: InputResponses;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly signal: AbortSignal;
  readonly sealer: RequestStateSealer;
  readonly builderOptions: BuilderOptions;
  /** The journal of journaled replay (`ask`, `step`), read from the verified state. */
  readonly replay: Replay;
}

function schemaOf<S extends FormSchema>(form: FormRequest<S> | S): S {
  return 'method' in form ? form.params.requestedSchema : form;
}

/**
 * One round of a re-entrant MRTR handler: this round's answers, the verified state from the
 * previous round, the client's declared capabilities, and the way to ask for more input.
 *
 * A handler re-runs from the top on every round. It reads each answer under a stable key; an
 * answer that is missing, malformed or fails its schema reads as `undefined`, meaning "ask".
 */
export class Round<State = unknown> {
  readonly method: MrtrEligibleMethod;
  /** The authenticated principal this request runs for. */
  readonly principal: string;
  /** What this request targets (method, tool/prompt name or resource URI, arguments); state is bound to it. */
  readonly request: RequestIdentity;
  /** What the previous round sealed, verified for this principal and request; undefined at first. */
  readonly state: State | undefined;
  /** Capabilities the client declared for this request. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  private readonly init: RoundInit<State>;
  private readonly problems = new Map<string, readonly ContentProblem[]>();

  constructor(init: RoundInit<State>) {
    this.init = init;
    this.method = init.method;
    this.principal = init.binding.principal;
    this.request = init.binding.request;
    this.state = init.state;
    this.clientCapabilities = init.clientCapabilities;
    this.signal = init.signal;
  }

  /**
   * Journaled replay: the answer to an input request (a form, a URL, sampling or roots), in the
   * shape SDK v1's push APIs returned. When the answer is not known yet, the handler is suspended
   * (the returned promise rejects with a suspension; see `isSuspension`), the client is asked, and
   * on the next round the handler runs again from the top and this call returns the journaled
   * answer. Asks started together (`Promise.all`) are asked in one round. A key used again in the
   * same run gets an occurrence suffix: `key`, `key#2`, `key#3`, …. Accepted form content that
   * fails the schema throws an `ElicitationContentError`, as SDK v1's `elicitInput` did; with
   * `{ validate: false }` it is taken as the client sent it, as a generic `sendRequest` with a
   * permissive result schema did (see {@link AnswerOptions}).
   */
  ask<const R extends InputRequest>(key: string, request: R, options?: AnswerOptions): Promise<AnswerOf<R>> {
    return this.init.replay.ask(key, request, options);
  }

  /**
   * Journaled replay: runs `fn` and replays its result on later rounds of the call, so a side
   * effect or a non-deterministic value (`Date.now()`, `randomUUID()`) before a question is
   * neither repeated nor changed. The result must be JSON (or `undefined`); every round, the first
   * included, gets its JSON copy. `fn` receives an `idempotencyKey` for the external API it calls.
   * Without single-use state, a replayed or raced requestState runs the step again (with the same
   * key); with single use, each state runs once.
   */
  step<T>(
    key: string,
    fn: (context: StepContext) => (T & StepResult<T>) | Promise<T & StepResult<T>>,
  ): Promise<Awaited<T>> {
    return this.init.replay.step<T>(key, fn);
  }

  /**
   * Explicit style: the answer to `request` under `key` this round, in the shape `ask` resolves
   * with (SDK v1's push results), or `undefined` when the client has not answered it yet. As the
   * SDK v1 push calls did, accepted form content that fails the schema throws an
   * `ElicitationContentError` (not with `{ validate: false }`: see {@link AnswerOptions}), and an
   * answer of the wrong shape `-32602`.
   */
  answer<const R extends InputRequest>(
    key: string,
    request: R,
    options?: AnswerOptions,
  ): AnswerOf<R> | undefined {
    const raw = this.init.responses.raw(key);
    return raw === undefined ? undefined : (readAnswer(key, request, raw, options) as AnswerOf<R>);
  }

  /** The raw answer under a key, classified by shape; for answers the typed readers do not cover. */
  response(key: string): InputResponseView {
    return this.init.responses.view(key);
  }

  /**
   * The answer to a form under `key`, with accepted content checked against the form's schema (the
   * MRTR path delivers answers unvalidated). `undefined` when there is no usable answer this round:
   * not answered, malformed, or accepted content that fails the schema ({@link contentProblems}).
   */
  elicitation<S extends FormSchema>(
    key: string,
    form: FormRequest<S> | S,
  ): ElicitationAnswer<FormContent<S>> | undefined {
    const result = parseElicitResult(this.init.responses.raw(key));
    if (!result) return undefined;
    if (result.action !== 'accept') return { action: result.action };
    const check = checkFormContent(schemaOf(form), result.content ?? {});
    if (!check.ok) {
      this.problems.set(key, check.problems);
      return undefined;
    }
    return { action: 'accept', content: check.content };
  }

  /** Why accepted content under `key` was rejected by {@link elicitation}, to tell the user when asking again. */
  contentProblems(key: string): readonly ContentProblem[] | undefined {
    return this.problems.get(key);
  }

  /** The answer to a URL-mode elicitation under `key`; `undefined` when there is none this round. */
  urlElicitation(key: string): UrlElicitationAnswer | undefined {
    const result = parseElicitResult(this.init.responses.raw(key));
    return result ? { action: result.action } : undefined;
  }

  /**
   * The client's sampling result under `key`.
   * @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577).
   */
  sampling(key: string): SamplingResult | undefined {
    return parseSamplingResult(this.init.responses.raw(key));
  }

  /**
   * The client's roots under `key`.
   * @deprecated Roots are deprecated in 2026-07-28 (SEP-2577).
   */
  roots(key: string): readonly Root[] | undefined {
    return parseRoots(this.init.responses.raw(key));
  }

  /** Whether the client declared the capability this request needs. */
  supports(request: InputRequest): boolean {
    return clientSupports(this.clientCapabilities, request);
  }

  /**
   * The result that asks for input and carries state to the next round. State is sealed (see the
   * runtime's options) and bound to this principal and request.
   */
  inputRequired(spec: InputRequiredSpec<State>): InputRequiredResult {
    const requested: Record<string, InputRequest> = {};
    for (const [key, request] of Object.entries(spec.inputRequests ?? {})) {
      if (key === '') throw new MrtrUsageError('inputRequests keys must be non-empty strings.');
      requested[key] = checkInputRequest(key, request, this.init.builderOptions);
    }
    let inputRequests: InputRequests = requested;
    if (spec.unsupported === 'filter') {
      const supported = supportedInputRequests(requested, this.clientCapabilities);
      // With nothing left to ask and no state to carry, keep the requests so -32021 says why.
      if (Object.keys(supported).length > 0 || spec.state !== undefined) inputRequests = supported;
    }
    const hasRequests = Object.keys(inputRequests).length > 0;
    if (!hasRequests && spec.state === undefined) {
      throw new MrtrUsageError('inputRequired() needs inputRequests, state, or both.');
    }
    // The journal of asks and steps run so far travels with the explicit state.
    const journal = this.init.replay.active ? this.init.replay.journal() : undefined;
    const requestState =
      spec.state === undefined && journal === undefined
        ? undefined
        : this.init.sealer.sealRound({ value: spec.state, journal }, this.init.binding);
    return {
      resultType: 'input_required',
      ...(hasRequests && { inputRequests }),
      ...(requestState !== undefined && { requestState }),
    };
  }
}
