import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findUnresolvedSdkPackages, planMigration } from '@mcp-mrtr/codemod';

// A project before `npm install`: no node_modules anywhere above it.
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-uninstalled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', type: 'module' }));
writeFileSync(
  path.join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true } }),
);

function file(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

const SOURCE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as sdk from '@modelcontextprotocol/sdk/server/index.js';
import { Other } from 'somewhere-else';

const mcp = new McpServer({ name: 'p', version: '1' });
const low = new sdk.Server({ name: 'p', version: '1' });
class Holder {
  constructor(private readonly server: McpServer) {}
  async log() {
    await this.server.sendLoggingMessage({ level: 'info', data: 'field' });
  }
}
export async function run(given: any, other: Other) {
  await mcp.sendLoggingMessage({ level: 'info', data: 'built' });
  await mcp.server.sendLoggingMessage({ level: 'info', data: 'through .server' });
  await low.sendLoggingMessage({ level: 'info', data: 'namespace' });
  await given.sendLoggingMessage({ level: 'info', data: 'unknown origin' });
  await other.sendLoggingMessage({ level: 'info', data: 'not the SDK' });
  return Holder;
}
`;
const server = file('server.ts', SOURCE);
const client = file(
  'client.cjs',
  `const { Client } = require('@modelcontextprotocol/client');\nmodule.exports = Client;\n`,
);

describe('without the SDK installed', () => {
  it('finds each SDK package that does not resolve, once, with the files importing it', () => {
    expect(findUnresolvedSdkPackages([server, client])).toEqual([
      { name: '@modelcontextprotocol/client', importedBy: [client], from: dir },
      { name: '@modelcontextprotocol/sdk', importedBy: [server], from: dir },
    ]);
  });

  it.each([
    [false, []],
    [true, ['field', 'built', 'through .server', 'namespace']],
  ])(
    'allowUnresolved %s: rewrites only receivers syntax shows were built by an SDK class',
    async (allow, rewritten) => {
      const result = await planMigration({
        files: [server],
        cwd: dir,
        transforms: ['logging'],
        allowUnresolved: allow,
      });
      const sites = result.files.flatMap((outcome) => outcome.sites);
      const data = (line: number) => /data: '([^']+)'/.exec(SOURCE.split('\n')[line - 1] ?? '')?.[1];
      expect(sites.filter((site) => site.rewrite !== undefined).map((site) => data(site.line))).toEqual(
        rewritten,
      );
      expect(
        sites.filter((site) => site.rewrite !== undefined).every((site) => site.evidence === 'syntax'),
      ).toBe(true);
      expect(sites.filter((site) => site.rewrite === undefined).map((site) => site.evidence)).not.toContain(
        'syntax',
      );
    },
  );

  it('says a push question is left because the registration receiver has no type, not because of where it runs', async () => {
    const handlers = file(
      'handlers.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function register(server: McpServer) {
  server.registerTool('ask', { inputSchema: {} }, async () => {
    const answer = await server.server.elicitInput({
      message: 'Go on?',
      requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } },
    });
    return { content: [{ type: 'text' as const, text: answer.action }] };
  });
}
`,
    );
    const sites = async (allowUnresolved: boolean) =>
      (
        await planMigration({ files: [handlers], cwd: dir, transforms: ['mrtr-handlers'], allowUnresolved })
      ).files.flatMap((outcome) => outcome.sites);
    expect((await sites(false)).map((site) => site.reason)).toEqual([
      'it runs in a callback passed to server.registerTool(), but the type of server is unknown (any), so this may not be the MCP SDK',
    ]);
    // With syntax standing in for the types, the same question is rewritten.
    const allowed = await sites(true);
    expect(allowed.filter((site) => site.rewrite !== undefined)).toHaveLength(1);
    expect(allowed.map((site) => site.reason ?? '').join()).not.toContain('unknown (any)');
  });

  it('takes an untyped createMessage() for sampling only on an SDK owner or in a file importing the SDK', async () => {
    const body = `  await client.conversation.createMessage({ conversationId: 'c', data: { text: 'hi' } });
  await given.server.createMessage({ messages: [], maxTokens: 5 });
`;
    const apiClient = file(
      'api-client.ts',
      `export async function reply(client: any, given: any) {\n${body}}\n`,
    );
    const withSdk = file(
      'with-sdk.ts',
      `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport type S = McpServer;\nexport async function reply(client: any, given: any) {\n${body}}\n`,
    );
    const reported = async (path: string) =>
      (await planMigration({ files: [path], cwd: dir, transforms: ['mrtr-handlers'] })).files
        .flatMap((outcome) => outcome.sites)
        .map((site) => `${site.line} ${site.ruleId}`);
    expect(await reported(apiClient)).toEqual(['3 no-deprecated-sampling']);
    expect(await reported(withSdk)).toEqual(['4 no-deprecated-sampling', '5 no-deprecated-sampling']);
  });
});
