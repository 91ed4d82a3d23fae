import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/valid-url-elicitation.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const RUNTIME = `import { elicitForm, elicitUrl } from '@mcp-mrtr/runtime';\n`;
const literal = (params: string) =>
  `export const result = { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { ${params} } } } };`;
const url = (value: string) => literal(`mode: 'url', message: 'Connect your account.', url: ${value}`);
const sdkUrl = (value: string) =>
  `${V2}export const q = inputRequired.elicitUrl({ message: 'Connect your account.', url: ${value} });`;
const form = (params: string) => literal(`message: 'Tell us', ${params}`);

ruleTester.run('valid-url-elicitation', rule, {
  valid: [
    url(`'https://mcp.example.com/connect?ticket=opaque-one-time-ticket'`),
    url(`'http://localhost:3000/connect'`),
    url(`'http://127.0.0.1:8080/connect?state=abc'`),
    sdkUrl(`'https://mcp.example.com/ui/set_api_key'`),
    `${RUNTIME}declare const ticket: string;\nexport const q = elicitUrl({ message: 'Connect', url: \`https://mcp.example.com/connect?ticket=\${ticket}\` });`,
    // Interpolations could be anything: an unknown host or parameter name is not judged.
    `declare const base: string;\n${url('`${base}/connect?ticket=1`')}`,
    `declare const host: string;\n${url('`http://${host}/connect`')}`,
    `declare const name: string;\n${url('`https://example.com/c?${name}=1`')}`,
    `declare const link: string;\n${url('link')}`,
    {
      code: url(`'https://example.com/connect?session=1'`),
      options: [{ allow: ['session'] }],
    },
    // Forms without clickable URLs; a field that asks for a URL may show one as an example.
    form(
      `requestedSchema: { type: 'object', properties: { site: { type: 'string', format: 'uri', description: 'e.g. https://example.com' } } }`,
    ),
    form(
      `requestedSchema: { type: 'object', properties: { host: { type: 'string', title: 'Host name (example.com)' } } }`,
    ),
    // A shape without a url is not a request: the capability probe round.supports() takes.
    `declare const round: { supports(r: unknown): boolean };\nconst URL_ELICITATION = { method: 'elicitation/create', params: { mode: 'url' } } as const;\nexport const ok = round.supports(URL_ELICITATION);`,
    // Look-alikes: a URL in a tool result, in a sampling request, in a non-elicitation object.
    `export const result = { content: [{ type: 'text', text: 'Open https://example.com/help' }] };`,
    `export const result = { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise http://example.com' } }], maxTokens: 9 } } } };`,
    `export const link = { mode: 'url', url: 'http://example.com/?token=1', message: 'x' };`,
    // Concatenations: the static prefix decides; what is appended is unknown and not judged.
    `declare const ticket: string;\n${url(`'https://auth.example.com/connect?ticket=' + ticket`)}`,
    `declare const base: string;\n${url(`base + '/connect?ticket=t'`)}`,
    `declare const host: string;\n${url(`'http://' + host + '/connect'`)}`,
  ],
  invalid: [
    {
      code: `declare const ticket: string;\n${url(`'http://auth.example.com/connect?ticket=' + ticket`)}`,
      errors: [{ messageId: 'insecureUrl' }],
    },
    {
      code: `declare const ticket: string;\nconst prefix = 'http://auth.example.com/connect';\n${url(`prefix + '?ticket=' + ticket`)}`,
      errors: [{ messageId: 'insecureUrl' }],
    },
    {
      code: url(`'http://mcp.example.com/connect'`),
      errors: [
        {
          messageId: 'insecureUrl',
          data: {
            problem: 'A URL elicitation must use https (http only on localhost), not http://mcp.example.com.',
          },
        },
      ],
    },
    {
      code: url(`'https://mcp.example.com/connect?access_token=abc'`),
      errors: [{ messageId: 'sensitiveQuery' }],
    },
    {
      code: url(`'https://mcp.example.com/connect?email=ada%40example.com'`),
      errors: [
        {
          messageId: 'sensitiveQuery',
          data: {
            problem:
              'A URL elicitation must not carry personal data (email) in the URL (parameter "email"); use an opaque one-time ticket bound to the user.',
          },
        },
      ],
    },
    { code: url(`'https://mcp.example.com/callback?code=xyz'`), errors: [{ messageId: 'sensitiveQuery' }] },
    { code: url(`'https://ada:pw@mcp.example.com/connect'`), errors: [{ messageId: 'credentialsInUrl' }] },
    {
      code: url(`'https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Signature=abc'`),
      errors: [{ messageId: 'preAuthenticatedUrl' }],
    },
    { code: url(`'/connect'`), errors: [{ messageId: 'relativeUrl' }] },
    {
      code: `declare const key: string;\n${sdkUrl('`https://mcp.example.com/connect?api_key=${key}`')}`,
      errors: [{ messageId: 'sensitiveQuery', line: 3 }],
    },
    {
      code: `declare const port: number;\n${url('`http://mcp.example.com:${port}/connect`')}`,
      errors: [{ messageId: 'insecureUrl' }],
    },
    {
      code: literal(`mode: 'url', url: 'https://mcp.example.com/connect'`),
      errors: [{ messageId: 'missingMessage' }],
    },
    {
      code: `${RUNTIME}const CONNECT = 'http://auth.example.com/connect?password=x';\nexport const q = elicitUrl({ message: 'Connect', url: CONNECT });`,
      errors: [{ messageId: 'insecureUrl' }, { messageId: 'sensitiveQuery' }],
    },
    {
      code: `${V1}declare const server: Server;\nawait server.elicitInput({ mode: 'url', message: 'Pay', url: 'https://pay.example.com/?token=1', elicitationId: 'e' });`,
      errors: [{ messageId: 'sensitiveQuery' }],
    },
    {
      code: form(`requestedSchema: { type: 'object', properties: {} }, mode: 'form'`).replace(
        "message: 'Tell us'",
        "message: 'Read https://example.com/terms first'",
      ),
      errors: [{ messageId: 'urlInForm', data: { where: 'message', url: 'https://example.com/terms' } }],
    },
    {
      code: form(
        `requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', description: 'See http://example.com/terms' } } }`,
      ),
      errors: [
        {
          messageId: 'urlInForm',
          data: { where: 'description of field "ok"', url: 'http://example.com/terms' },
        },
      ],
    },
    {
      code: `${RUNTIME}declare const id: string;\nexport const q = elicitForm({ message: \`Approve at https://example.com/approve/\${id}\`, requestedSchema: { type: 'object', properties: {} } });`,
      errors: [{ messageId: 'urlInForm' }],
    },
    {
      code: `${V2}export const q = inputRequired.elicit({ message: 'Pick', requestedSchema: { type: 'object', properties: { plan: { type: 'string', title: 'Plan (https://example.com/pricing)' } } } });`,
      errors: [{ messageId: 'urlInForm' }],
    },
  ],
});

typedRuleTester.run('valid-url-elicitation (type-aware)', rule, {
  valid: [{ code: sdkUrl(`'https://mcp.example.com/connect?ticket=t'`), filename: TYPED_FILE }],
  invalid: [
    {
      code: sdkUrl(`'http://mcp.example.com/connect?token=t'`),
      filename: TYPED_FILE,
      errors: [{ messageId: 'insecureUrl' }, { messageId: 'sensitiveQuery' }],
    },
  ],
});
