import { randomBytes } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createMessage,
  elicitForm,
  elicitUrl,
  InvalidParamsError,
  Keyring,
  listRoots,
  MrtrRuntime,
  MrtrUsageError,
  RequestStateError,
  type InputRequiredResult,
  type MrtrHandler,
  type RoundCall,
  type ToolHandler,
  type ToolResult,
} from '../src/index.js';

const runtime = new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) });

const signUp = elicitForm({
  message: 'Your details',
  requestedSchema: {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      age: { type: 'integer', minimum: 18 },
      plan: {
        type: 'string',
        oneOf: [
          { const: 'free', title: 'Free' },
          { const: 'pro', title: 'Pro' },
        ],
      },
    },
    required: ['email', 'plan'],
  },
});

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function call(overrides: Partial<RoundCall<Record<string, unknown>>> = {}) {
  return {
    request: { method: 'tools/call' as const, target: 'sign_up', arguments: { team: 'a' } },
    args: { team: 'a' },
    principal: 'ada',
    clientCapabilities: { elicitation: {}, sampling: {} },
    inputResponses: undefined,
    ...overrides,
  };
}

describe('reading answers', () => {
  const handler: ToolHandler = (_args, round) => {
    const answer = round.elicitation('details', signUp);
    if (!answer) {
      const problems = round.contentProblems('details');
      return round.inputRequired({ inputRequests: { details: problems ? { ...signUp } : signUp } });
    }
    if (answer.action === 'decline') return text('declined');
    if (answer.action === 'cancel') return text('cancelled');
    expectTypeOf(answer.content).toEqualTypeOf<{ email: string; plan: 'free' | 'pro'; age?: number }>();
    return text(`${answer.content.email} on ${answer.content.plan}, ${JSON.stringify(answer.content)}`);
  };

  it('asks on the first round', async () => {
    const result = (await runtime.runRound(handler, call())) as InputRequiredResult;
    expect(result).toEqual({ resultType: 'input_required', inputRequests: { details: signUp } });
  });

  it('hands accepted content that fits the schema to the handler, without undeclared fields', async () => {
    const result = await runtime.runRound(
      handler,
      call({
        inputResponses: {
          details: { action: 'accept', content: { email: 'ada@example.com', plan: 'pro', admin: true } },
        },
      }),
    );
    expect(result).toEqual(text('ada@example.com on pro, {"email":"ada@example.com","plan":"pro"}'));
  });

  it.each([
    ['a malformed email', { email: 'not-an-email', plan: 'pro' }, 'email'],
    ['a missing required field', { email: 'ada@example.com' }, 'plan'],
    ['a value outside the options', { email: 'ada@example.com', plan: 'gold' }, 'plan'],
    ['a number below the minimum', { email: 'ada@example.com', plan: 'free', age: 12 }, 'age'],
  ])('asks again when accepted content has %s', async (_name, content, field) => {
    let problems: unknown;
    const result = await runtime.runRound(
      (args, round) => {
        const outcome = handler(args, round);
        problems = round.contentProblems('details');
        return outcome;
      },
      call({ inputResponses: { details: { action: 'accept', content } } }),
    );
    expect(result).toMatchObject({ resultType: 'input_required' });
    expect(problems).toEqual([{ field, message: expect.stringMatching(/\S/) as unknown }]);
  });

  it.each([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ])('keeps the %s branch', async (action, expected) => {
    const result = await runtime.runRound(handler, call({ inputResponses: { details: { action } } }));
    expect(result).toEqual(text(expected));
  });

  it.each([
    ['a number', 12345],
    ['an unknown action', { action: 'maybe' }],
    ['accepted content that is not an object', { action: 'accept', content: 'x' }],
    ['null', null],
  ])('never trusts %s: it asks again', async (_name, entry) => {
    const result = await runtime.runRound(handler, call({ inputResponses: { details: entry } }));
    expect(result).toMatchObject({ resultType: 'input_required' });
  });

  it('ignores answers under other keys, including inherited names', async () => {
    const result = await runtime.runRound(
      handler,
      call({ inputResponses: { toString: { action: 'decline' }, other: { action: 'decline' } } }),
    );
    expect(result).toMatchObject({ resultType: 'input_required' });
  });

  it.each([[null], [[]], ['x'], [7]])('answers -32602 when inputResponses is %j', async (value) => {
    await expect(runtime.runRound(handler, call({ inputResponses: value }))).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
  });

  it('reads sampling and roots answers by shape', async () => {
    const result = await runtime.runRound(
      (_args, round) => {
        const reply = round.sampling('q');
        const roots = round.roots('r');
        if (!reply || !roots)
          return round.inputRequired({
            inputRequests: { q: createMessage({ messages: [], maxTokens: 5 }), r: listRoots() },
          });
        return text(
          `${String((reply.content as { text?: string }).text)} ${roots.map((root) => root.uri).join()}`,
        );
      },
      call({
        clientCapabilities: { sampling: {}, roots: {} },
        inputResponses: {
          q: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' },
          r: { roots: [{ uri: 'file:///a', name: 'a' }] },
        },
      }),
    );
    expect(result).toEqual(text('Paris file:///a'));
  });
});

describe('reading answers in the shape ask resolves with (the explicit style)', () => {
  const handler: ToolHandler = (_args, round) => {
    const answer = round.answer('details', signUp);
    if (answer === undefined) return round.inputRequired({ inputRequests: { details: signUp } });
    // As on SDK v1's ElicitResult, `content?.field` reads on every variant.
    expectTypeOf(answer.content?.plan).toEqualTypeOf<'free' | 'pro' | undefined>();
    return text(`${answer.action} ${answer.content?.email ?? '-'}`);
  };

  it('is undefined until the client answers', async () => {
    const result = await runtime.runRound(handler, call());
    expect(result).toEqual({ resultType: 'input_required', inputRequests: { details: signUp } });
  });

  it('returns accepted content checked against the schema, and decline as it came', async () => {
    const accepted = { details: { action: 'accept', content: { email: 'ada@example.com', plan: 'pro' } } };
    expect(await runtime.runRound(handler, call({ inputResponses: accepted }))).toEqual(
      text('accept ada@example.com'),
    );
    const declined = { details: { action: 'decline' } };
    expect(await runtime.runRound(handler, call({ inputResponses: declined }))).toEqual(text('decline -'));
  });

  it('throws on accepted content that fails the schema, as the SDK v1 push call did', async () => {
    const invalid = { details: { action: 'accept', content: { email: 'ada@example.com', plan: 'gold' } } };
    await expect(runtime.runRound(handler, call({ inputResponses: invalid }))).rejects.toMatchObject({
      name: 'ElicitationContentError',
    });
  });

  it('gives sampling and roots answers their SDK v1 shapes', async () => {
    const sampling = createMessage({ messages: [], maxTokens: 10 });
    const roots = listRoots();
    const result = await runtime.runRound(
      (_args, round) => {
        const summary = round.answer('summary', sampling);
        const folders = round.answer('folders', roots);
        if (summary === undefined || folders === undefined)
          return round.inputRequired({ inputRequests: { summary: sampling, folders: roots } });
        const said = summary.content.type === 'text' ? summary.content.text : '';
        return text(`${said} ${folders.roots.map((root) => root.uri).join(',')}`);
      },
      call({
        inputResponses: {
          summary: { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } },
          folders: { roots: [{ uri: 'file:///a' }] },
        },
      }),
    );
    expect(result).toEqual(text('hi file:///a'));
  });
});

describe('reading answers without validation (validate: false)', () => {
  const seen: unknown[] = [];
  const handler: ToolHandler = (_args, round) => {
    const answer = round.answer('details', signUp, { validate: false });
    if (answer === undefined) return round.inputRequired({ inputRequests: { details: signUp } });
    seen.push(answer);
    return text(`${answer.action} ${String(answer.content?.plan ?? '-')}`);
  };

  it('takes accepted content as the client sent it: outside the schema, and with undeclared fields', async () => {
    seen.length = 0;
    const content = { email: 'not an email', age: 3, plan: 'gold', referrer: 'bo' };
    const result = await runtime.runRound(
      handler,
      call({ inputResponses: { details: { action: 'accept', content } } }),
    );
    expect(result).toEqual(text('accept gold'));
    expect(seen).toEqual([{ action: 'accept', content }]);
  });

  it('still refuses an answer that is no elicitation result, with -32602', async () => {
    for (const details of [{ action: 'maybe' }, { action: 'accept', content: 'yes' }, 'accept']) {
      await expect(runtime.runRound(handler, call({ inputResponses: { details } }))).rejects.toBeInstanceOf(
        InvalidParamsError,
      );
    }
  });

  it('keeps decline and cancel as they came, without content', async () => {
    seen.length = 0;
    const declined = { details: { action: 'decline', content: { plan: 'gold' } } };
    expect(await runtime.runRound(handler, call({ inputResponses: declined }))).toEqual(text('decline -'));
    expect(seen).toEqual([{ action: 'decline' }]);
  });

  it('takes several sampling content blocks, which only a request offering tools may get when validated', async () => {
    const sampling = createMessage({ messages: [], maxTokens: 10 });
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ];
    const answered = (validate: boolean) =>
      runtime.runRound(
        (_args, round) => {
          const summary = round.answer('summary', sampling, { validate });
          if (summary === undefined) return round.inputRequired({ inputRequests: { summary: sampling } });
          return text(JSON.stringify(summary.content));
        },
        call({
          clientCapabilities: { sampling: {} },
          inputResponses: { summary: { role: 'assistant', model: 'm', content: blocks } },
        }),
      );
    expect(await answered(false)).toEqual(text(JSON.stringify(blocks)));
    await expect(answered(true)).rejects.toBeInstanceOf(InvalidParamsError);
  });
});

describe('carrying state across rounds', () => {
  type Steps = { step: 'size'; name: string };
  const askName = elicitForm({
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
  const askSize = elicitForm({
    message: 'Size?',
    requestedSchema: {
      type: 'object',
      properties: { size: { type: 'string', enum: ['s', 'l'] } },
      required: ['size'],
    },
  });
  const wizard: MrtrHandler<'tools/call', Record<string, unknown>, Steps> = (_args, round) => {
    if (!round.state) {
      const name = round.elicitation('name', askName);
      if (!name) return round.inputRequired({ inputRequests: { name: askName } });
      if (name.action !== 'accept') return text('no name');
      return round.inputRequired({
        inputRequests: { size: askSize },
        state: { step: 'size', name: name.content.name },
      });
    }
    const size = round.elicitation('size', askSize);
    if (!size) return round.inputRequired({ inputRequests: { size: askSize }, state: round.state });
    return text(size.action === 'accept' ? `${round.state.name}: ${size.content.size}` : 'no size');
  };

  it('seals the first answer and reads it back on the last round', async () => {
    const first = await runtime.runRound(wizard, call());
    expect(first).toEqual({ resultType: 'input_required', inputRequests: { name: askName } });
    const second = (await runtime.runRound(
      wizard,
      call({ inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } }),
    )) as InputRequiredResult;
    expect(second.inputRequests).toEqual({ size: askSize });
    expect(second.requestState).toMatch(/^m1\.g\.k\./);
    expect(second.requestState).not.toContain('Ada');
    const third = await runtime.runRound(
      wizard,
      call({
        inputResponses: { size: { action: 'accept', content: { size: 'l' } } },
        state: { token: second.requestState },
      }),
    );
    expect(third).toEqual(text('Ada: l'));
  });

  it('refuses the state on another tool call with -32602, never asking again', async () => {
    const second = (await runtime.runRound(
      wizard,
      call({ inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } }),
    )) as InputRequiredResult;
    const replayed = runtime.runRound(
      wizard,
      call({
        request: { method: 'tools/call', target: 'sign_up', arguments: { team: 'b' } },
        state: { token: second.requestState },
      }),
    );
    await expect(replayed).rejects.toMatchObject({ reason: 'request', code: -32602 });
    await expect(replayed).rejects.toBeInstanceOf(RequestStateError);
  });
});

describe('asking for input', () => {
  it('filters requests the client cannot serve, when told to', async () => {
    const result = await runtime.runRound(
      (_args, round) =>
        round.inputRequired({
          inputRequests: { form: signUp, model: createMessage({ messages: [], maxTokens: 1 }) },
          unsupported: 'filter',
        }),
      call({ clientCapabilities: { sampling: {} } }),
    );
    expect(Object.keys((result as InputRequiredResult).inputRequests ?? {})).toEqual(['model']);
  });

  it('keeps unsupported requests by default, for the transport to answer -32021', async () => {
    const result = await runtime.runRound(
      (_args, round) => round.inputRequired({ inputRequests: { form: signUp } }),
      call({ clientCapabilities: {} }),
    );
    expect(Object.keys((result as InputRequiredResult).inputRequests ?? {})).toEqual(['form']);
  });

  it('tells whether the client supports a request', async () => {
    const seen: boolean[] = [];
    await runtime.runRound(
      (_args, round) => {
        seen.push(
          round.supports(signUp),
          round.supports(elicitUrl({ message: 'Sign in', url: 'https://a.example' })),
        );
        return text('');
      },
      call({ clientCapabilities: { elicitation: { form: {} } } }),
    );
    expect(seen).toEqual([true, false]);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['an empty result', () => ({ resultType: 'input_required' }), /neither inputRequests nor requestState/],
    [
      'an unknown input method',
      () => ({ resultType: 'input_required', inputRequests: { a: { method: 'ping' } } }),
      /must be an elicitation/,
    ],
    [
      'a form outside the subset',
      () => ({
        resultType: 'input_required',
        inputRequests: {
          a: {
            method: 'elicitation/create',
            params: {
              message: 'm',
              requestedSchema: { type: 'object', properties: { a: { type: 'object' } } },
            },
          },
        },
      }),
      /Nested objects are not allowed/,
    ],
    [
      'a complete result without content',
      () => ({ text: 'hi' }),
      /must return a result with a content array/,
    ],
  ])('reports %s as a handler bug', async (_name, result, message) => {
    const promise = runtime.runRound((() => result()) as unknown as ToolHandler, call());
    await expect(promise).rejects.toBeInstanceOf(MrtrUsageError);
    await expect(promise).rejects.toThrow(message);
  });

  it('refuses input_required for methods that cannot carry it', async () => {
    await expect(
      runtime.runRound(
        () => text(''),
        call({ request: { method: 'tools/list' as 'tools/call', target: 'x' } }),
      ),
    ).rejects.toThrow(/tools\/list cannot return input_required/);
  });
});

describe('building input requests', () => {
  it.each([
    ['a password field', { password: { type: 'string' } }, /asks for a password/],
    ['an API key by title', { key: { type: 'string', title: 'Your API key' } }, /asks for a api-key/],
    ['a nested object', { address: { type: 'object' } }, /Nested objects are not allowed/],
  ])('refuses a form with %s', (_name, properties, message) => {
    expect(() =>
      elicitForm({ message: 'm', requestedSchema: { type: 'object', properties } as never }),
    ).toThrow(message);
  });

  it('accepts a secret-looking name the classifier is told to allow', () => {
    expect(() =>
      elicitForm(
        {
          message: 'm',
          requestedSchema: { type: 'object', properties: { tokenBudget: { type: 'integer' } } },
        },
        { sensitiveNames: { allow: ['token budget'] } },
      ),
    ).not.toThrow();
  });

  it.each([
    ['http://example.com/connect', /must use https/],
    ['https://user:pw@example.com/', /must not carry a user name or password/],
    ['https://example.com/connect?access_token=x', /must not carry a token in the URL/],
    ['https://bucket.example.com/r.pdf?X-Amz-Signature=s', /pre-authenticated/],
    ['connect', /needs an absolute URL/],
  ])('refuses the URL %s', (url, message) => {
    expect(() => elicitUrl({ message: 'Connect', url })).toThrow(message);
  });

  it.each([
    'https://mcp.example.com/connect?ticket=abc',
    'http://localhost:3000/connect',
    'http://127.0.0.1/x',
  ])('accepts the URL %s', (url) => {
    expect(elicitUrl({ message: 'Connect', url }).params).toEqual({ mode: 'url', message: 'Connect', url });
  });

  it('needs a message', () => {
    expect(() => elicitUrl({ message: ' ', url: 'https://example.com' })).toThrow(/non-empty message/);
  });
});
