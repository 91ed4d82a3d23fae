import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration } from '@mcp-mrtr/codemod';
import { packageApiOf, type BuildLayout } from '../src/project/package-api.js';

// Each planning test builds a TypeScript program of its own: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24: whether code outside a project may call an exported helper that asks is decided from
// the package (what its package.json publishes), not from the file; callers inside the project are
// followed through the files that import the helper's importers, barrels and renamed imports.

const REPO = path.resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-exported-helpers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let projects = 0;
/** A project under the scratch directory (no package.json above it), from relative paths to text. */
function project(files: Record<string, string>): string {
  const dir = path.join(scratch, `project-${++projects}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

describe('what a package publishes', () => {
  const layout = (dir: string, options: BuildLayout['options'] = {}): BuildLayout => ({
    options,
    fileNames: [path.join(dir, 'src/index.ts'), path.join(dir, 'src/ask.ts')],
    tsconfig: path.join(dir, 'tsconfig.json'),
  });
  const sources = { 'src/index.ts': 'export {};\n', 'src/ask.ts': 'export {};\n' };

  it('a private package outside any workspace publishes nothing', () => {
    const dir = project({ ...sources, 'package.json': json({ private: true, main: 'dist/index.js' }) });
    expect(packageApiOf(path.join(dir, 'src/ask.ts'), layout(dir))).toMatchObject({ kind: 'none' });
  });

  it("a private package in a workspace publishes its entry points to the workspace's other packages", () => {
    const dir = project({
      'package.json': json({ private: true, workspaces: ['packages/*'] }),
      'packages/kit/package.json': json({ private: true, exports: { '.': './src/index.ts' } }),
      'packages/kit/src/index.ts': 'export {};\n',
    });
    const kit = path.join(dir, 'packages/kit');
    expect(
      packageApiOf(path.join(kit, 'src/index.ts'), {
        options: {},
        fileNames: [path.join(kit, 'src/index.ts')],
        tsconfig: undefined,
      }),
    ).toMatchObject({
      kind: 'entries',
      entries: [{ field: 'exports["."]', source: path.join(kit, 'src/index.ts') }],
    });
  });

  it('a package with only commands (bin) publishes nothing to import', () => {
    const dir = project({ ...sources, 'package.json': json({ bin: { tool: 'dist/index.js' } }) });
    expect(packageApiOf(path.join(dir, 'src/ask.ts'), layout(dir))).toMatchObject({
      kind: 'none',
      why: 'package.json publishes only commands (bin), nothing to import',
    });
  });

  it("main and exports' conditions are traced to their sources through outDir and rootDir", () => {
    const dir = project({
      ...sources,
      'package.json': json({
        main: 'dist/index.js',
        exports: {
          '.': { types: './dist/index.d.ts', import: './dist/index.js' },
          './package.json': './package.json',
        },
      }),
    });
    const options = { outDir: path.join(dir, 'dist'), rootDir: path.join(dir, 'src') };
    expect(packageApiOf(path.join(dir, 'src/ask.ts'), layout(dir, options))).toEqual({
      kind: 'entries',
      packageJson: path.join(dir, 'package.json'),
      entries: [
        { field: 'exports["."]', target: './dist/index.d.ts', source: path.join(dir, 'src/index.ts') },
        { field: 'exports["."]', target: './dist/index.js', source: path.join(dir, 'src/index.ts') },
      ],
    });
  });

  it('is unknown when an entry point cannot be traced, a pattern may publish any module, or there is no package.json', () => {
    const built = project({ ...sources, 'package.json': json({ main: 'dist/index.js' }) });
    expect(packageApiOf(path.join(built, 'src/ask.ts'), layout(built))).toEqual({
      kind: 'unknown',
      why: "package.json's main is dist/index.js, which is not traced to a source file (tsconfig.json sets no outDir)",
    });
    const patterned = project({ ...sources, 'package.json': json({ exports: { './*': './dist/*.js' } }) });
    expect(packageApiOf(path.join(patterned, 'src/ask.ts'), layout(patterned))).toEqual({
      kind: 'unknown',
      why: 'package.json\'s exports["./*"] is ./dist/*.js, a pattern that may publish any module',
    });
    const bare = project(sources);
    expect(packageApiOf(path.join(bare, 'src/ask.ts'), layout(bare))).toMatchObject({ kind: 'unknown' });
  });
});

/** A server whose tool calls review() in tools/review.ts, which calls the exported ask() in ask.ts. */
function server(extra: Record<string, string>): string {
  const dir = project({
    'tsconfig.json': json({
      extends: path.join(REPO, 'fixtures/codemod/tsconfig.json'),
      compilerOptions: { outDir: 'dist', rootDir: 'src' },
      include: ['src'],
    }),
    'src/ask.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export async function ask(server: Server, what: string): Promise<boolean> {
  const answer = await server.elicitInput({
    message: \`Go ahead with \${what}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  });
  return answer.action === 'accept';
}
`,
    'src/tools/review.ts': `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ask } from '../ask.js';

export async function review(server: Server, id: string): Promise<string> {
  return (await ask(server, \`review \${id}\`)) ? 'Reviewed.' : 'Skipped.';
}
`,
    'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { review } from './tools/review.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'reviews', version: '1.0.0' });
  server.registerTool('review', { inputSchema: { id: z.string() } }, async ({ id }) => {
    const text = await review(server.server, id);
    return { content: [{ type: 'text', text }] };
  });
  return server;
}
`,
    ...extra,
  });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Plans a migration of the project's `src`, as `migrate src` would. */
async function plan(dir: string) {
  const files = ['src/ask.ts', 'src/tools/review.ts', 'src/server.ts', 'src/index.ts']
    .map((file) => path.join(dir, file))
    .filter((file) => existsSync(file));
  return planMigration({ files, cwd: dir, transforms: ['mrtr-handlers'] });
}

const questionReasons = (result: Awaited<ReturnType<typeof plan>>): string[] =>
  manualSites(result)
    .filter((site) => site.ruleId === 'no-push-elicitation')
    .map((site) => `${path.basename(site.file)}:${site.line}: ${site.reason}`);

describe('an exported helper that asks, two calls below its handler', () => {
  it(
    "is rewritten when the package's main does not export it, with its callers in files that do not import it",
    async () => {
      const dir = server({
        'package.json': json({ main: 'dist/index.js' }),
        'src/index.ts': "export { createServer } from './server.js';\n",
      });
      const result = await plan(dir);

      expect(questionReasons(result)).toEqual([]);
      const changed = result.files
        .filter((file) => file.status === 'changed')
        .map((file) => path.relative(dir, file.file));
      expect(changed.sort()).toEqual(['src/ask.ts', 'src/server.ts', 'src/tools/review.ts']);
      expect(result.files.find((file) => file.file.endsWith('server.ts'))?.output).toContain(
        'await review(round, id)',
      );
      const notes = result.files.flatMap((file) => file.sites.flatMap((site) => site.notes ?? []));
      expect(notes).toContain(
        "assumed ask() is not called from outside the package: package.json's main is dist/index.js, which does not export it",
      );
    },
    TIMEOUT,
  );

  it(
    "stays manual, naming the entry point, when the package's main exports it through a barrel",
    async () => {
      const dir = server({
        'package.json': json({ main: 'dist/index.js' }),
        'src/index.ts': "export * from './tools/index.js';\n",
        'src/tools/index.ts': "export { ask as confirm } from '../ask.js';\n",
      });

      expect(questionReasons(await plan(dir))).toEqual([
        "ask.ts:4: it runs in ask(), which is exported: package.json's main (dist/index.js, built from index.ts) exports it as confirm, so code outside the package may call it; migrate it and its callers together by hand",
      ]);
    },
    TIMEOUT,
  );

  it(
    'stays manual when another file stores it in an object by shorthand, where its calls cannot be followed',
    async () => {
      const dir = server({
        'package.json': json({ bin: { reviews: 'dist/server.js' } }),
        'src/registry.ts': "import { ask } from './ask.js';\n\nexport const questions = { ask };\n",
      });
      const result = await planMigration({
        files: ['src/ask.ts', 'src/tools/review.ts', 'src/server.ts', 'src/registry.ts'].map((file) =>
          path.join(dir, file),
        ),
        cwd: dir,
        transforms: ['mrtr-handlers'],
      });

      expect(questionReasons(result)).toEqual([
        'ask.ts:4: it runs in ask(), which is exported: it is passed on or stored at registry.ts:3, so not every caller can be followed',
      ]);
    },
    TIMEOUT,
  );

  it(
    'stays manual when no package.json says what the project publishes',
    async () => {
      expect(questionReasons(await plan(server({})))).toEqual([
        'ask.ts:4: it runs in ask(), which is exported: no package.json above ask.ts says what it publishes, so code outside the package may call it; migrate it and its callers together by hand',
      ]);
    },
    TIMEOUT,
  );
});
