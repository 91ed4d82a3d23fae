import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/valid-input-required-result.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const request = `{ method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } }`;
const returned = (body: string) => `export function handler() {\n  return ${body};\n}`;
const RUNTIME = `import { elicitForm, type ToolHandler } from '@mcp-mrtr/runtime';\nconst ask = elicitForm({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } });\n`;

ruleTester.run('valid-input-required-result', rule, {
  valid: [
    returned(`{ resultType: 'input_required', inputRequests: { name: ${request} } }`),
    returned(`{ resultType: 'input_required', requestState: sealed }`).replace(
      'export',
      'declare const sealed: string;\nexport',
    ),
    returned(
      `{ resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }, r: { method: 'roots/list' } } }`,
    ),
    `${V2}export const r = inputRequired({ inputRequests: { name: inputRequired.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }) } });`,
    `${RUNTIME}export const tool: ToolHandler = (_args, round) => round.inputRequired({ inputRequests: { name: ask } });`,
    `${RUNTIME}export const tool: ToolHandler<object, { step: number }> = (_args, round) => round.inputRequired({ state: { step: 2 } });`,
    // Stable computed keys: a constant, a loop index carried in state.
    `const KEY = 'name';\n${returned(`{ resultType: 'input_required', inputRequests: { [KEY]: ${request} } }`)}`,
    `declare const state: { index: number };\n${returned(`{ resultType: 'input_required', inputRequests: { [\`item-\${state.index}\`]: ${request} } }`)}`,
    // Conditional pieces: what is asked depends on what is missing.
    `${RUNTIME}declare const name: unknown;\nexport const tool: ToolHandler = (_args, round) => round.inputRequired({ inputRequests: { ...(!name && { name: ask }) }, state: { asked: true } });`,
    // Not results: a complete result, a pattern in a test, a task status, timestamps in state.
    returned(`{ resultType: 'complete', content: [] }`),
    `declare const expect: (v: unknown) => { toMatchObject(o: object): void };\nexpect({}).toMatchObject({ resultType: 'input_required' });`,
    returned(`{ status: 'input_required', taskId: 't' }`),
    returned(
      `{ resultType: 'input_required', inputRequests: { name: ${request} }, requestState: seal({ at: Date.now() }) }`,
    ).replace('export', 'declare function seal(v: object): string;\nexport'),
    // Spreads we cannot see into may hold anything.
    `declare const rest: object;\n${returned(`{ resultType: 'input_required', ...rest }`)}`,
    // A variable filled after it is declared (one request per missing argument) is present.
    `declare const missing: string[];\nexport function handler() {\n  const inputRequests: Record<string, unknown> = {};\n  for (const name of missing) inputRequests[name] = ${request};\n  return { resultType: 'input_required', inputRequests };\n}`,
    `declare function collect(): Record<string, unknown>;\nexport function handler() {\n  const pending = collect();\n  return { resultType: 'input_required', inputRequests: pending };\n}`,
    `${V2}declare const missing: string[];\nexport function tool() {\n  const inputRequests = {};\n  for (const name of missing) Object.assign(inputRequests, { [name]: inputRequired.elicit({ message: name, requestedSchema: { type: 'object', properties: {} } }) });\n  return inputRequired({ inputRequests });\n}`,
  ],
  invalid: [
    {
      code: returned(`{ resultType: 'input_required' }`),
      errors: [{ messageId: 'empty', line: 2 }],
    },
    {
      code: returned(`{ resultType: 'input_required', inputRequests: {} }`),
      errors: [{ messageId: 'empty' }],
    },
    {
      code: returned(`{ resultType: 'input_required', inputRequests: {}, requestState: undefined }`),
      errors: [{ messageId: 'empty' }],
    },
    {
      code: `${V2}export const r = inputRequired({ inputRequests: {} });`,
      errors: [{ messageId: 'empty' }],
    },
    {
      code: `${RUNTIME}export const tool: ToolHandler = (_args, round) => round.inputRequired({ inputRequests: {} });`,
      errors: [{ messageId: 'empty' }],
    },
    {
      code: returned(
        `{ resultType: 'input_required', inputRequests: { name: { method: 'elicitation/request', params: {} } } }`,
      ),
      errors: [
        {
          messageId: 'unknownMethod',
          data: {
            key: 'name',
            method: 'elicitation/request',
            methods: 'elicitation/create, sampling/createMessage, roots/list',
          },
        },
      ],
    },
    {
      code: returned(
        `{ resultType: 'input_required', inputRequests: { call: { method: 'tools/call', params: { name: 'x' } } } }`,
      ),
      errors: [{ messageId: 'unknownMethod' }],
    },
    {
      code: `import { randomUUID } from 'node:crypto';\n${returned(`{ resultType: 'input_required', inputRequests: { [randomUUID()]: ${request} } }`)}`,
      errors: [{ messageId: 'unstableKey', data: { source: 'randomUUID()' } }],
    },
    {
      code: returned(
        `{ resultType: 'input_required', inputRequests: { [\`confirm-\${Date.now()}\`]: ${request} } }`,
      ),
      errors: [{ messageId: 'unstableKey', data: { source: 'Date.now()' } }],
    },
    {
      code: `const key = 'q' + Math.random().toString(36);\n${returned(`{ resultType: 'input_required', inputRequests: { [key]: ${request} } }`)}`,
      errors: [{ messageId: 'unstableKey', data: { source: 'Math.random()' } }],
    },
    {
      code: `let counter = 0;\n${returned(`{ resultType: 'input_required', inputRequests: { [\`q\${counter++}\`]: ${request} } }`)}`,
      errors: [{ messageId: 'unstableKey', data: { source: 'a counter' } }],
    },
    {
      code: `${V2}import { nanoid } from 'nanoid';\nexport const r = inputRequired({ inputRequests: { [nanoid()]: inputRequired.listRoots() } });`,
      errors: [{ messageId: 'unstableKey', data: { source: 'nanoid()' } }],
    },
    {
      code: returned(`{ resultType: 'input-required', inputRequests: { name: ${request} } }`),
      errors: [
        {
          messageId: 'misspelledResultType',
          data: { value: 'input-required' },
          suggestions: [
            {
              messageId: 'fixResultType',
              output: returned(`{ resultType: 'input_required', inputRequests: { name: ${request} } }`),
            },
          ],
        },
      ],
    },
    {
      code: returned(`{ resultType: 'InputRequired', requestState: 'x' }`),
      errors: [
        {
          messageId: 'misspelledResultType',
          suggestions: [
            {
              messageId: 'fixResultType',
              output: returned(`{ resultType: 'input_required', requestState: 'x' }`),
            },
          ],
        },
      ],
    },
    {
      code: returned(`{ resultType: 'input_required', inputRequest: { name: ${request} } }`),
      errors: [
        {
          messageId: 'misspelledKey',
          data: { key: 'inputRequest', expected: 'inputRequests' },
          suggestions: [
            {
              messageId: 'fixKey',
              data: { expected: 'inputRequests' },
              output: returned(`{ resultType: 'input_required', inputRequests: { name: ${request} } }`),
            },
          ],
        },
      ],
    },
    {
      code: `declare const state: string;\n${returned(`{ resultType: 'input_required', request_state: state }`)}`,
      errors: [
        {
          messageId: 'misspelledKey',
          data: { key: 'request_state', expected: 'requestState' },
          suggestions: [
            {
              messageId: 'fixKey',
              data: { expected: 'requestState' },
              output: `declare const state: string;\n${returned(`{ resultType: 'input_required', requestState: state }`)}`,
            },
          ],
        },
      ],
    },
    {
      code: `${V2}declare const inputrequests: never;\nexport const r = inputRequired({ inputrequests });`,
      errors: [{ messageId: 'misspelledKey', suggestions: [] }],
    },
  ],
});

typedRuleTester.run('valid-input-required-result (type-aware)', rule, {
  valid: [
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { name: inputRequired.listRoots() } });`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { [crypto.randomUUID()]: inputRequired.listRoots() } });`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'unstableKey', data: { source: 'randomUUID()' } }],
    },
  ],
});
