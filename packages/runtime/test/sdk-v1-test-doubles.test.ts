import { randomBytes } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMessage, elicitForm, Keyring, MrtrRuntime } from '../src/index.js';
import { SdkV1Adapter, type Extra } from '../src/sdk-v1/index.js';

// A project's own unit tests often call a tool's callback directly, with a stand-in server that
// records it and a stand-in `extra` holding only the `sendRequest` the original handler used. A
// migrated handler must still answer such a test: the legacy loop asks through that same
// `sendRequest`, and a missing abort signal means the call is never aborted.

// A tool without an input schema: the SDK calls its callback with `extra` alone.
type Callback = (extra: Extra) => Promise<unknown>;

function standInServer(): { server: McpServer; callback: () => Callback } {
  let registered: Callback | undefined;
  const server = {
    registerTool: (_name: string, _config: unknown, callback: Callback) => {
      registered = callback;
      return {};
    },
    server: { getClientCapabilities: () => ({ elicitation: {} }) },
  };
  return {
    server: server as unknown as McpServer,
    callback: () => {
      if (registered === undefined) throw new Error('no tool was registered');
      return registered;
    },
  };
}

describe('a tool migrated onto SdkV1Adapter, called by the project test that called the original', () => {
  it('asks through the stand-in extra.sendRequest and has no abort signal to read', async () => {
    const mrtr = new SdkV1Adapter(
      new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
    );
    const { server, callback } = standInServer();
    mrtr.registerTool(server, 'greet', {}, async (_args, round) => {
      const answer = await round.ask(
        'name',
        elicitForm({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      );
      const name = answer.action === 'accept' ? answer.content.name : 'stranger';
      return { content: [{ type: 'text', text: `hello ${name}` }] };
    });
    const sent: unknown[] = [];
    const extra = {
      sendRequest: (request: unknown) => {
        sent.push(request);
        return Promise.resolve({ action: 'accept', content: { name: 'Ada' } });
      },
    } as unknown as Extra;

    const result = await callback()(extra);

    expect(result).toEqual({ content: [{ type: 'text', text: 'hello Ada' }] });
    expect(sent).toMatchObject([
      { method: 'elicitation/create', params: { mode: 'form', message: 'Name?' } },
    ]);
  });
});

// Some project tests take the registered callback from the real server and call it with the
// arguments alone, stubbing the server's push methods the original handler called.
describe('a tool migrated onto SdkV1Adapter, called with its arguments alone', () => {
  it('asks through the server’s own push methods, which the test stubs', async () => {
    const mrtr = new SdkV1Adapter(
      new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) }),
    );
    const server = new McpServer({ name: 'direct', version: '1.0.0' });
    mrtr.registerTool(
      server,
      'summarise',
      { inputSchema: { topic: z.string() } },
      async ({ topic }, round) => {
        const consent = await round.ask(
          'consent',
          elicitForm({
            message: `Summarise ${topic}?`,
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        );
        if (consent.action !== 'accept' || !consent.content.ok) return { content: [] };
        const summary = await round.ask(
          'summary',
          createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: topic } }],
            maxTokens: 50,
          }),
        );
        return { content: [summary.content.type === 'text' ? summary.content : { type: 'text', text: '' }] };
      },
    );
    server.server.getClientCapabilities = () => ({ elicitation: {}, sampling: {} });
    const asked: string[] = [];
    server.server.elicitInput = (params) => {
      asked.push(`form: ${params.message}`);
      return Promise.resolve({ action: 'accept', content: { ok: true } });
    };
    server.server.createMessage = (params) => {
      asked.push(`sampling: ${JSON.stringify(params.messages[0]?.content)}`);
      return Promise.resolve({ role: 'assistant', model: 'stub', content: { type: 'text', text: 'short' } });
    };
    const registered = (server as unknown as RegisteredTools)._registeredTools.summarise;

    const result = await registered.handler({ topic: 'tides' });

    expect(result).toEqual({ content: [{ type: 'text', text: 'short' }] });
    expect(asked).toEqual(['form: Summarise tides?', 'sampling: {"type":"text","text":"tides"}']);
  });
});

/** The SDK's private record of registered tools, which such tests read. */
interface RegisteredTools {
  readonly _registeredTools: { readonly summarise: { handler: (args: unknown) => Promise<unknown> } };
}
