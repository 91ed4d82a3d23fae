// Runtime handlers on the SDK v1 McpServer (@modelcontextprotocol/sdk 1.14 or later), which has
// no MRTR: the runtime fulfils input_required rounds itself through the push APIs.
export * from './sdk-v1-adapter.js';
export * from './sdk-v1-round.js';
export * from './legacy-fulfilment.js';
