import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-side-effects-before-input-required.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const PRELUDE = `import { elicitForm, type ToolHandler } from '@mcp-mrtr/runtime';
declare const db: { getProject(id: string): Promise<{ name: string }>; deleteProject(id: string): Promise<void>; update(f: () => void): void };
declare const payments: { charge(cents: number, key?: string): Promise<void> };
const ask = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
let deletions = 0;
`;
/** A runtime tool handler with this body; line 7 is the body's first line. */
const tool = (body: string) =>
  `${PRELUDE}export const tool: ToolHandler<{ id: string }, { step: number }> = async ({ id }, round) => {\n${body}\n};`;
const ASK = `return round.inputRequired({ inputRequests: { ok: ask } });`;
const ANSWER = `const answer = round.elicitation('ok', ask);`;

ruleTester.run('no-side-effects-before-input-required', rule, {
  valid: [
    // The effect runs after the last question.
    tool(`  ${ANSWER}\n  if (!answer) ${ASK}\n  await db.deleteProject(id);\n  return { content: [] };`),
    // Reads repeat harmlessly.
    tool(
      `  const project = await db.getProject(id);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [{ type: 'text', text: project.name }] };`,
    ),
    tool(
      `  const response = await fetch('https://example.com/status');\n  ${ANSWER}\n  if (!answer || !response.ok) ${ASK}\n  return { content: [] };`,
    ),
    tool(
      `  await Promise.all([db.getProject(id)]);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
    ),
    // An effect on a branch that never reaches the question.
    tool(
      `  ${ANSWER}\n  if (answer) {\n    await db.deleteProject(id);\n    return { content: [] };\n  }\n  ${ASK}`,
    ),
    // Guarded by the carried state, or by an idempotency key.
    tool(
      `  if (!round.state) {\n    await payments.charge(500);\n    return round.inputRequired({ inputRequests: { ok: ask }, state: { step: 2 } });\n  }\n  return { content: [] };`,
    ),
    tool(
      `  await payments.charge(500, \`\${id}-idempotency\`);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
    ),
    // Local writes are the handler's own business.
    tool(
      `  const seen: string[] = [];\n  seen.push(id);\n  let count = 0;\n  count++;\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [{ type: 'text', text: String(count) }] };`,
    ),
    // Sealing and building the result are not effects.
    `${V2}declare const codec: { mint(v: object): Promise<string> };\nexport async function tool() {\n  return inputRequired({ inputRequests: { ok: inputRequired.listRoots() }, requestState: await codec.mint({ step: 1 }) });\n}`,
    // Functions that never ask for input are not MRTR handlers.
    `declare const db: { deleteProject(id: string): Promise<void> };\nexport async function purge(id: string) {\n  await db.deleteProject(id);\n  return { content: [] };\n}`,
    // An effect inside a nested callback belongs to that callback.
    tool(
      `  const later = async () => db.deleteProject(id);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  await later();\n  return { content: [] };`,
    ),
    {
      code: tool(
        `  await payments.charge(500);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      options: [{ allowCalls: ['charge'] }],
    },
    // The guide's example: nothing runs before its question but a digest.
    `declare function digestOf(a: unknown): string;\nexport async function handle(req: { params: { inputResponses?: { confirm?: unknown } } }) {\n  const digest = digestOf(req);\n  if (!req.params.inputResponses?.confirm) return { resultType: 'input_required', inputRequests: {}, requestState: digest };\n  return { resultType: 'complete', content: [] };\n}`,
    // Awaiting a predicate (the server's own record of an out-of-band step) repeats harmlessly.
    `declare const billing: { paymentCompleted(ticket: string): Promise<boolean> };\n${tool(`  const accept = true;\n  const paid = accept && (await billing.paymentCompleted('t-1'));\n  ${ANSWER}\n  if (!answer || !paid) ${ASK}\n  return { content: [] };`)}`,
  ],
  invalid: [
    {
      // The same shape with a verb that acts is still an effect.
      code: `declare const billing: { chargeTicket(ticket: string): Promise<boolean> };\n${tool(`  const paid = await billing.chargeTicket('t-1');\n  ${ANSWER}\n  if (!answer || !paid) ${ASK}\n  return { content: [] };`)}`,
      errors: [{ messageId: 'sideEffect' }],
    },
    {
      code: tool(
        `  await payments.charge(500);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', line: 7, data: { what: 'await payments.charge(…)', line: '9' } }],
    },
    {
      code: tool(
        `  await db.deleteProject(id);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', data: { what: 'await db.deleteProject(…)', line: '9' } }],
    },
    {
      code: tool(
        `  db.update(() => undefined);\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', data: { what: 'db.update(…)', line: '9' } }],
    },
    {
      code: tool(`  deletions += 1;\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`),
      errors: [{ messageId: 'sideEffect', data: { what: 'Writing to deletions', line: '9' } }],
    },
    {
      code: tool(`  deletions++;\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`),
      errors: [{ messageId: 'sideEffect' }],
    },
    {
      code: `const cache = new Map<string, number>();\n${tool(`  cache.set(id, Date.now());\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`)}`,
      errors: [{ messageId: 'sideEffect', data: { what: 'cache.set(…)', line: '10' } }],
    },
    {
      code: tool(
        `  await fetch('https://api.example.com/orders', { method: 'POST' });\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', data: { what: 'await fetch(…)', line: '9' } }],
    },
    {
      // Only on some path: an accepted first answer runs the charge, then the second question.
      code: tool(
        `  ${ANSWER}\n  if (answer?.action === 'accept') await payments.charge(500);\n  const second = round.elicitation('second', ask);\n  if (!second) return round.inputRequired({ inputRequests: { second: ask } });\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', line: 8, data: { what: 'await payments.charge(…)', line: '10' } }],
    },
    {
      // In a loop, an effect after the question still runs before it on the next pass.
      code: tool(
        `  for (const step of [1, 2]) {\n    const answer = round.elicitation(\`q\${step}\`, ask);\n    if (!answer) return round.inputRequired({ inputRequests: { [\`q\${step}\`]: ask } });\n    await db.deleteProject(\`\${id}-\${step}\`);\n  }\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect', line: 10 }],
    },
    {
      code: `class Tools {\n  private calls = 0;\n  handle(answer: unknown) {\n    this.calls++;\n    if (!answer) return { resultType: 'input_required', inputRequests: {} };\n    return { content: [] };\n  }\n}`,
      errors: [{ messageId: 'sideEffect', data: { what: 'Writing to this.calls', line: '5' } }],
    },
    {
      code: `${V2}declare const mailer: { sendWelcome(to: string): Promise<void> };\nexport async function tool(args: { email: string }, ctx: { mcpReq: { inputResponses?: { ok?: unknown } } }) {\n  await mailer.sendWelcome(args.email);\n  if (!ctx.mcpReq.inputResponses?.ok) return inputRequired({ inputRequests: { ok: inputRequired.listRoots() } });\n  return { content: [] };\n}`,
      errors: [
        { messageId: 'sideEffect', line: 4, data: { what: 'await mailer.sendWelcome(…)', line: '5' } },
      ],
    },
    {
      code: `declare const audit: string[];\nexport const handle = (answers: { ok?: unknown }) => {\n  audit.push('asked');\n  return answers.ok ? { content: [] } : { resultType: 'input_required', inputRequests: {} };\n};`,
      errors: [{ messageId: 'sideEffect', data: { what: 'audit.push(…)', line: '4' } }],
    },
    {
      code: tool(
        `  delete (globalThis as { lastId?: string }).lastId;\n  ${ANSWER}\n  if (!answer) ${ASK}\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'sideEffect' }],
    },
  ],
});

typedRuleTester.run('no-side-effects-before-input-required (type-aware)', rule, {
  valid: [
    {
      code: `${V2}export async function tool(ctx: { mcpReq: { inputResponses?: { ok?: unknown } } }) {\n  if (!ctx.mcpReq.inputResponses?.ok) return inputRequired({ inputRequests: { ok: inputRequired.listRoots() } });\n  return { content: [] };\n}`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}declare const payments: { charge(cents: number): Promise<void> };\nexport async function tool(ctx: { mcpReq: { inputResponses?: { ok?: unknown } } }) {\n  await payments.charge(1);\n  if (!ctx.mcpReq.inputResponses?.ok) return inputRequired({ inputRequests: { ok: inputRequired.listRoots() } });\n  return { content: [] };\n}`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'sideEffect' }],
    },
  ],
});
