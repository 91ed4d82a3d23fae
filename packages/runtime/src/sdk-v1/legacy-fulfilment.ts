import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { MrtrHandler } from '../handlers.js';
import {
  isInputRequiredResult,
  type ClientCapabilities,
  type CompleteResultByMethod,
  type InputRequest,
  type InputRequests,
  type JsonObject,
} from '../protocol.js';
import type { MrtrRuntime } from '../runtime.js';
import type { RequestIdentity } from '../state/request-identity.js';
import { pushCapabilityError } from './push-capability-error.js';
import { SdkV1Round, type Extra } from './sdk-v1-round.js';

export type { Extra } from './sdk-v1-round.js';

export interface LegacyFulfilmentOptions {
  /** Handler rounds per request before giving up. Default 8, as SDK v2's shim. */
  readonly maxRounds?: number;
  /** Timeout of each request sent to the client; human-paced. Default 600 000 ms. */
  readonly roundTimeoutMs?: number;
  /** Pause before re-entering after a round that only carried state. Default 250 ms. */
  readonly stateOnlyDelayMs?: number;
}

/** Why the loop stopped short of a result; tools report it as an isError result. */
export class LegacyFulfilmentError extends Error {
  override name = 'LegacyFulfilmentError';
}

export interface LegacyCall<Args> {
  readonly server: Server;
  readonly extra: Extra;
  readonly request: RequestIdentity;
  readonly args: Args;
  readonly principal: string;
}

/**
 * The request's abort signal. The SDK always passes one; a test's stand-in for `extra` often does
 * not, and the handler it stands in for never read it, so a missing one is never aborted.
 */
function signalOf(extra: Extra): AbortSignal {
  const signal: AbortSignal | undefined = extra.signal;
  return signal ?? new AbortController().signal;
}

/**
 * Serves one request of a 2025 client with a re-entrant handler: SDK v1 has no MRTR, so each
 * input_required round is fulfilled here through the push APIs, related to the originating
 * request, and the handler is re-entered with that round's answers and the same sealed state.
 * A 2025 client never sees an input_required result: it would read it as an empty success.
 */
export class LegacyFulfilment {
  private readonly runtime: MrtrRuntime;
  private readonly maxRounds: number;
  private readonly roundTimeoutMs: number;
  private readonly stateOnlyDelayMs: number;

  constructor(runtime: MrtrRuntime, options: LegacyFulfilmentOptions = {}) {
    this.runtime = runtime;
    this.maxRounds = options.maxRounds ?? 8;
    this.roundTimeoutMs = options.roundTimeoutMs ?? 600_000;
    this.stateOnlyDelayMs = options.stateOnlyDelayMs ?? 250;
  }

  async run<M extends MrtrEligibleMethod, Args, State>(
    handler: MrtrHandler<M, Args, State, SdkV1Round<State>>,
    call: LegacyCall<Args> & { readonly request: RequestIdentity & { readonly method: M } },
  ): Promise<CompleteResultByMethod[M]> {
    const { server, extra } = call;
    const signal = signalOf(extra);
    let inputResponses: JsonObject | undefined;
    let token: string | undefined;
    for (let round = 1; ; round++) {
      signal.throwIfAborted();
      const capabilities = server.getClientCapabilities() as ClientCapabilities | undefined;
      const result = await this.runtime.runRound(
        handler,
        {
          request: call.request,
          args: call.args,
          principal: call.principal,
          clientCapabilities: capabilities,
          inputResponses,
          ...(token !== undefined && { state: { token } }),
          signal,
        },
        (init) => new SdkV1Round(init, extra),
      );
      if (!isInputRequiredResult(result)) return result;
      if (round >= this.maxRounds) {
        throw new LegacyFulfilmentError(
          `Gave up after ${this.maxRounds} rounds: the handler still needs input.`,
        );
      }
      const requests = result.inputRequests ?? {};
      const unsupported = pushCapabilityError(requests, capabilities);
      if (unsupported) throw unsupported;
      if (Object.keys(requests).length === 0) await sleep(this.stateOnlyDelayMs, undefined, { signal });
      inputResponses = await this.ask(server, extra, signal, requests);
      token = result.requestState;
    }
  }

  /** Sends every request of a round to the client at once; one failure fails the round. */
  private async ask(
    server: Server,
    extra: Extra,
    signal: AbortSignal,
    requests: InputRequests,
  ): Promise<JsonObject> {
    const round = new AbortController();
    const onAbort = () => round.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answers = await Promise.all(
        Object.entries(requests).map(async ([key, request]) => {
          try {
            return [key, await this.send(server, extra, request, round.signal)] as const;
          } catch (error) {
            round.abort(error);
            throw error;
          }
        }),
      );
      return Object.fromEntries(answers);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async send(
    server: Server,
    extra: Extra,
    request: InputRequest,
    signal: AbortSignal,
  ): Promise<unknown> {
    const options = {
      relatedRequestId: extra.requestId,
      signal,
      timeout: this.roundTimeoutMs,
      resetTimeoutOnProgress: true,
    };
    const params = request.params ?? {};
    switch (request.method) {
      case 'elicitation/create':
        if (params.mode === 'url') {
          // 2025 URL elicitation needs an id; 2026-07-28 has none, so one is made up per request.
          return server.elicitInput(
            {
              mode: 'url',
              message: String(params.message),
              url: String(params.url),
              elicitationId: randomUUID(),
            },
            options,
          );
        }
        // Not elicitInput: it would check accepted content itself and throw. The round checks it,
        // as on the MRTR path: round.elicitation() asks again, round.ask() throws the same error.
        // Sent through the request's own context, as a handler's `extra.sendRequest` was: it relates
        // the request to the call, and a test's stand-in for `extra` still answers it.
        return extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: String(params.message),
              requestedSchema: params.requestedSchema as never,
            },
          },
          ElicitResultSchema,
          options,
        );
      case 'sampling/createMessage':
        return server.createMessage(params as never, options);
      case 'roots/list':
        return server.listRoots(undefined, options);
    }
  }
}
