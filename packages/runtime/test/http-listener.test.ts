import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCapabilitiesFor, HttpJsonRpcClient, type InputHandlers } from '../src/client/index.js';
import { createHttpListener, defineTool, JsonRpcEndpoint } from '../src/http/index.js';
import { elicitForm, JsonRpcError, Keyring, MrtrRuntime, type Round } from '../src/index.js';

const ask = elicitForm({
  message: 'Pick a colour',
  requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
});

const endpoint = new JsonRpcEndpoint({
  runtime: new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
  serverInfo: { name: 'paint', version: '1.0.0' },
  tools: {
    paint: defineTool({
      handler: (_args, round: Round<{ step: number }>) => {
        const answer = round.elicitation('colour', ask);
        const step = round.state?.step ?? 0;
        if (step < 2 || !answer)
          return round.inputRequired({ inputRequests: { colour: ask }, state: { step: step + 1 } });
        return {
          content: [{ type: 'text', text: answer.action === 'accept' ? answer.content.colour : 'none' }],
        };
      },
    }),
  },
});

let server: Server;
let url: string;
const principals: string[] = [];

beforeAll(async () => {
  server = createServer(
    createHttpListener(endpoint, {
      principal: (request) => {
        // Stands in for verified auth: the test's "token" is the principal.
        const principal = request.headers.authorization?.replace(/^Bearer /, '') ?? 'anonymous';
        principals.push(principal);
        return principal;
      },
      maxBodyBytes: 10_000,
    }),
  ).listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(() => {
  server.close();
});

const handlers: InputHandlers = {
  form: () => Promise.resolve({ action: 'accept', content: { colour: 'teal' } }),
};

describe('HttpJsonRpcClient against the node:http listener', () => {
  it('runs a three-round flow with a new JSON-RPC id per attempt', async () => {
    const sent: { id: unknown; params: Record<string, unknown> }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push(JSON.parse(init?.body as string) as (typeof sent)[number]);
      return fetch(input, init);
    };
    const client = new HttpJsonRpcClient({
      url,
      clientInfo: { name: 'test', version: '1' },
      capabilities: clientCapabilitiesFor(handlers),
      headers: { authorization: 'Bearer ada' },
      fetch: recordingFetch,
    });
    const result = await client.callTool('paint', {}, { handlers });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'teal' }] });
    expect(sent.map((message) => message.id)).toEqual([1, 2, 3]);
    expect(sent[0]?.params).not.toHaveProperty('requestState');
    expect(sent[2]?.params.requestState).not.toEqual(sent[1]?.params.requestState);
    expect(principals.slice(-3)).toEqual(['ada', 'ada', 'ada']);
  });

  it('refuses state presented by another principal', async () => {
    const ada = new HttpJsonRpcClient({
      url,
      clientInfo: { name: 't', version: '1' },
      capabilities: { elicitation: {} },
      headers: { authorization: 'Bearer ada' },
    });
    const mallory = new HttpJsonRpcClient({
      url,
      clientInfo: { name: 't', version: '1' },
      capabilities: { elicitation: {} },
      headers: { authorization: 'Bearer mallory' },
    });
    const first = await ada.request('tools/call', { name: 'paint', arguments: {} });
    const stolen = mallory.request('tools/call', {
      name: 'paint',
      arguments: {},
      inputResponses: { colour: { action: 'accept', content: { colour: 'red' } } },
      requestState: first.requestState,
    });
    await expect(stolen).rejects.toBeInstanceOf(JsonRpcError);
    await expect(stolen).rejects.toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
  });
});

describe('the node:http listener', () => {
  it.each<[string, RequestInit, number, number | undefined]>([
    ['a GET', { method: 'GET' }, 405, undefined],
    [
      'another content type',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' },
      415,
      -32600,
    ],
    [
      'a body that is not JSON',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' },
      400,
      -32700,
    ],
    [
      'a body over the limit',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(20_000) },
      413,
      -32600,
    ],
  ])('answers %s', async (_name, init, status, code) => {
    const response = await fetch(url, init);
    expect(response.status).toBe(status);
    if (code !== undefined)
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
  });

  it('answers 404 off its path', async () => {
    expect((await fetch(url.replace('/mcp', '/other'), { method: 'POST' })).status).toBe(404);
  });
});
