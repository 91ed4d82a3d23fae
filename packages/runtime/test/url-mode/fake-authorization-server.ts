import { hash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for a third party such as GitHub: its own sign-in (a cookie), an OAuth 2.1
// authorization endpoint with PKCE, a token endpoint, and an API the issued tokens open. It keeps
// a log of what it authorized and issued, so tests can prove what never happened.

export interface FakeAccount {
  readonly repos: readonly string[];
  /** What the account holder answers on the consent screen. Default `approve`. */
  readonly decision?: 'approve' | 'deny';
}

export interface RegisteredClient {
  readonly secret: string;
  readonly redirectUris: readonly string[];
}

interface IssuedCode {
  readonly account: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  used: boolean;
}

export interface FakeAuthorizationServer {
  readonly url: string;
  registerClient(clientId: string, client: RegisteredClient): void;
  /** Accounts that reached the authorization endpoint signed in, in order. */
  readonly authorized: string[];
  /** Access tokens issued, with their account. */
  readonly issued: { readonly account: string; readonly accessToken: string }[];
  close(): Promise<void>;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeAuthorizationServer(
  accounts: Readonly<Record<string, FakeAccount>>,
): Promise<FakeAuthorizationServer> {
  const sessions = new Map<string, string>();
  const clients = new Map<string, RegisteredClient>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, string>();
  const authorized: string[] = [];
  const issued: { account: string; accessToken: string }[] = [];

  const authorize = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void => {
    const session = cookie(req, 'as_session');
    const account = session === undefined ? undefined : sessions.get(session);
    if (account === undefined) return json(res, 401, { error: 'sign in first' });
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = clients.get(clientId);
    // An unknown client or redirect URI gets an error page, never a redirect (RFC 6749, 4.1.2.1).
    if (!client || !client.redirectUris.includes(redirectUri)) {
      return json(res, 400, { error: 'invalid_client' });
    }
    const back = new URL(redirectUri);
    back.searchParams.set('state', query.get('state') ?? '');
    const challenge = query.get('code_challenge');
    if (
      query.get('response_type') !== 'code' ||
      query.get('code_challenge_method') !== 'S256' ||
      !challenge
    ) {
      back.searchParams.set('error', 'invalid_request');
    } else if (accounts[account]?.decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { account, clientId, redirectUri, challenge, used: false });
      back.searchParams.set('code', code);
    }
    authorized.push(account);
    res.writeHead(302, { location: back.href }).end();
  };

  const token = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const form = await formBody(req);
    const client = clients.get(form.get('client_id') ?? '');
    if (!client || client.secret !== form.get('client_secret')) {
      return json(res, 401, { error: 'invalid_client' });
    }
    const code = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !code ||
      code.used ||
      code.clientId !== form.get('client_id') ||
      code.redirectUri !== form.get('redirect_uri') ||
      hash('sha256', verifier, 'base64url') !== code.challenge
    ) {
      return json(res, 400, { error: 'invalid_grant' });
    }
    code.used = true;
    const accessToken = `gho_${randomBytes(18).toString('base64url')}`;
    tokens.set(accessToken, code.account);
    issued.push({ account: code.account, accessToken });
    json(res, 200, { access_token: accessToken, token_type: 'bearer', scope: 'repo:read' });
  };

  const api = (req: IncomingMessage, res: ServerResponse, pathname: string): void => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = bearer === undefined ? undefined : tokens.get(bearer);
    if (account === undefined) return json(res, 401, { error: 'bad token' });
    if (pathname === '/api/user') return json(res, 200, { login: account });
    json(
      res,
      200,
      (accounts[account]?.repos ?? []).map((name) => ({ name })),
    );
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /signin') {
      const account = url.searchParams.get('account') ?? '';
      if (!Object.hasOwn(accounts, account)) return json(res, 404, { error: 'no such account' });
      const session = randomBytes(16).toString('base64url');
      sessions.set(session, account);
      res.writeHead(200, { 'set-cookie': `as_session=${session}; HttpOnly; SameSite=Lax; Path=/` }).end();
    } else if (route === 'GET /authorize') {
      authorize(req, res, url.searchParams);
    } else if (route === 'POST /token') {
      token(req, res).catch(() => json(res, 500, { error: 'server_error' }));
    } else if (route === 'GET /api/user' || route === 'GET /api/repos') {
      api(req, res, url.pathname);
    } else {
      json(res, 404, { error: 'not found' });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    registerClient: (clientId, client) => clients.set(clientId, client),
    authorized,
    issued,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
