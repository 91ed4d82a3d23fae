import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-unjournaled-effects.js';
import { SYNTAX_ONLY } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);

const PRELUDE = `import { randomUUID } from 'node:crypto';
import { elicitForm, type Round, type ToolHandler } from '@mcp-mrtr/runtime';
declare const store: { update(id: string): Promise<void>; getUser(id: string): Promise<string>; publishMetrics(): void; connect(): Promise<void> }; declare function startSession(): Promise<{ id: string }>;
declare const items: string[];
const confirm = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
let count = 0;
`;
/** A runtime handler; line 8 is the body's first line. */
const tool = (body: string) =>
  `${PRELUDE}export const tool: ToolHandler = async (_args, round) => {\n${body}\n  return { content: [] };\n};`;
const ASK = `  await round.ask('confirm', confirm);`;

/** The same through SDK v1's adapter registration; line 10 is the body's first line. */
const adapter = (body: string) =>
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { elicitForm, Keyring, MrtrRuntime } from '@mcp-mrtr/runtime';
import { SdkV1Adapter } from '@mcp-mrtr/runtime/sdk-v1';
const mrtr = new SdkV1Adapter(new MrtrRuntime({ keyring: Keyring.fromEnv() }));
const confirm = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
declare const world: { record(what: string): void };
export function createServer(server: McpServer) {
  mrtr.registerTool(server, 'book', {}, async (_args, round) => {
    const answer = await round.ask('confirm', confirm);
${body}
    return { content: [] };
  });
}`;

/** Two helpers and a handler; the helpers' first statements are on lines 8 and 12, the handler's on 16. */
const helpers = (first: string, relayed: string, handled: string) =>
  `${PRELUDE}async function confirmIt(round: Round) {\n  const at = ${first};\n  return round.ask('confirm', confirm);\n}\nasync function relay(r) {\n  ${relayed}\n  return confirmIt(r);\n}\nexport const tool: ToolHandler = async (_args, round) => {\n  ${handled}\n  await relay(round);\n  return { content: [] };\n};`;

/** The suggestion to take a value or run a statement in a step under `key`. */
const inStep = (key: string, output: string, round = 'round') => [
  { messageId: 'runInStep' as const, data: { round, key }, output },
];
/** The suggestion to take a value from a step under `key`. */
const fromStep = (key: string, output: string, round = 'round') => [
  { messageId: 'takeFromStep' as const, data: { round, key }, output },
];

ruleTester.run('no-unjournaled-effects', rule, {
  valid: [
    // Per-call values and writes taken from steps.
    tool(
      `  const id = await round.step('id', () => randomUUID());\n  await round.step('update', async () => {\n    await store.update(id);\n    count++;\n  });\n${ASK}`,
    ),
    // After the last question they run in the final round only.
    tool(`${ASK}\n  await store.update('a');\n  const at = Date.now();\n  count++;`),
    adapter(`    world.record(\`answered \${answer.action} at \${Date.now()}\`);`),
    // Reads repeat harmlessly, and so do writes to the handler's own locals.
    tool(
      `  const user = await store.getUser('a');\n  const lines: string[] = [];\n  lines.push(user);\n${ASK}`,
    ),
    // A path that returns before asking.
    tool(
      `  if (items.length === 0) {\n    await store.update('none');\n    return { content: [] };\n  }\n${ASK}`,
    ),
    // The explicit style has no journal: no-side-effects-before-input-required covers it.
    `${PRELUDE}export const tool: ToolHandler = async (_args, round) => {\n  await store.update('a');\n  if (!round.elicitation('confirm', confirm)) return round.inputRequired({ inputRequests: { confirm } });\n  return { content: [] };\n};`,
    // Something else's ask: a parameter that is not the runtime's round.
    `export async function chat(session: { ask(key: string): Promise<string> }) {\n  const at = Date.now();\n  await session.ask(String(at));\n}`,
    // What goes through the round's own request context belongs to this round's request.
    `import type { SdkV2Round } from '@mcp-mrtr/runtime/sdk-v2';\nexport async function whoami(round: SdkV2Round) {\n  const { ctx } = round;\n  await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });\n  await round.ctx.mcpReq.send({ method: 'ping' });\n  await round.ask('go', { method: 'elicitation/create', params: { message: 'Go?', requestedSchema: { type: 'object', properties: {} } } });\n}`,
    // SDK v2's callback types: the second parameter is the SDK's context, which a helper may take.
    `import type { ToolCallback } from '@modelcontextprotocol/server';\ndeclare const store: { update(id: string): Promise<void> };\ndeclare function report(ctx: unknown): Promise<void>;\ndeclare const chat: { ask(question: string): Promise<void> };\nexport const tool: ToolCallback = async (_args, ctx) => {\n  await store.update('a');\n  await report(ctx);\n  await chat.ask('more?');\n  return { content: [] };\n};`,
    // A function defined before the question and called after it.
    tool(`  const stamp = () => Date.now();\n${ASK}\n  stamp();`),
    {
      code: tool(`  store.publishMetrics();\n  await store.connect();\n${ASK}`),
      options: [{ allowCalls: ['publishMetrics', 'connect'] }],
    },
  ],
  invalid: [
    {
      // An awaited call that neither reads nor writes by its name is presumed to write.
      code: tool(`  await store.connect();\n  const session = await startSession();\n${ASK}`),
      errors: [
        {
          messageId: 'presumedEffect',
          data: { what: 'store.connect(…)', line: '10' },
          line: 8,
          suggestions: inStep(
            'store_connect',
            tool(
              `  await round.step('store_connect', async () => {\n    await store.connect();\n  });\n  const session = await startSession();\n${ASK}`,
            ),
          ),
        },
        // Its result is used: a step would need it to be JSON, so there is no suggestion.
        {
          messageId: 'presumedEffect',
          data: { what: 'startSession(…)', line: '10' },
          line: 9,
          suggestions: [],
        },
      ],
    },
    {
      code: tool(`  const id = randomUUID();\n${ASK}`),
      errors: [
        {
          messageId: 'perCallValue',
          data: { what: 'randomUUID()', line: '9' },
          line: 8,
          suggestions: [
            {
              messageId: 'takeFromStep',
              data: { round: 'round', key: 'random_uuid' },
              output: tool(`  const id = await round.step('random_uuid', () => randomUUID());\n${ASK}`),
            },
          ],
        },
      ],
    },
    {
      // A Date is not JSON: the suggestion journals the time.
      code: tool(`  const startedAt = new Date();\n${ASK}`),
      errors: [
        {
          messageId: 'perCallValue',
          data: { what: 'new Date()', line: '9' },
          suggestions: [
            {
              messageId: 'takeFromStep',
              data: { round: 'round', key: 'date' },
              output: tool(
                `  const startedAt = new Date(await round.step('date', () => Date.now()));\n${ASK}`,
              ),
            },
          ],
        },
      ],
    },
    {
      // In the question itself: it changes on every round. The key avoids one already used.
      code: tool(
        `  await round.step('math_random', () => 1);\n  await round.ask('confirm', elicitForm({ message: \`Roll \${Math.random()}?\`, requestedSchema: { type: 'object', properties: {} } }));`,
      ),
      errors: [
        {
          messageId: 'perCallValue',
          data: { what: 'Math.random()', line: '9' },
          suggestions: [
            {
              messageId: 'takeFromStep',
              data: { round: 'round', key: 'math_random_2' },
              output: tool(
                `  await round.step('math_random', () => 1);\n  await round.ask('confirm', elicitForm({ message: \`Roll \${(await round.step('math_random_2', () => Math.random()))}?\`, requestedSchema: { type: 'object', properties: {} } }));`,
              ),
            },
          ],
        },
      ],
    },
    {
      code: tool(`  await store.update('a');\n${ASK}`),
      errors: [
        {
          messageId: 'write',
          data: { what: 'store.update(…)', line: '9' },
          suggestions: [
            {
              messageId: 'runInStep',
              data: { round: 'round', key: 'store_update' },
              output: tool(
                `  await round.step('store_update', async () => {\n    await store.update('a');\n  });\n${ASK}`,
              ),
            },
          ],
        },
      ],
    },
    {
      // A module variable, and crypto.randomUUID() by its dotted name.
      code: tool(`  count++;\n  const id = crypto.randomUUID();\n${ASK}`),
      errors: [
        {
          messageId: 'write',
          data: { what: 'Writing to count', line: '10' },
          line: 8,
          suggestions: inStep(
            'count',
            tool(
              `  await round.step('count', async () => {\n    count++;\n  });\n  const id = crypto.randomUUID();\n${ASK}`,
            ),
          ),
        },
        {
          messageId: 'perCallValue',
          data: { what: 'crypto.randomUUID()', line: '10' },
          line: 9,
          suggestions: fromStep(
            'crypto_random_uuid',
            tool(
              `  count++;\n  const id = await round.step('crypto_random_uuid', () => crypto.randomUUID());\n${ASK}`,
            ),
          ),
        },
      ],
    },
    {
      // In a loop, a write after the question runs before the next one.
      code: tool(
        `  for (const item of items) {\n    await round.ask('confirm', confirm);\n    await store.update(item);\n  }`,
      ),
      errors: [
        {
          messageId: 'write',
          line: 10,
          suggestions: inStep(
            'store_update',
            tool(
              `  for (const item of items) {\n    await round.ask('confirm', confirm);\n    await round.step('store_update', async () => {\n      await store.update(item);\n    });\n  }`,
            ),
          ),
        },
      ],
    },
    {
      // Between two questions of an adapter's registration.
      code: adapter(`    world.record(answer.action);\n    await round.ask('again', confirm);`),
      errors: [
        {
          messageId: 'write',
          data: { what: 'world.record(…)', line: '11' },
          suggestions: inStep(
            'world_record',
            adapter(
              `    await round.step('world_record', async () => {\n      world.record(answer.action);\n    });\n    await round.ask('again', confirm);`,
            ),
          ),
        },
      ],
    },
    {
      // A helper handed the round asks; so does a helper typed with the runtime's Round.
      code: helpers(`performance.now()`, `await store.update('relayed');`, `await store.update('a');`),
      errors: [
        {
          messageId: 'perCallValue',
          data: { what: 'performance.now()', line: '9' },
          line: 8,
          suggestions: fromStep(
            'performance_now',
            helpers(
              `await round.step('performance_now', () => performance.now())`,
              `await store.update('relayed');`,
              `await store.update('a');`,
            ),
            'round',
          ),
        },
        {
          messageId: 'write',
          data: { what: 'store.update(…)', line: '13' },
          line: 12,
          suggestions: inStep(
            'store_update',
            helpers(
              `performance.now()`,
              `await r.step('store_update', async () => {\n    await store.update('relayed');\n  });`,
              `await store.update('a');`,
            ),
            'r',
          ),
        },
        {
          messageId: 'write',
          data: { what: 'store.update(…)', line: '17' },
          line: 16,
          suggestions: inStep(
            'store_update',
            helpers(
              `performance.now()`,
              `await store.update('relayed');`,
              `await round.step('store_update', async () => {\n    await store.update('a');\n  });`,
            ),
          ),
        },
      ],
    },
    {
      // Callbacks run where they are handed over; a callback that cannot await gets no suggestion.
      code: tool(
        `  const ids = items.map(() => randomUUID());\n  await Promise.all(items.map(async (item) => {\n    const at = Date.now();\n    await round.ask('label', confirm);\n  }));`,
      ),
      errors: [
        { messageId: 'perCallValue', data: { what: 'randomUUID()', line: '11' }, line: 8, suggestions: [] },
        {
          messageId: 'perCallValue',
          data: { what: 'Date.now()', line: '11' },
          line: 10,
          suggestions: fromStep(
            'date_now',
            tool(
              `  const ids = items.map(() => randomUUID());\n  await Promise.all(items.map(async (item) => {\n    const at = await round.step('date_now', () => Date.now());\n    await round.ask('label', confirm);\n  }));`,
            ),
          ),
        },
      ],
    },
    {
      // A closure of the handler that asks is a question where it is called.
      code: tool(
        `  const askConfirm = () => round.ask('confirm', confirm);\n  const at = Date.now();\n  await askConfirm();`,
      ),
      errors: [
        {
          messageId: 'perCallValue',
          data: { what: 'Date.now()', line: '10' },
          line: 9,
          suggestions: fromStep(
            'date_now',
            tool(
              `  const askConfirm = () => round.ask('confirm', confirm);\n  const at = await round.step('date_now', () => Date.now());\n  await askConfirm();`,
            ),
          ),
        },
      ],
    },
  ],
});
