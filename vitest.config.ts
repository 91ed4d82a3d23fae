import { defineConfig } from 'vitest/config';

/** The tests of the SDK v1 adapter, which also run against the oldest SDK v1 release supported. */
const SDK_V1_ADAPTER_TESTS = [
  'packages/runtime/test/sdk-v1.e2e.test.ts',
  'packages/runtime/test/journaled-replay.e2e.test.ts',
  'packages/runtime/test/keys-at-first-use.e2e.test.ts',
];

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources, so tests never run against a stale dist/.
  resolve: { conditions: ['@mcp-mrtr/source'] },
  ssr: { resolve: { conditions: ['@mcp-mrtr/source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: [
            'packages/*/test/**/*.test.ts',
            'fixtures/*/test/**/*.test.ts',
            'conformance/test/**/*.test.ts',
          ],
        },
      },
      {
        // The newest SDK v1 is the one installed; this project swaps in the floor of the runtime's
        // peer range (the @modelcontextprotocol/sdk-oldest alias), with zod 3 as that release uses,
        // for the tests, the runtime's sources and (through the hooks) the stdio fixture servers.
        extends: true,
        resolve: {
          alias: [
            { find: /^@modelcontextprotocol\/sdk\//, replacement: '@modelcontextprotocol/sdk-oldest/' },
            { find: /^zod$/, replacement: 'zod/v3' },
          ],
        },
        test: {
          name: 'sdk-v1-oldest',
          include: SDK_V1_ADAPTER_TESTS,
          env: { MCP_MRTR_TEST_SDK_V1: 'oldest' },
        },
      },
    ],
    // The JSON report is what .ci/run counts; vitest's own summary is for people.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    // Says once, not once per file, that the Redis-backed tests are skipped when redis-server is missing.
    globalSetup: ['packages/runtime/test/fixtures/redis-notice.ts'],
    // Vitest's default of one worker on a 2-core machine leaves a core idle while most tests wait on
    // the servers and child processes they start.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
