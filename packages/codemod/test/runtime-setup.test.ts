import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// The runtime the codemod sets up around rewritten handlers (issue 24 items 8 and 9): what the
// keys site says was assumed about the transport, and why a module has an adapter of its own.
// The golden cases show the code; this shows the reasons the report gives.

const TIMEOUT = 120_000;

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
});
