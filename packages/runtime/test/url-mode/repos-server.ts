import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import { createHttpListener, defineTool, JsonRpcEndpoint } from '../../src/http/index.js';
import { MrtrRuntime, type Keyring, type ToolHandler, type ToolResult } from '../../src/index.js';
import { SdkV2Adapter } from '../../src/sdk-v2/index.js';
import {
  ConnectEndpoint,
  ConnectFlows,
  createConnectListener,
  type ConnectEvent,
  type ConnectFlowRef,
  type ConnectProvider,
  type UrlFlowStore,
} from '../../src/url-mode/index.js';

// The working example of docs/url-mode.md: an MCP server whose `list_repos` tool needs the user's
// GitHub account. It never hands out GitHub's authorization URL; it hands out its own connect URL
// with a ticket, checks at /connect that the browser's session is the user who asked, and keeps
// the GitHub token it obtains on the server.

/** Server-side storage every instance shares (a database in production). */
export interface AppState {
  /** Web sessions of this server: session cookie -> principal. */
  readonly sessions: Map<string, string>;
  /** GitHub credentials by principal. They never leave the server. */
  readonly vault: Map<string, { readonly accessToken: string; readonly account: string }>;
}

export interface GithubApp {
  /** The third party's base URL (authorization, token and API endpoints under it). */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface ReposServerOptions {
  readonly store: UrlFlowStore;
  readonly keyring: Keyring;
  readonly github: GithubApp;
  readonly state?: AppState;
  /** The origin users and clients reach, when instances sit behind a load balancer. */
  readonly publicUrl?: string;
  /** What serves MCP: the runtime's plain JSON-RPC endpoint (default) or an SDK v2 McpServer. */
  readonly mcp?: 'plain' | 'sdk-v2';
  readonly now?: () => number;
  readonly onEvent?: (event: ConnectEvent) => void;
}

export interface ReposServer {
  /** Where this instance listens. */
  readonly url: string;
  /** The public origin (this instance's own unless behind a balancer). */
  readonly publicUrl: string;
  readonly mcpUrl: string;
  /** The callback URL to register with the third party. */
  readonly callbackUrl: string;
  readonly runtime: MrtrRuntime;
  readonly state: AppState;
  close(): Promise<void>;
}

/**
 * MCP access tokens and whose they are. They stand for tokens your MCP authorization server
 * issued and you verified; the principal is the user's subject, the same identity your web
 * session knows.
 */
export const MCP_TOKENS: Readonly<Record<string, string>> = {
  'alice-mcp-token': 'alice',
  'bob-mcp-token': 'bob',
};

type ReposState = { readonly github: ConnectFlowRef };

/** The client id every user of one desktop client shares: never a principal. */
const SHARED_CLIENT_ID = 'acme-desktop';

/** The verified token's claims; the principal is the user's subject, `sub`. */
function authOf(req: IncomingMessage): AuthInfo | undefined {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const sub = token === undefined ? undefined : MCP_TOKENS[token];
  return sub === undefined
    ? undefined
    : { token: token!, clientId: SHARED_CLIENT_ID, scopes: [], extra: { sub } };
}

const text = (message: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: message }],
  ...(isError && { isError }),
});

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function githubProvider(github: GithubApp, state: AppState): ConnectProvider {
  return {
    authorizationUrl: ({ state: oauthState, redirectUri, codeChallenge, codeChallengeMethod }) => {
      const url = new URL('/authorize', github.url);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: github.clientId,
        redirect_uri: redirectUri,
        scope: 'repo:read',
        state: oauthState,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallengeMethod,
      }).toString();
      return url;
    },
    complete: async ({ principal, params, redirectUri, codeVerifier, signal }) => {
      const response = await fetch(new URL('/token', github.url), {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: params.get('code') ?? '',
          redirect_uri: redirectUri,
          client_id: github.clientId,
          client_secret: github.clientSecret,
          code_verifier: codeVerifier,
        }),
        signal,
      });
      if (!response.ok) throw new Error(`GitHub's token endpoint answered ${response.status}`);
      const { access_token: accessToken } = (await response.json()) as { access_token: string };
      const user = await fetch(new URL('/api/user', github.url), {
        headers: { authorization: `Bearer ${accessToken}` },
        signal,
      });
      const { login } = (await user.json()) as { login: string };
      // The token stays here, filed under the principal whose session completed the flow.
      state.vault.set(principal, { accessToken, account: login });
      return { account: login };
    },
  };
}

async function listRepos(github: GithubApp, accessToken: string, account: string): Promise<ToolResult> {
  const response = await fetch(new URL('/api/repos', github.url), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  const repos = (await response.json()) as { name: string }[];
  return text(`${account}: ${repos.map((repo) => repo.name).join(', ')}`);
}

export async function startReposServer(options: ReposServerOptions): Promise<ReposServer> {
  const state: AppState = options.state ?? { sessions: new Map(), vault: new Map() };
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = options.publicUrl ?? ownUrl;

  // requestState must outlive the slowest user's trip through the third party: the flow's TTL.
  const runtime = new MrtrRuntime({
    keyring: options.keyring,
    ttlSeconds: 900,
    ...(options.now && { now: options.now }),
  });
  const connect = new ConnectFlows({
    store: options.store,
    connectUrl: `${url}/connect`,
    providers: { github: githubProvider(options.github, state) },
    ticketTtlSeconds: 300,
    flowTtlSeconds: 900,
    ...(options.now && { now: options.now }),
    ...(options.onEvent && { onEvent: options.onEvent }),
  });

  const listReposHandler: ToolHandler<Record<string, never>, ReposState> = async (_args, round) => {
    const stored = state.vault.get(round.principal);
    // Connected before: no link needed. Once a flow is under way, only its completion counts.
    if (stored && !round.state) return listRepos(options.github, stored.accessToken, stored.account);
    const step = await connect.step(round, {
      key: 'github',
      provider: 'github',
      message: 'Connect your GitHub account so I can list your repositories.',
      flow: round.state?.github,
    });
    switch (step.status) {
      case 'pending':
        return round.inputRequired({ inputRequests: step.inputRequests, state: { github: step.flow } });
      case 'completed': {
        const credentials = state.vault.get(round.principal);
        if (!credentials) return text('GitHub is connected, but its credentials are gone.', true);
        return listRepos(options.github, credentials.accessToken, credentials.account);
      }
      case 'declined':
        return text('Not connected: you declined to open the link.');
      case 'cancelled':
        return text('Cancelled.');
      case 'failed':
        return text(`GitHub was not connected (${step.error}). Call list_repos again to start over.`, true);
      case 'unsupported':
        return text(`This client cannot open links; connect GitHub at ${url}/settings.`, true);
    }
  };
  const description = "Lists the repositories of the user's GitHub account.";
  const subject = (auth: AuthInfo | undefined) =>
    typeof auth?.extra?.sub === 'string' ? auth.extra.sub : 'anonymous';

  let mcpListener: RequestListener;
  if (options.mcp === 'sdk-v2') {
    const mrtr = new SdkV2Adapter(runtime, { principal: (ctx) => subject(ctx.http?.authInfo) });
    const serve = toNodeHandler(
      createMcpHandler(
        () => {
          const mcpServer = new McpServer({ name: 'repos-demo', version: '1.0.0' }, mrtr.serverOptions());
          mrtr.registerTool(mcpServer, 'list_repos', { description }, listReposHandler);
          return mcpServer;
        },
        { legacy: 'reject' },
      ),
    );
    mcpListener = (req, res) => {
      const auth = authOf(req);
      serve(auth ? Object.assign(req, { auth }) : req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    };
  } else {
    const mcp = new JsonRpcEndpoint({
      runtime,
      serverInfo: { name: 'repos-demo', version: '1.0.0' },
      tools: { list_repos: defineTool({ description, handler: listReposHandler }) },
    });
    mcpListener = createHttpListener(mcp, { principal: (req) => subject(authOf(req)) });
  }

  const connectEndpoint = new ConnectEndpoint(connect, {
    serverName: 'repos-demo',
    signInUrl: (returnTo) => `/signin?${new URLSearchParams({ returnTo }).toString()}`,
  });
  server.on(
    'request',
    createConnectListener(connectEndpoint, {
      principal: (req) => {
        const session = cookie(req, 'session');
        return session === undefined ? undefined : state.sessions.get(session);
      },
      // /signin stands in for the server's real sign-in: it trusts the `user` it is given.
      fallback: (req, res) => {
        const requested = new URL(req.url ?? '/', url);
        if (requested.pathname !== '/signin') return mcpListener(req, res);
        const user = requested.searchParams.get('user');
        const returnTo = requested.searchParams.get('returnTo') ?? '/';
        if (user === null) {
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end('<h1>Sign in to repos-demo</h1>');
          return;
        }
        const session = randomBytes(16).toString('base64url');
        state.sessions.set(session, user);
        // Only same-origin paths: returnTo must not become an open redirect.
        const location = returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
        res
          .writeHead(303, { location, 'set-cookie': `session=${session}; HttpOnly; SameSite=Lax; Path=/` })
          .end();
      },
    }),
  );

  return {
    url: ownUrl,
    publicUrl: url,
    mcpUrl: `${url}/mcp`,
    callbackUrl: connect.callbackUrl.href,
    runtime,
    state,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
