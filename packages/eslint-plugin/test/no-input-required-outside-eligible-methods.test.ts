import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-input-required-outside-eligible-methods.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const ask = `{ q: { method: 'elicitation/create', params: { message: 'Which?', requestedSchema: { type: 'object', properties: {} } } } }`;
const LITERAL = `({ resultType: 'input_required', inputRequests: ${ask} })`;
const SDK = `inputRequired({ inputRequests: { q: inputRequired.elicit({ message: 'Which?', requestedSchema: { type: 'object', properties: {} } }) } })`;
const V1_TYPES = `import { CallToolRequestSchema, CompleteRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, SubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';\n`;
const RUNTIME_HTTP = `import { defineTool, definePrompt } from '@mcp-mrtr/runtime/http';\n`;

ruleTester.run('no-input-required-outside-eligible-methods', rule, {
  valid: [
    `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async () => ${SDK});`,
    `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerPrompt('p', {}, async () => ${SDK});`,
    `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerResource('r', 'notes://today', {}, async () => ${SDK});`,
    `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(CallToolRequestSchema, async () => ${LITERAL});`,
    `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(ReadResourceRequestSchema, async () => ${LITERAL});`,
    `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.server.setRequestHandler('prompts/get', async () => ${LITERAL});`,
    `${RUNTIME_HTTP}export const tool = defineTool({ handler: (_args, round) => round.inputRequired({ inputRequests: ${ask} }) });`,
    `${RUNTIME_HTTP}export const prompt = definePrompt({ handler: (_args, round) => round.inputRequired({ inputRequests: ${ask} }) });`,
    `export function handle(method: string) {\n  switch (method) {\n    case 'tools/call':\n      return ${LITERAL};\n    default:\n      return { resultType: 'complete' };\n  }\n}`,
    `export function handle(request: { method: string }) {\n  if (request.method === 'resources/read') return ${LITERAL};\n  return undefined;\n}`,
    // Where the code is served cannot be seen: not reported.
    `export function ask() { return ${LITERAL}; }`,
    // A list handler that asks for nothing, and a tools/list result whose tools mention input_required.
    `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'input_required', inputSchema: { type: 'object' } }] }));`,
    // A helper defined in a list handler's file but registered as a tool.
    `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nconst callTool = async () => ${LITERAL};\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));\nserver.setRequestHandler(CallToolRequestSchema, callTool);`,
    // The task status vocabulary is not an MRTR result.
    `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [], task: { status: 'input_required' } }));`,
  ],
  invalid: [
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(ListToolsRequestSchema, async () => ${LITERAL});`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'tools/list', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(CompleteRequestSchema, async () => ${LITERAL});`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'completion/complete', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(SubscribeRequestSchema, async () => ${LITERAL});`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'resources/subscribe', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.server.setRequestHandler('tools/list', async () => ${SDK});`,
      errors: [{ messageId: 'ineligible' }],
    },
    {
      code: `${V2}import { z } from 'zod';\nconst Search = z.object({ method: z.literal('acme/search'), params: z.object({}) });\nconst server = new McpServer({ name: 's', version: '1' });\nserver.server.setRequestHandler(Search, async () => ${SDK});`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'acme/search', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V2}import { ResourceTemplate } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.registerResource('r', new ResourceTemplate('notes://{day}', { list: async () => ${SDK} }), {}, async () => ({ contents: [] }));`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'resources/list', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V2}import { ResourceTemplate } from '@modelcontextprotocol/server';\nconst server = new McpServer({ name: 's', version: '1' });\nserver.registerResource('r', new ResourceTemplate('notes://{day}', { list: undefined, complete: { day: async () => ${SDK} } }), {}, async () => ({ contents: [] }));`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'completion/complete', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `${V2}import { completable } from '@modelcontextprotocol/server';\nimport { z } from 'zod';\nexport const arg = completable(z.string(), async () => ${SDK});`,
      errors: [
        {
          messageId: 'ineligible',
          data: { method: 'completion/complete', eligible: 'tools/call, resources/read, prompts/get' },
        },
      ],
    },
    {
      code: `export function handle(method: string) {\n  switch (method) {\n    case 'prompts/list':\n      return ${LITERAL};\n    default:\n      return { resultType: 'complete' };\n  }\n}`,
      errors: [{ messageId: 'ineligible', line: 4 }],
    },
    {
      code: `export function handle(request: { method: string }) {\n  if (request.method === 'completion/complete') return ${LITERAL};\n  return undefined;\n}`,
      errors: [{ messageId: 'ineligible' }],
    },
    {
      code: `export const handlers = {\n  'tools/call': async () => ({ content: [] }),\n  'resources/list': async () => ${LITERAL},\n};`,
      errors: [{ messageId: 'ineligible', line: 3 }],
    },
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nasync function listTools() {\n  return ${LITERAL};\n}\nserver.setRequestHandler(ListToolsRequestSchema, listTools);`,
      errors: [{ messageId: 'ineligible', line: 6 }],
    },
    {
      code: `${RUNTIME_HTTP}${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(ListToolsRequestSchema, async (request) => (request.params?.cursor ? { tools: [] } : ${LITERAL}));`,
      errors: [{ messageId: 'ineligible' }],
    },
  ],
});

typedRuleTester.run('no-input-required-outside-eligible-methods (type-aware)', rule, {
  valid: [
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async () => ${SDK});`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.server.setRequestHandler('tools/list', async () => ${SDK});`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'ineligible' }],
    },
  ],
});
