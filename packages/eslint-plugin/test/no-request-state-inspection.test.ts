import { REQUEST_STATE_INSPECTION_GUIDANCE } from '@mcp-mrtr/core';
import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-request-state-inspection.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const CLIENT = `import { Client } from '@modelcontextprotocol/client';
declare const client: Client;
declare function answer(requests: unknown): Promise<Record<string, unknown>>;
`;
/** A first call whose result is `result`; line 5 is the body's first line. */
const call = (body: string) =>
  `${CLIENT}export async function run() {\n  const result = await client.request({ method: 'tools/call', params: { name: 't', arguments: {} } } as never) as { requestState?: string; inputRequests?: object };\n${body}\n}`;
const retry = (state: string) =>
  `  return client.request({ method: 'tools/call', params: { name: 't', arguments: {}, inputResponses: await answer(result.inputRequests), requestState: ${state} } } as never);`;

const HAND = `declare function rpc(method: string, params: object): Promise<{ resultType?: string; requestState?: string; content?: unknown[] }>;\n`;

ruleTester.run('no-request-state-inspection', rule, {
  valid: [
    // Echoed unchanged, and only when the server sent one.
    call(retry('result.requestState')),
    call(
      `  const { requestState } = result;\n  return client.request({ method: 'tools/call', params: { name: 't', ...(requestState !== undefined && { requestState }) } } as never);`,
    ),
    call(
      `  const state = result.requestState;\n  if (state === undefined || state.length > 16_384) return undefined;\n${retry('state')}`,
    ),
    call(`  const state = result.requestState;\n${retry('`${state}`')}`),
    call(
      `  const state = result.requestState;\n  console.error(typeof state);\n${retry('state?.toString()')}`,
    ),
    // The guide's loop.
    `declare const client: { request(method: 'tools/call', params: object): Promise<{ resultType?: string; requestState?: string }> };\nexport async function loop() {\n  let requestState: string | undefined;\n  for (let i = 0; i < 5; i++) {\n    const result = await client.request('tools/call', { name: 't', ...(requestState !== undefined && { requestState }) });\n    if (result.resultType !== 'input_required') return result;\n    requestState = result.requestState;\n  }\n  return undefined;\n}`,
    // A server reading a state it verifies is another rule's business.
    `declare function open(token: string): object;\nexport function handle(params: { requestState?: string }) {\n  return params.requestState === undefined ? undefined : JSON.parse(JSON.stringify(open(params.requestState)));\n}`,
    // Not a received requestState: a value of our own, a React-style state, a result that is not an MCP response.
    `declare const settings: { requestState: string };\nexport const parts = settings.requestState.split(',');`,
    `declare function fetchJson(url: string): Promise<{ requestState: string }>;\nexport async function f() {\n  const result = await fetchJson('/x');\n  return JSON.parse(result.requestState);\n}`,
    call(`  const state = result.requestState;\n  const requestState = state;\n${retry('requestState')}`),
    // A fallback to undefined is no state at all.
    call(retry('result.requestState ?? undefined')),
    // Params for something other than an MRTR-eligible request.
    `${CLIENT}export const r = client.request({ method: 'tools/list', params: { requestState: 'x' } } as never);`,
    // A hand-written client that echoes the state it received after testing for input_required.
    `${HAND}export async function run() {\n  const r = await rpc('tools/call', { name: 't' });\n  if (r.resultType === 'input_required') return rpc('tools/call', { name: 't', requestState: r.requestState });\n  return r;\n}`,
    // Without the test, \`r\` could be anything: a server reading its own params, say.
    `export function open(r: { requestState: string }) {\n  return JSON.parse(Buffer.from(r.requestState, 'base64').toString());\n}\nexport const kind = 'input_required';`,
    // The test is about another object.
    `${HAND}export async function run(other: { requestState: string }) {\n  const r = await rpc('tools/call', { name: 't' });\n  if (r.resultType === 'input_required') return JSON.parse(other.requestState);\n  return r;\n}`,
  ],
  invalid: [
    {
      code: `${HAND}export async function run() {\n  const r = await rpc('tools/call', { name: 't' });\n  if (r.resultType === 'input_required') {\n    const state = JSON.parse(Buffer.from(r.requestState!, 'base64').toString());\n    return state;\n  }\n  return r;\n}`,
      errors: [
        {
          messageId: 'decoded',
          data: { callee: 'Buffer.from', guidance: REQUEST_STATE_INSPECTION_GUIDANCE },
        },
      ],
    },
    {
      // After an early exit on anything else.
      code: `${HAND}export async function run() {\n  const r = await rpc('tools/call', { name: 't' });\n  if (r.resultType !== 'input_required') return r;\n  return JSON.parse(atob(r.requestState ?? ''));\n}`,
      errors: [{ messageId: 'decoded' }],
    },
    {
      code: `${HAND}export async function run() {\n  const r = await rpc('tools/call', { name: 't' });\n  return r.resultType === 'input_required' && r.requestState?.split('.');\n}`,
      errors: [{ messageId: 'takenApart' }],
    },
    {
      code: call(`  const state = JSON.parse(atob(result.requestState ?? ''));\n  console.error(state);`),
      errors: [{ messageId: 'decoded', line: 6, data: { callee: 'atob', guidance: expectGuidance() } }],
    },
    {
      code: call(`  return JSON.parse(result.requestState!);`),
      errors: [{ messageId: 'decoded', data: { callee: 'JSON.parse', guidance: expectGuidance() } }],
    },
    {
      code: call(`  return Buffer.from(result.requestState as string, 'base64url').toString();`),
      errors: [{ messageId: 'decoded', data: { callee: 'Buffer.from', guidance: expectGuidance() } }],
    },
    {
      code: call(`  const [body, mac] = (result.requestState ?? '').split('.');\n  return { body, mac };`),
      errors: [{ messageId: 'takenApart', data: { method: 'split', guidance: expectGuidance() } }],
    },
    {
      code: call(`  const state = result.requestState;\n  return state?.slice(0, 10);`),
      errors: [{ messageId: 'takenApart', data: { method: 'slice', guidance: expectGuidance() } }],
    },
    {
      code: call(`  const state = result.requestState;\n${retry(`state + '-retry'`)}`),
      errors: [{ messageId: 'modified' }],
    },
    {
      code: call(`${retry('`v2:${result.requestState}`')}`),
      errors: [{ messageId: 'modified' }],
    },
    {
      code: call(`  result.requestState = 'patched';\n${retry('result.requestState')}`),
      errors: [{ messageId: 'modified' }],
    },
    {
      code: call(retry(`result.requestState ?? ''`)),
      errors: [
        {
          messageId: 'fabricated',
          data: {
            how: 'as a fallback when none was sent',
            guidance:
              'Attach requestState only when the server sent one, exactly as sent: `...(requestState !== undefined && { requestState })`.',
          },
        },
      ],
    },
    {
      code: `${CLIENT}export const r = client.request({ method: 'tools/call', params: { name: 't', requestState: 'resume' } } as never);`,
      errors: [
        {
          messageId: 'fabricated',
          data: { how: 'written as a string literal', guidance: expectFabricated() },
        },
      ],
    },
    {
      code: `${CLIENT}export const r = client.request({ method: 'prompts/get', params: { name: 'p', requestState: JSON.stringify({ step: 2 }) } } as never);`,
      errors: [
        {
          messageId: 'fabricated',
          data: { how: 'built with JSON.stringify()', guidance: expectFabricated() },
        },
      ],
    },
    {
      code: `${CLIENT}declare const step: number;\nexport const r = client.callTool({ name: 't', arguments: {}, requestState: \`step-\${step}\` } as never);`,
      errors: [{ messageId: 'fabricated' }],
    },
    {
      code: `declare const client: { request(method: 'resources/read', params: object): Promise<{ requestState?: string }> };\nexport async function f() {\n  const result = await client.request('resources/read', { uri: 'a://b' });\n  const token = decodeURIComponent(result.requestState ?? '');\n  return token;\n}`,
      errors: [{ messageId: 'decoded', data: { callee: 'decodeURIComponent', guidance: expectGuidance() } }],
    },
  ],
});

function expectGuidance(): string {
  return 'requestState is opaque: attach the string the server sent, unchanged, to the retry and nothing else.';
}

function expectFabricated(): string {
  return 'Attach requestState only when the server sent one, exactly as sent: `...(requestState !== undefined && { requestState })`.';
}

typedRuleTester.run('no-request-state-inspection (type-aware)', rule, {
  valid: [{ code: call(retry('result.requestState')), filename: TYPED_FILE }],
  invalid: [
    {
      code: call(`  return JSON.parse(result.requestState ?? '{}');`),
      filename: TYPED_FILE,
      errors: [{ messageId: 'decoded' }],
    },
  ],
});
