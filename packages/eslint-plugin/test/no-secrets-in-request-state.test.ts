import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-secrets-in-request-state.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const ask = `inputRequests: { ok: { method: 'roots/list' } }`;
const SEAL = `declare function seal(value: unknown): string;\n`;
const literal = (state: string) =>
  `${SEAL}export const result = { resultType: 'input_required', ${ask}, requestState: ${state} };`;
const RUNTIME = `import type { ToolHandler } from '@mcp-mrtr/runtime';\ndeclare const token: string;\n`;
const round = (state: string) =>
  `${RUNTIME}export const tool: ToolHandler = (_a, round) => round.inputRequired({ ${ask}, state: ${state} });`;
const CODEC = `${V2}import { createRequestStateCodec } from '@modelcontextprotocol/server';\nconst codec = createRequestStateCodec<object>({ key: 'k'.repeat(32) });\n`;

ruleTester.run('no-secrets-in-request-state', rule, {
  valid: [
    literal(`seal({ sub: 'u1', tool: 'delete', argsDigest: 'd', exp: 1 })`),
    literal(`seal({ step: 'approve', user: 'ada', role: 'admin' })`),
    round(`{ step: 'replicas', environment: 'staging' }`),
    round(`{ ticket: 't-1234' }`),
    // Names that describe a secret without holding it.
    round(`{ tokenCount: 3, passwordPolicyUrl: 'https://x', apiKeyId: 'k1', tokenizer: 'bpe' }`),
    `${CODEC}export const r = async () => inputRequired({ ${ask}, requestState: await codec.mint({ connectionId: 'c1' }) });`,
    // The sealer's own configuration is not what it seals.
    `${V2}import { createRequestStateCodec } from '@modelcontextprotocol/server';\nconst codec = createRequestStateCodec<object>({ key: 'k'.repeat(32), secret: true } as never);\nexport const r = async () => inputRequired({ ${ask}, requestState: await codec.mint({ step: 1 }) });`,
    // A reference to a server-side secret, not the secret itself.
    round(`{ credentialId: 'vault://github/ada' }`),
    // Not requestState: a tool result, a client echoing state, Object.seal, a plain config object.
    `export const result = { content: [{ type: 'text', text: 'ok' }], structuredContent: { apiKey: 'shown once' } };`,
    `declare const previous: { requestState?: string };\nexport const params = { name: 't', requestState: previous.requestState };`,
    `export const frozen = Object.seal({ password: 'x' });\nexport const requestState = 'n/a';`,
    `export const config = { apiKey: process.env.KEY };`,
    {
      code: round(`{ token: 3 }`),
      options: [{ allow: ['token'] }],
    },
    {
      code: `declare function encrypt(v: object): string;\nexport const requestState = encrypt({ password: 'x' });`,
      options: [{ sealers: ['protect'] }],
    },
  ],
  invalid: [
    {
      code: literal(`seal({ user: 'ada', accessToken: 'gho_x' })`),
      errors: [{ messageId: 'secretInState', data: { name: 'accessToken', secret: 'a token' } }],
    },
    {
      code: literal(`seal({ github: { login: 'ada', password: 'pw' } })`),
      errors: [{ messageId: 'secretInState', data: { name: 'password', secret: 'a password' } }],
    },
    {
      code: round(`{ step: 2, token }`),
      errors: [{ messageId: 'secretInState', data: { name: 'token', secret: 'a token' } }],
    },
    {
      code: round(`{ card_number: '4242', cvv: '123' }`),
      errors: [
        { messageId: 'secretInState', data: { name: 'card_number', secret: 'payment data' } },
        { messageId: 'secretInState', data: { name: 'cvv', secret: 'payment data' } },
      ],
    },
    {
      code: `${CODEC}export const r = async () => inputRequired({ ${ask}, requestState: await codec.mint({ apiKey: 'sk' }) });`,
      errors: [{ messageId: 'secretInState', data: { name: 'apiKey', secret: 'an API key' } }],
    },
    {
      code: literal(`Buffer.from(JSON.stringify({ clientSecret: 'x' })).toString('base64')`),
      errors: [{ messageId: 'secretInState', data: { name: 'clientSecret', secret: 'a secret' } }],
    },
    {
      code: `${SEAL}const state = { step: 1, refreshToken: 'r' };\nexport const result = { resultType: 'input_required', ${ask}, requestState: seal(state) };`,
      errors: [{ messageId: 'secretInState', line: 2 }],
    },
    {
      code: `${SEAL}declare const base: object;\nexport const result = { resultType: 'input_required', ${ask}, requestState: seal({ ...base, ssn: '1' }) };`,
      errors: [{ messageId: 'secretInState', data: { name: 'ssn', secret: 'a government ID' } }],
    },
    {
      code: `${RUNTIME}declare const sealer: { seal(v: unknown, b: unknown): string };\nexport const s = sealer.seal({ privateKey: 'x' }, {});`,
      errors: [{ messageId: 'secretInState', data: { name: 'privateKey', secret: 'a private key' } }],
    },
    {
      code: round(`{ answers: [{ otp: '123456' }] }`),
      errors: [{ messageId: 'secretInState', data: { name: 'otp', secret: 'a one-time code' } }],
    },
    {
      code: `${V2}export const r = inputRequired({ ${ask}, requestState: JSON.stringify({ ['sessionToken']: 'x' }) });`,
      errors: [{ messageId: 'secretInState', data: { name: 'sessionToken', secret: 'a token' } }],
    },
    {
      code: round(`{ step: 1, licenseKey: 'L' }`),
      options: [{ extraTerms: ['license key'] }],
      errors: [{ messageId: 'secretInState', data: { name: 'licenseKey', secret: 'a secret' } }],
    },
    {
      code: `declare function protect(v: object): string;\nexport const s = protect({ bearer: 'x' });\nexport const requestState = s;`,
      options: [{ sealers: ['protect'] }],
      errors: [{ messageId: 'secretInState', data: { name: 'bearer', secret: 'a token' } }],
    },
    {
      // A sealer's name may hold `$`, which is no word character and means something in a pattern.
      code: `declare function $seal(v: object): string;\nexport const s = $seal({ bearer: 'x' });\nexport const requestState = s;`,
      options: [{ sealers: ['$seal'] }],
      errors: [{ messageId: 'secretInState', data: { name: 'bearer', secret: 'a token' } }],
    },
  ],
});

typedRuleTester.run('no-secrets-in-request-state (type-aware)', rule, {
  valid: [
    {
      code: `${CODEC}export const r = async () => inputRequired({ ${ask}, requestState: await codec.mint({ step: 1 }) });`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${CODEC}export const r = async () => inputRequired({ ${ask}, requestState: await codec.mint({ password: 'x' }) });`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'secretInState' }],
    },
  ],
});
