// Lint benchmark on a generated corpus of 2,000 files (the generator the crash-free tests use):
//   1. `recommended` against ESLint with the same parser and no rules (goal ≤ 1.15×), and against
//      one trivial core rule (`no-debugger`); a rule that installs no listeners at all shows what
//      ESLint charges for enabling any rule, before a rule does any work;
//      The same pair is then measured with ESLint's per-file rule-context prototype replaced by a
//      shared one (see `shareContextPrototype`), which isolates what the plugin's rules cost;
//   2. `recommended-type-checked` against a typed run of `@typescript-eslint/no-deprecated` alone
//      (goal ≤ 1.10×).
// It measures the built plugin (`npm run build` after editing it).
// Every measurement is one `lintFiles` call in a fresh child process (typescript-eslint caches
// programs per process). Modes alternate within a round; each round gives one paired ratio, and the
// median of those is printed, for CPU time (user + system, steadier on a shared machine) and wall time.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import tsParser from '@typescript-eslint/parser';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import plugin, { FILES } from '@mcp-mrtr/eslint-plugin';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';
import { median } from './median.js';

type Mode =
  | 'no-rules'
  | 'listenerless-rule'
  | 'one-core-rule'
  | 'recommended'
  | 'typed-no-deprecated'
  | 'recommended-type-checked'
  | 'no-rules, shared context prototype'
  | 'recommended, shared context prototype';

const SHARED_PROTOTYPE = ', shared context prototype';

interface Measurement {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly fatal: number;
  readonly problems: number;
}

const CORPUS_FILES = Number(process.env.LINT_BENCH_FILES ?? 2000);
const ROUNDS = Number(process.env.LINT_BENCH_ROUNDS ?? 5);
const TYPED_ROUNDS = Number(process.env.LINT_BENCH_TYPED_ROUNDS ?? 3);

/** A plugin whose one rule does nothing: its cost is ESLint's cost of running a rule at all. */
const LISTENERLESS: ESLint.Plugin = {
  rules: { nothing: { meta: { type: 'problem', schema: [] }, create: () => ({}) } },
};

/**
 * ESLint 10.15 builds each rule's context with `Object.create(fileContext)`: a fresh prototype per
 * file, so V8 makes new hidden classes for every file, and collecting them costs 1.1–1.2× the
 * no-rules time for a rule that does nothing. This diagnostic gives every rule context
 * `FileContext.prototype` with the same own properties instead, to show what the rules themselves cost.
 */
function shareContextPrototype(): void {
  const require = createRequire(import.meta.url);
  const { FileContext } = require(
    path.join(path.dirname(require.resolve('eslint')), 'linter/file-context.js'),
  ) as { FileContext: { prototype: { extend(extension: object): object } } };
  FileContext.prototype.extend = function extend(this: object, extension: object) {
    return Object.freeze(Object.assign(Object.create(FileContext.prototype) as object, this, extension));
  };
}

function configFor(mode: Mode, dir: string): Linter.Config[] {
  const parser = { files: FILES, languageOptions: { parser: tsParser } };
  const typed = {
    files: FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: dir } },
  };
  switch (mode) {
    case 'no-rules':
    case 'no-rules, shared context prototype':
      return [parser];
    case 'listenerless-rule':
      return [{ ...parser, plugins: { bench: LISTENERLESS }, rules: { 'bench/nothing': 'error' } }];
    case 'one-core-rule':
      return [{ ...parser, rules: { 'no-debugger': 'error' } }];
    case 'recommended':
    case 'recommended, shared context prototype':
      return plugin.configs.recommended;
    case 'typed-no-deprecated':
      return [
        { ...parser, plugins: { '@typescript-eslint': tseslint.plugin } },
        typed,
        { files: FILES, rules: { '@typescript-eslint/no-deprecated': 'error' } },
      ];
    case 'recommended-type-checked':
      return [...plugin.configs['recommended-type-checked'], typed];
  }
}

/** Child process: lint the corpus once in one mode and print the measurement as JSON. */
async function worker(mode: Mode, dir: string): Promise<void> {
  if (mode.endsWith(SHARED_PROTOTYPE)) shareContextPrototype();
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: configFor(mode, dir),
    ignore: false,
  });
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await eslint.lintFiles(['src']);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const measurement: Measurement = {
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
    fatal: results.reduce((sum, result) => sum + result.fatalErrorCount, 0),
    problems: results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0),
  };
  process.stdout.write(JSON.stringify(measurement));
}

function measure(mode: Mode, dir: string, planted: number): Measurement {
  const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, 'worker', mode, dir], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`${mode} run failed:\n${child.stderr}`);
  const run = JSON.parse(child.stdout) as Measurement;
  if (run.fatal > 0) throw new Error(`${mode}: ${run.fatal} files failed to parse`);
  const ours = mode.startsWith('recommended');
  if (ours && run.problems !== planted)
    throw new Error(`${mode}: ${run.problems} findings, ${planted} planted`);
  return run;
}

/** Runs the modes `rounds` times, rotating their order, and returns each mode's measurements. */
function rounds(
  modes: readonly Mode[],
  count: number,
  dir: string,
  planted: number,
): Map<Mode, Measurement[]> {
  const runs = new Map<Mode, Measurement[]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < count; round++) {
    const order = modes.map((_, i) => modes[(i + round) % modes.length] as Mode);
    for (const mode of order) runs.get(mode)?.push(measure(mode, dir, planted));
  }
  return runs;
}

function report(runs: Map<Mode, Measurement[]>, subject: Mode, baseline: Mode, goal?: number): void {
  const paired = (key: 'cpuMs' | 'wallMs') =>
    (runs.get(subject) ?? []).map((run, i) => run[key] / (runs.get(baseline)?.[i]?.[key] ?? Number.NaN));
  const cpu = paired('cpuMs');
  const wall = paired('wallMs');
  const verdict =
    goal === undefined ? '' : ` (goal ≤ ${goal.toFixed(2)}×: ${median(cpu) <= goal ? 'met' : 'NOT met'})`;
  console.log(
    `${subject} / ${baseline}: ${median(cpu).toFixed(3)}× CPU${verdict}, ${median(wall).toFixed(3)}× wall; ` +
      `CPU per round ${cpu.map((r) => r.toFixed(2)).join(' ')}`,
  );
}

function main(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-lint-bench-'));
  try {
    symlinkSync(path.resolve(import.meta.dirname, '../node_modules'), path.join(dir, 'node_modules'), 'dir');
    const corpus = writeLintCorpus(dir, CORPUS_FILES);
    const planted = Object.values(corpus.expected).reduce((sum, n) => sum + n, 0);
    console.log(
      `corpus: ${corpus.files.length} files, ${planted} planted findings; ${ROUNDS} syntax-only and ${TYPED_ROUNDS} typed rounds`,
    );

    const syntactic = rounds(
      ['no-rules', 'listenerless-rule', 'one-core-rule', 'recommended'],
      ROUNDS,
      dir,
      planted,
    );
    report(syntactic, 'recommended', 'no-rules', 1.15);
    report(syntactic, 'listenerless-rule', 'no-rules');
    report(syntactic, 'one-core-rule', 'no-rules');
    report(syntactic, 'recommended', 'one-core-rule');

    const shared = rounds(
      ['no-rules, shared context prototype', 'recommended, shared context prototype'],
      ROUNDS,
      dir,
      planted,
    );
    report(shared, 'recommended, shared context prototype', 'no-rules, shared context prototype');

    const typed = rounds(['typed-no-deprecated', 'recommended-type-checked'], TYPED_ROUNDS, dir, planted);
    report(typed, 'recommended-type-checked', 'typed-no-deprecated', 1.1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'worker') await worker(process.argv[3] as Mode, process.argv[4] ?? '');
else main();
