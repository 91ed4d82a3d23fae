// URL-mode flows done safely: connect tickets bound to the user, the connect endpoint and its
// callback, and completion learned on the retry.
export * from './url-flow-store.js';
export * from './memory-url-flow-store.js';
export * from './redis-url-flow-store.js';
export * from './connect-provider.js';
export * from './connect-events.js';
export * from './connect-flows.js';
export * from './connect-endpoint.js';
export * from './connect-listener.js';
