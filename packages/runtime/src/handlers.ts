import type { MrtrEligibleMethod } from '@mcp-mrtr/core';
import type {
  CompleteResultByMethod,
  InputRequiredResult,
  JsonObject,
  PromptResult,
  ResourceResult,
  ToolResult,
} from './protocol.js';
import type { Round } from './round.js';

type Outcome<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

/** A re-entrant `tools/call` handler: it runs once per round with that round's answers and state. */
export type ToolHandler<Args = JsonObject, State = unknown> = (
  args: Args,
  round: Round<State>,
) => Outcome<ToolResult>;

/** A re-entrant `prompts/get` handler. */
export type PromptHandler<Args = Record<string, string>, State = unknown> = (
  args: Args,
  round: Round<State>,
) => Outcome<PromptResult>;

/** The resource a `resources/read` round reads: its URI and, for a template, the matched variables. */
export interface ResourceTarget {
  readonly uri: string;
  readonly variables?: Readonly<Record<string, string | readonly string[]>>;
}

/** A re-entrant `resources/read` handler. */
export type ResourceHandler<State = unknown> = (
  resource: ResourceTarget,
  round: Round<State>,
) => Outcome<ResourceResult>;

/** The handler type of each MRTR-eligible method. */
export type MrtrHandler<M extends MrtrEligibleMethod, Args, State, R extends Round<State> = Round<State>> = (
  args: Args,
  round: R,
) => Outcome<CompleteResultByMethod[M]>;

/** Options of an adapter's low-level `requestHandler`. */
export interface RequestHandlerOptions {
  /**
   * What the handler serves with a round trip of its own (tool or prompt names, resource URIs): a
   * case of its switch that returns input_required itself and reads the retry on its own. Such a
   * request runs once, outside the journal, and its result goes back untouched, as the SDK's own
   * `setRequestHandler` returned it; on SDK v2 its requestState is not verified here either. The
   * codemod lists them when it migrates the other cases of the handler.
   */
  readonly ownRoundTrip?: readonly string[];
}
