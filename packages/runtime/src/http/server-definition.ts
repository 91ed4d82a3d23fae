import type { PromptHandler, ResourceHandler, ToolHandler } from '../handlers.js';
import type { JsonObject } from '../protocol.js';

export interface ToolDefinition<Args = JsonObject, State = unknown> {
  readonly title?: string;
  readonly description?: string;
  /** JSON Schema (2020-12) for the arguments; arguments are checked against it. Default `{ type: 'object' }`. */
  readonly inputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  readonly handler: ToolHandler<Args, State>;
}

export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export interface PromptDefinition<State = unknown> {
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
  readonly handler: PromptHandler<Record<string, string>, State>;
}

export interface ResourceDefinition<State = unknown> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly handler: ResourceHandler<State>;
}

export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** What a plain JSON-RPC server offers: tools by name, prompts by name, resources by URI. */
export interface ServerDefinition {
  readonly serverInfo: Implementation;
  readonly instructions?: string;
  // Handlers differ in their argument and state types; each is called with what it declared.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  readonly tools?: Readonly<Record<string, ToolDefinition<any, any>>>;
  readonly prompts?: Readonly<Record<string, PromptDefinition<any>>>;
  readonly resources?: Readonly<Record<string, ResourceDefinition<any>>>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

/** Types a tool definition, inferring its argument and state types from the handler. */
export function defineTool<Args = JsonObject, State = unknown>(
  tool: ToolDefinition<Args, State>,
): ToolDefinition<Args, State> {
  return tool;
}

/** Types a prompt definition, inferring its state type from the handler. */
export function definePrompt<State = unknown>(prompt: PromptDefinition<State>): PromptDefinition<State> {
  return prompt;
}

/** Types a resource definition, inferring its state type from the handler. */
export function defineResource<State = unknown>(
  resource: ResourceDefinition<State>,
): ResourceDefinition<State> {
  return resource;
}
