import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/valid-elicitation-schema.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const RUNTIME = `import { elicitForm, elicitUrl } from '@mcp-mrtr/runtime';\n`;
/** A literal input request with these params, inside an input_required result. */
const literal = (params: string) =>
  `export const result = { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { ${params} } } } };`;
const form = (properties: string, extra = '') =>
  literal(`message: 'Tell us', requestedSchema: { type: 'object', properties: { ${properties} }${extra} }`);

ruleTester.run('valid-elicitation-schema', rule, {
  valid: [
    // Every shape the subset allows.
    form(
      `name: { type: 'string', title: 'Name', minLength: 1, maxLength: 40, default: 'Ada' }`,
      `, required: ['name']`,
    ),
    form(`email: { type: 'string', format: 'email' }, site: { type: 'string', format: 'uri' }`),
    form(`when: { type: 'string', format: 'date' }, at: { type: 'string', format: 'date-time' }`),
    form(
      `count: { type: 'integer', minimum: 1, maximum: 5, default: 2 }, ratio: { type: 'number', minimum: -1.5 }`,
    ),
    form(`ok: { type: 'boolean', default: false, description: 'Tick to confirm' }`),
    form(`env: { type: 'string', enum: ['staging', 'production'], default: 'staging' }`),
    form(
      `env: { type: 'string', oneOf: [{ const: 'stg', title: 'Staging' }, { const: 'prd', title: 'Production' }] }`,
    ),
    form(`tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, default: ['a'] }`),
    // The SDK v2 builder and the runtime's, and a push call's params.
    `${V2}export const q = inputRequired.elicit({ message: 'Pick', requestedSchema: { type: 'object', properties: { color: { type: 'string' } } } });`,
    `${RUNTIME}export const q = elicitForm({ message: 'Pick', requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });`,
    `${V1}declare const server: Server;\nawait server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });`,
    // What the code computes at run time is not judged: a zod schema, a shared schema, a spread.
    `${V2}import { z } from 'zod';\nexport const q = inputRequired.elicit({ message: 'Pick', requestedSchema: z.object({ color: z.string() }) });`,
    `declare const schema: object;\n${literal(`message: 'Tell us', requestedSchema: schema`)}`,
    `declare const extra: object;\n${form(`name: { type: 'string', ...extra }`)}`,
    `declare const base: { message: string };\n${literal(`...base, requestedSchema: { type: 'object', properties: {} }`)}`,
    // URL mode takes no schema (its own rule checks it).
    literal(`mode: 'url', message: 'Connect', url: 'https://example.com/connect'`),
    `${RUNTIME}export const q = elicitUrl({ message: 'Connect', url: 'https://example.com/connect' });`,
    // Look-alikes: a tool's input schema, a JSON Schema for something else, a client handler.
    `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nmcp.registerTool('t', { inputSchema: { nested: {} as never } }, async () => ({ content: [] }));`,
    `export const requestSchema = { method: 'tools/call', params: { requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } } };`,
    `class Wizard { elicitInput(_p: unknown) {} }\nnew Wizard().elicitInput({ requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } });`,
  ],
  invalid: [
    {
      code: form(`address: { type: 'object', properties: { street: { type: 'string' } } }`),
      errors: [
        {
          messageId: 'invalidSchema',
          data: {
            pointer: '/properties/address/type',
            problem: 'Nested objects are not allowed; the form must be a flat object of primitive fields.',
          },
        },
      ],
    },
    {
      code: form(`people: { type: 'array', items: { type: 'object', properties: {} } }`),
      errors: [
        {
          messageId: 'invalidSchema',
          data: {
            pointer: '/properties/people/items/type',
            problem: 'Arrays of objects or of arrays are not allowed; a multi-select lists string options.',
          },
        },
      ],
    },
    {
      code: form(`code: { type: 'string', pattern: '^[0-9]+$' }`),
      errors: [{ messageId: 'invalidSchema', line: 1 }],
    },
    {
      code: form(`phone: { type: 'string', format: 'phone' }`),
      errors: [
        {
          messageId: 'invalidSchema',
          data: {
            pointer: '/properties/phone/format',
            problem: '"format" must be one of email, uri, date, date-time, not "phone".',
          },
        },
      ],
    },
    {
      code: form(`n: { type: 'integer', minimum: 5, maximum: 1 }`),
      errors: [{ messageId: 'invalidSchema' }],
    },
    {
      code: form(`n: { type: 'integer', exclusiveMinimum: 0 }`),
      errors: [{ messageId: 'invalidSchema' }],
    },
    {
      code: form(`env: { type: 'string', enum: ['a', 'b'], default: 'c' }`),
      errors: [
        {
          messageId: 'invalidSchema',
          data: { pointer: '/properties/env/default', problem: '"default" "c" is not one of the options.' },
        },
      ],
    },
    {
      code: form(`a: { type: 'string' }`, `, required: ['b']`),
      errors: [
        {
          messageId: 'invalidSchema',
          data: { pointer: '/required/0', problem: '"required" names "b", which is not in "properties".' },
        },
      ],
    },
    {
      code: literal(`message: 'Tell us', requestedSchema: { type: 'array', items: { type: 'string' } }`),
      errors: [
        { messageId: 'invalidSchema' },
        { messageId: 'invalidSchema' },
        { messageId: 'invalidSchema' },
      ],
    },
    {
      code: literal(`requestedSchema: { type: 'object', properties: {} }`),
      errors: [{ messageId: 'missingMessage' }],
    },
    {
      code: literal(`mode: 'form', message: 'Tell us'`),
      errors: [{ messageId: 'missingSchema' }],
    },
    {
      code: literal(`mode: 'browser', message: 'Go', url: 'https://example.com'`),
      errors: [{ messageId: 'invalidMode', data: { mode: '"browser"' } }],
    },
    {
      code: `${V2}export const q = inputRequired.elicit({ message: 'Where?', requestedSchema: { type: 'object', properties: { at: { type: 'object' } } } });`,
      errors: [{ messageId: 'invalidSchema', line: 2 }],
    },
    {
      code: `${RUNTIME}const askSize = elicitForm({\n  message: 'Size?',\n  requestedSchema: { type: 'object', properties: { size: { type: 'string', enum: [] } } },\n});`,
      errors: [
        {
          messageId: 'invalidSchema',
          line: 4,
          data: { pointer: '/properties/size/enum', problem: '"enum" must be a non-empty array of strings.' },
        },
      ],
    },
    {
      // The finding points at the deepest part of the schema that is written: `enum`, not the item.
      code: form(
        `tags: {\n  type: 'array',\n  items: {\n    type: 'string',\n    enum: [\n      'a',\n      7,\n    ],\n  },\n}`,
      ),
      errors: [{ messageId: 'invalidSchema', line: 5, column: 5 }],
    },
    {
      // A property spread in from a const is reported where it is written, in the const.
      code: `const base = {\n  when: { type: 'string', format: 'time' },\n} as const;\n${form(`...base, name: { type: 'string' }`)}`,
      errors: [
        {
          messageId: 'invalidSchema',
          line: 2,
          column: 27,
          data: {
            pointer: '/properties/when/format',
            problem: '"format" must be one of email, uri, date, date-time, not "time".',
          },
        },
      ],
    },
    {
      // A schema kept in a const is followed, and the finding points into it.
      code: `const nested = { type: 'object', properties: { inner: { type: 'object' } } } as const;\n${literal(`message: 'Tell us', requestedSchema: nested`)}`,
      errors: [{ messageId: 'invalidSchema', line: 1 }],
    },
    {
      code: `${V1}declare const server: Server;\nawait server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'bool' } } } });`,
      errors: [{ messageId: 'invalidSchema' }],
    },
  ],
});

typedRuleTester.run('valid-elicitation-schema (type-aware)', rule, {
  valid: [
    {
      code: `${V2}export const q = inputRequired.elicit({ message: 'Pick', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } });`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}export const q = inputRequired.elicit({ message: 'Pick', requestedSchema: { type: 'object', properties: { n: { type: 'number', multipleOf: 2 } } } as never });`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'invalidSchema' }],
    },
  ],
});
