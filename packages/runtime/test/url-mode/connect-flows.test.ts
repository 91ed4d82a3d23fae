import { hash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  Keyring,
  MrtrRuntime,
  MrtrUsageError,
  RequestStateError,
  RuntimeConfigError,
  type ClientCapabilities,
  type JsonObject,
} from '../../src/index.js';
import {
  ConnectEndpoint,
  ConnectFlows,
  MemoryUrlFlowStore,
  RedisUrlFlowStore,
  type ConnectEvent,
  type ConnectFlowRef,
  type ConnectFlowsOptions,
  type ConnectProvider,
  type ConnectStep,
  type ProviderCallback,
} from '../../src/url-mode/index.js';
import { useRedis } from '../fixtures/redis.js';

// ConnectFlows' decisions one by one, without HTTP: the end-to-end file runs them through servers.

const runtime = new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) });
const URL_CAPABLE: ClientCapabilities = { elicitation: { url: {} } };

interface Harness {
  readonly flows: ConnectFlows;
  readonly events: ConnectEvent[];
  readonly callbacks: ProviderCallback[];
  readonly advance: (ms: number) => void;
}

function harness(
  complete: ConnectProvider['complete'] = () => ({ account: 'octocat' }),
  options: Partial<ConnectFlowsOptions> = {},
): Harness {
  let now = Date.now();
  const events: ConnectEvent[] = [];
  const callbacks: ProviderCallback[] = [];
  const flows = new ConnectFlows({
    store: new MemoryUrlFlowStore({ now: () => now }),
    connectUrl: 'https://mcp.example.com/connect',
    providers: {
      github: {
        authorizationUrl: ({ state, redirectUri, codeChallenge }) =>
          `https://github.example/authorize?${new URLSearchParams({ state, redirect_uri: redirectUri, code_challenge: codeChallenge }).toString()}`,
        complete: (callback) => {
          callbacks.push(callback);
          return complete(callback);
        },
      },
    },
    onEvent: (event) => events.push(event),
    now: () => now,
    ...options,
  });
  return { flows, events, callbacks, advance: (ms) => (now += ms) };
}

interface StepCall {
  readonly principal?: string;
  readonly flow?: ConnectFlowRef;
  readonly answer?: 'accept' | 'decline' | 'cancel';
  readonly capabilities?: ClientCapabilities;
  readonly arguments?: JsonObject;
}

/** Runs one round of a handler that asks `flows` for the `github` step, and returns the step. */
async function step(flows: ConnectFlows, call: StepCall = {}): Promise<ConnectStep> {
  let seen: ConnectStep | undefined;
  await runtime.runRound(
    async (_args: JsonObject, round) => {
      seen = await flows.step(round, {
        key: 'github',
        provider: 'github',
        message: 'Connect GitHub.',
        flow: call.flow,
      });
      return { content: [] };
    },
    {
      request: { method: 'tools/call', target: 'list_repos', arguments: call.arguments ?? {} },
      args: {},
      principal: call.principal ?? 'alice',
      clientCapabilities: call.capabilities ?? URL_CAPABLE,
      inputResponses: call.answer ? { github: { action: call.answer } } : undefined,
    },
  );
  if (!seen) throw new Error('the handler did not run');
  return seen;
}

async function pending(flows: ConnectFlows, call: StepCall = {}) {
  const result = await step(flows, call);
  if (result.status !== 'pending') throw new Error(`expected pending, got ${result.status}`);
  return result;
}

const ticketOf = (request: { params: { url: string } }) =>
  new URL(request.params.url).searchParams.get('ticket');

async function stateFrom(flows: ConnectFlows, ticket: string | null): Promise<string> {
  const decision = await flows.openTicket(ticket, 'alice');
  if (decision.outcome !== 'redirect') throw new Error(`expected a redirect, got ${decision.reason}`);
  return new URL(decision.location).searchParams.get('state')!;
}

describe('ConnectFlows configuration', () => {
  const provider: ConnectProvider = {
    authorizationUrl: () => 'https://x.example/',
    complete: () => undefined,
  };
  const base = { store: new MemoryUrlFlowStore(), providers: { github: provider } };

  it.each<[string, Partial<ConnectFlowsOptions>, RegExp]>([
    ['plain http outside localhost', { connectUrl: 'http://mcp.example.com/connect' }, /must use https/],
    [
      'a query in the connect URL',
      { connectUrl: 'https://mcp.example.com/connect?x=1' },
      /no query or fragment/,
    ],
    [
      'no providers',
      { connectUrl: 'https://mcp.example.com/connect', providers: {} },
      /at least one provider/,
    ],
    [
      'a ticket outliving its flow',
      { connectUrl: 'https://mcp.example.com/connect', ticketTtlSeconds: 600, flowTtlSeconds: 300 },
      /must not be longer/,
    ],
    [
      'a TTL that is no time',
      { connectUrl: 'https://mcp.example.com/connect', ticketTtlSeconds: 0 },
      /positive/,
    ],
  ])('refuses %s at startup', (_what, options, message) => {
    expect(() => new ConnectFlows({ ...base, connectUrl: '', ...options })).toThrow(RuntimeConfigError);
    expect(() => new ConnectFlows({ ...base, connectUrl: '', ...options })).toThrow(message);
  });

  it('puts the callback under the connect URL unless told otherwise, and accepts http on localhost', () => {
    const flows = new ConnectFlows({ ...base, connectUrl: 'http://localhost:8080/connect/' });
    expect(flows.callbackUrl.href).toBe('http://localhost:8080/connect/callback');
  });
});

describe('ConnectFlows.step', () => {
  it('starts a flow with a connect URL that carries nothing but an opaque ticket', async () => {
    const { flows, events } = harness();
    const first = await pending(flows);
    const url = new URL(first.request.params.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://mcp.example.com/connect');
    expect([...url.searchParams.keys()]).toEqual(['ticket']);
    expect(ticketOf(first.request)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.inputRequests).toEqual({ github: first.request });
    expect(first.request.params).toMatchObject({ mode: 'url', message: 'Connect GitHub.' });
    expect(events.map((event) => event.type)).toEqual(['flow-started', 'ticket-issued']);
    expect(JSON.stringify(events)).not.toContain(first.flow.ticket);
    const other = await pending(flows);
    expect(other.flow.ticket).not.toBe(first.flow.ticket);
    expect(other.flow.id).not.toBe(first.flow.id);
  });

  it('keeps asking with the same URL while the ticket is unused, however often the client accepts', async () => {
    const { flows } = harness();
    const first = await pending(flows);
    const again = await pending(flows, { flow: first.flow, answer: 'accept' });
    const noAnswer = await pending(flows, { flow: first.flow });
    expect(again.request.params.url).toBe(first.request.params.url);
    expect(noAnswer.flow).toEqual(first.flow);
  });

  it('completes only once the callback recorded completion, with the provider’s detail', async () => {
    const { flows, callbacks } = harness();
    const first = await pending(flows);
    const state = await stateFrom(flows, ticketOf(first.request));
    expect((await step(flows, { flow: first.flow, answer: 'accept' })).status).toBe('pending');
    expect(await flows.finishCallback(new URLSearchParams({ state, code: 'c0de' }), 'alice')).toEqual({
      outcome: 'completed',
    });
    expect(callbacks[0]).toMatchObject({ principal: 'alice', flow: first.flow.id });
    expect(callbacks[0]?.params.get('code')).toBe('c0de');
    expect(await step(flows, { flow: first.flow, answer: 'accept' })).toEqual({
      status: 'completed',
      flow: first.flow,
      detail: { account: 'octocat' },
    });
  });

  it('hands the provider the PKCE verifier whose challenge went to the third party', async () => {
    const { flows, callbacks } = harness();
    const first = await pending(flows);
    const decision = await flows.openTicket(ticketOf(first.request), 'alice');
    if (decision.outcome !== 'redirect') throw new Error('no redirect');
    const location = new URL(decision.location);
    await flows.finishCallback(
      new URLSearchParams({ state: location.searchParams.get('state')!, code: 'x' }),
      'alice',
    );
    expect(hash('sha256', callbacks[0]!.codeVerifier, 'base64url')).toBe(
      location.searchParams.get('code_challenge'),
    );
    expect(location.searchParams.get('redirect_uri')).toBe('https://mcp.example.com/connect/callback');
  });

  it('issues a fresh ticket once the shown one was used or expired', async () => {
    const { flows, advance } = harness();
    const first = await pending(flows);
    await stateFrom(flows, ticketOf(first.request));
    const afterUse = await pending(flows, { flow: first.flow, answer: 'accept' });
    expect(afterUse.flow.id).toBe(first.flow.id);
    expect(afterUse.flow.ticket).not.toBe(first.flow.ticket);
    advance(301_000);
    const afterExpiry = await pending(flows, { flow: afterUse.flow });
    expect(afterExpiry.flow.id).toBe(first.flow.id);
    expect(afterExpiry.flow.ticket).not.toBe(afterUse.flow.ticket);
  });

  it('starts over when the flow itself expired', async () => {
    const { flows, advance, events } = harness();
    const first = await pending(flows);
    advance(901_000);
    const restarted = await pending(flows, { flow: first.flow, answer: 'accept' });
    expect(restarted.flow.id).not.toBe(first.flow.id);
    expect(events.at(-1)).toEqual({ type: 'flow-restarted', flow: restarted.flow.id, principal: 'alice' });
  });

  it('passes decline and cancel through, without looking further', async () => {
    const { flows } = harness();
    const first = await pending(flows);
    expect(await step(flows, { flow: first.flow, answer: 'decline' })).toEqual({
      status: 'declined',
      flow: first.flow,
    });
    expect(await step(flows, { flow: first.flow, answer: 'cancel' })).toEqual({
      status: 'cancelled',
      flow: first.flow,
    });
  });

  it('reports a client that cannot open links, and stores nothing for it', async () => {
    const store = new MemoryUrlFlowStore();
    const { flows } = harness(undefined, { store });
    expect(await step(flows, { capabilities: { elicitation: { form: {} } } })).toEqual({
      status: 'unsupported',
    });
    expect(store.size).toBe(0);
  });

  it('refuses to bind a ticket to nobody, and to an unknown provider', async () => {
    const { flows } = harness();
    await expect(step(flows, { principal: 'anonymous' })).rejects.toThrow(MrtrUsageError);
    let thrown: unknown;
    await runtime
      .runRound(
        async (_args: JsonObject, round) => {
          await flows.step(round, { key: 'k', provider: 'gitlab', message: 'm', flow: undefined });
          return { content: [] };
        },
        {
          request: { method: 'tools/call', target: 't' },
          args: {},
          principal: 'alice',
          clientCapabilities: URL_CAPABLE,
          inputResponses: undefined,
        },
      )
      .catch((error: unknown) => (thrown = error));
    expect(thrown).toBeInstanceOf(MrtrUsageError);
    expect((thrown as Error).message).toContain('No connect provider named "gitlab"');
  });

  it('refuses a flow reference presented for another principal or another request', async () => {
    const { flows } = harness();
    const alices = await pending(flows, { arguments: { org: 'acme' } });
    const asBob = await step(flows, {
      principal: 'bob',
      flow: alices.flow,
      arguments: { org: 'acme' },
    }).catch((error: unknown) => error);
    expect(asBob).toBeInstanceOf(RequestStateError);
    expect((asBob as RequestStateError).reason).toBe('principal');
    const otherRequest = await step(flows, { flow: alices.flow, arguments: { org: 'other' } }).catch(
      (error: unknown) => error,
    );
    expect((otherRequest as RequestStateError).reason).toBe('request');
  });
});

describe('ConnectFlows.openTicket', () => {
  it.each([null, '', 'short', `${'A'.repeat(42)}!`])('refuses %j as malformed', async (ticket) => {
    const { flows } = harness();
    expect(await flows.openTicket(ticket, 'alice')).toEqual({ outcome: 'refused', reason: 'malformed' });
  });

  it('lets strangers and signed-out visits through to nothing, and leaves the ticket to its owner', async () => {
    const { flows, events } = harness();
    const ticket = ticketOf((await pending(flows)).request);
    expect(await flows.openTicket(ticket, undefined)).toEqual({ outcome: 'refused', reason: 'signed-out' });
    expect(await flows.openTicket(ticket, 'mallory')).toEqual({ outcome: 'refused', reason: 'wrong-user' });
    expect((await flows.openTicket(ticket, 'alice')).outcome).toBe('redirect');
    expect(await flows.openTicket(ticket, 'alice')).toEqual({ outcome: 'refused', reason: 'used' });
    expect(events.filter((event) => event.type === 'ticket-refused')).toMatchObject([
      { reason: 'signed-out', principal: 'alice' },
      { reason: 'wrong-user', principal: 'alice', sessionPrincipal: 'mallory' },
      { reason: 'used', principal: 'alice' },
    ]);
  });

  it('refuses an authorization URL that is not a web page', async () => {
    const { flows } = harness(undefined, {
      providers: { github: { authorizationUrl: () => 'javascript:alert(1)', complete: () => undefined } },
    });
    const ticket = ticketOf((await pending(flows)).request);
    await expect(flows.openTicket(ticket, 'alice')).rejects.toThrow(RuntimeConfigError);
  });
});

describe('ConnectFlows.finishCallback', () => {
  async function callbackState(h: Harness) {
    const first = await pending(h.flows);
    return { flow: first.flow, state: await stateFrom(h.flows, ticketOf(first.request)) };
  }

  it('records the third party’s refusal as a failed flow, with a code safe to show', async () => {
    const h = harness();
    const { flow, state } = await callbackState(h);
    expect(await h.flows.finishCallback(new URLSearchParams({ state, error: '<script>x' }), 'alice')).toEqual(
      {
        outcome: 'failed',
        error: 'error',
      },
    );
    expect(h.callbacks).toEqual([]);
    expect(await step(h.flows, { flow, answer: 'accept' })).toEqual({
      status: 'failed',
      flow,
      error: 'error',
    });
  });

  it('fails the flow when the provider throws, and logs why', async () => {
    const h = harness(() => {
      throw new Error('token endpoint down');
    });
    const { flow, state } = await callbackState(h);
    expect(await h.flows.finishCallback(new URLSearchParams({ state, code: 'c' }), 'alice')).toEqual({
      outcome: 'failed',
      error: 'exchange_failed',
    });
    const failed = h.events.find((event) => event.type === 'failed');
    expect(failed).toMatchObject({
      flow: flow.id,
      error: 'exchange_failed',
      cause: { message: 'token endpoint down' },
    });
  });

  it.each<[string, unknown]>([
    ['secret-named detail', { account: 'octocat', accessToken: 'gho_x' }],
    ['detail that is not an object', 'gho_x'],
  ])(
    'fails the flow when the provider returns %s, so tokens never reach a handler',
    async (_what, detail) => {
      const h = harness(() => detail as JsonObject);
      const { flow, state } = await callbackState(h);
      expect(await h.flows.finishCallback(new URLSearchParams({ state, code: 'c' }), 'alice')).toEqual({
        outcome: 'failed',
        error: 'invalid_detail',
      });
      expect(await step(h.flows, { flow })).toMatchObject({ status: 'failed', error: 'invalid_detail' });
    },
  );

  it('refuses a state it never issued, and a second use', async () => {
    const h = harness();
    const { state } = await callbackState(h);
    const params = new URLSearchParams({ state, code: 'c' });
    expect(await h.flows.finishCallback(new URLSearchParams({ state: 'A'.repeat(43) }), 'alice')).toEqual({
      outcome: 'refused',
      reason: 'unknown',
    });
    expect(await h.flows.finishCallback(params, 'alice')).toEqual({ outcome: 'completed' });
    expect(await h.flows.finishCallback(params, 'alice')).toEqual({ outcome: 'refused', reason: 'used' });
    expect(h.callbacks).toHaveLength(1);
  });

  it.each<[string, string | undefined]>([
    ['a stranger’s browser', 'bob'],
    ['a browser with no session', undefined],
  ])(
    'burns the state and the flow of a callback refused in %s, so its owner cannot redeem it',
    async (_what, session) => {
      const h = harness();
      const { flow, state } = await callbackState(h);
      const params = new URLSearchParams({ state, code: 'bobs-code' });
      const refused = await h.flows.finishCallback(params, session);
      expect(refused).toEqual({
        outcome: 'refused',
        reason: session === undefined ? 'signed-out' : 'wrong-user',
      });
      expect(await h.flows.finishCallback(params, 'alice')).toEqual({ outcome: 'refused', reason: 'used' });
      expect(h.callbacks).toEqual([]);
      expect(await step(h.flows, { flow, answer: 'accept' })).toEqual({
        status: 'failed',
        flow,
        error: 'callback_refused',
      });
      expect(h.events.filter((event) => event.type === 'failed')).toMatchObject([
        { flow: flow.id, principal: 'alice', error: 'callback_refused' },
      ]);
    },
  );
});

describe('ConnectEndpoint', () => {
  it('answers HEAD without using the ticket, refuses other methods and unknown paths', async () => {
    const { flows } = harness();
    const endpoint = new ConnectEndpoint(flows, { serverName: 'demo' });
    const url = new URL((await pending(flows)).request.params.url);
    const target = `${url.pathname}${url.search}`;
    expect((await endpoint.handle({ method: 'HEAD', url: target, principal: 'alice' })).status).toBe(200);
    const post = await endpoint.handle({ method: 'POST', url: target, principal: 'alice' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await endpoint.handle({ method: 'GET', url: '/elsewhere', principal: 'alice' })).status).toBe(
      404,
    );
    const get = await endpoint.handle({ method: 'GET', url: target, principal: 'alice' });
    expect(get.status).toBe(303);
    expect(get.headers.location?.startsWith('https://github.example/authorize?')).toBe(true);
  });

  it('sends no referrer and allows no caching or framing, and escapes what it shows', async () => {
    const { flows } = harness();
    const endpoint = new ConnectEndpoint(flows, { serverName: '<img src=x onerror=alert(1)>' });
    const page = await endpoint.handle({ method: 'GET', url: '/connect', principal: undefined });
    expect(page.status).toBe(404);
    expect(page.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-type': 'text/html; charset=utf-8',
    });
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img');
  });
});

describe('what the store holds', () => {
  const redis = useRedis();

  it('never holds a ticket or an OAuth state in the clear', async () => {
    const keyPrefix = `held:${randomBytes(4).toString('hex')}:`;
    const { flows } = harness(undefined, {
      store: new RedisUrlFlowStore({ send: (args) => redis().client.sendCommand(args), keyPrefix }),
    });
    const first = await pending(flows);
    const ticket = ticketOf(first.request)!;
    const state = await stateFrom(flows, ticket);
    await flows.finishCallback(new URLSearchParams({ state, code: 'c' }), 'alice');
    const keys = await redis().client.sendCommand<string[]>(['KEYS', `${keyPrefix}*`]);
    expect(keys.length).toBeGreaterThanOrEqual(5);
    const values = await Promise.all(keys.map((key) => redis().client.sendCommand<string>(['GET', key])));
    const everything = [...keys, ...values].join('\n');
    expect(everything).not.toContain(ticket);
    expect(everything).not.toContain(state);
  });
});
