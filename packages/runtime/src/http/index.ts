// A plain 2026-07-28 JSON-RPC server over HTTP on the runtime, for servers that use no SDK.
export * from './envelope.js';
export * from './server-definition.js';
export * from './json-rpc-endpoint.js';
export * from './http-listener.js';
