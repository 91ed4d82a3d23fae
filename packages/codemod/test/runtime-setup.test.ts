import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';
import { writeScratchServer } from './scratch-server.js';

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

  describe('an adapter an earlier run declared, when this run adds handlers that journal steps', () => {
    const EARLIER_MARKER =
      '// mcp-mrtr: require-sealed-request-state — Give every instance that may handle a retry the same requestState keys. Then delete this comment.';
    const LEGACY_TOOL = `server.registerTool('book_seat', { inputSchema: { seat: z.string() } }, async ({ seat }) => {
  holds.push(seat);
  const answer = await server.server.elicitInput({
    message: \`Seat \${seat} is held for you. Book it?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;

    /** The run's output for a server module whose adapter `declaration` an earlier run wrote. */
    async function migrateWithEarlierAdapter(name: string, declaration: string) {
      const file = writeScratchServer(
        WORK,
        name,
        `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Keyring, MrtrRuntime } from '@mcp-mrtr/runtime';
import { SdkV1Adapter } from '@mcp-mrtr/runtime/sdk-v1';

${declaration}

const holds: string[] = [];

export const server = new McpServer({ name: 'seats', version: '1.0.0' });

${LEGACY_TOOL}`,
      );
      const dir = path.dirname(file);
      const result = await planMigration({ files: [file], cwd: dir });
      const output = result.files[0]?.output ?? '';
      writeFileSync(file, output);
      const again = await planMigration({ files: [file], cwd: dir });
      return { output, manual: manualSites(result), again };
    }

    it(
      'turns single use on in the runtime it constructs, and says why in its marker',
      async () => {
        const { output, manual, again } = await migrateWithEarlierAdapter(
          'single-use-added',
          `${EARLIER_MARKER}\nconst mrtr = new SdkV1Adapter(new MrtrRuntime({ keyring: Keyring.fromEnv() }));`,
        );
        expect(output).toContain('round.step(');
        expect(output).toContain(
          "import { elicitForm, Keyring, MemoryRedemptionStore, MrtrRuntime } from '@mcp-mrtr/runtime';",
        );
        expect(output).toMatch(
          /\nconst mrtr = new SdkV1Adapter\(\n {2}new MrtrRuntime\(\{ keyring: Keyring\.fromEnv\(\), singleUse: new MemoryRedemptionStore\(\) \}\),\n\);\n/,
        );
        expect(output).not.toContain(EARLIER_MARKER);
        expect(output).toMatch(
          /\/\/ mcp-mrtr: require-sealed-request-state — .*Its handlers journal steps, so each requestState opens once \(singleUse\)/,
        );
        const keys = manual.filter((site) => site.kind === 'state-keys');
        expect(keys).toHaveLength(1);
        expect(keys[0]?.todo).toContain('opens once (singleUse)');
        expect(again.files[0]?.status).toBe('unchanged');
      },
      TIMEOUT,
    );

    it(
      'says exactly what to add when the runtime is not constructed in the declaration',
      async () => {
        const { output, manual, again } = await migrateWithEarlierAdapter(
          'single-use-by-hand',
          'const runtime = new MrtrRuntime({ keyring: Keyring.fromEnv() });\nconst mrtr = new SdkV1Adapter(runtime);',
        );
        expect(output).toContain('round.step(');
        expect(output).toContain('const mrtr = new SdkV1Adapter(runtime);');
        const singleUse = manual.find((site) => site.kind === 'single-use');
        expect(singleUse?.todo).toMatch(
          /^Pass singleUse: new MemoryRedemptionStore\(\) \(from @mcp-mrtr\/runtime\) to the MrtrRuntime of the adapter mrtr:/,
        );
        expect(output).toContain(`// mcp-mrtr: require-sealed-request-state — ${singleUse?.todo}`);
        // A later run changes nothing and still lists it.
        expect(again.files[0]?.status).toBe('unchanged');
        expect(manualSites(again).find((site) => site.kind === 'single-use')?.todo).toBe(singleUse?.todo);
      },
      TIMEOUT,
    );

    it(
      'leaves a runtime that already redeems each state once as it is',
      async () => {
        const declaration =
          'const mrtr = new SdkV1Adapter(new MrtrRuntime({ keyring: Keyring.fromEnv(), singleUse: store }));';
        const { output, manual } = await migrateWithEarlierAdapter(
          'single-use-present',
          `declare const store: import('@mcp-mrtr/runtime').RedemptionStore;\n${declaration}`,
        );
        expect(output).toContain('round.step(');
        expect(output).toContain(declaration);
        expect(output).not.toContain('MemoryRedemptionStore');
        expect(manual.filter((site) => site.kind === 'single-use')).toEqual([]);
      },
      TIMEOUT,
    );
  });
});
