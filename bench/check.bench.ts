// `npm run bench -- check`: mcp-mrtr check at scale, on the generated corpus the lint bench uses,
// 10,000 files by default (CHECK_BENCH_FILES to change it, CHECK_BENCH_ROUNDS for the rounds):
//   1. `check --concurrency auto` and `--concurrency 2` against `--concurrency off`: what ESLint's
//      worker threads buy here (wall time is the point; CPU is printed too);
//   2. a warm `check --cache` run against a cold one (goal ≤ 0.15× wall);
// (What our rules cost per rule against ESLint's own is `npm run bench -- rule-cost`.)
// It measures the built packages (`npm run build` after editing them). Every measurement is one run
// in a fresh child process; modes alternate within a round, and medians of the per-round ratios
// are printed, CPU time (user + system, all threads) and wall time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ESLint } from 'eslint';
import { NAMESPACE } from '@mcp-mrtr/eslint-plugin';
import { main as cli } from '@mcp-mrtr/cli';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';
import { median } from './median.js';

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
type Mode = CheckMode;

interface Measurement {
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Findings of our rules; every run that enables them must find exactly what the corpus plants. */
  readonly ours: number;
  readonly fatal: number;
}

function count(results: readonly ESLint.LintResult[]) {
  return {
    ours: results.reduce(
      (sum, r) => sum + r.messages.filter((m) => m.ruleId?.startsWith(`${NAMESPACE}/`) === true).length,
      0,
    ),
    fatal: results.reduce((sum, r) => sum + r.messages.filter((m) => m.fatal === true).length, 0),
  };
}

/** Child process: one measured run in one mode, printed as JSON. */
async function worker(mode: Mode, dir: string, cacheFile: string): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let stdout = '';
  const args = ['check', '--quiet', '--format', 'json', ...CHECK_ARGS[mode]];
  const location = mode.endsWith('cache') ? ['--cache-location', cacheFile] : [];
  const code = await cli([...args, ...location, 'src'], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: process.stderr,
    cwd: dir,
    env: {},
  });
  if (code === 2) throw new Error(`${mode}: check exited 2`);
  const counted = count(JSON.parse(stdout) as ESLint.LintResult[]);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const measurement: Measurement = { cpuMs: (used.user + used.system) / 1000, wallMs, ...counted };
  process.stdout.write(JSON.stringify(measurement));
}

function measure(mode: Mode, dir: string, cacheFile: string, expected: number): Measurement {
  if (mode === 'check, cold cache') rmSync(cacheFile, { force: true });
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, 'worker', mode, dir, cacheFile],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`${mode} run failed:\n${child.stderr}`);
  const run = JSON.parse(child.stdout) as Measurement;
  if (run.fatal > 0) throw new Error(`${mode}: ${run.fatal} files failed to parse`);
  if (run.ours !== expected)
    throw new Error(`${mode}: ${run.ours} findings of our rules, ${expected} expected`);
  return run;
}

/** Runs the modes `ROUNDS` times in a fixed order per round (the cache pair must run cold first). */
function rounds(
  modes: readonly Mode[],
  dir: string,
  cacheFile: string,
  expected: number,
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

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-check-bench-'));
  try {
    symlinkSync(path.resolve(import.meta.dirname, '../node_modules'), path.join(dir, 'node_modules'), 'dir');
    const cacheFile = path.join(dir, 'check-cache');
    const corpus = writeLintCorpus(dir, CORPUS_FILES);
    const expected = Object.values(corpus.expected).reduce((sum, n) => sum + n, 0);
    console.log(
      `corpus: ${corpus.files.length} files, ${expected} planted findings; ` +
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'worker')
  await worker(process.argv[3] as Mode, process.argv[4] ?? '', process.argv[5] ?? '');
else main();
