// Our rules under oxlint against the same rules under ESLint (issue #27, goal ≤ 0.35× ESLint's CPU
// time), on the generated corpus of 2,000 files (`OXLINT_BENCH_FILES`), with every rule of the plugin
// and nothing else: ESLint with `configs.all`, oxlint with the same rules as a JS plugin and its
// built-in rules off. Each run is a fresh process (its CPU time, user + system, children included, is
// read from /proc/self/stat of this process around it); the engines alternate, and the median of
// `OXLINT_BENCH_ROUNDS` (3 by default) is kept. It prints the findings per rule of both, which must
// be equal (the parity table), and `mcp-mrtr check --engine oxlint` against `check` on the same
// files. It measures the built plugin and CLI (`npm run build` after editing them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import plugin from '@mcp-mrtr/eslint-plugin';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';
import { median } from './median.js';

const FILES = Number(process.env.OXLINT_BENCH_FILES ?? 2000);
const ROUNDS = Number(process.env.OXLINT_BENCH_ROUNDS ?? 3);
const GOAL = 0.35;
const REPO = path.resolve(import.meta.dirname, '..');
const OXLINT = path.join(
  path.dirname(createRequire(import.meta.url).resolve('oxlint/package.json')),
  'bin/oxlint',
);
/** Linux's clock ticks per second for /proc times (USER_HZ). */
const TICKS_PER_SECOND = 100;

type Engine = 'ESLint' | 'oxlint' | 'check' | 'check --engine oxlint';
const CLI = path.join(REPO, 'packages/cli/dist/src/bin.js');
type Counts = Record<string, number>;

interface Run {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly counts: Counts;
}

/** CPU time of this process's finished children (cutime + cstime), in ms. */
function childrenCpuMs(): number {
  // The command name in field 2 may hold spaces; the fields after its closing parenthesis do not.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // Fields 16 and 17 of stat(5), counted from 1; fields[0] here is field 3.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

function timed(
  command: string,
  args: readonly string[],
  cwd: string,
): { stdout: string; cpuMs: number; wallMs: number } {
  const cpu = childrenCpuMs();
  const start = performance.now();
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallMs = performance.now() - start;
  // oxlint exits 1 for findings; both print nothing on stdout when they fail.
  if ((child.status !== 0 && child.status !== 1) || child.stdout === '') {
    throw new Error(`${args.join(' ').slice(0, 80)} failed:\n${child.stderr}`);
  }
  return { stdout: child.stdout, cpuMs: childrenCpuMs() - cpu, wallMs };
}

function oxlint(dir: string): Run {
  const { stdout, cpuMs, wallMs } = timed(
    process.execPath,
    [OXLINT, '--config', '.oxlintrc.json', '--format', 'json', 'src'],
    dir,
  );
  const counts: Counts = {};
  for (const diagnostic of (JSON.parse(stdout) as { diagnostics: { code?: string; message: string }[] })
    .diagnostics) {
    const rule = /^@mcp-mrtr\((.+)\)$/.exec(diagnostic.code ?? '')?.[1] ?? `not ours: ${diagnostic.message}`;
    counts[rule] = (counts[rule] ?? 0) + 1;
  }
  return { cpuMs, wallMs, counts };
}

/** `mcp-mrtr check` (every rule too) with either engine; only its time is compared. */
function check(dir: string, engine: 'eslint' | 'oxlint'): Run {
  const { cpuMs, wallMs } = timed(
    process.execPath,
    [CLI, 'check', 'src', '--quiet', '--format', 'json', '--engine', engine],
    dir,
  );
  return { cpuMs, wallMs, counts: {} };
}

function eslint(dir: string): Run {
  const { stdout, cpuMs, wallMs } = timed(process.execPath, ['--input-type=module', '-e', ESLINT_CHILD], dir);
  return { cpuMs, wallMs, counts: JSON.parse(stdout) as Counts };
}

/**
 * ESLint's run, as a plain ES module (no TypeScript loader to pay for) started in the corpus, where
 * the packages resolve through its node_modules link: every rule of the plugin, findings per rule.
 */
const ESLINT_CHILD = `
import { ESLint } from 'eslint';
import plugin from '@mcp-mrtr/eslint-plugin';
const results = await new ESLint({
  overrideConfigFile: true,
  overrideConfig: plugin.configs.all,
  ignore: false,
}).lintFiles(['src']);
const counts = {};
for (const result of results) {
  for (const message of result.messages) {
    const rule = message.ruleId?.replace('@mcp-mrtr/', '') ?? 'not ours: ' + message.message;
    counts[rule] = (counts[rule] ?? 0) + 1;
  }
}
process.stdout.write(JSON.stringify(counts));
`;

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-oxlint-bench-'));
  try {
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeLintCorpus(dir, FILES);
    const rules = Object.assign({}, ...plugin.configs.all.map((config) => config.rules ?? {})) as object;
    writeFileSync(
      path.join(dir, '.oxlintrc.json'),
      JSON.stringify({ jsPlugins: [plugin.meta.name], categories: { correctness: 'off' }, rules }),
    );
    const engines: Engine[] = ['ESLint', 'oxlint', 'check', 'check --engine oxlint'];
    const run = (engine: Engine): Run => {
      switch (engine) {
        case 'ESLint':
          return eslint(dir);
        case 'oxlint':
          return oxlint(dir);
        case 'check':
          return check(dir, 'eslint');
        case 'check --engine oxlint':
          return check(dir, 'oxlint');
      }
    };
    const runs = new Map<Engine, Run[]>(engines.map((engine) => [engine, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const engine of round % 2 === 0 ? engines : [...engines].reverse()) {
        runs.get(engine)?.push(run(engine));
      }
    }
    const eslintRuns = runs.get('ESLint') ?? [];
    const oxlintRuns = runs.get('oxlint') ?? [];
    const eslintCounts = eslintRuns[0]?.counts ?? {};
    const oxlintCounts = oxlintRuns[0]?.counts ?? {};
    console.log(`every rule of the plugin on ${FILES} generated files, findings per rule:\n`);
    console.log('| rule | ESLint | oxlint |');
    console.log('| --- | --- | --- |');
    const names = [...new Set([...Object.keys(eslintCounts), ...Object.keys(oxlintCounts)])].sort();
    for (const name of names)
      console.log(`| ${name} | ${eslintCounts[name] ?? 0} | ${oxlintCounts[name] ?? 0} |`);
    const total = (counts: Counts) => Object.values(counts).reduce((sum, n) => sum + n, 0);
    console.log(`| total | ${total(eslintCounts)} | ${total(oxlintCounts)} |`);
    const same = names.every((name) => eslintCounts[name] === oxlintCounts[name]);
    console.log(same ? '\nparity: equal on every rule' : '\nparity: DIFFERS (see above)');

    const cpu = (list: readonly Run[]) => median(list.map((run) => run.cpuMs));
    const wall = (list: readonly Run[]) => median(list.map((run) => run.wallMs));
    const ratio = cpu(oxlintRuns) / cpu(eslintRuns);
    console.log(`\nmedian of ${ROUNDS} (process CPU time, including start-up):\n`);
    console.log('| engine | CPU | wall |');
    console.log('| --- | --- | --- |');
    for (const engine of engines) {
      const list = runs.get(engine) ?? [];
      console.log(`| ${engine} | ${(cpu(list) / 1000).toFixed(2)} s | ${(wall(list) / 1000).toFixed(2)} s |`);
    }
    console.log(
      `oxlint / ESLint: ${ratio.toFixed(2)}× CPU, ${(wall(oxlintRuns) / wall(eslintRuns)).toFixed(2)}× wall; ` +
        `goal ≤ ${GOAL}× CPU: ${ratio <= GOAL ? 'met' : 'missed'}`,
    );
    const checkEslint = runs.get('check') ?? [];
    const checkOxlint = runs.get('check --engine oxlint') ?? [];
    console.log(
      `check --engine oxlint / check: ${(cpu(checkOxlint) / cpu(checkEslint)).toFixed(2)}× CPU, ` +
        `${(wall(checkOxlint) / wall(checkEslint)).toFixed(2)}× wall`,
    );
    if (!same) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
