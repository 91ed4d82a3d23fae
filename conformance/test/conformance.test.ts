import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { elicitForm, Keyring, MrtrRuntime, type Round } from '@mcp-mrtr/runtime';
import { createHttpListener, defineTool, JsonRpcEndpoint } from '@mcp-mrtr/runtime/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type RunningServer } from '../src/fixture-server.js';
import {
  CLIENT_SCENARIOS,
  describeFailure,
  fixtureClientCommand,
  runScenario,
  SERVER_SCENARIOS,
} from '../src/harness.js';

// One test per scenario of the official suite, so each lands in vitest's report. Warnings count as
// failures: the suite's SHOULD checks are requirements here.

describe('official conformance suite, server scenarios (runtime fixture server)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());

  it.concurrent.each(SERVER_SCENARIOS)('%s', async (scenario) => {
    const result = await runScenario('server', scenario, server.url);
    expect(result.passed, describeFailure(result)).toBe(true);
  });
});

describe('official conformance suite, client scenarios (runtime retry loop)', () => {
  it.each(CLIENT_SCENARIOS)('%s', async (scenario) => {
    const result = await runScenario('client', scenario, fixtureClientCommand());
    expect(result.passed, describeFailure(result)).toBe(true);
  });
});

describe('the conformance runner', () => {
  it('fails a scenario whose only problem is a SHOULD-level warning', async () => {
    const runtime = new MrtrRuntime({
      keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }),
    });
    const ask = elicitForm({
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    // Insists on requestState before it looks at answers: the suite only warns about that.
    const endpoint = new JsonRpcEndpoint({
      runtime,
      serverInfo: { name: 'warns', version: '0.0.0' },
      tools: {
        test_input_required_result_elicitation: defineTool({
          handler: (_args, round: Round<{ asked: true }>) => {
            const answer = round.state ? round.elicitation('user_name', ask) : undefined;
            if (!answer)
              return round.inputRequired({ inputRequests: { user_name: ask }, state: { asked: true } });
            return { content: [{ type: 'text', text: 'hello' }] };
          },
        }),
      },
    });
    const server = createServer(createHttpListener(endpoint)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const result = await runScenario('server', 'input-required-result-ignore-extra-params', url);
      expect(result.exitCode).toBe(0);
      expect(result.failures.map((check) => `${check.id} ${check.status}`)).toEqual([
        'sep-2322-ignore-unexpected-params WARNING',
      ]);
      expect(result.passed).toBe(false);
    } finally {
      server.close();
    }
  });
});
