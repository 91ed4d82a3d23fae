import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InputHandlers } from '../src/client/index.js';
import { elicitForm, type ElicitResult, type Round, type ToolResult } from '../src/index.js';
import { inProcessTool } from './fixtures/in-process-loop.js';

// Replay of any sequence of asks and steps, some started together, through the retry loop and
// sealed state, gives the handler the same values a single uninterrupted run would have.

const RUNS = { numRuns: 150 };

type Op =
  | { readonly kind: 'ask'; readonly key: string; readonly answer: ElicitResult }
  | { readonly kind: 'step'; readonly key: string };

/** The program: groups of operations; the operations of one group start together. */
const program = fc.array(
  fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('ask' as const),
        key: fc.constantFrom('a', 'b', 'c'),
        answer: fc.oneof(
          fc.integer({ min: 0, max: 99 }).map((n): ElicitResult => ({ action: 'accept', content: { n } })),
          fc.constantFrom<ElicitResult>({ action: 'decline' }, { action: 'cancel' }),
        ),
      }),
      fc.record({ kind: fc.constant('step' as const), key: fc.constantFrom('a', 'b', 's') }),
    ),
    { minLength: 1, maxLength: 3 },
  ),
  { maxLength: 6 },
);

const form = (message: string) =>
  elicitForm({
    message,
    requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
  });

describe('journaled replay', () => {
  it('yields the answers and first step values of an uninterrupted run, each step run once', async () => {
    await fc.assert(
      fc.asyncProperty(program, async (groups) => {
        const ops = groups.flat();
        const executions: number[] = [];
        let counter = 0;
        let runs = 0;
        const run = (op: Op, index: number, round: Round) =>
          op.kind === 'ask'
            ? round
                .ask(op.key, form(`q${index}`))
                .then((answer) => `${answer.action}:${answer.content?.n ?? '-'}`)
            : round.step(op.key, () => {
                // A fresh value on every execution: replays must hand back the first one.
                const value = counter++;
                executions.push(value);
                return value;
              });
        const tool = inProcessTool(async (_args, round): Promise<ToolResult> => {
          runs++;
          const outputs: unknown[] = [];
          let index = 0;
          for (const group of groups) {
            const start = index;
            index += group.length;
            outputs.push(...(await Promise.all(group.map((op, offset) => run(op, start + offset, round)))));
          }
          return { content: [{ type: 'text', text: JSON.stringify(outputs) }] };
        });
        const handlers: InputHandlers = {
          form: (params) => {
            const op = ops[Number(params.message.slice(1))];
            if (op?.kind !== 'ask') throw new Error(`unexpected ${params.message}`);
            return Promise.resolve(op.answer);
          },
        };
        const result = await tool.call({}, handlers, 50);
        const outputs = JSON.parse((result.content as { text: string }[])[0]!.text) as unknown[];

        expect(executions).toHaveLength(ops.filter((op) => op.kind === 'step').length);
        let step = 0;
        const expected = ops.map((op) =>
          op.kind === 'ask'
            ? `${op.answer.action}:${op.answer.action === 'accept' ? String(op.answer.content?.n) : '-'}`
            : executions[step++],
        );
        expect(outputs).toEqual(expected);
        // One round per group that asks, plus the round that completes.
        expect(runs).toBe(groups.filter((group) => group.some((op) => op.kind === 'ask')).length + 1);
      }),
      RUNS,
    );
  });
});
