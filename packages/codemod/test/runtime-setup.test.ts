import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// The runtime the codemod sets up around rewritten handlers (issue 24 items 8 and 9): what the
// keys site says was assumed about the transport, and why a module has an adapter of its own.
// The golden cases show the code; this shows the reasons the report gives.

const TIMEOUT = 120_000;

/** A project of its own under fixtures/codemod/.work, where the SDKs resolve. */
const WORK = path.join(CASES_DIR, '..', '.work', `runtime-setup-${process.pid}`);
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

async function keysReasons(caseName: string): Promise<Record<string, string | undefined>> {
  const dir = path.join(CASES_DIR, caseName, 'before');
  const files = ['server.ts', 'main.ts', 'register.ts', 'tools.ts']
    .map((file) => path.join(dir, file))
    .filter((file) => existsSync(file));
  const result = await planMigration({ files, cwd: dir });
  return Object.fromEntries(
    manualSites(result)
      .filter((site) => site.kind === 'state-keys')
      .map((site) => [path.relative(dir, site.file), site.reason]),
  );
}

describe('the runtime set up around rewritten handlers', () => {
  it(
    'says it assumed stdio only, and where it saw it, when the run shows nothing else',
    async () => {
      const reasons = await keysReasons('mrtr-stdio-only');
      expect(Object.keys(reasons)).toEqual(['server.ts']);
      expect(reasons['server.ts']).toMatch(
        /^assumed served over stdio only \(StdioServerTransport at main\.ts:5,/,
      );
    },
    TIMEOUT,
  );

  it(
    'takes the deployment’s keys, and names the HTTP transport, when the server is also served over HTTP',
    async () => {
      const reasons = await keysReasons('mrtr-http-served');
      expect(Object.keys(reasons)).toEqual(['server.ts']);
      expect(reasons['server.ts']).toMatch(
        /^assumed it may be served over HTTP or by several instances \(StreamableHTTPServerTransport at main\.ts:11 /,
      );
    },
    TIMEOUT,
  );

  it(
    'says why a module whose server is a parameter sets up an adapter of its own',
    async () => {
      const reasons = await keysReasons('mrtr-v2-server-elsewhere');
      expect(reasons['register.ts']).toMatch(
        /this module sets up an adapter of its own, as the codemod cannot set one up beside the server's construction: the server `server` is a parameter of registerRestore\(\)/,
      );
      expect(reasons['server.ts']).not.toContain('of its own');
    },
    TIMEOUT,
  );

  it(
    'takes the deployment’s keys for a stdio SDK v2 server whose retries another adapter verifies',
    async () => {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ extends: '../../tsconfig.json', include: ['.'] }),
        'register.ts': `import type { McpServer } from '@modelcontextprotocol/server';

export function registerRestore(server: McpServer): void {
  server.registerTool('restore', {}, async (ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: 'Restore?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`,
        'main.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { registerRestore } from './register.js';

const server = new McpServer({ name: 'restore', version: '1.0.0' });
registerRestore(server);
void server.connect(new StdioServerTransport());
`,
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(WORK, { recursive: true });
        writeFileSync(path.join(WORK, name), text);
      }
      const result = await planMigration({
        files: ['register.ts', 'main.ts'].map((name) => path.join(WORK, name)),
        cwd: WORK,
      });
      const register = result.files.find((file) => file.file.endsWith('register.ts'));
      expect(register?.output).toContain('keyring: Keyring.fromEnv() }');
      const keys = manualSites(result).find((site) => site.kind === 'state-keys');
      expect(keys?.reason).toMatch(
        /^assumed it may be served over HTTP or by several instances \(served over stdio only \(StdioServerTransport at main\.ts:7\), but the SDK v2 server these handlers register on verifies retries with another adapter's keys\)/,
      );
    },
    TIMEOUT,
  );
});
