/**
 * What re-running a handler repeats. An MRTR handler runs from the top on every round, so a call
 * that writes, sends or charges before the last question runs once per round; a value that differs
 * per call (a random id, a timestamp) differs per round. Names are matched by their first word
 * part (`splitWordParts`): `getProject` can repeat, `sendInvoice` cannot.
 */

/**
 * Leading verbs of calls that are safe to repeat because they read, compute or wait: awaiting them
 * on every round costs time, not correctness. Anything else that is awaited counts as a side effect.
 */
export const REPEATABLE_VERBS: readonly string[] = [
  'get',
  'read',
  'load',
  'fetch',
  'find',
  'list',
  'query',
  'lookup',
  'search',
  'select',
  'has',
  'is',
  'can',
  'exists',
  'count',
  'check',
  'verify',
  'validate',
  'open',
  'unseal',
  'parse',
  'decode',
  'resolve',
  'describe',
  'compute',
  'calculate',
  'estimate',
  'preview',
  'render',
  'format',
  'digest',
  'hash',
  'seal',
  'mint',
  'sign',
  'stat',
  'readdir',
  'access',
  'authorize',
  'authenticate',
  'sleep',
  'delay',
  'wait',
];

/**
 * Final word parts of predicates that ask whether something happened or holds
 * (`paymentCompleted`, `connectionReady`, `ticketPaid`): a check of the server's own records,
 * safe to repeat and the way a server learns that an out-of-band step finished.
 */
export const PREDICATE_ENDINGS: readonly string[] = [
  'completed',
  'complete',
  'done',
  'finished',
  'paid',
  'ready',
  'confirmed',
  'connected',
  'linked',
  'authorized',
  'authorised',
  'verified',
  'succeeded',
  'exists',
  'valid',
  'available',
  'status',
];

/** Leading verbs of calls that change something outside the handler, awaited or not. */
export const WRITE_VERBS: readonly string[] = [
  'write',
  'save',
  'store',
  'persist',
  'record',
  'insert',
  'update',
  'upsert',
  'delete',
  'remove',
  'destroy',
  'drop',
  'purge',
  'send',
  'post',
  'put',
  'patch',
  'publish',
  'notify',
  'email',
  'charge',
  'pay',
  'refund',
  'transfer',
  'deploy',
  'provision',
  'rotate',
  'revoke',
  'grant',
  'enqueue',
  'dispatch',
  'commit',
  'append',
  'increment',
  'decrement',
  'book',
  'reserve',
  'cancel',
  'approve',
  'submit',
  'execute',
  'trigger',
];

/** Methods that mutate the object they are called on, when it lives outside the handler. */
export const MUTATING_METHODS: readonly string[] = [
  'push',
  'unshift',
  'splice',
  'set',
  'add',
  'delete',
  'clear',
];

/** Word parts that mark a value as an idempotency key, which makes a repeated write harmless. */
export const IDEMPOTENCY_TERMS: readonly string[] = ['idempotency', 'idempotent', 'dedupe', 'dedup'];

/**
 * Calls whose result differs on every call, by dotted callee (`Date.now`) or by final name
 * (`randomUUID`, `nanoid`): such a value in an `inputRequests` key changes between rounds.
 */
export const PER_CALL_VALUE_CALLS: readonly string[] = [
  'Math.random',
  'Date.now',
  'performance.now',
  'process.hrtime',
  'randomUUID',
  'randomBytes',
  'randomInt',
  'getRandomValues',
  'nanoid',
  'uuid',
  'uuidv4',
  'uuidv7',
  'v4',
  'v7',
  'ulid',
  'cuid',
  'createId',
];

/** Constructors whose instances differ per call (`new Date()` without arguments). */
export const PER_CALL_VALUE_CONSTRUCTORS: readonly string[] = ['Date'];
