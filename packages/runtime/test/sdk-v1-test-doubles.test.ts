import { randomBytes } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { elicitForm, Keyring, MrtrRuntime } from '../src/index.js';
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
