import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject, type InputRequest, type InputResponse, type JsonObject } from '../protocol.js';
import { InputRoundsExceededError, InvalidServerResultError } from './client-errors.js';
import { answerInputRequest, type InputHandlers } from './input-handlers.js';

/**
 * Sends one attempt of the request with these params and resolves with the JSON-RPC result. It
 * must use a new JSON-RPC id on every call: each attempt is a separate request.
 */
export type AttemptSender = (params: JsonObject, signal: AbortSignal | undefined) => Promise<unknown>;

/** An input_required result as the server sent it, after shape checks. */
export interface InputRequiredRound {
  /** 1 for the first input_required result of the call. */
  readonly round: number;
  readonly inputRequests: Readonly<Record<string, InputRequest>>;
  readonly requestState: string | undefined;
}

export interface CallWithInputOptions {
  readonly handlers: InputHandlers;
  /** Retries before giving up with {@link InputRoundsExceededError}. Default 10. */
  readonly maxRounds?: number;
  readonly signal?: AbortSignal;
  /** Pause before retrying a round that carried only requestState (server load shedding). Default 250 ms. */
  readonly stateOnlyDelayMs?: number;
  /** Called on each input_required round, before the user is asked. */
  readonly onInputRequired?: (round: InputRequiredRound) => void | Promise<void>;
}

function readInputRequired(result: JsonObject, round: number): InputRequiredRound {
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isJsonObject(inputRequests)) {
    throw new InvalidServerResultError('inputRequests is not an object.', result);
  }
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw new InvalidServerResultError('requestState is not a string.', result);
  }
  const requests = (inputRequests ?? {}) as Record<string, InputRequest>;
  if (Object.keys(requests).length === 0 && requestState === undefined) {
    throw new InvalidServerResultError(
      'input_required carries neither inputRequests nor requestState.',
      result,
    );
  }
  return { round, inputRequests: requests, requestState };
}

async function answerAll(
  requests: Readonly<Record<string, InputRequest>>,
  handlers: InputHandlers,
  signal: AbortSignal | undefined,
): Promise<Record<string, InputResponse>> {
  // One failed answer, or the caller's abort, abandons the round: the other questions are aborted,
  // and the loop does not wait for handlers that ignore their signal.
  const round = new AbortController();
  const onAbort = () => round.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const abandoned = new Promise<never>((_resolve, reject) => {
    round.signal.addEventListener('abort', () => reject(round.signal.reason as Error), { once: true });
  });
  abandoned.catch(() => undefined);
  try {
    const answers = Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        try {
          return [key, await answerInputRequest(request, handlers, { key, signal: round.signal })] as const;
        } catch (error) {
          round.abort(error);
          throw error;
        }
      }),
    );
    return Object.fromEntries(await Promise.race([answers, abandoned]));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Calls an MRTR-eligible method and serves the server's input requests until it completes: each
 * retry is a new request carrying this round's answers only, and the requestState exactly as the
 * server sent it, only when it sent one. A result without `resultType` is complete.
 */
export async function callWithInput(
  send: AttemptSender,
  params: JsonObject,
  options: CallWithInputOptions,
): Promise<JsonObject> {
  if ('inputResponses' in params || 'requestState' in params) {
    throw new TypeError(
      'Pass the original request params; the loop adds inputResponses and requestState itself.',
    );
  }
  const maxRounds = options.maxRounds ?? 10;
  let attempt: JsonObject = params;
  for (let round = 1; ; round++) {
    options.signal?.throwIfAborted();
    const result = await send(attempt, options.signal);
    if (!isJsonObject(result))
      throw new InvalidServerResultError('The server result is not an object.', result);
    if (result.resultType !== 'input_required') return result;
    if (round > maxRounds) throw new InputRoundsExceededError(maxRounds, result);

    const inputRequired = readInputRequired(result, round);
    await options.onInputRequired?.(inputRequired);
    const answers = await answerAll(inputRequired.inputRequests, options.handlers, options.signal);
    if (Object.keys(inputRequired.inputRequests).length === 0) {
      await sleep(options.stateOnlyDelayMs ?? 250, undefined, { signal: options.signal });
    }
    attempt = {
      ...params,
      ...(Object.keys(answers).length > 0 && { inputResponses: answers }),
      ...(inputRequired.requestState !== undefined && { requestState: inputRequired.requestState }),
    };
  }
}
