import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keyring, MrtrRuntime } from '@mcp-mrtr/runtime';
import { createHttpListener, JsonRpcEndpoint } from '@mcp-mrtr/runtime/http';
import { fixturePrompts, fixtureTools } from './fixture-tools.js';

export interface RunningServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  /** requestState failures and handler errors the server logged, for assertions. */
  readonly errors: unknown[];
  close(): Promise<void>;
}

/**
 * Starts the conformance fixture: a plain JSON-RPC server on the runtime with the tools and the
 * prompt the input-required-result-* scenarios call, on a free loopback port.
 */
export async function startFixtureServer(): Promise<RunningServer> {
  const errors: unknown[] = [];
  // A fresh key per run: every request of a scenario reaches this one process.
  const runtime = new MrtrRuntime({
    keyring: new Keyring({ current: { id: 'fixture', secret: randomBytes(32) } }),
  });
  const endpoint = new JsonRpcEndpoint({
    runtime,
    serverInfo: { name: 'mcp-mrtr-conformance-fixture', version: '0.1.0' },
    tools: fixtureTools,
    prompts: fixturePrompts,
    onError: (error) => errors.push(error),
  });
  const server = createServer(createHttpListener(endpoint, { onError: (error) => errors.push(error) }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    errors,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
