import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { clientCapabilitiesFor, HttpJsonRpcClient, type InputHandlers } from '../src/client/index.js';
import { createHttpListener, defineTool, JsonRpcEndpoint } from '../src/http/index.js';
import {
  elicitForm,
  JsonRpcError,
  Keyring,
  MrtrRuntime,
  RuntimeConfigError,
  type ToolHandler,
} from '../src/index.js';
import { firstText, scriptedUser, stdioServer } from './fixtures/clients.js';

// Keys are read at the first sealed round, not at import: a stdio server runs on a per-process
// key when told to, and anything else fails closed at that round without crashing the server.

const NOTICE = /^mcp-mrtr: MCP_MRTR_STATE_KEYS is not set; /;
const UNSET = /^MCP_MRTR_STATE_KEYS is not set, .*Set it to "id:base64secret" entries.*randomBytes\(32\)/;

/** A journaled handler's first round seals its journal: that is the first sealed round. */
const whoami = (client: Client) => client.callTool({ name: 'whoami', arguments: {} });

interface StdioRun {
  readonly client: Client;
  readonly user: ReturnType<typeof scriptedUser>;
  /** The server's stderr lines, complete once the client is closed. */
  readonly stderr: () => Promise<string[]>;
}

const running: Client[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((client) => client.close()));
});

/** The SDK v1 journaled-replay server over stdio, started with `keys` as MCP_MRTR_STATE_KEYS (unset if undefined). */
async function startV1Stdio(mode: 'fail' | 'per-process-key', keys: string | undefined): Promise<StdioRun> {
  const server = stdioServer('v1-stdio-env-keys.ts');
  const { MCP_MRTR_STATE_KEYS: _, ...env } = server.env;
  const transport = new StdioClientTransport({
    ...server,
    args: [...server.args, mode],
    env: keys === undefined ? env : { ...env, MCP_MRTR_STATE_KEYS: keys },
  });
  const user = scriptedUser();
  const client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => user.next(request.params.message) as never);
  const output: string[] = [];
  await client.connect(transport);
  const stream = transport.stderr as Readable;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => output.push(chunk));
  running.push(client);
  return {
    client,
    user,
    stderr: async () => {
      await client.close();
      await finished(stream);
      return output.join('').split('\n').filter(Boolean);
    },
  };
}

describe('an SDK v1 stdio server whose keys come from MCP_MRTR_STATE_KEYS', () => {
  it("runs on a per-process key when unset, under whenUnset: 'per-process-key', and says so once", async () => {
    const { client, user, stderr } = await startV1Stdio('per-process-key', undefined);
    for (const action of ['accept', 'decline']) {
      user.answer({ action, ...(action === 'accept' && { content: { go: true } }) });
      expect(JSON.parse(firstText(await whoami(client)))).toMatchObject({ go: action });
    }
    user.answer({ action: 'accept', content: { topic: 'keys' } });
    expect(await client.getPrompt({ name: 'topic' })).toMatchObject({
      messages: [{ content: { text: 'Tell me about keys.' } }],
    });
    const lines = await stderr();
    expect(lines.filter((line) => NOTICE.test(line))).toHaveLength(1);
    expect(lines.find((line) => NOTICE.test(line))).toMatch(/stdio server only.*set MCP_MRTR_STATE_KEYS/);
  });

  it('fails closed at the first sealed round when unset, by default, and keeps serving', async () => {
    const { client, user, stderr } = await startV1Stdio('fail', undefined);
    // McpServer turns any tool failure into an isError result; the question is never sent.
    const result = await whoami(client);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(UNSET);
    expect(user.asked).toEqual([]);
    // A prompt's failure is a JSON-RPC error.
    const refusal = await client.getPrompt({ name: 'topic' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(McpError);
    expect((refusal as McpError).code).toBe(ErrorCode.InternalError);
    expect((refusal as McpError).message).toMatch(/^MCP error -32603: MCP_MRTR_STATE_KEYS is not set/);
    expect(firstText(await whoami(client))).toMatch(UNSET);
    expect(firstText(await client.callTool({ name: 'effects_log', arguments: {} }))).toBe('[]');
    expect((await stderr()).filter((line) => NOTICE.test(line))).toEqual([]);
  });

  it('refuses a malformed variable at the first sealed round, even with a per-process key allowed', async () => {
    const { client, stderr } = await startV1Stdio('per-process-key', 'k1:c2hvcnQ');
    const result = await whoami(client);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/^MCP_MRTR_STATE_KEYS: key "k1" is 5 bytes; .*at least 32/);
    expect((await stderr()).filter((line) => NOTICE.test(line))).toEqual([]);
  });
});

const goAhead: ToolHandler = async (_args, round) => {
  const answer = await round.ask(
    'go',
    elicitForm({
      message: 'Go ahead?',
      requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] },
    }),
  );
  return { content: [{ type: 'text', text: answer.action }] };
};

describe('the plain JSON-RPC endpoint without keys', () => {
  it('answers the first sealed round with a JSON-RPC internal error, logs why, and keeps serving', async () => {
    const logged: unknown[] = [];
    const endpoint = new JsonRpcEndpoint({
      runtime: new MrtrRuntime({ keyring: Keyring.fromEnv({ env: {} }) }),
      serverInfo: { name: 'keyless', version: '1.0.0' },
      tools: {
        go_ahead: defineTool({ handler: goAhead }),
      },
      onError: (error) => logged.push(error),
    });
    const server = createServer(createHttpListener(endpoint)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const asked: string[] = [];
      const handlers: InputHandlers = {
        form: (params) => {
          asked.push(params.message);
          return Promise.resolve({ action: 'cancel' });
        },
      };
      const client = new HttpJsonRpcClient({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        clientInfo: { name: 'plain', version: '1.0.0' },
        capabilities: clientCapabilitiesFor(handlers),
      });
      for (let call = 1; call <= 2; call++) {
        const failure = await client.callTool('go_ahead', {}, { handlers }).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(JsonRpcError);
        expect(failure).toMatchObject({ code: ErrorCode.InternalError, message: 'Internal error' });
      }
      expect(asked).toEqual([]);
      expect(logged).toHaveLength(2);
      expect(logged[0]).toBeInstanceOf(RuntimeConfigError);
      expect(logged[0]).toHaveProperty('message', expect.stringMatching(UNSET));
    } finally {
      server.close();
    }
  });
});
