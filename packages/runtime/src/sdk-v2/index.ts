// Runtime handlers on the SDK v2 McpServer (@modelcontextprotocol/server 2.4).
export * from './sdk-v2-adapter.js';
export * from './sdk-v2-round.js';
export { bindRequestScope } from './request-scope.js';
