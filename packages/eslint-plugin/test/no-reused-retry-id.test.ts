import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-reused-retry-id.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const TRANSPORT = `declare const transport: { send(message: object): Promise<{ requestState?: string }> };\ndeclare const answers: Record<string, unknown>;\n`;
const fn = (body: string) => `${TRANSPORT}export async function call(name: string) {\n${body}\n}`;
const first = (id: string) =>
  `  const first = await transport.send({ jsonrpc: '2.0', id: ${id}, method: 'tools/call', params: { name } });`;
const again = (id: string) =>
  `  return transport.send({ jsonrpc: '2.0', id: ${id}, method: 'tools/call', params: { name, inputResponses: answers, requestState: first.requestState } });`;
const GUIDANCE = 'Give every attempt a fresh JSON-RPC id (a counter, or let the SDK’s request() assign one).';

ruleTester.run('no-reused-retry-id', rule, {
  valid: [
    fn(`${first('1')}\n${again('2')}`),
    fn(
      `  let nextId = 1;\n  const first = await transport.send({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name } });\n${again('nextId++')}`,
    ),
    fn(
      `  const ids = { next: () => crypto.randomUUID() };\n  const first = await transport.send({ jsonrpc: '2.0', id: ids.next(), method: 'tools/call', params: { name } });\n${again('ids.next()')}`,
    ),
    fn(
      `  let id = 1;\n  for (let round = 0; round < 3; round++) {\n    await transport.send({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, requestState: String(round) } });\n  }`,
    ),
    fn(
      `  for (let round = 0; round < 3; round++) {\n    await transport.send({ jsonrpc: '2.0', id: \`call-\${round}\`, method: 'tools/call', params: { name, requestState: String(round) } });\n  }`,
    ),
    // The SDK's request() assigns ids itself; the guide's loop relies on it.
    `declare const client: { request(method: 'tools/call', params: object): Promise<{ requestState?: string }> };\nexport async function loop() {\n  let requestState: string | undefined;\n  for (let i = 0; i < 5; i++) {\n    const result = await client.request('tools/call', { name: 't', ...(requestState !== undefined && { requestState }) });\n    requestState = result.requestState;\n  }\n}`,
    // A response echoes the request's id; that is not a retry.
    `declare const request: { id: number };\nexport const response = { jsonrpc: '2.0', id: request.id, result: { resultType: 'input_required', requestState: 's' } };`,
    // A first request (no inputResponses or requestState) may use any id.
    `declare const request: { id: number };\nexport const forwarded = { jsonrpc: '2.0', id: request.id, method: 'tools/call', params: { name: 't' } };`,
    // Other methods are not MRTR retries.
    fn(
      `${first('1')}\n  return transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { requestState: 'x' } });`,
    ),
    // Same id as a request of another method.
    fn(
      `  await transport.send({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name } });\n  const first = { requestState: 's' };\n${again('7').replace("method: 'tools/call'", "method: 'resources/read'")}`,
    ),
    // Spreading a request but setting a new id.
    `declare const original: object;\ndeclare let nextId: number;\nexport const retry = { ...original, id: nextId++, params: { name: 't', requestState: 's' } };`,
    // A spread of a literal copies nothing unknown.
    `export const retry = { ...{ jsonrpc: '2.0' }, id: 2, method: 'tools/call', params: { name: 't', requestState: 's' } };`,
  ],
  invalid: [
    {
      code: fn(`  const requestId = crypto.randomUUID();\n${first('requestId')}\n${again('requestId')}`),
      errors: [
        { messageId: 'reusedId', line: 6, data: { how: 'reuses the id in requestId', guidance: GUIDANCE } },
      ],
    },
    {
      code: fn(`${first('1')}\n${again('1')}`),
      errors: [
        {
          messageId: 'reusedId',
          line: 5,
          data: { how: 'reuses the id 1 of the original request', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: fn(`${first(`'call-1'`)}\n${again(`'call-1'`)}`),
      errors: [
        {
          messageId: 'reusedId',
          data: { how: 'reuses the id "call-1" of the original request', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: fn(`  const requestId = 42;\n${first('requestId')}\n${again('requestId')}`),
      errors: [
        {
          messageId: 'reusedId',
          data: { how: 'reuses the id 42 of the original request', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: `${TRANSPORT}declare const original: { id: number; params: { name: string } };\nexport const retry = transport.send({ jsonrpc: '2.0', id: original.id, method: 'tools/call', params: { ...original.params, inputResponses: answers } });`,
      errors: [{ messageId: 'reusedId', data: { how: 'reuses original.id', guidance: GUIDANCE } }],
    },
    {
      code: `${TRANSPORT}declare const original: { jsonrpc: '2.0'; id: number; method: 'tools/call'; params: object };\nexport const retry = transport.send({ ...original, params: { inputResponses: answers } });`,
      errors: [
        {
          messageId: 'reusedId',
          data: { how: 'copies the id of original through the spread', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: fn(
        `  const id = 1;\n  let state: string | undefined;\n  for (let round = 0; round < 3; round++) {\n    const result = await transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(state !== undefined && { requestState: state }) } });\n    state = result.requestState;\n  }`,
      ),
      errors: [
        {
          messageId: 'reusedId',
          data: { how: 'sends the same id (1) on every round of the loop', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: fn(
        `  let state: string | undefined;\n  while (true) {\n    const result = await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, requestState: state } });\n    if (!result.requestState) return result;\n    state = result.requestState;\n  }`,
      ),
      errors: [
        {
          messageId: 'reusedId',
          data: { how: 'sends the same id (1) on every round of the loop', guidance: GUIDANCE },
        },
      ],
    },
    {
      code: `${TRANSPORT}declare const message: { id: string };\nexport const retry = transport.send({ jsonrpc: '2.0', id: message.id, method: 'prompts/get', params: { name: 'p', inputResponses: answers } });`,
      errors: [{ messageId: 'reusedId' }],
    },
    {
      code: `${TRANSPORT}declare const request: { id: number };\nexport const retry = { jsonrpc: '2.0', id: request.id, method: 'resources/read', params: { uri: 'a://b', requestState: 's' } };`,
      errors: [{ messageId: 'reusedId' }],
    },
    {
      code: fn(
        `${first('1')}\n  const retry = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, ...(first.requestState !== undefined && { requestState: first.requestState }) } };\n  return transport.send(retry);`,
      ),
      errors: [{ messageId: 'reusedId' }],
    },
    {
      code: fn(
        `  const ID = 'fixed';\n  do {\n    await transport.send({ jsonrpc: '2.0', id: ID, method: 'tools/call', params: { name, inputResponses: answers } });\n  } while (Math.random() > 0.5);`,
      ),
      errors: [{ messageId: 'reusedId' }],
    },
    {
      code: `${TRANSPORT}declare const pending: { request: { id: number } };\nexport const retry = transport.send({ jsonrpc: '2.0', id: pending.request.id, method: 'tools/call', params: { name: 't', requestState: 's' } });`,
      errors: [{ messageId: 'reusedId', data: { how: 'reuses pending.request.id', guidance: GUIDANCE } }],
    },
  ],
});

typedRuleTester.run('no-reused-retry-id (type-aware)', rule, {
  valid: [{ code: fn(`${first('1')}\n${again('2')}`), filename: TYPED_FILE }],
  invalid: [
    { code: fn(`${first('1')}\n${again('1')}`), filename: TYPED_FILE, errors: [{ messageId: 'reusedId' }] },
  ],
});
