// `npm run bench -- check`: mcp-mrtr check at scale, on the generated corpus the lint bench uses,
// 10,000 files by default (CHECK_BENCH_FILES to change it, CHECK_BENCH_ROUNDS for the rounds):
//   1. `check --concurrency auto` and `--concurrency 2` against `--concurrency off`: what ESLint's
//      worker threads buy here (wall time is the point; CPU is printed too);
//   2. a warm `check --cache` run against a cold one (goal ≤ 0.15× wall);
//   3. what our rules cost per rule, against what ESLint's own `js.configs.recommended` rules cost
//      per rule, on the same corpus in the same run (goal ≤ 1.0):
//        (T(core recommended + @mcp-mrtr/recommended) − T(core recommended)) / our rule count
//        ÷ (T(core recommended) − T(no rules)) / core rule count
//      on all files, and again on the files that import no MCP code, where ours should cost nearly
//      nothing. ESLint gives every enabled rule a fresh context per file, which no plugin avoids, so
//      comparing with other rules (not with "no rules") is the fair measure.
// It measures the built packages (`npm run build` after editing them). Every measurement is one run
// in a fresh child process; modes alternate within a round, and medians of the per-round ratios
// are printed, CPU time (user + system, all threads) and wall time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import js from '@eslint/js';
import tsParser from '@typescript-eslint/parser';
import { ESLint, type Linter } from 'eslint';
import plugin, { FILES, NAMESPACE } from '@mcp-mrtr/eslint-plugin';
import { main as cli } from '@mcp-mrtr/cli';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';

const CORPUS_FILES = Number(process.env.CHECK_BENCH_FILES ?? 10_000);
const ROUNDS = Number(process.env.CHECK_BENCH_ROUNDS ?? 3);

/** What each `check` mode adds to `check --quiet --format json src`. */
const CHECK_ARGS = {
  'check, concurrency off': ['--concurrency', 'off'],
  'check, concurrency auto': ['--concurrency', 'auto'],
  'check, concurrency 2': ['--concurrency', '2'],
  'check, cold cache': ['--cache'],
  'check, warm cache': ['--cache'],
} as const;
type CheckMode = keyof typeof CHECK_ARGS;
type RulesMode = 'no rules' | 'core recommended' | 'core recommended + ours';
type Subset = 'all files' | 'files without MCP code';
type Mode = CheckMode | `${RulesMode}, ${Subset}`;

interface Measurement {
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Findings of our rules; every run that enables them must find exactly what the corpus plants. */
  readonly ours: number;
  readonly fatal: number;
}

const CORE_RULES: Linter.RulesRecord = js.configs.recommended.rules;
const OUR_RULE_COUNT = new Set(
  plugin.configs.recommended.flatMap((config) => Object.keys(config.rules ?? {})),
).size;
/** The generator's ordinary modules (a `Service` class, no MCP import, nothing MCP-shaped). */
const ORDINARY_MODULE = /^export class Service\d+ \{/m;
/** Lists those files, for the subset runs. */
const PLAIN_LIST = 'plain-files.json';

function count(results: readonly ESLint.LintResult[]) {
  return {
    ours: results.reduce(
      (sum, r) => sum + r.messages.filter((m) => m.ruleId?.startsWith(`${NAMESPACE}/`) === true).length,
      0,
    ),
    fatal: results.reduce((sum, r) => sum + r.messages.filter((m) => m.fatal === true).length, 0),
  };
}

function rulesConfig(mode: RulesMode): Linter.Config[] {
  const parser = { files: FILES, languageOptions: { parser: tsParser } };
  switch (mode) {
    case 'no rules':
      return [parser];
    case 'core recommended':
      return [{ ...parser, rules: CORE_RULES }];
    case 'core recommended + ours':
      return [...plugin.configs.recommended, { files: FILES, rules: CORE_RULES }];
  }
}

/** Child process: one measured run in one mode, printed as JSON. */
async function worker(mode: Mode, dir: string, cacheFile: string): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let counted: { ours: number; fatal: number };
  if (mode.startsWith('check')) {
    let stdout = '';
    const args = ['check', '--quiet', '--format', 'json', ...CHECK_ARGS[mode as CheckMode]];
    const location = mode.endsWith('cache') ? ['--cache-location', cacheFile] : [];
    const code = await cli([...args, ...location, 'src'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: process.stderr,
      cwd: dir,
      env: {},
    });
    if (code === 2) throw new Error(`${mode}: check exited 2`);
    counted = count(JSON.parse(stdout) as ESLint.LintResult[]);
  } else {
    const [rules, subset] = mode.split(', ') as [RulesMode, Subset];
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: rulesConfig(rules),
      ignore: false,
    });
    const files =
      subset === 'all files'
        ? ['src']
        : (JSON.parse(readFileSync(path.join(dir, PLAIN_LIST), 'utf8')) as string[]);
    counted = count(await eslint.lintFiles(files));
  }
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const measurement: Measurement = { cpuMs: (used.user + used.system) / 1000, wallMs, ...counted };
  process.stdout.write(JSON.stringify(measurement));
}

function measure(
  mode: Mode,
  dir: string,
  cacheFile: string,
  expected: { all: number; plain: number },
): Measurement {
  if (mode === 'check, cold cache') rmSync(cacheFile, { force: true });
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, 'worker', mode, dir, cacheFile],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`${mode} run failed:\n${child.stderr}`);
  const run = JSON.parse(child.stdout) as Measurement;
  if (run.fatal > 0) throw new Error(`${mode}: ${run.fatal} files failed to parse`);
  const planted = mode.endsWith('files without MCP code') ? expected.plain : expected.all;
  const enablesOurs = mode.startsWith('check') || mode.startsWith('core recommended + ours');
  if (run.ours !== (enablesOurs ? planted : 0)) {
    throw new Error(`${mode}: ${run.ours} findings of our rules, ${enablesOurs ? planted : 0} expected`);
  }
  return run;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Runs the modes `ROUNDS` times in a fixed order per round (the cache pair must run cold first). */
function rounds(
  modes: readonly Mode[],
  dir: string,
  cacheFile: string,
  expected: { all: number; plain: number },
  rotate: boolean,
): Map<Mode, Measurement[]> {
  const runs = new Map<Mode, Measurement[]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = modes.map((_, i) => modes[rotate ? (i + round) % modes.length : i] as Mode);
    for (const mode of order) runs.get(mode)?.push(measure(mode, dir, cacheFile, expected));
  }
  return runs;
}

function of(runs: Map<Mode, Measurement[]>, mode: Mode, i: number, key: 'cpuMs' | 'wallMs'): number {
  return runs.get(mode)?.[i]?.[key] ?? Number.NaN;
}

function verdict(value: number, goal: number | undefined): string {
  return goal === undefined ? '' : ` (goal ≤ ${goal.toFixed(2)}×: ${value <= goal ? 'met' : 'NOT met'})`;
}

function ratio(runs: Map<Mode, Measurement[]>, subject: Mode, baseline: Mode, goalOnWall?: number): void {
  const paired = (key: 'cpuMs' | 'wallMs') =>
    Array.from({ length: ROUNDS }, (_, i) => of(runs, subject, i, key) / of(runs, baseline, i, key));
  const wall = paired('wallMs');
  console.log(
    `${subject} / ${baseline}: ${median(wall).toFixed(3)}× wall${verdict(median(wall), goalOnWall)}, ` +
      `${median(paired('cpuMs')).toFixed(3)}× CPU; wall per round ${wall.map((r) => r.toFixed(2)).join(' ')}`,
  );
}

function ruleCost(runs: Map<Mode, Measurement[]>, subset: Subset, goal?: number): void {
  const ours = OUR_RULE_COUNT;
  const core = Object.keys(CORE_RULES).length;
  const perRound = Array.from({ length: ROUNDS }, (_, i) => {
    const none = of(runs, `no rules, ${subset}`, i, 'cpuMs');
    const withCore = of(runs, `core recommended, ${subset}`, i, 'cpuMs');
    const both = of(runs, `core recommended + ours, ${subset}`, i, 'cpuMs');
    return {
      ratio: (both - withCore) / ours / ((withCore - none) / core),
      share: (both - withCore) / withCore,
    };
  });
  const value = median(perRound.map((r) => r.ratio));
  console.log(
    `per-rule cost, ours (${ours} rules) / core recommended (${core} rules), ${subset}: ${value.toFixed(3)}× CPU` +
      `${verdict(value, goal)}; ours add ${(median(perRound.map((r) => r.share)) * 100).toFixed(1)}% to core's time; ` +
      `per round ${perRound.map((r) => r.ratio.toFixed(2)).join(' ')}`,
  );
}

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-check-bench-'));
  try {
    symlinkSync(path.resolve(import.meta.dirname, '../node_modules'), path.join(dir, 'node_modules'), 'dir');
    const cacheFile = path.join(dir, 'check-cache');
    const corpus = writeLintCorpus(dir, CORPUS_FILES);
    // The generator's ordinary modules: no MCP import, and nothing MCP-shaped either.
    const plain = corpus.files.filter((file) => ORDINARY_MODULE.test(readFileSync(file, 'utf8')));
    writeFileSync(path.join(dir, PLAIN_LIST), JSON.stringify(plain));
    const all = Object.values(corpus.expected).reduce((sum, n) => sum + n, 0);
    const expected = { all, plain: 0 };
    console.log(
      `corpus: ${corpus.files.length} files (${plain.length} ordinary modules with no MCP code), ${all} planted findings; ` +
        `${ROUNDS} rounds; ${os.availableParallelism()} CPUs`,
    );

    const threads = rounds(
      ['check, concurrency off', 'check, concurrency auto', 'check, concurrency 2'],
      dir,
      cacheFile,
      expected,
      true,
    );
    ratio(threads, 'check, concurrency auto', 'check, concurrency off');
    ratio(threads, 'check, concurrency 2', 'check, concurrency off');

    const cache = rounds(['check, cold cache', 'check, warm cache'], dir, cacheFile, expected, false);
    ratio(cache, 'check, warm cache', 'check, cold cache', 0.15);

    for (const subset of ['all files', 'files without MCP code'] as const) {
      const modes = (['no rules', 'core recommended', 'core recommended + ours'] as const).map(
        (rules) => `${rules}, ${subset}` as const,
      );
      const runs = rounds(modes, dir, cacheFile, expected, true);
      ruleCost(runs, subset, subset === 'all files' ? 1 : undefined);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'worker')
  await worker(process.argv[3] as Mode, process.argv[4] ?? '', process.argv[5] ?? '');
else main();
