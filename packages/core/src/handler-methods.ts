/**
 * Which request a server-side callback answers, read from how it is registered: SDK v1 schema
 * constants and v2 method strings in `setRequestHandler`, `McpServer`'s `register*` methods, the
 * `ResourceTemplate` list and complete callbacks and `completable(…)`. Lint rules use it to tell a
 * `tools/call` handler from a list or completion handler, which must never ask for input.
 */

/** SDK v1 request schema constants (`@modelcontextprotocol/sdk/types.js`) and the method each one names. */
export const SERVER_REQUEST_SCHEMA_METHODS: Readonly<Record<string, string>> = {
  CallToolRequestSchema: 'tools/call',
  ReadResourceRequestSchema: 'resources/read',
  GetPromptRequestSchema: 'prompts/get',
  ListToolsRequestSchema: 'tools/list',
  ListResourcesRequestSchema: 'resources/list',
  ListResourceTemplatesRequestSchema: 'resources/templates/list',
  ListPromptsRequestSchema: 'prompts/list',
  CompleteRequestSchema: 'completion/complete',
  SubscribeRequestSchema: 'resources/subscribe',
  UnsubscribeRequestSchema: 'resources/unsubscribe',
  SetLevelRequestSchema: 'logging/setLevel',
  InitializeRequestSchema: 'initialize',
  PingRequestSchema: 'ping',
  GetTaskRequestSchema: 'tasks/get',
  GetTaskPayloadRequestSchema: 'tasks/result',
  ListTasksRequestSchema: 'tasks/list',
  CancelTaskRequestSchema: 'tasks/cancel',
};

/**
 * SDK v1 schema constants of the notifications a client sends a server, and the method each one
 * names: what a server's `setNotificationHandler` callback runs on.
 */
export const CLIENT_NOTIFICATION_SCHEMA_METHODS: Readonly<Record<string, string>> = {
  InitializedNotificationSchema: 'notifications/initialized',
  RootsListChangedNotificationSchema: 'notifications/roots/list_changed',
  CancelledNotificationSchema: 'notifications/cancelled',
  ProgressNotificationSchema: 'notifications/progress',
};

/** Every request method a server answers, 2025 and 2026 revisions; keys of handler maps are matched against it. */
export const SERVER_REQUEST_METHODS: readonly string[] = [
  ...new Set(Object.values(SERVER_REQUEST_SCHEMA_METHODS)),
  'server/discover',
];

/**
 * `McpServer` registration methods (v1 and v2; `tool`, `prompt` and `resource` are v1's variadic
 * forms) and the request their last callback answers.
 */
export const HANDLER_REGISTRATIONS: Readonly<Record<string, string>> = {
  registerTool: 'tools/call',
  tool: 'tools/call',
  registerPrompt: 'prompts/get',
  prompt: 'prompts/get',
  registerResource: 'resources/read',
  resource: 'resources/read',
};

/** The SDK's `ResourceTemplate` class; its options hold callbacks for other requests. */
export const RESOURCE_TEMPLATE_CLASS = 'ResourceTemplate';

/** `new ResourceTemplate(uri, { list, complete: { variable: cb } })`: what each option's callback answers. */
export const RESOURCE_TEMPLATE_CALLBACKS: Readonly<Record<string, string>> = {
  list: 'resources/list',
  complete: 'completion/complete',
};

/** `completable(schema, complete)` (SDK v1 and v2) wraps a prompt argument's completion callback. */
export const COMPLETABLE_FUNCTION = 'completable';
export const COMPLETION_METHOD = 'completion/complete';

/**
 * Handler types whose annotation says which request a function answers: the runtime's
 * `ToolHandler` / `PromptHandler` / `ResourceHandler` and SDK v2's callback types.
 */
export const HANDLER_TYPES: Readonly<Record<string, string>> = {
  ToolHandler: 'tools/call',
  PromptHandler: 'prompts/get',
  ResourceHandler: 'resources/read',
  ToolCallback: 'tools/call',
  PromptCallback: 'prompts/get',
  ReadResourceCallback: 'resources/read',
  ReadResourceTemplateCallback: 'resources/read',
  ListResourcesCallback: 'resources/list',
  CompleteCallback: 'completion/complete',
  CompleteResourceTemplateCallback: 'completion/complete',
};
