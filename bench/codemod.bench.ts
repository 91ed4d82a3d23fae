// `npm run bench -- codemod`: mcp-mrtr migrate --check against tsc --noEmit on the same generated
// project (2,000 files, ~5% with old-style MCP code: logging, push elicitation in a tool, a
// completion notifier), the 10,000-file scaling ratio, and the official
// @modelcontextprotocol/codemod v1-to-v2 --dry-run on the same tree. Wall time and peak RSS are
// measured per process (the process's own getrusage maxRSS, written at exit); only ratios between
// runs on this machine are printed as results.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = path.resolve(import.meta.dirname, '..');
const CANDIDATE_EVERY = 20; // 5% of the files use old-style MCP APIs.

/** One ordinary module: types, a class and functions, importing three earlier modules. */
function plainModule(index: number): string {
  const imports = [1, 7, 31]
    .map((step) => index - step)
    .filter((other) => other >= 0)
    .map((other) => `import { helper${other}, type Record${other} } from './m${other}.js';`);
  const sdk =
    index % 3 === 0 ? ["import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';"] : [];
  const uses =
    imports.length > 0 ? imports.map((_, i) => `helper${index - [1, 7, 31][i]!}(input.id)`).join(' + ') : '0';
  return `${[...sdk, ...imports].join('\n')}

export interface Record${index} {
  readonly id: number;
  readonly name: string;
  readonly tags: readonly string[];
}

export class Store${index} {
  readonly #items = new Map<number, Record${index}>();
  add(record: Record${index}): void {
    this.#items.set(record.id, record);
  }
  find(predicate: (record: Record${index}) => boolean): Record${index}[] {
    return [...this.#items.values()].filter(predicate);
  }
}

export function helper${index}(id: number): number {
  return id * ${index + 1} + ${index % 17};
}

export function describe${index}(input: Record${index}): string {
  const score = ${uses};
  return \`\${input.name} (\${input.tags.join(', ')}): \${score}\`;
}
${index % 3 === 0 ? `\nexport function result${index}(text: string): CallToolResult {\n  return { content: [{ type: 'text', text }] };\n}\n` : ''}`;
}

/**
 * An ordinary module that also has old-style code the codemod migrates: logging, a push
 * elicitation inside a tool (the mrtr-handlers transform), a completion notifier.
 */
function candidateModule(index: number): string {
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
${plainModule(index)}
export function createServer${index}(): McpServer {
  const server = new McpServer({ name: 'generated-${index}', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('tool_${index}', { description: 'Generated', inputSchema: { id: z.number() } }, async ({ id }, extra) => {
    await server.sendLoggingMessage({ level: 'info', logger: 'm${index}', data: { id } }, extra.sessionId);
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'debug', data: helper${index}(id) } });
    return { content: [{ type: 'text', text: String(id) }] };
  });
  server.registerTool('confirm_${index}', { description: 'Generated', inputSchema: { id: z.number() } }, async ({ id }) => {
    const answer = await server.server.elicitInput({
      message: \`Archive record \${id}?\`,
      requestedSchema: { type: 'object', properties: { archive: { type: 'boolean' } }, required: ['archive'] },
    });
    if (answer.action !== 'accept' || answer.content?.archive !== true) return { content: [] };
    return { content: [{ type: 'text', text: describe${index}({ id, name: 'archived', tags: [] }) }] };
  });
  server.registerTool('connect_${index}', { description: 'Generated' }, async () => {
    const notify = server.server.createElicitationCompletionNotifier('id-${index}');
    await notify();
    return { content: [] };
  });
  return server;
}
`;
}

function generateProject(files: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), `mcp-mrtr-bench-${files}-`));
  mkdirSync(path.join(dir, 'src'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'bench', type: 'module', dependencies: { '@mcp-mrtr/runtime': '0.1.0' } }),
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2023',
        strict: true,
        types: [],
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['src'],
    }),
  );
  for (let index = 0; index < files; index++) {
    const candidate = index > 0 && index % CANDIDATE_EVERY === 0;
    writeFileSync(
      path.join(dir, 'src', `m${index}.ts`),
      candidate ? candidateModule(index) : plainModule(index),
    );
  }
  // Reports its peak RSS at exit; preloaded into every measured process.
  writeFileSync(
    path.join(dir, 'max-rss.mjs'),
    "process.on('exit', () => process.stderr.write(`\\nMAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`));\n",
  );
  return dir;
}

interface Measurement {
  readonly seconds: number;
  readonly rssMb: number;
  readonly status: number | null;
}

function measure(dir: string, script: string, args: readonly string[]): Measurement {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(path.join(dir, 'max-rss.mjs')).href, script, ...args],
    {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      env: { ...process.env, CI: '1' },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const rss = /MAX_RSS_KB=(\d+)/.exec(result.stderr)?.[1];
  if (rss === undefined)
    throw new Error(`${script} ${args.join(' ')} did not report its RSS:\n${result.stderr.slice(-2000)}`);
  return { seconds, rssMb: Number(rss) / 1024, status: result.status };
}

const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
const MIGRATE = path.join(REPO, 'packages/cli/bin/mcp-mrtr.js');
const OFFICIAL = path.join(REPO, 'node_modules/@modelcontextprotocol/codemod/dist/cli.mjs');

function describeRun(name: string, m: Measurement): string {
  return `| ${name} | ${m.seconds.toFixed(1)} s | ${m.rssMb.toFixed(0)} MB | ${m.status} |`;
}

const small = generateProject(2000);
const large = generateProject(10_000);
try {
  const tsc = measure(small, TSC, ['--noEmit', '-p', '.']);
  const migrate = measure(small, MIGRATE, ['migrate', '--check', '--quiet', 'src']);
  const official = measure(small, OFFICIAL, ['v1-to-v2', '--dry-run', 'src']);
  const migrateLarge = measure(large, MIGRATE, ['migrate', '--check', '--quiet', 'src']);
  if (tsc.status !== 0) throw new Error('the generated project does not type-check, so tsc is no baseline');
  if (migrate.status !== 1)
    throw new Error(`migrate --check should exit 1 on pending changes, got ${migrate.status}`);

  console.log('| run (2,000 files unless noted) | wall | peak RSS | exit |');
  console.log('| --- | --- | --- | --- |');
  console.log(describeRun('tsc --noEmit (baseline)', tsc));
  console.log(describeRun('mcp-mrtr migrate --check', migrate));
  console.log(describeRun('@modelcontextprotocol/codemod@2.3.1 v1-to-v2 --dry-run', official));
  console.log(describeRun('mcp-mrtr migrate --check, 10,000 files', migrateLarge));
  console.log('');
  const ratio = (value: number, limit?: number) =>
    `${value.toFixed(2)}×${limit === undefined ? '' : value <= limit ? ` (limit ${limit}×: ok)` : ` (limit ${limit}×: OVER)`}`;
  console.log(`migrate --check / tsc --noEmit, wall time: ${ratio(migrate.seconds / tsc.seconds, 1.5)}`);
  console.log(`migrate --check / tsc --noEmit, peak RSS:  ${ratio(migrate.rssMb / tsc.rssMb, 1.5)}`);
  console.log(
    `migrate --check 10,000 / 2,000 files, wall time: ${ratio(migrateLarge.seconds / migrate.seconds, 5.5)}`,
  );
  console.log(
    `official v1-to-v2 --dry-run / migrate --check, wall time: ${ratio(official.seconds / migrate.seconds)}`,
  );
  console.log(
    `official v1-to-v2 --dry-run / migrate --check, peak RSS:  ${ratio(official.rssMb / migrate.rssMb)}`,
  );
} finally {
  rmSync(small, { recursive: true, force: true });
  rmSync(large, { recursive: true, force: true });
}
