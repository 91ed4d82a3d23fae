import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-wait-for-elicitation-complete.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const V2_CLIENT = `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client({ name: 'c', version: '1' });\n`;
const METHOD = `'notifications/elicitation/complete'`;
const GUIDANCE =
  'After the user consents, retry the original request: the server says whether the URL-mode step completed (its result) or not yet (input_required again).';
const data = { method: 'notifications/elicitation/complete', guidance: GUIDANCE };

ruleTester.run('no-wait-for-elicitation-complete', rule, {
  valid: [
    // The retry tells the client the outcome.
    `${V2_CLIENT}declare function openInBrowser(url: string): Promise<void>;\nclient.setRequestHandler('elicitation/create', async (request) => {\n  if (request.params.mode === 'url') await openInBrowser(request.params.url);\n  return { action: 'accept' };\n});`,
    // Registering the handler is no-elicitation-complete-notification's finding, not this rule's.
    `${V2_CLIENT}client.setNotificationHandler(${METHOD}, () => undefined);`,
    `${V2_CLIENT}client.removeNotificationHandler(${METHOD});`,
    // Sending it is also the other rule's.
    `${V1}declare const server: Server;\nawait server.notification({ method: ${METHOD}, params: { elicitationId: 'e' } });`,
    // Other notifications, and the method named in text.
    `${V2_CLIENT}client.fallbackNotificationHandler = async (n) => {\n  if (n.method === 'notifications/progress') console.error(n.params);\n};`,
    `export const docs = 'Servers no longer send notifications/elicitation/complete.';`,
    `export const removed = [${METHOD}];`,
    // A server awaiting its own callback (legacy), not a client waiting.
    `${V1}declare const server: Server;\ndeclare const flow: { begin(id: string): Promise<string> };\nexport async function connect(elicitationId: string) {\n  await server.elicitInput({ mode: 'url', message: 'Go', url: 'https://x.example', elicitationId });\n  return flow.begin(elicitationId);\n}`,
    // A client that only shows the id, or awaits something else.
    `${V2_CLIENT}declare function show(text: string): Promise<void>;\nclient.setRequestHandler('elicitation/create', async (request) => {\n  console.error((request.params as { elicitationId?: string }).elicitationId);\n  await show(request.params.message);\n  return { action: 'accept' };\n});`,
    `import { ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';\nexport const schemaName = ElicitationCompleteNotificationSchema.description;`,
    `import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';\ndeclare const message: unknown;\nexport const isElicit = ElicitRequestSchema.safeParse(message).success;`,
    `declare const state: { elicitationId?: string };\nexport async function server() {\n  await Promise.resolve(state.elicitationId);\n}`,
    // The id recorded as data in a row written to a store: nothing waits on it.
    `${V2_CLIENT}declare const db: { mutation(name: string, row: object): Promise<void> };\nclient.setRequestHandler('elicitation/create', async (request) => {\n  await db.mutation('elicitations:create', { message: request.params.message, serverElicitationId: (request.params as { elicitationId?: string }).elicitationId, ...((request.params as { elicitationId?: string }).elicitationId ? { tracked: true } : {}) });\n  return { action: 'accept' };\n});`,
  ],
  invalid: [
    {
      code: `${V2_CLIENT}client.fallbackNotificationHandler = async (n) => {\n  if (n.method === ${METHOD}) console.error('done');\n};`,
      errors: [{ messageId: 'dispatch', line: 4, data }],
    },
    {
      code: `declare const transport: { onmessage?: (m: { method?: string }) => void };\ntransport.onmessage = (message) => {\n  switch (message.method) {\n    case ${METHOD}:\n      break;\n  }\n};`,
      errors: [{ messageId: 'dispatch', line: 4, data }],
    },
    {
      code: `declare const events: { once(name: string): Promise<unknown> };\nexport const done = events.once(${METHOD});`,
      errors: [{ messageId: 'dispatch', data }],
    },
    {
      code: `import { once } from 'node:events';\ndeclare const emitter: import('node:events').EventEmitter;\nexport const done = once(emitter, ${METHOD});`,
      errors: [{ messageId: 'dispatch', data }],
    },
    {
      code: `export const handlers = {\n  ${METHOD}: (params: unknown) => console.error(params),\n};`,
      errors: [{ messageId: 'dispatch', line: 2, data }],
    },
    {
      code: `declare const n: { method: string };\nexport const isComplete = ${METHOD} == n.method;`,
      errors: [{ messageId: 'dispatch', data }],
    },
    {
      code: `import { ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';\ndeclare const message: unknown;\nexport const done = ElicitationCompleteNotificationSchema.safeParse(message).success;`,
      errors: [
        {
          messageId: 'schemaMatch',
          data: { ...data, schema: 'ElicitationCompleteNotificationSchema', call: 'safeParse' },
        },
      ],
    },
    {
      code: `import { ElicitationCompleteNotificationSchema as Done } from '@modelcontextprotocol/core';\ndeclare const message: unknown;\nexport const done = () => Done.parse(message);`,
      errors: [
        {
          messageId: 'schemaMatch',
          data: { ...data, schema: 'ElicitationCompleteNotificationSchema', call: 'parse' },
        },
      ],
    },
    {
      code: `${V2_CLIENT}declare function openInBrowser(url: string): Promise<void>;\ndeclare const completions: Map<string, Promise<void>>;\nclient.setRequestHandler('elicitation/create', async (request) => {\n  const params = request.params as { url: string; elicitationId: string };\n  await openInBrowser(params.url);\n  await completions.get(params.elicitationId);\n  return { action: 'accept' };\n});`,
      errors: [{ messageId: 'elicitationId', line: 8, data }],
    },
    {
      code: `import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nimport { Client } from '@modelcontextprotocol/sdk/client/index.js';\ndeclare const client: Client;\ndeclare function waitForCompletion(id: string): Promise<void>;\nclient.setRequestHandler(ElicitRequestSchema, async (request) => {\n  if (request.params.mode === 'url') await waitForCompletion(request.params.elicitationId);\n  return { action: 'accept' };\n});`,
      errors: [{ messageId: 'elicitationId', line: 6, data }],
    },
    {
      code: `${V2_CLIENT}declare const pending: Map<string, () => void>;\nexport async function waitFor(elicitationId: string) {\n  await new Promise<void>((resolve) => pending.set(elicitationId, resolve));\n}`,
      errors: [{ messageId: 'elicitationId', line: 5, data }],
    },
    {
      code: `import type { InputHandlers } from '@mcp-mrtr/runtime/client';\ndeclare function completed(id: string): Promise<boolean>;\nexport const url: InputHandlers['url'] = {\n  consent: async () => 'accept',\n  open: async (target) => {\n    const elicitationId = new URL(target).searchParams.get('elicitation') ?? '';\n    await completed(elicitationId);\n  },\n};`,
      errors: [{ messageId: 'elicitationId', line: 7, data }],
    },
  ],
});

typedRuleTester.run('no-wait-for-elicitation-complete (type-aware)', rule, {
  valid: [
    { code: `${V2_CLIENT}client.setNotificationHandler(${METHOD}, () => undefined);`, filename: TYPED_FILE },
  ],
  invalid: [
    {
      code: `${V2_CLIENT}client.fallbackNotificationHandler = async (n) => {\n  if (n.method === ${METHOD}) console.error('done');\n};`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'dispatch' }],
    },
  ],
});
