import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { definePrompt, defineResource, defineTool, JsonRpcEndpoint } from '../src/http/index.js';
import {
  elicitForm,
  Keyring,
  META_KEYS,
  MrtrRuntime,
  RequestStateError,
  type JsonObject,
  type Round,
} from '../src/index.js';

const confirm = elicitForm({
  message: 'Delete?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
});

const errors: unknown[] = [];
const endpoint = new JsonRpcEndpoint({
  runtime: new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
  serverInfo: { name: 'test-server', version: '1.0.0' },
  instructions: 'Be careful.',
  tools: {
    delete_project: defineTool({
      description: 'Deletes a project after confirmation.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      handler: (args: { id: string }, round: Round<{ id: string }>) => {
        const answer = round.elicitation('confirm', confirm);
        if (!round.state || !answer) {
          return round.inputRequired({ inputRequests: { confirm }, state: { id: args.id } });
        }
        const deleted = answer.action === 'accept' && answer.content.ok;
        return { content: [{ type: 'text', text: deleted ? `deleted ${round.state.id}` : 'kept' }] };
      },
    }),
    fails: defineTool({
      handler: () => {
        throw new Error('disk full');
      },
    }),
    buggy: defineTool({ handler: () => ({ resultType: 'input_required' }) as never }),
  },
  prompts: {
    greet: definePrompt({
      arguments: [{ name: 'who', required: true }],
      handler: (args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Hi ${args.who}` } }],
      }),
    }),
  },
  resources: {
    'notes://today': defineResource({
      name: 'today',
      mimeType: 'text/plain',
      handler: (resource, round) => {
        const answer = round.elicitation('confirm', confirm);
        if (!answer) return round.inputRequired({ inputRequests: { confirm } });
        return { contents: [{ uri: resource.uri, text: 'notes' }] };
      },
    }),
  },
  onError: (error) => errors.push(error),
});

const CAPABILITIES = { elicitation: {} };

function headersFor(method: string, overrides: Record<string, string | null> = {}) {
  const values: Record<string, string | null> = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...overrides,
  };
  return { get: (name: string) => values[name.toLowerCase()] ?? null };
}

async function rpc(
  method: string,
  params: JsonObject = {},
  options: {
    capabilities?: JsonObject;
    headers?: Record<string, string | null>;
    meta?: JsonObject | null;
  } = {},
) {
  const meta =
    options.meta === null
      ? {}
      : {
          _meta: {
            [META_KEYS.protocolVersion]: '2026-07-28',
            [META_KEYS.clientCapabilities]: options.capabilities ?? CAPABILITIES,
            ...options.meta,
          },
        };
  return endpoint.handle({
    message: { jsonrpc: '2.0', id: 7, method, params: { ...params, ...meta } },
    headers: headersFor(method, options.headers),
    principal: 'ada',
  });
}

describe('JsonRpcEndpoint: discovery and lists', () => {
  it('answers server/discover with the 2026-07-28 fields', async () => {
    const { status, body } = await rpc('server/discover');
    expect(status).toBe(200);
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {}, prompts: {}, resources: {} },
        instructions: 'Be careful.',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'test-server', version: '1.0.0' } },
      },
    });
  });

  it('lists tools, prompts and resources with resultType and cache fields', async () => {
    const tools = (await rpc('tools/list')).body?.result as JsonObject;
    expect(tools).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(tools.tools).toContainEqual({
      name: 'delete_project',
      description: 'Deletes a project after confirmation.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    expect((await rpc('prompts/list')).body?.result).toMatchObject({
      prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }] }],
    });
    expect((await rpc('resources/list')).body?.result).toMatchObject({
      resources: [{ uri: 'notes://today', name: 'today', mimeType: 'text/plain' }],
    });
  });
});

describe('JsonRpcEndpoint: MRTR rounds', () => {
  it('asks, then completes when the client retries with the answer and the state', async () => {
    const first = (await rpc('tools/call', { name: 'delete_project', arguments: { id: 'p1' } })).body
      ?.result as JsonObject;
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm } });
    expect(typeof first.requestState).toBe('string');
    const second = await rpc('tools/call', {
      name: 'delete_project',
      arguments: { id: 'p1' },
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(second.body?.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'deleted p1' }],
    });
  });

  it('refuses state replayed on other arguments with -32602 and logs why', async () => {
    const first = (await rpc('tools/call', { name: 'delete_project', arguments: { id: 'p1' } })).body
      ?.result as JsonObject;
    errors.length = 0;
    const replay = await rpc('tools/call', {
      name: 'delete_project',
      arguments: { id: 'p2' },
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(replay).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32602,
          message: 'Invalid or expired requestState',
          data: { reason: 'invalid_request_state' },
        },
      },
    });
    expect(errors).toEqual([expect.any(RequestStateError)]);
    expect((errors[0] as RequestStateError).reason).toBe('request');
  });

  it('answers -32021 with requiredCapabilities (HTTP 400) when the client cannot answer', async () => {
    const response = await rpc(
      'tools/call',
      { name: 'delete_project', arguments: { id: 'p1' } },
      { capabilities: {} },
    );
    expect(response.status).toBe(400);
    expect(response.body?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it('serves MRTR on resources/read, with cache fields on the complete result', async () => {
    const first = (await rpc('resources/read', { uri: 'notes://today' })).body?.result;
    expect(first).toMatchObject({ resultType: 'input_required' });
    const second = (
      await rpc('resources/read', {
        uri: 'notes://today',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      })
    ).body?.result;
    expect(second).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      contents: [{ uri: 'notes://today', text: 'notes' }],
    });
  });

  it('completes prompts with resultType', async () => {
    expect(
      (await rpc('prompts/get', { name: 'greet', arguments: { who: 'Ada' } })).body?.result,
    ).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }],
    });
  });

  it('reports a failing tool as an isError result, and a handler bug as -32603', async () => {
    expect((await rpc('tools/call', { name: 'fails' })).body?.result).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ type: 'text', text: 'disk full' }],
    });
    expect((await rpc('tools/call', { name: 'buggy' })).body?.error).toEqual({
      code: -32603,
      message: 'Internal error',
    });
  });
});

describe('JsonRpcEndpoint: bad requests', () => {
  it.each<[string, () => ReturnType<typeof rpc>, number, number]>([
    ['a missing envelope', () => rpc('tools/list', {}, { meta: null }), 400, -32602],
    [
      'a missing protocol header',
      () => rpc('tools/list', {}, { headers: { 'mcp-protocol-version': null } }),
      400,
      -32020,
    ],
    [
      'a header that disagrees with _meta',
      () => rpc('tools/list', {}, { headers: { 'mcp-protocol-version': '2025-11-25' } }),
      400,
      -32020,
    ],
    [
      'an unsupported version',
      () =>
        rpc(
          'tools/list',
          {},
          {
            headers: { 'mcp-protocol-version': '2099-01-01' },
            meta: { [META_KEYS.protocolVersion]: '2099-01-01' },
          },
        ),
      400,
      -32022,
    ],
    [
      'an Mcp-Name header for another tool',
      () => rpc('tools/call', { name: 'fails' }, { headers: { 'mcp-name': 'other' } }),
      400,
      -32020,
    ],
    [
      'an Mcp-Method header for another method',
      () => rpc('tools/list', {}, { headers: { 'mcp-method': 'prompts/list' } }),
      400,
      -32020,
    ],
    ['an unknown method', () => rpc('ping'), 200, -32601],
    ['an unknown tool', () => rpc('tools/call', { name: 'nope' }), 200, -32602],
    [
      'arguments that fail the input schema',
      () => rpc('tools/call', { name: 'delete_project', arguments: { id: 3 } }),
      200,
      -32602,
    ],
    ['a missing prompt argument', () => rpc('prompts/get', { name: 'greet' }), 200, -32602],
    ['an unknown resource', () => rpc('resources/read', { uri: 'notes://never' }), 200, -32602],
    [
      'inputResponses that is not an object',
      () => rpc('tools/call', { name: 'delete_project', arguments: { id: 'p' }, inputResponses: null }),
      200,
      -32602,
    ],
  ])('answers %s with its error', async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect((response.body?.error as JsonObject | undefined)?.code).toBe(code);
  });

  it.each<[string, unknown, number]>([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], 400],
    ['a non-JSON-RPC value', 'hello', 400],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/list' }, 400],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/cancelled' }, 202],
    ['a client response', { jsonrpc: '2.0', id: 3, result: {} }, 202],
  ])('handles %s', async (_name, message, status) => {
    const response = await endpoint.handle({ message, headers: headersFor('tools/list'), principal: 'ada' });
    expect(response.status).toBe(status);
  });
});
