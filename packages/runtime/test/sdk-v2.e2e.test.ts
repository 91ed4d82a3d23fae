import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callToolWithInput, HttpJsonRpcClient, type InputHandlers } from '../src/client/index.js';
import { JsonRpcError, Keyring, MrtrRuntime, type ElicitResult, type JsonObject } from '../src/index.js';
import { SdkV2Adapter } from '../src/sdk-v2/index.js';
import {
  firstText,
  modernStdioClient,
  scriptedUser,
  stdioServer,
  type ScriptedUser,
} from './fixtures/clients.js';
import { createV2Server } from './fixtures/v2-server.js';

const accept = (content: JsonObject) => ({ action: 'accept', content });

describe('SDK v2 over stdio, 2026-07-28 client (native MRTR)', () => {
  const user = scriptedUser();
  let client: Client;
  beforeAll(async () => {
    client = await modernStdioClient('v2-stdio.ts', user);
  });
  afterAll(() => client.close());
  beforeEach(() => {
    user.asked.length = 0;
  });

  it('runs a two-question flow, the first answer carried in sealed state', async () => {
    user.answer(accept({ environment: 'production' }), accept({ replicas: 3 }));
    const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
    expect(firstText(result)).toBe('Deployed api to production with 3 replicas.');
    expect(user.asked).toEqual(['Deploy api to which environment?', 'How many replicas?']);
  });

  it('keeps the decline branch', async () => {
    user.answer({ action: 'decline' });
    expect(firstText(await client.callTool({ name: 'deploy', arguments: { service: 'api' } }))).toBe(
      'Not deploying api.',
    );
  });

  it('asks again when accepted content fails the schema (the MRTR path does not validate)', async () => {
    user.answer(accept({ environment: 'production' }), accept({ replicas: 9 }), accept({ replicas: 2 }));
    const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
    expect(firstText(result)).toBe('Deployed api to production with 2 replicas.');
    expect(user.asked).toHaveLength(3);
  });

  it('serves prompts and resource templates', async () => {
    user.answer(accept({ topic: 'the outage' }), accept({ reason: 'compliance' }));
    const prompt = await client.getPrompt({ name: 'briefing' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Brief me on the outage.' });
    const resource = await client.readResource({ uri: 'audit://2026-11-30' });
    expect(resource.contents[0]).toMatchObject({ uri: 'audit://2026-11-30', text: 'audit for compliance' });
  });

  it('asks in URL mode', async () => {
    user.answer({ action: 'accept' });
    expect(firstText(await client.callTool({ name: 'connect_github', arguments: {} }))).toBe(
      'Waiting for ticket t-1234.',
    );
  });

  it('works with the runtime’s own retry loop on the same client', async () => {
    const handlers: InputHandlers = {
      form: (params) => {
        const content: ElicitResult['content'] = params.message.startsWith('Deploy')
          ? { environment: 'staging' }
          : { replicas: 1 };
        return Promise.resolve({ action: 'accept', content });
      },
    };
    const result = await callToolWithInput(client, 'deploy', { service: 'web' }, { handlers });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'Deployed web to staging with 1 replicas.' }],
    });
  });

  it('refuses tampered state with -32602 before the handler runs', async () => {
    user.answer(accept({ environment: 'production' }));
    const send = (params: JsonObject) =>
      client.request({ method: 'tools/call', params }, { allowInputRequired: true }) as Promise<JsonObject>;
    const first = await send({ name: 'deploy', arguments: { service: 'api' } });
    const second = await send({
      name: 'deploy',
      arguments: { service: 'api' },
      inputResponses: { environment: accept({ environment: 'production' }) },
    });
    expect(second.resultType).toBe('input_required');
    expect(first.requestState).toBeUndefined();
    const tampered = send({
      name: 'deploy',
      arguments: { service: 'api' },
      inputResponses: { replicas: accept({ replicas: 1 }) },
      requestState: `${String(second.requestState)}x`,
    });
    await expect(tampered).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });
  });
});

describe('SDK v2 over stdio, 2025 client (the SDK’s legacy shim re-enters the handler)', () => {
  let client: LegacyClient;
  const user: ScriptedUser = scriptedUser();
  beforeAll(async () => {
    client = new LegacyClient(
      { name: 'legacy', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => user.next(request.params.message) as never);
    await client.connect(new LegacyStdioClientTransport(stdioServer('v2-stdio.ts')));
  });
  afterAll(() => client.close());

  it('runs the same handler through pushed elicitations', async () => {
    user.answer(accept({ environment: 'staging' }), accept({ replicas: 4 }));
    const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
    expect(firstText(result)).toBe('Deployed api to staging with 4 replicas.');
  });

  it('refuses input the client did not declare, as an isError result', async () => {
    const result = await client.callTool({ name: 'summarize', arguments: {} });
    expect(result.isError).toBe(true);
  });
});

describe('SdkV2Adapter requestState verification', () => {
  it('fails closed when the request is not in scope (a server wired without the adapter)', async () => {
    const runtime = new MrtrRuntime({
      keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }),
    });
    const rejected: string[] = [];
    const adapter = new SdkV2Adapter(runtime, { onStateRejected: (error) => rejected.push(error.reason) });
    const verify = adapter.serverOptions().requestState?.verify;
    const ctx = { mcpReq: { id: 1, method: 'tools/call' } } as unknown as ServerContext;
    await expect(Promise.resolve(verify?.('m1.g.k.AAAA.AAAA', ctx))).rejects.toThrow(
      /requestState refused \(request\)/,
    );
    expect(rejected).toEqual(['request']);
  });
});

describe('SDK v2 over Streamable HTTP (createMcpHandler), 2026-07-28 clients', () => {
  let server: Server;
  let url: URL;
  const errors: Error[] = [];
  beforeAll(async () => {
    const runtime = new MrtrRuntime({
      keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }),
    });
    const handler = createMcpHandler(() => createV2Server(runtime, (error) => errors.push(error)), {
      legacy: 'reject',
    });
    const serve = toNodeHandler(handler);
    server = createServer((req, res) => void serve(req, res)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('runs the flow for the SDK client, each round on a fresh server instance', async () => {
    const user = scriptedUser();
    const client = new Client(
      { name: 'http-modern', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', (request) => user.next(request.params.message) as never);
    await client.connect(new StreamableHTTPClientTransport(url));
    user.answer(accept({ environment: 'production' }), accept({ replicas: 5 }));
    expect(firstText(await client.callTool({ name: 'deploy', arguments: { service: 'db' } }))).toBe(
      'Deployed db to production with 5 replicas.',
    );
    await client.close();
  });

  const raw = (capabilities: JsonObject) =>
    new HttpJsonRpcClient({ url, clientInfo: { name: 'raw', version: '1' }, capabilities });

  it('refuses state replayed on another request, binding it to the wire arguments', async () => {
    const client = raw({ elicitation: {} });
    const round2 = await client.request('tools/call', {
      name: 'deploy',
      arguments: { service: 'db' },
      inputResponses: { environment: accept({ environment: 'staging' }) },
    });
    errors.length = 0;
    const replay = client.request('tools/call', {
      name: 'deploy',
      arguments: { service: 'payments' },
      inputResponses: { replicas: accept({ replicas: 1 }) },
      requestState: round2.requestState,
    });
    await expect(replay).rejects.toBeInstanceOf(JsonRpcError);
    await expect(replay).rejects.toMatchObject({ code: -32602 });
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('requestState refused (request)'),
    ]);
  });

  it('answers -32021 naming the capability the client lacks', async () => {
    await expect(
      raw({ elicitation: {} }).request('tools/call', { name: 'summarize', arguments: {} }),
    ).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });
});
