import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/valid-journal-keys.js';
import { SYNTAX_ONLY } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);

const PRELUDE = `import { elicitForm, type Round, type ToolHandler } from '@mcp-mrtr/runtime';
declare const items: string[];
declare function charge(): Promise<string>;
const confirm = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;
/** A runtime handler; line 6 is the body's first line. */
const tool = (body: string) =>
  `${PRELUDE}export const tool: ToolHandler = async (_args, round) => {\n${body}\n  return { content: [] };\n};`;

ruleTester.run('valid-journal-keys', rule, {
  valid: [
    tool(
      `  const id = await round.step('booking_id', () => 'b1');\n  await round.ask('confirm', confirm);\n  await round.ask(\`again\`, confirm);`,
    ),
    // A const initialised with a literal is as stable.
    `${PRELUDE}const KEY = 'confirm';\nexport const tool: ToolHandler = async (_args, round) => {\n  await round.ask(KEY, confirm);\n  return { content: [] };\n};`,
    // Loops repeat a key on purpose: the runtime numbers each use.
    tool(
      `  for (const item of items) {\n    await round.ask('label', confirm);\n  }\n  await round.ask('label', confirm);`,
    ),
    tool(
      `  let more = true;\n  while (more) {\n    more = (await round.ask('more', confirm)).action === 'accept';\n  }`,
    ),
    // Branches that exclude each other run one of the two.
    tool(
      `  if (items.length > 1) await round.ask('confirm', confirm);\n  else await round.ask('confirm', elicitForm({ message: 'Just one?', requestedSchema: { type: 'object', properties: {} } }));`,
    ),
    // A helper's key is numbered per call of the helper.
    `${PRELUDE}async function ask(round: Round) {\n  return round.ask('confirm', confirm);\n}\nexport const tool: ToolHandler = async (_args, round) => {\n  await ask(round);\n  await ask(round);\n  return { content: [] };\n};`,
    // Another object's ask, with keys it may compute as it likes.
    `export async function chat(session: { ask(key: string): Promise<string> }, name: string) {\n  await session.ask(name);\n  await session.ask('x');\n  await session.ask('x');\n}`,
  ],
  invalid: [
    {
      code: tool(
        `  for (const item of items) {\n    await round.ask(\`label_\${item}\`, confirm);\n  }\n  await round.step(String(Date.now()), () => charge());`,
      ),
      errors: [
        { messageId: 'computedKey', data: { method: 'ask' }, line: 7 },
        { messageId: 'computedKey', data: { method: 'step' }, line: 9 },
      ],
    },
    {
      code: tool(
        `  const id = await round.step('confirm', () => charge());\n  await round.ask('confirm', confirm);\n  await Promise.all([round.ask('name', confirm), round.ask('name', confirm)]);`,
      ),
      errors: [
        { messageId: 'duplicateKey', data: { key: 'confirm', other: 'step', line: '6' }, line: 7 },
        { messageId: 'duplicateKey', data: { key: 'name', other: 'ask', line: '8' }, line: 8, column: 60 },
      ],
    },
    {
      // Three uses: each later one names the first.
      code: tool(
        `  await round.ask('confirm', confirm);\n  if (items.length > 0) await round.ask('confirm', confirm);\n  await round.ask('confirm', confirm);`,
      ),
      errors: [
        { messageId: 'duplicateKey', data: { key: 'confirm', other: 'ask', line: '6' }, line: 7 },
        { messageId: 'duplicateKey', data: { key: 'confirm', other: 'ask', line: '6' }, line: 8 },
      ],
    },
    {
      code: tool(`  await round.ask('confirm#2', confirm);`),
      errors: [{ messageId: 'numberedKey', data: { key: 'confirm#2' } }],
    },
  ],
});
