import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  urlConsentHandler,
  type UrlConsentAnswer,
  type UrlConsentPrompt,
} from '../../src/client/consent/index.js';
import { clientCapabilitiesFor, HttpJsonRpcClient, type InputHandlers } from '../../src/client/index.js';
import { Keyring, type JsonObject } from '../../src/index.js';
import {
  MemoryUrlFlowStore,
  RedisUrlFlowStore,
  type ConnectEvent,
  type UrlFlowStore,
} from '../../src/url-mode/index.js';
import { useRedis } from '../fixtures/redis.js';
import { startBalancer } from './balancer.js';
import { Browser } from './browser.js';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from './fake-authorization-server.js';
import { startReposServer, type AppState, type ReposServer } from './repos-server.js';

// The URL-mode example end to end: real HTTP servers on loopback (the MCP server with its connect
// endpoint, a fake GitHub), driven by the runtime's HTTP client and consent helper, with users
// whose browsers hold their own sessions.

const USERS = {
  alice: { mcpToken: 'alice-mcp-token', account: 'alice-gh' },
  bob: { mcpToken: 'bob-mcp-token', account: 'bob-gh' },
} as const;
type UserName = keyof typeof USERS;

const TICKET_TTL_SECONDS = 300;

interface User {
  readonly browser: Browser;
  readonly prompts: UrlConsentPrompt[];
  /** What the user does with each link they accept, in order; the last one repeats. */
  readonly actions: ((url: string) => Promise<void>)[];
  /** Answers to the consent dialog, in order, or what the user does before answering; `accept` when none is left. */
  readonly answers: (UrlConsentAnswer | (() => Promise<UrlConsentAnswer>))[];
  listRepos(): Promise<JsonObject>;
}

interface World {
  readonly github: FakeAuthorizationServer;
  /** The public face of the MCP server (any instance answers). */
  readonly server: ReposServer;
  readonly events: ConnectEvent[];
  /** Every body the MCP endpoint answered with. */
  readonly responses: string[];
  readonly state: AppState;
  advance(seconds: number): void;
  user(name: UserName): Promise<User>;
  /** Opens a link in the user's own browser, which is signed in everywhere. */
  openOwn(user: User): (url: string) => Promise<void>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function startWorld(
  storeFor: (now: () => number) => UrlFlowStore,
  instanceCount: number,
  mcp: 'plain' | 'sdk-v2',
): Promise<World> {
  let now = Date.now();
  const clock = () => now;
  const github = await startFakeAuthorizationServer({
    'alice-gh': { repos: ['alpha', 'beta'] },
    'bob-gh': { repos: ['bobs-secret-project'] },
  });
  closers.push(() => github.close());
  const store = storeFor(clock);
  const keyring = new Keyring({ current: { id: 'k1', secret: randomBytes(32) } });
  const state: AppState = { sessions: new Map(), vault: new Map() };
  const events: ConnectEvent[] = [];
  const app = { url: github.url, clientId: 'repos-demo', clientSecret: randomBytes(16).toString('hex') };
  // Several instances share the store, the keyring and the app's state behind one public origin.
  const balancer = instanceCount > 1 ? await startBalancer() : undefined;
  if (balancer) closers.push(() => balancer.close());
  const instances: ReposServer[] = [];
  for (let index = 0; index < instanceCount; index++) {
    const instance = await startReposServer({
      store,
      keyring,
      github: app,
      state,
      now: clock,
      onEvent: (event) => events.push(event),
      mcp,
      ...(balancer && { publicUrl: balancer.url }),
    });
    closers.push(() => instance.close());
    instances.push(instance);
    balancer?.targets.push(instance.url);
  }
  const server = instances[0]!;
  github.registerClient(app.clientId, { secret: app.clientSecret, redirectUris: [server.callbackUrl] });

  const responses: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    responses.push(await response.clone().text());
    return response;
  };

  const world: World = {
    github,
    server,
    events,
    responses,
    state,
    advance: (seconds) => {
      now += seconds * 1000;
    },
    openOwn: (user) => async (url) => {
      const page = await user.browser.open(url);
      expect(page.body).toContain('is connected');
    },
    user: async (name) => {
      const browser = new Browser(name);
      await browser.open(`${server.publicUrl}/signin?user=${name}`);
      await browser.open(`${github.url}/signin?account=${USERS[name].account}`);
      const prompts: UrlConsentPrompt[] = [];
      const actions: ((url: string) => Promise<void>)[] = [];
      const answers: User['answers'] = [];
      let acted = 0;
      const handlers: InputHandlers = {
        url: urlConsentHandler({
          serverName: 'repos-demo',
          serverUrl: server.mcpUrl,
          ask: (prompt) => {
            prompts.push(prompt);
            const answer = answers.shift() ?? 'accept';
            return typeof answer === 'function' ? answer() : Promise.resolve(answer);
          },
          open: (url) => {
            const action = actions[Math.min(acted++, actions.length - 1)];
            if (!action) throw new Error(`${name} has nothing to do with ${url}`);
            return action(url);
          },
        }),
      };
      const client = new HttpJsonRpcClient({
        url: server.mcpUrl,
        clientInfo: { name: `${name}-client`, version: '1.0.0' },
        capabilities: clientCapabilitiesFor(handlers),
        headers: { authorization: `Bearer ${USERS[name].mcpToken}` },
        fetch: recording,
      });
      return {
        browser,
        prompts,
        actions,
        answers,
        listRepos: () => client.callTool('list_repos', {}, { handlers, maxRounds: 5 }),
      };
    },
  };
  return world;
}

const resultText = (result: JsonObject) => (result.content as { text: string }[])[0]?.text;

/** External tokens appear in no MCP response and in no requestState, opened with the server's keys. */
async function expectNoTokenLeaked(world: World, principal: string): Promise<void> {
  const tokens = world.github.issued.map((issued) => issued.accessToken);
  expect(tokens.length).toBeGreaterThan(0);
  for (const body of world.responses) for (const token of tokens) expect(body).not.toContain(token);
  const states = world.responses
    .map((body) => (JSON.parse(body) as { result?: { requestState?: string } }).result?.requestState)
    .filter((state): state is string => state !== undefined);
  expect(states.length).toBeGreaterThan(0);
  for (const token of states) {
    const opened = await world.server.runtime.openState(token, {
      principal,
      request: { method: 'tools/call', target: 'list_repos', arguments: {} },
    });
    expect(Object.keys(opened as JsonObject)).toEqual(['github']);
    expect(Object.keys((opened as { github: JsonObject }).github).sort()).toEqual(['id', 'ticket']);
  }
}

describe.each<[string, 'memory' | 'redis', number, 'plain' | 'sdk-v2']>([
  ['plain JSON-RPC, memory store, one instance', 'memory', 1, 'plain'],
  ['SDK v2 McpServer, memory store, one instance', 'memory', 1, 'sdk-v2'],
  ['plain JSON-RPC, Redis store, two instances behind a round-robin balancer', 'redis', 2, 'plain'],
])('URL mode with connect tickets (%s)', (_name, storeKind, instanceCount, mcp) => {
  const redis = storeKind === 'redis' ? useRedis() : undefined;
  const storeFor = (now: () => number): UrlFlowStore =>
    redis === undefined
      ? new MemoryUrlFlowStore({ now })
      : new RedisUrlFlowStore({
          send: (args) => redis().client.sendCommand(args),
          keyPrefix: `e2e:${randomBytes(4).toString('hex')}:`,
          now,
        });

  it('completes for the right user, and only the callback counts as completion', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    let atGithub = '';
    // The browser opens; the client retries at once, while Alice is still on GitHub's consent page.
    alice.actions.push(async (url) => {
      const page = await alice.browser.open(url, (next) => next.href.startsWith(world.github.url));
      atGithub = page.url;
    });
    // Asked again, she approves at GitHub, then tells the client she has finished.
    alice.answers.push('accept', async () => {
      await alice.browser.open(atGithub);
      return 'finished';
    });

    const result = await alice.listRepos();

    expect(resultText(result)).toBe('alice-gh: alpha, beta');
    expect(alice.prompts).toHaveLength(2);
    const [first, second] = alice.prompts;
    // The retry carried accept but found the flow pending: its ticket used, so a fresh link.
    expect(second?.url).not.toBe(first?.url);
    const link = new URL(first!.url);
    expect(`${link.origin}${link.pathname}`).toBe(`${world.server.publicUrl}/connect`);
    expect([...link.searchParams.keys()]).toEqual(['ticket']);
    expect(first).toMatchObject({
      serverName: 'repos-demo',
      message: 'Connect your GitHub account so I can list your repositories.',
      openable: true,
      site: '127.0.0.1',
    });
    expect(first?.warnings.map((warning) => warning.code)).toEqual(['local-address']);

    const [connect, authorize, callback] = alice.browser.visits.slice(-3);
    expect(connect).toMatchObject({ url: first?.url, status: 303 });
    expect(connect?.location?.startsWith(`${world.github.url}/authorize?`)).toBe(true);
    expect(authorize).toMatchObject({ url: connect?.location, status: 302 });
    expect(callback?.url.startsWith(world.server.callbackUrl)).toBe(true);
    expect(callback?.status).toBe(200);
    expect(world.state.vault.get('alice')?.account).toBe('alice-gh');
    expect(world.events.map((event) => event.type)).toEqual([
      'flow-started',
      'ticket-issued',
      'redirected',
      'ticket-issued',
      'completed',
    ]);
    await expectNoTokenLeaked(world, 'alice');
  });

  it('refuses a forwarded link to a second user and leaves the first user’s flow intact', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    const bob = await world.user('bob');
    let bobSaw: { status: number; body: string; location: string | null } | undefined;
    alice.actions.push(async (url) => {
      // Alice does not open the link: she gets Bob to open it, in his browser.
      const page = await bob.browser.open(url);
      bobSaw = { status: page.status, body: page.body, location: page.headers.get('location') };
    }, world.openOwn(alice));

    const result = await alice.listRepos();

    expect(bobSaw).toMatchObject({ status: 403, location: null });
    expect(bobSaw?.body).toContain('This link belongs to another account');
    expect(bob.browser.visits.at(-1)?.url).toBe(alice.prompts[0]?.url);
    expect(world.github.authorized).toEqual(['alice-gh']);
    expect(world.events).toContainEqual({
      type: 'ticket-refused',
      reason: 'wrong-user',
      flow: expect.any(String) as string,
      principal: 'alice',
      sessionPrincipal: 'bob',
    });
    // Bob's visit did not burn the ticket: Alice is shown the same link and completes with it.
    expect(alice.prompts[1]?.url).toBe(alice.prompts[0]?.url);
    expect(resultText(result)).toBe('alice-gh: alpha, beta');
    expect([...world.state.vault.keys()]).toEqual(['alice']);
    expect(world.github.issued.map((issued) => issued.account)).toEqual(['alice-gh']);
    await expectNoTokenLeaked(world, 'alice');
  });

  it('burns a forwarded authorization URL refused in the wrong browser, so its owner cannot redeem it', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    const bob = await world.user('bob');
    let bobSaw: { status: number; body: string } | undefined;
    let aliceSaw: { status: number; body: string } | undefined;
    alice.actions.push(async (url) => {
      // Alice passes the connect check herself, stops before GitHub and sends Bob GitHub's URL.
      const page = await alice.browser.open(url, (next) => next.href.startsWith(world.github.url));
      expect(page.stopped).toBe(true);
      const atCallback = await bob.browser.open(page.url);
      bobSaw = { status: atCallback.status, body: atCallback.body };
      // Bob's refused callback carries his authorization code: Alice opens it in her own session.
      const callbackUrl = bob.browser.visits.at(-1)!.url;
      expect(callbackUrl.startsWith(world.server.callbackUrl)).toBe(true);
      const replayed = await alice.browser.open(callbackUrl);
      aliceSaw = { status: replayed.status, body: replayed.body };
    });

    const result = await alice.listRepos();

    expect(world.github.authorized).toEqual(['bob-gh']);
    expect(bobSaw?.status).toBe(403);
    expect(bobSaw?.body).toContain('Nothing was connected, and the link no longer works');
    expect(aliceSaw?.status).toBe(410);
    expect(aliceSaw?.body).not.toContain('is connected');
    // Bob's code was never exchanged, and nobody is connected to his account.
    expect(world.github.issued).toEqual([]);
    expect(world.state.vault.size).toBe(0);
    expect(world.events.filter((event) => event.type === 'callback-refused')).toMatchObject([
      { reason: 'wrong-user', principal: 'alice', sessionPrincipal: 'bob' },
      { reason: 'used', principal: 'alice' },
    ]);
    // The flow is burnt with its state: Alice is told to start again, and a new call works.
    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toBe(
      'GitHub was not connected (callback_refused). Call list_repos again to start over.',
    );
    alice.actions.push(world.openOwn(alice));
    expect(resultText(await alice.listRepos())).toBe('alice-gh: alpha, beta');
    expect(world.state.vault.get('alice')?.account).toBe('alice-gh');
  });

  it('refuses a replayed ticket, an edited ticket and a replayed callback', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    alice.actions.push(world.openOwn(alice));
    expect(resultText(await alice.listRepos())).toBe('alice-gh: alpha, beta');
    const ticketUrl = alice.prompts[0]!.url;
    const callbackUrl = alice.browser.visits.at(-1)!.url;

    const replay = await alice.browser.open(ticketUrl);
    expect(replay.status).toBe(410);
    expect(replay.body).toContain('already used');
    expect(replay.headers.get('location')).toBeNull();

    const extended = await alice.browser.open(`${ticketUrl}&expires=99999999999999`);
    expect(extended.status).toBe(410);
    const ticket = new URL(ticketUrl).searchParams.get('ticket')!;
    const edited = new URL(ticketUrl);
    edited.searchParams.set('ticket', `${ticket.slice(0, -1)}${ticket.endsWith('A') ? 'B' : 'A'}`);
    expect((await alice.browser.open(edited.href)).status).toBe(404);

    const secondCallback = await alice.browser.open(callbackUrl);
    expect(secondCallback.status).toBe(410);
    expect(world.github.authorized).toEqual(['alice-gh']);
    expect(world.github.issued).toHaveLength(1);
    expect(
      world.events.filter((event) => event.type === 'ticket-refused' || event.type === 'callback-refused'),
    ).toMatchObject([
      { type: 'ticket-refused', reason: 'used' },
      { type: 'ticket-refused', reason: 'used' },
      { type: 'ticket-refused', reason: 'unknown' },
      { type: 'callback-refused', reason: 'used' },
    ]);
  });

  it('refuses an expired ticket, and the retry brings a fresh one that works', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    let late: { status: number; body: string } | undefined;
    alice.actions.push(async (url) => {
      world.advance(TICKET_TTL_SECONDS + 1);
      const page = await alice.browser.open(url);
      late = { status: page.status, body: page.body };
    }, world.openOwn(alice));

    const result = await alice.listRepos();

    expect(late?.status).toBe(410);
    expect(late?.body).toContain('This link has expired');
    expect(world.events).toContainEqual(
      expect.objectContaining({ type: 'ticket-refused', reason: 'expired' }),
    );
    expect(alice.prompts[1]?.url).not.toBe(alice.prompts[0]?.url);
    expect(resultText(result)).toBe('alice-gh: alpha, beta');
    expect(world.github.authorized).toEqual(['alice-gh']);
  });

  it('sends a browser without a session to sign in first, without burning the ticket', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    alice.actions.push(async (url) => {
      const fresh = new Browser('alice on a new laptop');
      await fresh.open(`${world.github.url}/signin?account=alice-gh`);
      const signIn = await fresh.open(url);
      expect(signIn.status).toBe(200);
      const returnTo = new URL(signIn.url).searchParams.get('returnTo')!;
      expect(returnTo).toBe(`${new URL(url).pathname}${new URL(url).search}`);
      const done = await fresh.open(
        `${world.server.publicUrl}/signin?${new URLSearchParams({ user: 'alice', returnTo }).toString()}`,
      );
      expect(done.body).toContain('is connected');
    });

    expect(resultText(await alice.listRepos())).toBe('alice-gh: alpha, beta');
    expect(world.events).toContainEqual(
      expect.objectContaining({ type: 'ticket-refused', reason: 'signed-out' }),
    );
    expect(alice.prompts).toHaveLength(1);
  });

  it('ends the call when the user declines the link, opening nothing', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    alice.answers.push('decline');

    expect(resultText(await alice.listRepos())).toBe('Not connected: you declined to open the link.');
    expect(alice.browser.visits.filter((visit) => visit.url.includes('/connect'))).toEqual([]);
    expect(world.github.authorized).toEqual([]);
  });

  it('reports the third party refusing access as a failed flow', async () => {
    const world = await startWorld(storeFor, instanceCount, mcp);
    const alice = await world.user('alice');
    alice.actions.push(async (url) => {
      const page = await alice.browser.open(url, (next) => next.href.startsWith(world.github.url));
      // The user presses "Deny" at GitHub, which sends them back with error=access_denied.
      const denied = new URL(world.server.callbackUrl);
      denied.search = new URLSearchParams({
        error: 'access_denied',
        state: new URL(page.url).searchParams.get('state')!,
      }).toString();
      const back = await alice.browser.open(denied.href);
      expect(back.body).toContain('could not finish connecting (access_denied)');
    });

    const result = await alice.listRepos();

    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toBe(
      'GitHub was not connected (access_denied). Call list_repos again to start over.',
    );
    expect(world.state.vault.size).toBe(0);
  });
});
