import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/require-suspension-rethrow.js';
import { SYNTAX_ONLY } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);

const prelude = (imports = 'elicitForm, isSuspension, Suspension, type Round, type ToolHandler') =>
  `import { ${imports} } from '@mcp-mrtr/runtime';
declare const log: { warn(error: unknown): void };
declare const items: string[];
const confirm = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;
/** A runtime handler; line 6 is the body's first line. */
const tool = (body: string, imports?: string) =>
  `${prelude(imports)}export const tool: ToolHandler = async (_args, round) => {\n${body}\n  return { content: [] };\n};`;
const TRY = `  try {\n    await round.ask('confirm', confirm);\n  }`;

const GUARD = '\n    if (isSuspension(error)) throw error;';
const rethrow = (output: string) => [
  { messageId: 'rethrowSuspension' as const, data: { name: 'error' }, output },
];
/** Two tries whose catches do not rethrow first; `guard` is inserted at the start of each. */
const twoTries = (first: string, second: string) =>
  `${TRY} catch (error) {${first}\n    if (items.length === 0) return { content: [] };\n    if (isSuspension(error)) throw error;\n  }\n  try {\n    await Promise.all(items.map((item) => round.ask(item, confirm)));\n  } catch (error) {${second}\n    throw new Error('asking failed', { cause: error });\n  }`;
/** A helper that asks, called in a try of the handler; its catch body starts on line 12. */
const helper = (guard: string) =>
  `${prelude()}async function confirmIt(round: Round) {\n  return round.ask('confirm', confirm);\n}\nexport const tool: ToolHandler = async (_args, round) => {\n  try {\n    await confirmIt(round);\n  } catch (error) {${guard}\n    if (isSuspension(error)) log.warn(error);\n  }\n  return { content: [] };\n};`;

ruleTester.run('require-suspension-rethrow', rule, {
  valid: [
    tool(`${TRY} catch (error) {\n    if (isSuspension(error)) throw error;\n    log.warn(error);\n  }`),
    // After statements that cannot leave the catch, and in the other accepted shapes.
    tool(
      `${TRY} catch (e) {\n    const message = String(e);\n    if (e instanceof Suspension || message === 'x') {\n      throw e;\n    }\n    log.warn(e);\n  }`,
    ),
    tool(`${TRY} catch (error) {\n    log.warn(error);\n    throw error;\n  }`),
    // No question in the try: steps never suspend.
    tool(
      `  try {\n    await round.step('charge', () => 1);\n  } catch {\n    log.warn('charge failed');\n  }`,
    ),
    // A function only defined in the try does not ask there.
    tool(
      `  let ask;\n  try {\n    ask = () => round.ask('confirm', confirm);\n  } catch {\n    log.warn('never');\n  }`,
    ),
    tool(
      `  await round.ask('confirm', confirm).catch((error) => {\n    if (isSuspension(error)) throw error;\n    return undefined;\n  });`,
    ),
    // Someone else's ask.
    `export async function chat(session: { ask(key: string): Promise<string> }) {\n  try {\n    await session.ask('x');\n  } catch {\n    return undefined;\n  }\n}`,
    // A try with only a finally lets everything through.
    tool(`  try {\n    await round.ask('confirm', confirm);\n  } finally {\n    log.warn('asked');\n  }`),
  ],
  invalid: [
    {
      code: tool(`${TRY} catch (error) {\n    log.warn(error);\n  }`),
      errors: [
        {
          messageId: 'swallowsSuspension',
          data: { line: '7' },
          line: 8,
          suggestions: [
            {
              messageId: 'rethrowSuspension',
              data: { name: 'error' },
              output: tool(
                `${TRY} catch (error) {\n    if (isSuspension(error)) throw error;\n    log.warn(error);\n  }`,
              ),
            },
          ],
        },
      ],
    },
    {
      // No binding, and isSuspension not imported yet.
      code: tool(`${TRY} catch {}`, 'elicitForm, type ToolHandler'),
      errors: [
        {
          messageId: 'swallowsSuspension',
          suggestions: [
            {
              messageId: 'rethrowSuspension',
              data: { name: 'error' },
              output: tool(
                `${TRY} catch (error) {\n    if (isSuspension(error)) throw error;\n  }`,
                'elicitForm, type ToolHandler, isSuspension',
              ),
            },
          ],
        },
      ],
    },
    {
      // A return before the rethrow leaves with the suspension; so does wrapping it in another error.
      code: tool(twoTries('', '')),
      errors: [
        {
          messageId: 'swallowsSuspension',
          data: { line: '7' },
          line: 8,
          suggestions: rethrow(tool(twoTries(GUARD, ''))),
        },
        {
          messageId: 'swallowsSuspension',
          data: { line: '13' },
          line: 14,
          suggestions: rethrow(tool(twoTries('', GUARD))),
        },
      ],
    },
    {
      // A helper handed the round may ask.
      code: helper(''),
      errors: [
        {
          messageId: 'swallowsSuspension',
          data: { line: '10' },
          line: 11,
          suggestions: rethrow(helper(GUARD)),
        },
      ],
    },
    {
      // A promise's catch handler without a parameter gets one.
      code: tool(
        `  await round.ask('confirm', confirm).catch(async () => {\n    log.warn('no answer');\n  });`,
      ),
      errors: [
        {
          messageId: 'swallowsSuspension',
          data: { line: '6' },
          suggestions: rethrow(
            tool(
              `  await round.ask('confirm', confirm).catch(async (error) => {\n    if (isSuspension(error)) throw error;\n    log.warn('no answer');\n  });`,
            ),
          ),
        },
      ],
    },
    {
      code: tool(`  const answer = await round.ask('confirm', confirm).catch(() => undefined);`),
      errors: [{ messageId: 'swallowsSuspension', data: { line: '6' }, suggestions: [] }],
    },
  ],
});
