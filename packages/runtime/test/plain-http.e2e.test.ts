import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCapabilitiesFor, HttpJsonRpcClient, type InputHandlers } from '../src/client/index.js';
import {
  createHttpListener,
  defineResource,
  defineTool,
  definePrompt,
  JsonRpcEndpoint,
} from '../src/http/index.js';
import { Keyring, MrtrRuntime, type ElicitResult } from '../src/index.js';
import { auditLog, briefing, connectGithub, deploy } from './fixtures/ops-handlers.js';

// The same handlers the SDK adapter tests run, served without any SDK.

let server: Server;
let client: HttpJsonRpcClient;
const opened: string[] = [];
const handlers: InputHandlers = {
  form: (params) => {
    const answers: Record<string, ElicitResult> = {
      'Deploy api to which environment?': { action: 'accept', content: { environment: 'staging' } },
      'How many replicas?': { action: 'accept', content: { replicas: 3 } },
      'What should the briefing cover?': { action: 'accept', content: { topic: 'latency' } },
      'Why do you need the audit log?': { action: 'decline' },
    };
    return Promise.resolve(answers[params.message] ?? { action: 'cancel' });
  },
  url: {
    consent: () => Promise.resolve('accept'),
    open: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
  },
};

beforeAll(async () => {
  const endpoint = new JsonRpcEndpoint({
    runtime: new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
    serverInfo: { name: 'ops-plain', version: '1.0.0' },
    tools: {
      deploy: defineTool({
        inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
        handler: deploy,
      }),
      connect_github: defineTool({ handler: connectGithub }),
    },
    prompts: { briefing: definePrompt({ handler: briefing }) },
    resources: { 'audit://today': defineResource({ name: 'audit', handler: auditLog }) },
  });
  server = createServer(createHttpListener(endpoint)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  client = new HttpJsonRpcClient({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    clientInfo: { name: 'plain', version: '1.0.0' },
    capabilities: clientCapabilitiesFor(handlers),
  });
});
afterAll(() => {
  server.close();
});

describe('the ops handlers on the plain JSON-RPC endpoint', () => {
  it('runs the two-question flow', async () => {
    expect(await client.callTool('deploy', { service: 'api' }, { handlers })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Deployed api to staging with 3 replicas.' }],
    });
  });

  it('opens the URL only after consent and completes on the retry', async () => {
    expect(await client.callTool('connect_github', {}, { handlers })).toMatchObject({
      content: [{ type: 'text', text: 'Waiting for ticket t-1234.' }],
    });
    expect(opened).toEqual(['https://mcp.example.com/connect?ticket=t-1234']);
  });

  it('serves the prompt and the resource, decline branch included', async () => {
    expect(await client.getPrompt('briefing', {}, { handlers })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Brief me on latency.' } }],
    });
    expect(await client.readResource('audit://today', { handlers })).toMatchObject({
      contents: [{ uri: 'audit://today', text: 'refused' }],
    });
  });
});
