import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-sensitive-form-fields.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const RUNTIME = `import { elicitForm, elicitUrl } from '@mcp-mrtr/runtime';\n`;
const schema = (properties: string) => `{ type: 'object', properties: { ${properties} } }`;
const push = (properties: string, extra = '') =>
  `${V1}declare const server: Server;\nawait server.elicitInput({ ${extra}message: 'Configure', requestedSchema: ${schema(properties)} });`;

ruleTester.run('no-sensitive-form-fields', rule, {
  valid: [
    push(`username: { type: 'string' }, email: { type: 'string', format: 'email' }`),
    push(`tokenizer: { type: 'string', enum: ['bpe', 'wordpiece'] }, maxTokens: { type: 'integer' }`),
    push(`passwordPolicyUrl: { type: 'string', format: 'uri' }, apiKeyId: { type: 'string' }`),
    push(`confirm: { type: 'boolean', title: 'Delete', description: 'Tick to delete the project' }`),
    // URL mode is the right place for secrets.
    `${V1}declare const server: Server;\nawait server.elicitInput({ mode: 'url', message: 'Enter your API key on our site', url: 'https://example.com/keys', elicitationId: 'e' });`,
    `${V2}export const r = inputRequired({ inputRequests: { key: inputRequired.elicitUrl({ message: 'Paste your password on our page', url: 'https://example.com/p' }) } });`,
    // Schemas that are not elicitation forms: tool input schemas, other libraries.
    `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nmcp.registerTool('login', { inputSchema: { password: {} as never } }, async () => ({ content: [] }));`,
    `export const form = { requestedSchema: ${schema(`password: { type: 'string' }`)} };`,
    `class Wizard { elicitInput(_p: unknown) {} }\nnew Wizard().elicitInput({ message: 'x', requestedSchema: ${schema(`password: { type: 'string' }`)} });`,
    {
      code: push(`tokenBudget: { type: 'integer' }, token: { type: 'string' }`),
      options: [{ allow: ['token'] }],
    },
    push(`notes: { type: 'string', description: 'Anything the reviewer should know' }`),
    `${V2}export const r = inputRequired.elicit({ message: 'Pick', requestedSchema: ${schema(`color: { type: 'string', enum: ['red'] }`)} });`,
    `export const result = { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: { mode: 'url', url: 'https://x', message: 'token' } } } };`,
    `${V1}// requestedSchema: { properties: { password: { type: 'string' } } }\nexport const help = "password: { type: 'string' }";`,
    push(`licenseKey: { type: 'string' }`),
    `${RUNTIME}export const key = elicitUrl({ message: 'Paste your API key on our page', url: 'https://example.com/keys' });`,
  ],
  invalid: [
    {
      code: push(`apiKey: { type: 'string' }`),
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'apiKey', secret: 'an API key', where: 'name', guidance: expectGuidance() },
        },
      ],
    },
    { code: push(`api_key: { type: 'string' }`), errors: [{ messageId: 'sensitiveField' }] },
    {
      // A wallet's seed phrase derives its private keys.
      code: push(`seedPhrase: { type: 'string', title: 'Recovery words' }`),
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'seedPhrase', secret: 'a private key', where: 'name', guidance: expectGuidance() },
        },
      ],
    },
    { code: push(`'API-KEY': { type: 'string' }`), errors: [{ messageId: 'sensitiveField' }] },
    {
      code: push(`value: { type: 'string', title: 'GitHub personal access token' }`),
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'value', secret: 'a token', where: 'title', guidance: expectGuidance() },
        },
      ],
    },
    {
      code: push(`code: { type: 'string', description: 'The one-time code from your authenticator app' }`),
      errors: [
        {
          messageId: 'sensitiveField',
          data: {
            field: 'code',
            secret: 'a one-time code',
            where: 'description',
            guidance: expectGuidance(),
          },
        },
      ],
    },
    {
      code: push(`pin: { type: 'string', format: 'password' }`),
      errors: [
        {
          messageId: 'sensitiveFormat',
          data: { field: 'pin', format: 'password', guidance: expectGuidance() },
        },
      ],
    },
    {
      code: push(`cardNumber: { type: 'string' }, cvv: { type: 'string' }, name: { type: 'string' }`),
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'cardNumber', secret: 'payment data', where: 'name', guidance: expectGuidance() },
        },
        { messageId: 'sensitiveField' },
      ],
    },
    {
      code: `${V1}declare const server: Server;\nconst FIELDS = { password: { type: 'string' } } as const;\nconst requestedSchema = { type: 'object', properties: { ...FIELDS, user: { type: 'string' } } } as const;\nawait server.elicitInput({ message: 'Log in', requestedSchema });`,
      errors: [{ messageId: 'sensitiveField', line: 4 }],
    },
    {
      code: `${V1}declare const server: Server;\nconst params = { mode: 'form', message: 'Log in', requestedSchema: ${schema(`passphrase: { type: 'string' }`)} } as const;\nawait server.elicitInput(params);`,
      errors: [{ messageId: 'sensitiveField', line: 4 }],
    },
    {
      code: `${V1}export const tool = async (_a: unknown, extra: any) => extra.sendRequest({ method: 'elicitation/create', params: { message: 'Key', requestedSchema: ${schema(`secretKey: { type: 'string' }`)} } }, {} as never);`,
      errors: [{ messageId: 'sensitiveField' }],
    },
    {
      code: `export const result = { resultType: 'input_required', inputRequests: { key: { method: 'elicitation/create', params: { mode: 'form', message: 'Key', requestedSchema: ${schema(`clientSecret: { type: 'string' }`)} } } } };`,
      errors: [{ messageId: 'sensitiveField' }],
    },
    {
      code: `${V2}import { z } from 'zod';\nexport const r = inputRequired.elicit({ message: 'Connect', requestedSchema: z.object({ refreshToken: z.string() }) });`,
      errors: [{ messageId: 'sensitiveField' }],
    },
    {
      code: `${V2}import { z } from 'zod';\nconst Login = z.object({ user: z.string(), secret: z.string().describe('Your password') }).strict();\nexport const r = inputRequired.elicit({ message: 'Log in', requestedSchema: Login });`,
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'secret', secret: 'a secret', where: 'name', guidance: expectGuidance() },
        },
      ],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.elicitInput({ message: 'Bank', requestedSchema: ${schema(`iban: { type: 'string' }`)} });`,
      errors: [{ messageId: 'sensitiveField' }],
    },
    {
      code: push(`licenseKey: { type: 'string' }`),
      options: [{ extraTerms: ['license key'] }],
      errors: [{ messageId: 'sensitiveField' }],
    },
    {
      code: `${RUNTIME}export const ask = elicitForm({ message: 'Connect', requestedSchema: ${schema(`password: { type: 'string' }`)} });`,
      errors: [
        {
          messageId: 'sensitiveField',
          data: { field: 'password', secret: 'a password', where: 'name', guidance: expectGuidance() },
        },
      ],
    },
  ],
});

function expectGuidance(): string {
  return 'Ask for secrets with a URL-mode elicitation that opens a page of your own server, never in a form.';
}

typedRuleTester.run('no-sensitive-form-fields (type-aware)', rule, {
  valid: [
    {
      code: `class Wizard { server = { elicitInput: (_p: unknown) => undefined }; }\nnew Wizard().server.elicitInput({ message: 'x', requestedSchema: ${schema(`password: { type: 'string' }`)} });`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V1}export const ask = (mcp: McpServer) => { const low = mcp.server; return low.elicitInput({ message: 'x', requestedSchema: ${schema(`ssn: { type: 'string' }`)} }); };`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'sensitiveField' }],
    },
  ],
});
