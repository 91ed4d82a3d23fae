import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CLIENT_ID,
  newRuntime,
  paramsOf,
  plainHost,
  sdkV1Host,
  sdkV2Host,
  sdkV2ShimHost,
  type Host,
  type Outcome,
} from './fixtures/replay-hosts.js';
import { MemoryRedemptionStore, type Journal, type MrtrRuntimeOptions } from '../src/index.js';
import { createReplayV1LowLevelServer, createReplayV1Server } from './fixtures/replay-v1-servers.js';
import { createReplayV2LowLevelServer, createReplayV2Server } from './fixtures/replay-v2-servers.js';

// The journaled-replay handlers (round.ask, round.step) on every adapter, with real SDK clients
// and servers over real transports. Side effects are read from the handlers' own log.

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

function text(outcome: Outcome): string {
  if (outcome.kind === 'error') return `error ${outcome.code}: ${outcome.message}`;
  const content = outcome.result.content ?? outcome.result.messages ?? outcome.result.contents;
  const first = (content as { text?: string; content?: { text?: string } }[] | undefined)?.[0];
  return first?.text ?? first?.content?.text ?? '';
}

function stateOf(outcome: Outcome): string {
  if (outcome.kind === 'error' || typeof outcome.result.requestState !== 'string') {
    throw new Error(`no requestState in ${JSON.stringify(outcome)}`);
  }
  return outcome.result.requestState;
}

function isError(outcome: Outcome): boolean {
  return outcome.kind === 'error' || outcome.result.isError === true;
}

const hosts: [string, () => Promise<Host>][] = [
  [
    'SDK v1 McpServer over HTTP, 2025 client (runtime legacy fulfilment)',
    () => sdkV1Host('v1', createReplayV1Server),
  ],
  [
    'SDK v2 McpServer over HTTP, 2026-07-28 client (native MRTR, runtime retry loop)',
    () => sdkV2Host('v2', createReplayV2Server),
  ],
  ['SDK v2 McpServer over stdio, 2025 client (SDK legacy shim)', () => sdkV2ShimHost()],
  ['the plain JSON-RPC endpoint (runtime retry loop)', () => plainHost()],
];

describe.each(hosts)('journaled replay on %s', (_name, start) => {
  let host: Host;
  beforeAll(async () => {
    host = await start();
  });
  afterAll(() => host.close());
  beforeEach(async () => {
    host.user.reset();
    await host.effects();
  });

  it('asks sequential questions and runs each step exactly once, its value stable across rounds', async () => {
    host.user.answer('Where should Ada go?', accept({ city: 'Oslo' }));
    host.user.answer('How many nights in Oslo?', accept({ nights: 3 }));
    const outcome = await host.call('tools/call', 'book_trip', { traveller: 'Ada' });
    const log = await host.effects();
    const created = log.filter((effect) => effect.startsWith('create booking '));
    expect(created).toHaveLength(1);
    const booking = created[0]!.slice('create booking '.length);
    expect(text(outcome)).toBe(`Booked 3 nights in Oslo, booking ${booking}.`);
    expect(log.filter((effect) => effect.startsWith('charge'))).toEqual([
      expect.stringMatching(new RegExp(`^charge ${booking} key [\\w-]{32}$`)),
    ]);
    expect(log.filter((effect) => effect === 'run book_trip')).toHaveLength(3);
    expect(host.user.asked).toEqual(['Where should Ada go?', 'How many nights in Oslo?']);
  });

  it('keeps the decline and cancel branches', async () => {
    host.user.answer('Where should Bo go?', { action: 'decline' });
    expect(text(await host.call('tools/call', 'book_trip', { traveller: 'Bo' }))).toBe(
      'No trip for Bo (decline).',
    );
    host.user.answer('Where should Bo go?', accept({ city: 'Lisbon' }));
    host.user.answer('How many nights in Lisbon?', { action: 'cancel' });
    expect(text(await host.call('tools/call', 'book_trip', { traveller: 'Bo' }))).toBe('Trip cancelled.');
    expect((await host.effects()).filter((effect) => effect.startsWith('charge'))).toEqual([]);
  });

  it('asks Promise.all questions in one round', async () => {
    host.user.answer('Your name?', accept({ name: 'Cy' }));
    host.user.answer('Your favourite colour?', accept({ colour: 'teal' }));
    expect(text(await host.call('tools/call', 'survey'))).toBe('Cy likes teal.');
    expect(await host.effects()).toEqual(['run survey', 'run survey']);
    expect([...host.user.asked].sort()).toEqual(['Your favourite colour?', 'Your name?']);
    if (host.seesRounds) expect(host.user.rounds).toEqual([['name', 'colour']]);
  });

  it('numbers a key repeated in a loop, and runs conditional steps once each', async () => {
    host.user.answer('Delete a.txt?', accept({ sure: true }));
    host.user.answer('Delete b.txt?', accept({ sure: false }));
    host.user.answer('Delete c.txt?', accept({ sure: true }));
    const outcome = await host.call('tools/call', 'clean_up', { files: ['a.txt', 'b.txt', 'c.txt'] });
    expect(text(outcome)).toBe('Deleted a.txt, c.txt.');
    expect(await host.effects()).toEqual(['delete a.txt', 'delete c.txt']);
    if (host.seesRounds) {
      expect(host.user.rounds).toEqual([['confirm_delete'], ['confirm_delete#2'], ['confirm_delete#3']]);
    }
  });

  it('throws the SDK’s schema error for accepted content outside the schema', async () => {
    host.user.answer('Where should Di go?', accept({ city: 'Oslo' }));
    host.user.answer('How many nights in Oslo?', accept({ nights: 40 }));
    const outcome = await host.call('tools/call', 'book_trip', { traveller: 'Di' });
    expect(isError(outcome)).toBe(true);
    expect(text(outcome)).toContain(
      'Elicitation response content does not match requested schema: data/nights must be <= 14',
    );
    expect((await host.effects()).filter((effect) => effect.startsWith('charge'))).toEqual([]);
  });

  it('takes an answer outside the schema as the client sent it when the ask does not validate', async () => {
    const content = { stars: 9, comment: 'loved it' };
    host.user.answer('How many stars?', accept(content));
    expect(text(await host.call('tools/call', 'rate_unchecked'))).toBe('Rated: accept.');
    expect(await host.effects()).toEqual([`rated ${JSON.stringify({ action: 'accept', content })}`]);
  });

  it('lets the suspension through a catch block that rethrows it', async () => {
    host.user.answer('Go ahead?', accept({ go: true }));
    expect(text(await host.call('tools/call', 'careful'))).toBe('Answer: accept, go true.');
  });

  it('reports a catch-all that swallows the suspension as a usage error naming the key', async () => {
    const outcome = await host.call('tools/call', 'fragile');
    const reported = [text(outcome), ...host.serverErrors.map(String)].join('\n');
    expect(isError(outcome)).toBe(true);
    expect(reported).toMatch(
      /round\.ask\("go_ahead"\) suspended the handler.*if \(isSuspension\(e\)\) throw e;/,
    );
    expect(host.user.asked).toEqual([]);
  });

  it('refuses a journal past maxStateBytes, naming the step', async () => {
    const outcome = await host.call('tools/call', 'hoard');
    const reported = [text(outcome), ...host.serverErrors.map(String)].join('\n');
    expect(isError(outcome)).toBe(true);
    expect(reported).toMatch(/over the 16384-byte limit.*round\.step\("full_report"\) \(20\d\d\d bytes\)/);
  });

  it('answers sampling and roots in the shapes SDK v1 returned', async () => {
    host.user.answer('roots', { roots: [{ uri: 'file:///work', name: 'work' }] });
    host.user.answer('sampling', {
      role: 'assistant',
      content: { type: 'text', text: 'One root.' },
      model: 'test-model',
    });
    expect(text(await host.call('tools/call', 'summarize_roots'))).toBe('One root. (file:///work)');
  });

  it('serves a prompt and a resource on journaled replay', async () => {
    host.user.answer('Which topic?', accept({ topic: 'tides' }));
    expect(text(await host.call('prompts/get', 'topic'))).toBe('Tell me about tides.');
    host.user.answer('Why do you read the notes?', { action: 'decline' });
    expect(text(await host.call('resources/read', 'notes://secret'))).toBe('notes (decline)');
  });
});

describe('content outside the schema on SDK v1', () => {
  it('fails the tool with exactly the text SDK v1’s elicitInput gives', async () => {
    const host = await sdkV1Host('v1', createReplayV1Server);
    try {
      host.user.answer('How many nights in Oslo?', accept({ nights: 0 }), accept({ nights: 0 }));
      const pushed = await host.call('tools/call', 'push_nights');
      host.user.answer('Where should Jo go?', accept({ city: 'Oslo' }));
      const replayed = await host.call('tools/call', 'book_trip', { traveller: 'Jo' });
      expect(text(replayed)).toBe(
        'MCP error -32602: Elicitation response content does not match requested schema: data/nights must be >= 1',
      );
      if (process.env.MCP_MRTR_TEST_SDK_V1 === 'oldest') {
        // SDK v1 before 1.22 validated with ajv 6, which words the detail "data.nights should be >= 1".
        expect(text(pushed)).toMatch(
          /^MCP error -32602: Elicitation response content does not match requested schema: /,
        );
      } else {
        expect(replayed).toEqual(pushed);
      }
    } finally {
      await host.close();
    }
  });
});

describe('the SDK’s request context on round', () => {
  const sdkHosts: [string, () => Promise<Host>, (sessionId: unknown) => void][] = [
    [
      'SDK v1 (round.extra), sessionful HTTP',
      () => sdkV1Host('v1', createReplayV1Server),
      (sessionId) => expect(sessionId).toMatch(/^[0-9a-f-]{36}$/),
    ],
    [
      'SDK v2 (round.ctx), stateless 2026-07-28 HTTP',
      () => sdkV2Host('v2', createReplayV2Server),
      (sessionId) => expect(sessionId).toBeNull(),
    ],
  ];
  it.each(sdkHosts)(
    'reaches the handler on %s: authInfo, sessionId, signal, progress',
    async (_name, start, checkSession) => {
      const host = await start();
      try {
        host.user.answer('Go ahead?', accept({ go: true }));
        const progress: unknown[] = [];
        const outcome = await host.call(
          'tools/call',
          'whoami',
          {},
          { onProgress: (update) => progress.push(update) },
        );
        const seen = JSON.parse(text(outcome)) as Record<string, unknown>;
        expect(seen).toMatchObject({ clientId: CLIENT_ID, signal: true, go: 'accept' });
        checkSession(seen.sessionId);
        // Sent on each of the two rounds.
        expect(progress).toEqual([
          { progress: 1, total: 2 },
          { progress: 1, total: 2 },
        ]);
      } finally {
        await host.close();
      }
    },
  );
});

describe('the journal on the wire', () => {
  const clock = { offset: 0 };
  const runtime = () => newRuntime({ now: () => Date.now() + clock.offset });
  const wireHosts: [string, () => Promise<Host>][] = [
    ['SDK v2', () => sdkV2Host('v2', createReplayV2Server, runtime())],
    ['the plain endpoint', () => plainHost(runtime())],
  ];
  it.each(wireHosts)(
    'is sealed and bound on %s: tampered, replayed or expired state is -32602',
    async (_name, start) => {
      const host = await start();
      const attempt = host.attempt!.bind(host);
      try {
        await host.effects();
        const params = paramsOf('tools/call', 'book_trip', { traveller: 'Gus' });
        const first = await attempt('tools/call', params);
        expect(first).toMatchObject({ kind: 'result', result: { resultType: 'input_required' } });
        const second = await attempt('tools/call', {
          ...params,
          inputResponses: { destination: accept({ city: 'Oslo' }) },
          requestState: stateOf(first),
        });
        expect(second).toMatchObject({ kind: 'result', result: { inputRequests: { nights: {} } } });
        const state = stateOf(second);
        const answer = { nights: accept({ nights: 2 }) };
        const refused = { kind: 'error', code: -32602, message: 'Invalid or expired requestState' };

        const flipped = state.slice(0, -12) + (state.at(-12) === 'A' ? 'B' : 'A') + state.slice(-11);
        expect(
          await attempt('tools/call', { ...params, inputResponses: answer, requestState: flipped }),
        ).toMatchObject(refused);
        const otherRequest = paramsOf('tools/call', 'book_trip', { traveller: 'Hal' });
        expect(
          await attempt('tools/call', { ...otherRequest, inputResponses: answer, requestState: state }),
        ).toMatchObject(refused);
        clock.offset = 301_000;
        expect(
          await attempt('tools/call', { ...params, inputResponses: answer, requestState: state }),
        ).toMatchObject(refused);
        clock.offset = 0;

        const done = await attempt('tools/call', { ...params, inputResponses: answer, requestState: state });
        expect(text(done)).toMatch(/^Booked 2 nights in Oslo, booking [0-9a-f-]{36}\.$/);
        const log = await host.effects();
        expect(log.filter((effect) => effect.startsWith('create booking'))).toHaveLength(1);
        expect(log.filter((effect) => effect === 'run book_trip')).toHaveLength(3);
      } finally {
        clock.offset = 0;
        await host.close();
      }
    },
  );
});

describe('a step under retried, raced and replayed state', () => {
  const wireHosts = (options: Partial<MrtrRuntimeOptions>): [string, () => Promise<Host>][] => [
    ['SDK v2', () => sdkV2Host('v2', createReplayV2Server, newRuntime(options))],
    ['the plain endpoint', () => plainHost(newRuntime(options))],
  ];
  const RETRIES = 25;

  /** Takes book_trip to its last question and returns the params that answer it, and the earlier state. */
  async function lastRound(host: Host, traveller: string) {
    const attempt = host.attempt!.bind(host);
    const params = paramsOf('tools/call', 'book_trip', { traveller });
    const first = await attempt('tools/call', params);
    const earlier = { ...params, inputResponses: { destination: accept({ city: 'Oslo' }) } };
    const second = await attempt('tools/call', { ...earlier, requestState: stateOf(first) });
    return {
      earlier: { ...earlier, requestState: stateOf(first) },
      last: { ...params, inputResponses: { nights: accept({ nights: 2 }) }, requestState: stateOf(second) },
    };
  }

  const charges = (log: string[]) => log.filter((effect) => effect.startsWith('charge'));

  it.each(wireHosts({ singleUse: new MemoryRedemptionStore() }))(
    'runs the charge once for 25 concurrent retries of one state with single use on, and refuses replays (%s)',
    async (_name, start) => {
      const host = await start();
      try {
        await host.effects();
        const { earlier, last } = await lastRound(host, 'Ivy');
        const outcomes = await Promise.all(
          Array.from({ length: RETRIES }, () => host.attempt!('tools/call', last)),
        );
        const done = outcomes.filter((outcome) => outcome.kind === 'result');
        expect(done).toHaveLength(1);
        expect(text(done[0]!)).toMatch(/^Booked 2 nights in Oslo/);
        expect(outcomes.filter((outcome) => outcome.kind === 'error')).toHaveLength(RETRIES - 1);
        for (const outcome of outcomes.filter((each) => each.kind === 'error')) {
          expect(outcome).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
        }
        expect(await host.attempt!('tools/call', earlier)).toMatchObject({ kind: 'error', code: -32602 });
        expect(await host.attempt!('tools/call', last)).toMatchObject({ kind: 'error', code: -32602 });
        expect(charges(await host.effects())).toHaveLength(1);
      } finally {
        await host.close();
      }
    },
    60_000,
  );

  it('leaves the SDK v1 loop, whose 2025 client never holds the state, working with single use on', async () => {
    const host = await sdkV1Host(
      'v1',
      createReplayV1Server,
      newRuntime({ singleUse: new MemoryRedemptionStore() }),
    );
    try {
      await host.effects();
      host.user.answer('Where should Lu go?', accept({ city: 'Lisbon' }));
      host.user.answer('How many nights in Lisbon?', accept({ nights: 4 }));
      expect(text(await host.call('tools/call', 'book_trip', { traveller: 'Lu' }))).toMatch(
        /^Booked 4 nights in Lisbon/,
      );
      expect(charges(await host.effects())).toHaveLength(1);
    } finally {
      await host.close();
    }
  });

  it.each(wireHosts({}))(
    'runs the charge again for each raced or replayed state without single use, always with the same idempotency key (%s)',
    async (_name, start) => {
      const host = await start();
      try {
        await host.effects();
        const { earlier, last } = await lastRound(host, 'Jan');
        const outcomes = await Promise.all(
          Array.from({ length: RETRIES }, () => host.attempt!('tools/call', last)),
        );
        expect(outcomes.every((outcome) => text(outcome).startsWith('Booked 2 nights in Oslo'))).toBe(true);
        // The earlier state replays too: it asks the last question again, and its answer charges again.
        const again = await host.attempt!('tools/call', earlier);
        expect(again).toMatchObject({ kind: 'result', result: { inputRequests: { nights: {} } } });
        await host.attempt!('tools/call', { ...last, requestState: stateOf(again) });
        const charged = charges(await host.effects());
        expect(charged).toHaveLength(RETRIES + 1);
        // What an external API needs to do the charge once: one key for every run of this call's step.
        expect(new Set(charged).size).toBe(1);
        const { last: other } = await lastRound(host, 'Jan');
        await host.attempt!('tools/call', other);
        const [otherCall] = charges(await host.effects());
        expect(otherCall?.split(' key ')[1]).not.toBe(charged[0]!.split(' key ')[1]);
      } finally {
        await host.close();
      }
    },
    60_000,
  );
});

describe('a journal sealed by another version of the server', () => {
  const runtime = newRuntime();
  const hosts: [string, () => Promise<Host>][] = [
    ['SDK v2', () => sdkV2Host('v2', createReplayV2Server, runtime)],
    ['the plain endpoint', () => plainHost(runtime)],
  ];
  it.each(hosts)('tells the client to start the call again (%s)', async (_name, start) => {
    const host = await start();
    try {
      await host.effects();
      const params = paramsOf('tools/call', 'book_trip', { traveller: 'Kit' });
      // A journal as this runtime sealed it before formats were numbered.
      const journal = {
        e: [{ k: 'booking_id', t: 's', v: 'b-1' }],
        p: ['destination'],
      } as unknown as Journal;
      const requestState = runtime.sealer.sealRound(
        { value: undefined, journal },
        {
          principal: CLIENT_ID,
          request: { method: 'tools/call', target: 'book_trip', arguments: params.arguments },
        },
      );
      const outcome = await host.attempt!('tools/call', {
        ...params,
        inputResponses: { destination: accept({ city: 'Oslo' }) },
        requestState,
      });
      // A -32602 error; SDK v2's McpServer hands a tool's errors back as an isError result.
      if (outcome.kind === 'error') expect(outcome.code).toBe(-32602);
      expect(isError(outcome)).toBe(true);
      expect(text(outcome)).toContain(
        'requestState holds a journal in format 1, written by another version of this server, which reads format 2: its answers cannot be replayed. Start the call again without requestState.',
      );
      expect(await host.effects()).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

const lowLevelHosts: [string, () => Promise<Host>][] = [
  ['SDK v1 low-level Server', () => sdkV1Host('v1 low-level', createReplayV1LowLevelServer)],
  ['SDK v2 low-level Server', () => sdkV2Host('v2 low-level', createReplayV2LowLevelServer)],
];

describe.each(lowLevelHosts)('requestHandler on the %s', (name, start) => {
  let host: Host;
  beforeAll(async () => {
    host = await start();
  });
  afterAll(() => host.close());
  beforeEach(async () => {
    host.user.reset();
    await host.effects();
  });

  it('runs a tools/call handler that switches on the tool name', async () => {
    host.user.answer('Where should Ed go?', accept({ city: 'Lisbon' }));
    host.user.answer('How many nights in Lisbon?', accept({ nights: 2 }));
    expect(text(await host.call('tools/call', 'book_trip', { traveller: 'Ed' }))).toMatch(
      /^Booked 2 nights in Lisbon, booking [0-9a-f-]{36}\.$/,
    );
    expect((await host.effects()).filter((effect) => effect.startsWith('create booking'))).toHaveLength(1);
    host.user.answer('Your name?', accept({ name: 'Flo' }));
    host.user.answer('Your favourite colour?', { action: 'cancel' });
    expect(text(await host.call('tools/call', 'survey'))).toBe('Flo likes nothing.');
  });

  it('keeps the handler’s own errors as JSON-RPC errors', async () => {
    const outcome = await host.call('tools/call', 'nope');
    expect(outcome).toMatchObject({ kind: 'error', code: -32602 });
    expect(text(outcome)).toContain('Unknown tool nope');
  });

  it('reports content outside the schema as the SDK’s -32602 error', async () => {
    host.user.answer('Where should Ivy go?', accept({ city: 'Rome' }));
    const outcome = await host.call('tools/call', 'book_trip', { traveller: 'Ivy' });
    expect(outcome).toMatchObject({ kind: 'error', code: -32602 });
    expect(text(outcome)).toContain(
      'Elicitation response content does not match requested schema: data/city must be equal to one of the allowed values',
    );
  });

  it('serves a case with its own round trip untouched: its input_required, its retry fields', async () => {
    // A 2025 client (v1 host) never saw the runtime's rounds, but did see this handler's own result.
    const params = paramsOf('tools/call', 'hand_rolled');
    const first = await (host.attempt?.('tools/call', params) ?? host.call('tools/call', 'hand_rolled'));
    expect(first).toMatchObject({
      kind: 'result',
      result: {
        resultType: 'input_required',
        inputRequests: { ok: { method: 'elicitation/create' } },
        requestState: 'hand-rolled-state',
      },
    });
    expect(host.user.asked).toEqual([]);

    const retry = { inputResponses: { ok: accept({ go: true }) }, requestState: 'hand-rolled-state' };
    expect(text(await host.call('tools/call', 'hand_rolled', retry))).toBe('hand-rolled accept');
    expect(await host.effects()).toEqual(['hand-rolled accept, state hand-rolled-state']);
  });

  // Only a 2026-07-28 client sends a requestState of its own accord, so only SDK v2 hosts have the test.
  if (name.includes('v2'))
    it('hands a case with its own round trip the requestState the client sent, unverified', async () => {
      const outcome = await host.attempt!('tools/call', {
        ...paramsOf('tools/call', 'hand_rolled', { inputResponses: { ok: { action: 'decline' } } }),
        requestState: 'hand-rolled-state',
      });
      expect(text(outcome)).toBe('hand-rolled decline');
      expect(await host.effects()).toEqual(['hand-rolled decline, state hand-rolled-state']);
    });

  it('runs prompts/get and resources/read handlers', async () => {
    host.user.answer('Which topic?', accept({ topic: 'moss' }));
    expect(text(await host.call('prompts/get', 'topic'))).toBe('Tell me about moss.');
    host.user.answer('Why do you read the notes?', accept({ reason: 'audit' }));
    expect(text(await host.call('resources/read', 'notes://secret'))).toBe('notes (audit)');
  });
});
