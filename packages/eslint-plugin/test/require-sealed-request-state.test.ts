import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/require-sealed-request-state.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const ask = `inputRequests: { ok: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } }`;

ruleTester.run('require-sealed-request-state', rule, {
  valid: [
    // Sealed by the SDK codec or this project's runtime.
    `${V2}import { createRequestStateCodec } from '@modelcontextprotocol/server';\nconst codec = createRequestStateCodec({ key: process.env.KEY! });\nexport const tool = async (ctx: any) => inputRequired({ ${ask}, requestState: await codec.mint({ step: 1 }, ctx) });`,
    `import { seal } from '@mcp-mrtr/runtime';\nexport const result = { resultType: 'input_required', ${ask}, requestState: seal({ step: 1 }) };`,
    `declare function sealRequestState(v: unknown): string;\nconst state = sealRequestState(JSON.stringify({ step: 2 }));\nexport const result = { resultType: 'input_required', ${ask}, requestState: state };`,
    // A value we cannot see into is not reported (precision first).
    `declare const state: string;\nexport const result = { resultType: 'input_required', ${ask}, requestState: state };`,
    // A client echoing the server's state back unchanged.
    `import { Client } from '@modelcontextprotocol/client';\ndeclare const client: Client;\ndeclare const previous: { requestState?: string; inputRequests?: object };\nawait client.request({ method: 'tools/call', params: { name: 't', requestState: previous.requestState } } as never);`,
    // Not an input-required result: a task status, a React-style state object.
    `${V2}export const task = { status: 'input_required', requestState: 'waiting' };`,
    `export const view = { requestState: 'loading' };\nexport const inputResponses = {};`,
    `const setState = (s: object) => s;\nsetState({ requestState: JSON.stringify({ loading: true }) });`,
    // A client decoding the state it received is no-request-state-inspection's finding.
    `declare const client: { request(m: 'tools/call', p: object): Promise<{ requestState?: string; inputRequests?: object }> };\nexport async function peek() {\n  const result = await client.request('tools/call', { name: 't' });\n  return JSON.parse(result.requestState ?? '{}');\n}`,
    // Reading through a verifier.
    `import { open } from '@mcp-mrtr/runtime';\ndeclare const params: { requestState: string; inputResponses?: object };\nexport const state = open(params.requestState);`,
    `import { createHmac, timingSafeEqual } from 'node:crypto';\ndeclare const SECRET: string;\nexport function openToken(requestState: string, inputResponses: object) {\n  const [body = '', mac = ''] = requestState.split('.');\n  const expected = createHmac('sha256', SECRET).update(body).digest('base64url');\n  if (!timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) throw new Error('bad');\n  return { state: JSON.parse(Buffer.from(requestState, 'base64url').toString()), inputResponses };\n}`,
    {
      code: `declare function protect(v: string): string;\nexport const result = { resultType: 'input_required', ${ask}, requestState: protect(JSON.stringify({ a: 1 })) };`,
      options: [{ sealers: ['protect'] }],
    },
    {
      code: `declare const params: { requestState: string; inputResponses: object };\nexport function check(requestState: string) { return JSON.parse(atob(requestState)); }`,
      options: [{ openers: ['check'] }],
    },
    // Comments and strings.
    `// requestState: JSON.stringify(state)\nexport const doc = 'requestState: btoa(JSON.stringify(state))';\nexport const inputRequests = {};`,
    // A file with no MCP vocabulary at all.
    `export const x = { requestState: JSON.stringify({}) };\nJSON.parse(x.requestState);`,
    `declare const params: { requestState?: string; inputResponses?: object };\nexport const has = params.requestState !== undefined;`,
  ],
  invalid: [
    {
      code: `export const result = { resultType: 'input_required', ${ask}, requestState: JSON.stringify({ step: 1 }) };`,
      errors: [
        { messageId: 'unsealed', data: { how: 'JSON.stringify() output', guidance: expectSealGuidance() } },
      ],
    },
    {
      code: `export const result = { resultType: 'input_required', ${ask}, requestState: Buffer.from(JSON.stringify({ step: 1 })).toString('base64') };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `export const result = { resultType: 'input_required', ${ask}, requestState: Buffer.from('x').toString('base64url') };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `export const result = { resultType: 'input_required', ${ask}, requestState: btoa(JSON.stringify({ step: 1 })) };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `export const result = { resultType: 'input_required', ${ask}, requestState: 'approved' };`,
      errors: [{ messageId: 'unsealed', data: { how: 'a string literal', guidance: expectSealGuidance() } }],
    },
    {
      code: `declare const user: string;\nexport const result = { resultType: 'input_required', ${ask}, requestState: \`step2:\${user}\` };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `declare const user: string;\nexport const result = { resultType: 'input_required', ${ask}, requestState: 'user=' + user };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `${V2}const requestState = JSON.stringify({ step: 1 });\nexport const tool = () => inputRequired({ ${ask}, requestState });`,
      errors: [{ messageId: 'unsealed', line: 3 }],
    },
    {
      code: `declare const first: boolean;\nexport const result = { resultType: 'input_required', ${ask}, requestState: first ? JSON.stringify({ a: 1 }) : undefined };`,
      errors: [{ messageId: 'unsealed' }],
    },
    {
      code: `declare const args: { requestState?: string; inputResponses?: object };\nexport const state = JSON.parse(args.requestState ?? '{}');`,
      errors: [{ messageId: 'unverified', data: { decoder: 'JSON.parse', guidance: expectOpenGuidance() } }],
    },
    {
      code: `declare const input: { requestState: string; inputResponses?: object };\nexport const state = JSON.parse(Buffer.from(input.requestState, 'base64').toString('utf8'));`,
      errors: [{ messageId: 'unverified', data: { decoder: 'Buffer.from', guidance: expectOpenGuidance() } }],
    },
    {
      code: `declare const params: { requestState: string; inputResponses?: object };\nexport const state = JSON.parse(atob(params.requestState));`,
      errors: [{ messageId: 'unverified' }],
    },
    {
      code: `${V2}export const tool = (ctx: any) => JSON.parse(ctx.mcpReq.requestState());`,
      errors: [{ messageId: 'unverified' }],
    },
    {
      code: `declare const request: { params: { requestState: string; inputResponses: object } };\nconst { requestState } = request.params;\nexport const state = JSON.parse(requestState);`,
      errors: [{ messageId: 'unverified', line: 3 }],
    },
    {
      code: `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');\nmodule.exports = (args) => ({ state: JSON.parse(args.requestState), server: Server });`,
      filename: 'handler.cjs',
      errors: [{ messageId: 'unverified' }],
    },
  ],
});

function expectSealGuidance(): string {
  return 'Seal requestState with HMAC or AEAD bound to the principal, an expiry and the request (the runtime’s sealer or the SDK codec’s mint) instead of sending readable state.';
}

function expectOpenGuidance(): string {
  return 'Verify the received requestState (the runtime’s opener or the SDK codec’s verify hook) and reject it with -32602 on failure before reading it.';
}

typedRuleTester.run('require-sealed-request-state (type-aware)', rule, {
  valid: [
    {
      code: `${V2}import { createRequestStateCodec } from '@modelcontextprotocol/server';\nconst codec = createRequestStateCodec<{ step: number }>({ key: 'k'.repeat(32) });\nexport const tool = async () => inputRequired({ ${ask}, requestState: await codec.mint({ step: 1 }) });`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}export const tool = () => inputRequired({ ${ask}, requestState: JSON.stringify({ step: 1 }) });`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'unsealed' }],
    },
  ],
});
