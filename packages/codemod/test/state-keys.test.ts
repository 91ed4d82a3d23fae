import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';
import { writeScratchServer } from './scratch-server.js';

// Where the code migrate writes reads the requestState keys (issue 24 item 8): the request-state
// sealer as the MRTR runtime does (a per-process key for a server served over stdio only, the
// deployment's keys failing closed at first use otherwise), and a module with both reads them once.

const TIMEOUT = 120_000;

/** Projects of their own under fixtures/codemod/.work, where the SDKs resolve. */
const WORK = path.join(CASES_DIR, '..', '.work', `state-keys-${process.pid}`);
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

const QUIZ_TOOL = `server.registerTool(
  'quiz',
  {
    inputSchema: {
      player: z.string(),
      requestState: z.string().optional(),
      inputResponses: z.record(z.string(), z.any()).optional(),
    },
  },
  async (args) => {
    if (!args.requestState) {
      return {
        content: [],
        resultType: 'input_required',
        inputRequests: { q1: { method: 'elicitation/create', params: { message: '2 + 2?' } } },
        requestState: btoa(JSON.stringify({ asked: 1, player: args.player })),
      };
    }
    const progress = JSON.parse(atob(args.requestState));
    const answer = args.inputResponses?.[\`q\${progress.asked}\`];
    return { content: [{ type: 'text', text: \`\${progress.player}: \${answer?.content?.value}\` }] };
  },
);
`;

const CONFIRM_TOOL = `server.registerTool('confirm', {}, async () => {
  const answer = await server.server.elicitInput({
    message: 'Sure?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;

const STDIO = `void server.connect(new StdioServerTransport());\n`;

/** Migrates a one-module server with these tools, served over stdio when `stdio`. */
async function migrate(name: string, tools: readonly string[], stdio: boolean) {
  const file = writeScratchServer(
    WORK,
    name,
    [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      ...(stdio ? ["import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';"] : []),
      "import { z } from 'zod';",
      '',
      "const server = new McpServer({ name: 'quiz', version: '1.0.0' });",
      '',
      ...tools,
      ...(stdio ? [STDIO] : []),
    ].join('\n'),
  );
  const result = await planMigration({ files: [file], cwd: path.dirname(file) });
  const keys = manualSites(result).filter((site) => site.kind === 'state-keys');
  return { output: result.files[0]?.output ?? '', keys, file };
}

/** Loads a module as Node would, with no keys in the environment and nothing on stdin. */
function load(file: string) {
  const env = { ...process.env };
  delete env.MCP_MRTR_STATE_KEYS;
  return spawnSync(process.execPath, ['--conditions=@mcp-mrtr/source', '--import', 'tsx', file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the keys the request-state sealer reads', () => {
  it(
    'are a per-process key while unset, for a server served over stdio only',
    async () => {
      const { output, keys } = await migrate('sealer-stdio', [QUIZ_TOOL], true);
      expect(output).toContain(
        "const requestStateSealer = new RequestStateSealer({ keyring: Keyring.fromEnv({ whenUnset: 'per-process-key' }) });",
      );
      expect(keys).toHaveLength(1);
      expect(keys[0]?.reason).toMatch(
        /^assumed served over stdio only \(StdioServerTransport at server\.ts:\d+,/,
      );
      expect(keys[0]?.todo).toMatch(
        /^Served over stdio only, so while MCP_MRTR_STATE_KEYS is unset each process seals with a random key of its own/,
      );
    },
    TIMEOUT,
  );

  it(
    'are the deployment’s, failing closed at the first sealed round, when the run does not show stdio only',
    async () => {
      const { output, keys } = await migrate('sealer-unknown', [QUIZ_TOOL], false);
      expect(output).toContain(
        'const requestStateSealer = new RequestStateSealer({ keyring: Keyring.fromEnv() });',
      );
      expect(keys).toHaveLength(1);
      expect(keys[0]?.reason).toMatch(
        /^assumed it may be served over HTTP or by several instances \(no StdioServerTransport/,
      );
      expect(keys[0]?.todo).toContain(
        'Until then the first round that seals state fails, saying how to set them.',
      );
    },
    TIMEOUT,
  );

  it.each([
    ['stdio', true, "Keyring.fromEnv({ whenUnset: 'per-process-key' })"],
    ['unknown', false, 'Keyring.fromEnv()'],
  ])(
    'are read once for the sealer and the runtime of one module (%s)',
    async (name, stdio, fromEnv) => {
      const { output, file } = await migrate(`together-${name}`, [QUIZ_TOOL, CONFIRM_TOOL], stdio);
      expect(output).toContain("mrtr.registerTool(server, 'confirm'");
      expect(output.match(/\.fromEnv\(/g)).toHaveLength(1);
      expect(output).toContain(`\n\nconst requestStateKeys = ${fromEnv};\n\n`);
      expect(output).toContain('new RequestStateSealer({ keyring: requestStateKeys })');
      expect(output).toContain('new MrtrRuntime({ keyring: requestStateKeys })');
      // Declared before both read it: a module that uses a const before its declaration throws at import.
      expect(output.indexOf('const requestStateKeys')).toBeLessThan(
        output.indexOf('keyring: requestStateKeys'),
      );
      // Importing it never throws, with the keys unset; a per-process key is made at first use.
      writeFileSync(file, output);
      const loaded = load(file);
      expect(loaded.stderr).toBe('');
      expect(loaded.status).toBe(0);
      // A later run changes nothing and still lists both keys markers.
      const again = await planMigration({ files: [file], cwd: path.dirname(file) });
      expect(again.files[0]?.status).toBe('unchanged');
      expect(manualSites(again).filter((site) => site.kind === 'state-keys')).toHaveLength(2);
    },
    TIMEOUT,
  );
});
