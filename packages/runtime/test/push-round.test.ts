import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMessage, elicitForm, listRoots, MrtrUsageError } from '@mcp-mrtr/runtime';
import { pushRound } from '@mcp-mrtr/runtime/testing';
import { REPOSITORY } from './fixtures/clients.js';

// The test kit: a migrated helper's own tests pass pushRound(server), and its questions reach the
// server through the push APIs the helper called before the migration.

const confirmForm = elicitForm({
  message: 'Delete notes.txt?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
});

describe('pushRound', () => {
  it('asks a real SDK v1 server, whose client answers form, sampling and roots questions', async () => {
    const server = new McpServer({ name: 'kit', version: '1.0.0' });
    const client = new Client(
      { name: 'user', version: '1.0.0' },
      { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'a summary' },
      model: 'test-model',
    }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
    try {
      const round = pushRound(server);
      expect(round.clientCapabilities).toMatchObject({ elicitation: {}, sampling: {}, roots: {} });
      expect(await round.ask('confirm', confirmForm)).toEqual({ action: 'accept', content: { ok: true } });
      expect(asked).toEqual(['Delete notes.txt?']);
      const sampled = await round.ask(
        'summary',
        createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Sum up' } }],
          maxTokens: 50,
        }),
      );
      expect(sampled).toMatchObject({ content: { text: 'a summary' }, model: 'test-model' });
      expect(await round.ask('roots', listRoots())).toEqual({ roots: [{ uri: 'file:///work' }] });
    } finally {
      await client.close();
    }
  });

  it("puts a form to a test's stub as the SDK v1 call wrote it, and runs each step every time", async () => {
    const calls: unknown[] = [];
    const fake = {
      elicitInput: (params: unknown) => {
        calls.push(params);
        return Promise.resolve({ action: 'decline' });
      },
    };
    const round = pushRound(fake);
    expect(await round.ask('confirm', confirmForm)).toEqual({ action: 'decline' });
    expect(calls).toEqual([
      {
        message: 'Delete notes.txt?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      },
    ]);
    let runs = 0;
    const step = () => round.step('count', () => ++runs);
    expect([await step(), await step()]).toEqual([1, 2]);
  });

  it('says which push API a fake lacks', async () => {
    await expect(
      pushRound({ elicitInput: () => Promise.resolve({}) }).ask('roots', listRoots()),
    ).rejects.toThrow(MrtrUsageError);
    await expect(pushRound({}).ask('confirm', confirmForm)).rejects.toThrow(/has no elicitInput\(\)/);
  });

  it('loads from the CommonJS build with require()', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-b', 'packages/runtime/tsconfig.cjs.json'], { cwd: REPOSITORY });
    // Plain node, as a CommonJS test runner loads it: no source condition, no require of ESM.
    const loaded = execFileSync(
      process.execPath,
      [
        '--no-experimental-require-module',
        '-e',
        "process.stdout.write(typeof require('@mcp-mrtr/runtime/testing').pushRound)",
      ],
      { cwd: REPOSITORY, encoding: 'utf8' },
    );
    expect(loaded).toBe('function');
  }, 120_000);
});
