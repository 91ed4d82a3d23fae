import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources, so tests never run against a stale dist/.
  resolve: { conditions: ['@mcp-mrtr/source'] },
  ssr: { resolve: { conditions: ['@mcp-mrtr/source'] } },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'fixtures/*/test/**/*.test.ts',
      'conformance/test/**/*.test.ts',
    ],
    // The JSON report is what .ci/run counts; vitest's own summary is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    // Says once, not once per file, that the Redis-backed tests are skipped when redis-server is missing.
    globalSetup: ['packages/runtime/test/fixtures/redis-notice.ts'],
    // Vitest's default of one worker on a 2-core machine leaves a core idle while most tests wait on
    // the servers and child processes they start.
    maxWorkers: 2,
    // Timeouts catch hangs, not slowness: a type-aware lint or a server start on a loaded 2-core
    // machine takes several times its quiet duration, and no test may fail for that.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
