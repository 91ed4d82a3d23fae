import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { InputHandlers } from '../src/client/index.js';
import {
  createMessage,
  elicitForm,
  elicitUrl,
  isSuspension,
  listRoots,
  MrtrUsageError,
  type ElicitResult,
  type Round,
  type FormAnswer,
  type RootsAnswer,
  type SamplingAnswer,
  type ToolResult,
  type UrlAnswer,
} from '../src/index.js';
import { inProcessTool } from './fixtures/in-process-loop.js';

// The journal through the runtime's retry loop wired straight to runRound: what every adapter
// relies on. The adapters run the same handlers end to end in journaled-replay.e2e.test.ts.

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const yesNo = (message: string) =>
  elicitForm({
    message,
    requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] },
  });

/** A user who accepts every form with `{ yes: true }` and counts the questions. */
function yesUser(asked: string[] = []): InputHandlers {
  return {
    form: (params) => {
      asked.push(params.message);
      return Promise.resolve({ action: 'accept', content: { yes: true } });
    },
  };
}

function firstText(result: Record<string, unknown>): string {
  return (result.content as { text: string }[])[0]!.text;
}

describe('round.step', () => {
  it('takes only JSON results at the type level', () => {
    interface Booking {
      readonly id: string;
      readonly tags: readonly string[];
      readonly note?: string;
    }
    // Compiled, never run: tsc checks what round.step accepts.
    const typeCheck = async (round: Round) => {
      const booking: Booking = await round.step('a', () => Promise.resolve<Booking>({ id: 'x', tags: [] }));
      const key: string = await round.step('b', ({ idempotencyKey }) => idempotencyKey);
      await round.step('c', async () => {});
      // @ts-expect-error a Date is not JSON
      await round.step('d', () => new Date());
      // @ts-expect-error nor is a live client
      await round.step('e', () => ({ query: () => 1 }));
      // @ts-expect-error nor may unknown be
      await round.step('f', () => JSON.parse('1') as unknown);
      return [booking, key];
    };
    expect(typeCheck).toBeTypeOf('function');
  });

  it('refuses a result that is not JSON, naming the step and what it returned', async () => {
    const cases: [unknown, RegExp][] = [
      [new Date(0), /round\.step\("value"\) returned a Date;/],
      [{ at: new Map() }, /returned a Map at \.at;/],
      [[1, Number.NaN], /returned the number NaN at \[1\];/],
      [() => 1, /returned a function;/],
      [10n, /returned a bigint;/],
    ];
    // The compiler refuses these (the casts get them past it); the run-time check must too.
    for (const [value, message] of cases) {
      const tool = inProcessTool(async (_args, round) => {
        await round.step('value', () => value as never);
        return text('done');
      });
      await expect(tool.call({}, {})).rejects.toThrow(message);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const tool = inProcessTool(async (_args, round) =>
      text(JSON.stringify(await round.step('value', () => cyclic as never))),
    );
    await expect(tool.call({}, {})).rejects.toThrow(/a circular reference at \.self/);
  });

  it('hands every round the JSON copy, and replays undefined without running the step again', async () => {
    const runs: string[] = [];
    const seen: unknown[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const value = await round.step('value', () => {
        runs.push('value');
        return { kept: 1, dropped: undefined };
      });
      const nothing = await round.step('nothing', () => {
        runs.push('nothing');
      });
      seen.push(value, nothing);
      await round.ask('confirm', yesNo('Sure?'));
      return text('done');
    });
    await tool.call({}, yesUser());
    expect(runs).toEqual(['value', 'nothing']);
    expect(seen).toEqual([{ kept: 1 }, undefined, { kept: 1 }, undefined]);
    expect(Object.keys(seen[0] as object)).toEqual(['kept']);
  });

  it('journals nothing for a step that throws: the error reaches the handler', async () => {
    let attempts = 0;
    const tool = inProcessTool(async (_args, round) => {
      try {
        await round.step('flaky', () => {
          attempts++;
          throw new Error('network down');
        });
      } catch (error) {
        if (isSuspension(error)) throw error;
        return text(`failed: ${(error as Error).message}`);
      }
      return text('ok');
    });
    expect(firstText(await tool.call({}, {}))).toBe('failed: network down');
    expect(attempts).toBe(1);
  });

  it('refuses an ask or a step inside a step, which a replay would never reach', async () => {
    const asking = inProcessTool(async (_args, round) => {
      await round.step('outer', async () => {
        await delay(1);
        await round.ask('inner', yesNo('Inner?'));
      });
      return text('done');
    });
    await expect(asking.call({}, yesUser())).rejects.toThrow(
      /^round\.ask\("inner"\) runs inside round\.step\("outer"\): a step's function must not ask or run steps/,
    );
    const nested = inProcessTool(async (_args, round) => {
      await round.step('outer', () => round.step('inner', () => 1));
      return text('done');
    });
    await expect(nested.call({}, {})).rejects.toThrow(
      /round\.step\("inner"\) runs inside round\.step\("outer"\)/,
    );
  });

  it('journals a step still running when an ask started next to it suspends', async () => {
    const runs: string[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const [answer, slow] = await Promise.all([
        round.ask('confirm', yesNo('Sure?')),
        round.step('slow', async () => {
          await delay(30);
          runs.push('slow');
          return 42;
        }),
      ]);
      return text(`${answer.action} ${slow}`);
    });
    expect(firstText(await tool.call({}, yesUser()))).toBe('accept 42');
    expect(runs).toEqual(['slow']);
  });
});

describe('round.ask', () => {
  it('asks questions started together in one round, even behind a step', async () => {
    const asked: string[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const answers = await Promise.all([
        round.ask('first', yesNo('First?')),
        (async () => {
          await round.step('prepare', async () => {
            await delay(10);
            return 1;
          });
          return round.ask('second', yesNo('Second?'));
        })(),
      ]);
      return text(answers.map((answer) => answer.action).join(' '));
    });
    expect(firstText(await tool.call({}, yesUser(asked)))).toBe('accept accept');
    expect(tool.rounds.map((round) => Object.keys(round.inputRequests ?? {}))).toEqual([['first', 'second']]);
  });

  it('numbers a repeated key and refuses a key that collides with a number', async () => {
    const tool = inProcessTool(async (_args, round) => {
      for (let index = 0; index < 3; index++) await round.ask('again', yesNo(`Again ${index}?`));
      return text('done');
    });
    await tool.call({}, yesUser());
    expect(tool.rounds.map((round) => Object.keys(round.inputRequests ?? {}))).toEqual([
      ['again'],
      ['again#2'],
      ['again#3'],
    ]);
    const colliding = inProcessTool(async (_args, round) => {
      await round.step('k', () => 1);
      await round.step('k', () => 2);
      await round.step('k#2', () => 3);
      return text('done');
    });
    await expect(colliding.call({}, {})).rejects.toThrow(
      /round\.step\("k#2"\) makes the key "k#2" in this round, which another call already has/,
    );
  });

  it('refuses a handler that does not run the same way on replay', async () => {
    let round1 = true;
    const tool = inProcessTool(async (_args, round) => {
      if (round1) {
        round1 = false;
        await round.step('choice', () => 1);
      } else {
        await round.ask('choice', yesNo('Choice?'));
      }
      await round.ask('confirm', yesNo('Sure?'));
      return text('done');
    });
    await expect(tool.call({}, yesUser())).rejects.toThrow(
      /round\.ask\("choice"\) finds a step result under its key in the journal: the handler did not run the same way/,
    );
  });

  it('reads only answers to the questions the last round asked', async () => {
    const tool = inProcessTool(async (_args, round) => {
      const answer = await round.ask('confirm', yesNo('Sure?'));
      return text(answer.action);
    });
    const first = await tool.send({
      name: 'tool',
      arguments: {},
      inputResponses: { confirm: { action: 'accept', content: { yes: true } } },
    });
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: {} } });
  });

  it('refuses an answer of the wrong shape with -32602, naming the key', async () => {
    const tool = inProcessTool(async (_args, round) =>
      text((await round.ask('confirm', yesNo('Sure?'))).action),
    );
    const first = await tool.send({ name: 'tool', arguments: {} });
    await expect(
      tool.send({
        name: 'tool',
        arguments: {},
        inputResponses: { confirm: { action: 'maybe' } },
        requestState: first.requestState,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'inputResponses["confirm"] is not a valid elicitation/create result.',
    });
  });

  it('asks again when the client sent no answer under the key', async () => {
    const tool = inProcessTool(async (_args, round) =>
      text((await round.ask('confirm', yesNo('Sure?'))).action),
    );
    const first = await tool.send({ name: 'tool', arguments: {} });
    const second = await tool.send({
      name: 'tool',
      arguments: {},
      inputResponses: {},
      requestState: first.requestState,
    });
    expect(second).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: {} } });
  });

  it('returns the shapes SDK v1 returned, typed by the request', async () => {
    const answers: unknown[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const form = await round.ask('form', yesNo('Sure?'));
      expectTypeOf(form).toEqualTypeOf<FormAnswer<{ yes: boolean }>>();
      expectTypeOf(form.content?.yes).toEqualTypeOf<boolean | undefined>();
      const plain = await round.ask('plain', {
        method: 'elicitation/create',
        params: {
          message: 'Plain?',
          requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
        },
      });
      expectTypeOf(plain.content?.note).toEqualTypeOf<string | undefined>();
      const url = await round.ask(
        'url',
        elicitUrl({ message: 'Sign in', url: 'https://example.com/sign-in' }),
      );
      expectTypeOf(url).toEqualTypeOf<UrlAnswer>();
      const sampling = await round.ask(
        'sampling',
        createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 }),
      );
      expectTypeOf(sampling).toEqualTypeOf<SamplingAnswer>();
      const roots = await round.ask('roots', listRoots());
      expectTypeOf(roots).toEqualTypeOf<RootsAnswer>();
      answers.push(form, plain, url, sampling, roots);
      return text('done');
    });
    await tool.call(
      {},
      {
        form: (params) =>
          Promise.resolve<ElicitResult>(
            params.message === 'Sure?'
              ? { action: 'accept', content: { yes: true, extra: 'dropped' } }
              : { action: 'accept' },
          ),
        url: { consent: () => Promise.resolve('accept'), open: () => Promise.resolve() },
        sampling: () =>
          Promise.resolve({ role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' }),
        roots: () => Promise.resolve({ roots: [{ uri: 'file:///a' }] }),
      },
    );
    expect(answers).toEqual([
      { action: 'accept', content: { yes: true } },
      { action: 'accept', content: {} },
      { action: 'accept' },
      { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
      { roots: [{ uri: 'file:///a' }] },
    ]);
  });

  it('refuses sampling content other than one block when no tools were offered', async () => {
    const tool = inProcessTool(async (_args, round) => {
      await round.ask('s', createMessage({ messages: [], maxTokens: 5 }));
      return text('done');
    });
    const handlers: InputHandlers = {
      sampling: () =>
        Promise.resolve({ role: 'assistant', content: [{ type: 'text', text: 'a' }], model: 'm' }),
    };
    await expect(tool.call({}, handlers)).rejects.toMatchObject({ code: -32602 });
  });
});

describe('round.ask without validation (validate: false)', () => {
  const ranking = elicitForm({
    message: 'How many stars?',
    requestedSchema: {
      type: 'object',
      properties: { stars: { type: 'integer', minimum: 1, maximum: 5 } },
      required: ['stars'],
    },
  });

  it('journals accepted content as the client sent it, and replays it on later rounds', async () => {
    const seen: unknown[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const stars = await round.ask('stars', ranking, { validate: false });
      const sure = await round.ask('sure', yesNo('Sure?'));
      seen.push(stars);
      return text(`${String(stars.content?.stars)} ${sure.action}`);
    });
    const answer = { action: 'accept', content: { stars: 9, comment: 'great' } } as const;
    const result = await tool.call(
      {},
      {
        form: (params) =>
          Promise.resolve(params.message === 'Sure?' ? { action: 'accept', content: { yes: true } } : answer),
      },
    );
    expect(firstText(result)).toBe('9 accept');
    expect(seen).toEqual([answer]);
  });

  it('validates by default: the same answer throws the SDK’s schema error', async () => {
    const tool = inProcessTool(async (_args, round) => {
      const stars = await round.ask('stars', ranking);
      return text(String(stars.content?.stars));
    });
    await expect(
      tool.call({}, { form: () => Promise.resolve({ action: 'accept', content: { stars: 9 } }) }),
    ).rejects.toMatchObject({ name: 'ElicitationContentError' });
  });

  it('asks again when the handler changed between validating and not: the answer was read another way', async () => {
    let validate = false;
    const tool = inProcessTool(async (_args, round) => {
      const stars = await round.ask('stars', ranking, { validate });
      return text(String(stars.content?.stars));
    });
    const first = await tool.send({ name: 'tool', arguments: {} });
    validate = true;
    const second = await tool.send({
      name: 'tool',
      arguments: {},
      inputResponses: { stars: { action: 'accept', content: { stars: 9 } } },
      requestState: first.requestState,
    });
    expect(second).toMatchObject({ resultType: 'input_required', inputRequests: { stars: {} } });
  });
});

describe('URL mode', () => {
  it('asks again under a numbered key until the server sees the flow completed', async () => {
    const completed = new Set<string>();
    const opened: string[] = [];
    const tool = inProcessTool(async (_args, round) => {
      const ticket = await round.step('ticket', () => `t-${opened.length + 1}`);
      for (;;) {
        const consent = await round.ask(
          'connect',
          elicitUrl({ message: 'Connect your account', url: `https://example.com/connect?ticket=${ticket}` }),
        );
        if (consent.action !== 'accept') return text('Not connected.');
        // Completion is server-side state: a step, so each check replays what it saw.
        if (await round.step('connected', () => completed.has(ticket))) return text(`Connected (${ticket}).`);
      }
    });
    const result = await tool.call(
      {},
      {
        url: {
          consent: () => Promise.resolve('accept'),
          open: (url) => {
            opened.push(url);
            // The user finishes the flow only on the second visit.
            if (opened.length === 2) completed.add('t-1');
            return Promise.resolve();
          },
        },
      },
    );
    expect(firstText(result)).toBe('Connected (t-1).');
    expect(tool.rounds.map((round) => Object.keys(round.inputRequests ?? {}))).toEqual([
      ['connect'],
      ['connect#2'],
    ]);
  });
});

describe('swallowed suspensions', () => {
  it('passes on a failure that comes before the suspension reaches the handler', async () => {
    const tool = inProcessTool(async (_args, round) => {
      await Promise.all([round.ask('confirm', yesNo('Sure?')), Promise.reject(new Error('disk full'))]);
      return text('done');
    });
    await expect(tool.call({}, yesUser())).rejects.toThrow(/^disk full$/);
  });

  it('reports a catch block that turns the suspension into a result', async () => {
    const tool = inProcessTool(async (_args, round) => {
      const answer = await round.ask('confirm', yesNo('Sure?')).catch(() => undefined);
      return text(answer?.action ?? 'no answer');
    });
    await expect(tool.call({}, yesUser())).rejects.toThrow(
      /round\.ask\("confirm"\) suspended the handler to wait for the client's answer, but the handler returned a result/,
    );
  });

  it('reports a catch block that wraps the suspension in its own error, keeping it as the cause', async () => {
    const tool = inProcessTool(async (_args, round) => {
      try {
        await round.ask('confirm', yesNo('Sure?'));
      } catch (error) {
        throw new Error('could not confirm', { cause: error });
      }
      return text('done');
    });
    const failure = await tool.call({}, yesUser()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MrtrUsageError);
    expect((failure as Error).message).toMatch(
      /^round\.ask\("confirm"\) suspended the handler to wait for the client's answer, but the handler threw Error: could not confirm instead/,
    );
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });
});

describe('journal next to explicit state', () => {
  type Stage = { readonly stage: number };
  it('carries the journal through round.inputRequired and the state through a suspension', async () => {
    const states: (Stage | undefined)[] = [];
    const runs: string[] = [];
    const tool = inProcessTool<{ n: number }>(async (_args, round) => {
      const typed = round as unknown as { state: Stage | undefined } & typeof round;
      states.push(typed.state);
      const id = await round.step('id', () => {
        runs.push('id');
        return 'id-1';
      });
      if (!typed.state) {
        return round.inputRequired({ inputRequests: { explicit: yesNo('Explicit?') }, state: { stage: 1 } });
      }
      const explicit = round.elicitation('explicit', yesNo('Explicit?'));
      const journaled = await round.ask('journaled', yesNo('Journaled?'));
      return text(`${id} ${explicit?.action ?? 'gone'} ${journaled.action}`);
    });
    const result = await tool.call({ n: 1 }, yesUser());
    // Round 3 no longer has the explicit answer: inputResponses hold the latest round's only.
    expect(firstText(result)).toBe('id-1 gone accept');
    expect(runs).toEqual(['id']);
    expect(states).toEqual([undefined, { stage: 1 }, { stage: 1 }]);
  });

  it('refuses a state-only journal from inputRequired() without requests or state', () => {
    const tool = inProcessTool(async (_args, round) => {
      await round.step('x', () => 1);
      return round.inputRequired({});
    });
    return expect(tool.call({}, {})).rejects.toThrow(/inputRequired\(\) needs inputRequests, state, or both/);
  });
});

describe('journal sealing', () => {
  it('refuses secret-named step results, naming the step', async () => {
    const tool = inProcessTool(async (_args, round) => {
      await round.step('login', () => ({ accessToken: 'abc' }));
      await round.ask('confirm', yesNo('Sure?'));
      return text('done');
    });
    await expect(tool.call({}, yesUser())).rejects.toThrow(
      /secret-named properties \(the result of round\.step\("login"\) accessToken: /,
    );
  });

  it('names the entry that takes the journal past maxStateBytes', async () => {
    const tool = inProcessTool(
      async (_args, round) => {
        await round.step('small', () => 'a'.repeat(100));
        await round.step('large', () => 'b'.repeat(600));
        await round.step('medium', () => 'c'.repeat(300));
        await round.ask('confirm', yesNo('Sure?'));
        return text('done');
      },
      { maxStateBytes: 1000 },
    );
    await expect(tool.call({}, yesUser())).rejects.toThrow(
      /over the 1000-byte limit \(maxStateBytes\): the journal grows past it with the result of round\.step\("medium"\) \(3\d\d bytes\); the largest entry is the result of round\.step\("large"\) \(6\d\d bytes\)/,
    );
  });

  it('names the step that crosses maxStateBytes among thousands of small ones', async () => {
    const tool = inProcessTool(
      async (_args, round) => {
        for (let index = 0; index < 20_000; index++) await round.step(`s${index}`, () => index);
        await round.ask('confirm', yesNo('Sure?'));
        return text('done');
      },
      { maxStateBytes: 100_000 },
    );
    const error = await tool.call({}, yesUser()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MrtrUsageError);
    const message = (error as Error).message;
    const crossing = /grows past it with the result of round\.step\("s(\d+)"\)/.exec(message);
    expect(crossing).not.toBeNull();
    // The state is its fixed fields and `[e0,e1,…]`: the entry that crosses is where the fixed
    // part and the entries so far, commas included, first exceed the limit.
    const sizes = Array.from(
      { length: 20_000 },
      (_, n) => JSON.stringify({ k: `s${n}`, t: 's', v: n }).length,
    );
    const total = Number(/requestState would be (\d+) bytes/.exec(message)![1]);
    let bytes = total - (sizes.reduce((sum, size) => sum + size, 0) + sizes.length - 1);
    const expected = sizes.findIndex((size, n) => (bytes += size + (n > 0 ? 1 : 0)) > 100_000);
    expect(Number(crossing![1])).toBe(expected);
  }, 60_000);
});
