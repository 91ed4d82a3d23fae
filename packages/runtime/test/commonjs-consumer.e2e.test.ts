import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstText, REPOSITORY } from './fixtures/clients.js';

// A CommonJS project (fixtures/commonjs-consumer) loads the runtime's CommonJS build with
// require(), and its ESM build with import, from the package's exports as a user's project does:
// plain node, no source condition, no tsx.

const FIXTURE = path.join(REPOSITORY, 'fixtures/commonjs-consumer');
const OUT = path.join(FIXTURE, 'dist');

beforeAll(() => {
  // The builds the exports point at, fresh: tsc -b rebuilds only what changed.
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'packages/runtime', 'packages/runtime/tsconfig.cjs.json'], {
    cwd: REPOSITORY,
  });
  // The fixture compiled as ts-jest would compile it: imports become require() in server.ts.
  mkdirSync(OUT, { recursive: true });
  for (const [source, output, module] of [
    ['server.ts', 'server.js', ts.ModuleKind.CommonJS],
    ['server.mts', 'server.mjs', ts.ModuleKind.ESNext],
  ] as const) {
    const text = readFileSync(path.join(FIXTURE, 'src', source), 'utf8');
    const { outputText } = ts.transpileModule(text, {
      fileName: source,
      compilerOptions: { module, target: ts.ScriptTarget.ES2023, esModuleInterop: true },
    });
    writeFileSync(path.join(OUT, output), outputText);
  }
}, 120_000);

// Node 20.19 and later can require() an ES module; Jest's module system, which ts-jest runs in,
// cannot. Turning that off makes plain node load modules as Jest does: CommonJS only.
describe.each([
  ['CommonJS (require)', ['--no-experimental-require-module', 'server.js'], 'function'],
  ['ESM (import)', ['server.mjs'], 'undefined'],
])('an SDK v1 server in a CommonJS project, as %s', (_name, args, requireType) => {
  it('runs a migrated tool through the adapter over stdio', async () => {
    const { MCP_MRTR_STATE_KEYS: _, ...env } = process.env as Record<string, string>;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map((arg) => (arg.startsWith('-') ? arg : path.join(OUT, arg))),
      cwd: FIXTURE,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(transport);
    try {
      expect(firstText(await client.callTool({ name: 'delete_file', arguments: {} }))).toBe(
        `Deleted notes.txt (${requireType}).`,
      );
      expect(asked).toEqual(['Delete notes.txt?']);
    } finally {
      await client.close();
    }
  });
});
