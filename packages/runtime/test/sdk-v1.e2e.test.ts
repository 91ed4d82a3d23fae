import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CancelledNotificationSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import * as sdkTypes from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Keyring, MrtrRuntime, type JsonObject } from '../src/index.js';
import { firstText, scriptedUser, stdioServer } from './fixtures/clients.js';
import { startV1HttpServer } from './fixtures/v1-http.js';

const accept = (content: JsonObject) => ({ action: 'accept', content });

type Connect = (client: Client) => Promise<void>;

let http: Awaited<ReturnType<typeof startV1HttpServer>>;
beforeAll(async () => {
  http = await startV1HttpServer(
    new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
  );
});
afterAll(() => http.close());

const transports: [string, Connect][] = [
  ['stdio', (client) => client.connect(new StdioClientTransport(stdioServer('v1-stdio.ts')))],
  ['sessionful Streamable HTTP', (client) => client.connect(new StreamableHTTPClientTransport(http.url))],
];

describe.each(transports)(
  'SDK v1 over %s, 2025 client (the runtime fulfils rounds itself)',
  (_name, connect) => {
    const user = scriptedUser();
    const cancelled: unknown[] = [];
    let client: Client;
    beforeAll(async () => {
      const capabilities: ClientCapabilities = { elicitation: { form: {}, url: {} } };
      client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities });
      client.setRequestHandler(ElicitRequestSchema, (request) => user.next(request.params.message) as never);
      client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
        cancelled.push(notification.params.requestId);
      });
      await connect(client);
    });
    afterAll(() => client.close());
    beforeEach(() => {
      user.asked.length = 0;
    });

    it('runs the two-question flow through pushed elicitations and returns only the final result', async () => {
      user.answer(accept({ environment: 'production' }), accept({ replicas: 2 }));
      const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
      expect(result).toEqual({
        content: [{ type: 'text', text: 'Deployed api to production with 2 replicas.' }],
      });
      expect(user.asked).toEqual(['Deploy api to which environment?', 'How many replicas?']);
    });

    it('keeps the decline and cancel branches', async () => {
      user.answer({ action: 'decline' }, accept({ environment: 'staging' }), { action: 'cancel' });
      expect(firstText(await client.callTool({ name: 'deploy', arguments: { service: 'api' } }))).toBe(
        'Not deploying api.',
      );
      expect(firstText(await client.callTool({ name: 'deploy', arguments: { service: 'api' } }))).toBe(
        'Deployment cancelled.',
      );
    });

    it('asks again when the client’s content fails the schema', async () => {
      user.answer(accept({ environment: 'qa' }), accept({ environment: 'staging' }), accept({ replicas: 1 }));
      expect(firstText(await client.callTool({ name: 'deploy', arguments: { service: 'api' } }))).toBe(
        'Deployed api to staging with 1 replicas.',
      );
      expect(user.asked).toHaveLength(3);
    });

    it('gives up after the round cap with an isError result', async () => {
      user.answer(...Array.from({ length: 4 }, () => accept({ environment: 'qa' })));
      const result = await client.callTool({ name: 'deploy', arguments: { service: 'api' } });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/Gave up after 4 rounds/);
    });

    // URL-mode elicitation came with protocol 2025-11-25, in SDK 1.23: older clients cannot answer it.
    it.skipIf(!('ElicitRequestURLParamsSchema' in sdkTypes))(
      'asks in URL mode with a made-up elicitation id',
      async () => {
        user.answer({ action: 'accept' });
        expect(firstText(await client.callTool({ name: 'connect_github', arguments: {} }))).toBe(
          'Waiting for ticket t-1234.',
        );
      },
    );

    it('refuses input the client did not declare, before sending anything, in SDK v1’s words', async () => {
      const result = await client.callTool({ name: 'summarize', arguments: {} });
      expect(result.isError).toBe(true);
      // What server.createMessage() itself throws, so a migrated handler fails as the push call did.
      expect(firstText(result)).toBe(
        'Client does not support sampling (required for sampling/createMessage)',
      );
      expect(user.asked).toEqual([]);
    });

    it('serves prompts and resource templates, with failures as JSON-RPC errors', async () => {
      user.answer(accept({ topic: 'costs' }), accept({ reason: 'audit' }));
      const prompt = await client.getPrompt({ name: 'briefing' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Brief me on costs.' });
      const resource = await client.readResource({ uri: 'audit://monday' });
      expect(resource.contents[0]).toMatchObject({ uri: 'audit://monday', text: 'audit for audit' });
    });

    it('cancels the pending question when the client cancels the call', async () => {
      const controller = new AbortController();
      let asked!: () => void;
      const questionArrived = new Promise<void>((resolve) => (asked = resolve));
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked();
        return new Promise(() => undefined);
      });
      const call = client.callTool({ name: 'deploy', arguments: { service: 'api' } }, CallToolResultSchema, {
        signal: controller.signal,
      });
      await questionArrived;
      controller.abort();
      await expect(call).rejects.toThrow();
      await expect.poll(() => cancelled.length).toBe(1);
      client.setRequestHandler(ElicitRequestSchema, (request) => user.next(request.params.message) as never);
    });
  },
);

describe('SDK v1 with a client that declares sampling (deprecated)', () => {
  it('fulfils a sampling round with createMessage', async () => {
    const client = new Client({ name: 'sampler', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Disk filled up.' },
      model: 'test-model',
    }));
    await client.connect(new StreamableHTTPClientTransport(http.url));
    expect(firstText(await client.callTool({ name: 'summarize', arguments: {} }))).toBe(
      'Summary: Disk filled up.',
    );
    await client.close();
  });
});
