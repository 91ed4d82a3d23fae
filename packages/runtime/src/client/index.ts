// The client side of MRTR: the retry loop, the input handlers it asks the user through, and
// senders for raw JSON-RPC over HTTP and for the SDK v2 Client.
export * from './client-errors.js';
export * from './input-handlers.js';
export * from './call-with-input.js';
export * from './http-json-rpc-client.js';
export * from './sdk-v2-client.js';
