import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';

const REPO = path.resolve(import.meta.dirname, '../../..');

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function create(): McpServer {
  const server = new McpServer({ name: 'p', version: '1.0.0' });
  server.registerTool('ping', { description: 'Ping' }, async () => {
    await server.sendLoggingMessage({ level: 'info', data: 'ping' });
    return { content: [] };
  });
  return server;
}
`;

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function project(compilerOptions: Record<string, unknown>, files: Record<string, string>): string[] {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-preflight-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', type: 'module' }));
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  return Object.entries(files).map(([name, text]) => {
    writeFileSync(path.join(dir!, name), text);
    return path.join(dir!, name);
  });
}

describe('the type-world preflight', () => {
  it('silences TypeScript 6 deprecations and widens an unset types in memory, and says so', async () => {
    const files = project({ module: 'nodenext', baseUrl: '.', strict: true }, { 'server.ts': SERVER });
    const result = await planMigration({ files, cwd: dir! });
    expect(result.projects[0]?.notes).toEqual([
      'set ignoreDeprecations "6.0" in memory for baseUrl',
      'set types ["*"] in memory: TypeScript 6 includes no @types packages unless told to',
    ]);
    expect(result.projects[0]?.receivers).toEqual({ resolved: 1, unresolved: 0 });
    expect(result.files[0]?.status).toBe('changed');
  });

  it('turns type-dependent rewrites into manual sites when most receivers resolve to any', async () => {
    const untyped = Array.from(
      { length: 3 },
      (_, i) =>
        `export async function log${i}(server: any): Promise<void> {\n  await server.sendLoggingMessage({ level: 'info', data: ${i} });\n}\n`,
    ).join('\n');
    const files = project({ module: 'nodenext', types: [] }, { 'server.ts': SERVER, 'untyped.ts': untyped });
    const result = await planMigration({ files, cwd: dir! });
    expect(result.projects[0]).toMatchObject({
      receivers: { resolved: 1, unresolved: 3 },
      typesUnreliable: true,
    });
    const server = manualSites(result).find(
      (site) => site.file.endsWith('server.ts') && site.kind === 'send-logging-message',
    );
    expect(server?.reason).toBe(
      "type information is unreliable in tsconfig.json: 3 of 4 receivers (75%) resolve to any; fix the tsconfig or install the SDK's types and run again",
    );
    expect(
      result.files.every((file) => file.output === undefined || !file.output.includes('logToStderr({')),
    ).toBe(true);
  });

  it('keeps rewriting at the threshold: one unresolved receiver in four is 25%, not above it', async () => {
    const untyped =
      "export async function log(server: any): Promise<void> {\n  await server.sendLoggingMessage({ level: 'info', data: 0 });\n}\n";
    const files = project(
      { module: 'nodenext', types: [] },
      { 'a.ts': SERVER, 'b.ts': SERVER, 'c.ts': SERVER, 'untyped.ts': untyped },
    );
    const result = await planMigration({ files, cwd: dir! });
    expect(result.projects[0]).toMatchObject({
      receivers: { resolved: 3, unresolved: 1 },
      typesUnreliable: false,
    });
    expect(result.files.filter((file) => file.status === 'changed')).toHaveLength(4);
    expect(manualSites(result).map((site) => path.basename(site.file))).toEqual(['untyped.ts']);
  });
});
