// The reference runtime for MRTR handlers. SDK adapters, the plain JSON-RPC endpoint and the client
// retry loop have their own entry points: ./sdk-v1, ./sdk-v2, ./http and ./client.
export * from './protocol.js';
export * from './errors.js';
export * from './capabilities.js';
export * from './handlers.js';
export * from './round.js';
export * from './runtime.js';
export * from './principal.js';
export * from './input/form-schema.js';
export * from './input/form-content.js';
export * from './input/input-responses.js';
export * from './input/input-request-builders.js';
export * from './state/keyring.js';
export * from './state/request-identity.js';
export * from './state/request-state-sealer.js';
export * from './state/redemption-store.js';
export * from './state/memory-redemption-store.js';
export * from './state/redis-redemption-store.js';
export * from './state/secret-names.js';
export * from './journal/answers.js';
export { isSuspension, Suspension } from './journal/suspension.js';
export type { StepContext, StepResult } from './journal/step-value.js';
export type { Journal, JournalEntry, AnswerEntry, StepEntry } from './journal/journal.js';
