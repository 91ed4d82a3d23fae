// What our `recommended` adds to the lint a user already runs (issue #27; goals ≤ 3 % CPU on all
// codebases together, ≤ 8 % on the MCP-dense ones), on local copies of the public MCP codebases
// listed in bench/real-code.json: `js.configs.recommended + tseslint.configs.recommended` against the
// same plus `mcpMrtr.configs.recommended`. Every measurement is one fresh process that loads ESLint,
// the configs and the plugins and lints one codebase; its whole CPU time (user + system) counts, since
// a user pays the plugin's loading too. The two modes alternate within a round, the order rotating,
// and the median CPU time of each is kept (`REAL_CODE_ROUNDS`, 3 by default). "All together" is the
// sum of the codebases' medians.
//
// The copies are never fetched here. Export each repository at its pinned commit into
// `<dir>/<owner>+<name>` and pass `<dir>` as MCP_MRTR_REAL_CODE (as `npm run real-code` takes it);
// without them the bench says so and exits 0. `REAL_CODE_PLUGIN=<module>` measures another build of
// the plugin (an older checkout's `packages/eslint-plugin/dist/src/index.js`) for before/after rows;
// `REAL_CODE_ONLY=<owner+name>,…` measures only those codebases.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import js from '@eslint/js';
import { ESLint, type Linter } from 'eslint';
import { glob } from 'tinyglobby';
import tseslint from 'typescript-eslint';
import { median } from './median.js';

interface Repo {
  readonly name: string;
  readonly url: string;
  readonly commit: string;
  readonly kind: string;
  /** Most of its files are MCP server code (the ≤ 8 % goal). */
  readonly mcpDense: boolean;
}

type Mode = 'base' | 'base + mcp-mrtr';
const MODES: readonly Mode[] = ['base', 'base + mcp-mrtr'];

interface Measurement {
  readonly cpuMs: number;
  readonly files: number;
  readonly fatal: number;
  readonly ours: number;
}

const ROUNDS = Number(process.env.REAL_CODE_ROUNDS ?? 3);
const LIST = path.join(import.meta.dirname, 'real-code.json');
const EXTENSIONS = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
/** What a project's own lint leaves out: dependencies, build output, declarations and bundles. */
const IGNORE = [
  '**/node_modules/**',
  '**/dist/**',
  '**/build/**',
  '**/coverage/**',
  '**/*.d.ts',
  '**/*.min.js',
];
const PREFIX = '@mcp-mrtr/';

async function configFor(mode: Mode): Promise<Linter.Config[]> {
  const base = [js.configs.recommended, ...tseslint.configs.recommended] as Linter.Config[];
  if (mode === 'base') return base;
  const specifier = process.env.REAL_CODE_PLUGIN;
  const module = (await import(
    specifier === undefined ? '@mcp-mrtr/eslint-plugin' : pathToFileURL(path.resolve(specifier)).href
  )) as { default: { configs: { recommended: Linter.Config[] } } };
  return [...base, ...module.default.configs.recommended];
}

/** Child process: lint one codebase once in one mode; CPU time from the process's start. */
async function worker(mode: Mode, dir: string): Promise<void> {
  const files = await glob(EXTENSIONS, { cwd: dir, ignore: IGNORE, absolute: true });
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: await configFor(mode),
    ignore: false,
  });
  const results = await eslint.lintFiles(files);
  const used = process.cpuUsage();
  const measurement: Measurement = {
    cpuMs: (used.user + used.system) / 1000,
    files: results.length,
    fatal: results.reduce((sum, result) => sum + result.fatalErrorCount, 0),
    ours: results.reduce(
      (sum, result) => sum + result.messages.filter((m) => m.ruleId?.startsWith(PREFIX) === true).length,
      0,
    ),
  };
  process.stdout.write(JSON.stringify(measurement));
}

function measure(mode: Mode, dir: string): Measurement {
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, 'worker', mode, dir], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`${mode} on ${dir} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout) as Measurement;
}

const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;

function main(): void {
  const corpus = process.env.MCP_MRTR_REAL_CODE;
  const { repos } = JSON.parse(readFileSync(LIST, 'utf8')) as { repos: Repo[] };
  const only = process.env.REAL_CODE_ONLY?.split(',');
  const present = repos.filter(
    (repo) =>
      corpus !== undefined &&
      existsSync(path.join(corpus, repo.name)) &&
      (only === undefined || only.includes(repo.name)),
  );
  if (present.length === 0) {
    console.log(
      `real-code: no local copies${corpus === undefined ? '' : ` in ${corpus}`}; skipped. Export the ` +
        'repositories listed in bench/real-code.json (one tree per repository, named owner+name, at the ' +
        'pinned commit) and pass their parent directory as MCP_MRTR_REAL_CODE.',
    );
    return;
  }
  const missing = repos.filter(
    (repo) => !present.includes(repo) && (only === undefined || only.includes(repo.name)),
  );
  if (missing.length > 0) console.log(`real-code: missing ${missing.map((repo) => repo.name).join(', ')}`);

  console.log(`CPU time of one lint per codebase, median of ${ROUNDS} interleaved rounds:\n`);
  console.log('| codebase | kind | files | base | + mcp-mrtr | added CPU | our findings |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const totals = { all: [0, 0], dense: [0, 0] };
  for (const repo of present) {
    const dir = path.join(corpus as string, repo.name);
    const runs = new Map<Mode, Measurement[]>(MODES.map((mode) => [mode, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) runs.get(mode)?.push(measure(mode, dir));
    }
    const [base, ours] = MODES.map((mode) => median((runs.get(mode) ?? []).map((run) => run.cpuMs))) as [
      number,
      number,
    ];
    const last = runs.get('base + mcp-mrtr')?.at(-1);
    totals.all = [(totals.all[0] as number) + base, (totals.all[1] as number) + ours];
    if (repo.mcpDense)
      totals.dense = [(totals.dense[0] as number) + base, (totals.dense[1] as number) + ours];
    console.log(
      `| ${repo.name} | ${repo.kind}${repo.mcpDense ? ', MCP-dense' : ''} | ${last?.files ?? 0} | ` +
        `${(base / 1000).toFixed(2)} s | ${(ours / 1000).toFixed(2)} s | ${percent(ours / base)} | ${last?.ours ?? 0} |`,
    );
  }
  const [allBase, allOurs] = totals.all as [number, number];
  const [denseBase, denseOurs] = totals.dense as [number, number];
  console.log(
    `| all together | | | ${(allBase / 1000).toFixed(2)} s | ${(allOurs / 1000).toFixed(2)} s | ${percent(allOurs / allBase)} | |`,
  );
  if (denseBase > 0) {
    console.log(
      `| MCP-dense together | | | ${(denseBase / 1000).toFixed(2)} s | ${(denseOurs / 1000).toFixed(2)} s | ${percent(denseOurs / denseBase)} | |`,
    );
  }
  console.log(
    `\ngoals: all ≤ +3 % (${allOurs / allBase <= 1.03 ? 'met' : 'missed'}), MCP-dense ≤ +8 % (` +
      `${denseBase === 0 ? 'not measured' : denseOurs / denseBase <= 1.08 ? 'met' : 'missed'})`,
  );
}

if (process.argv[2] === 'worker') {
  await worker(process.argv[3] as Mode, process.argv[4] as string);
} else {
  main();
}
