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
    expect(result.projects[0]?.receivers).toEqual({ resolved: 1, fromSyntax: 0, unresolved: 0 });
    expect(result.files[0]?.status).toBe('changed');
  });

  it('reads each receiver from its own type, however many others of the project resolve to any', async () => {
    const untyped = Array.from(
      { length: 3 },
      (_, i) =>
        `export async function log${i}(server: any): Promise<void> {\n  await server.sendLoggingMessage({ level: 'info', data: ${i} });\n}\n`,
    ).join('\n');
    const files = project({ module: 'nodenext', types: [] }, { 'server.ts': SERVER, 'untyped.ts': untyped });
    const result = await planMigration({ files, cwd: dir! });
    expect(result.projects[0]?.receivers).toEqual({ resolved: 1, fromSyntax: 0, unresolved: 3 });
    // The typed server is rewritten; the untyped receivers, which nothing shows to be the SDK's, are not.
    expect(result.files.find((file) => file.file.endsWith('server.ts'))?.output).toContain('logToStderr({');
    const manual = manualSites(result);
    expect(manual.map((site) => path.basename(site.file))).toEqual([
      'untyped.ts',
      'untyped.ts',
      'untyped.ts',
    ]);
    expect(manual.every((site) => site.reason?.includes('unknown (any)'))).toBe(true);
    // Said once for the project, not at each site.
    expect(result.projects[0]?.notes).toEqual([
      '3 of 4 receivers resolve to any (a package they come from is not installed or not found) and were decided from syntax, the others from their types; 3 of them showed nothing: what depended on them was left by hand',
    ]);
  });
});
