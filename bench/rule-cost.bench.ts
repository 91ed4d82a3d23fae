// `npm run bench -- rule-cost`: what our rules cost per rule, against what ESLint's own
// `js.configs.recommended` rules cost per rule, on the generated corpus (issue #11; goal ≤ 1.0):
//   (T(core recommended + @mcp-mrtr/recommended) − T(core recommended)) / our rule count
//   ÷ (T(core recommended) − T(no rules)) / core rule count
// on all files, on the ordinary modules (no MCP import, nothing MCP-shaped; ours should cost nearly
// nothing there) and on the MCP files. ESLint gives every enabled rule a fresh context per file,
// which no plugin avoids, so comparing with other rules (not with "no rules") is the fair measure.
//
// The differences are small against the parse every mode pays, so the measurement is built to be
// steady on a shared machine: one process holds the three configurations and the files' text, and
// lints every file in all three modes back to back, in an order that rotates per file and round, so
// whatever else the machine does lands on the three modes alike. Each lint is timed alone in CPU
// time (user + system: time spent waiting for a core is not counted), after one untimed warm-up
// round. Each file's fastest lint over the rounds is kept (see `report`).
// `RULE_COST_FILES` (default 2,000) and `RULE_COST_ROUNDS` (default 5) change the size.
//
// The same ratio is then taken from ESLint's own timing of each rule (`stats: true`, what
// `TIMING=all` prints: a rule's create and listeners, reports included), which leaves out what
// ESLint spends per enabled rule whoever wrote it, and the parse. It moves far less between runs,
// so it is the figure to watch when changing a rule; it also names our costliest rules.
// It measures the built plugin (`npm run build` after editing it).
//
// `RULE_COST_DIR=<dir>` measures the same on a project's own code instead: the files `check` would
// discover there (every k-th of them, sorted, down to `RULE_COST_FILES`), split into files that
// name an MCP SDK or framework module (core's SDK_MODULE_IN_TEXT, FRAMEWORK_MODULE_IN_TEXT) and
// files that do not. Nothing is planted there, so the findings are counted, not checked; files the
// parser rejects are left out and counted.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import js from '@eslint/js';
import tsParser from '@typescript-eslint/parser';
import { ESLint, type Linter } from 'eslint';
import { discoverFiles } from '@mcp-mrtr/cli';
import { FRAMEWORK_MODULE_IN_TEXT, SDK_MODULE_IN_TEXT } from '@mcp-mrtr/core';
import plugin, { FILES, NAMESPACE } from '@mcp-mrtr/eslint-plugin';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';
import { median } from './median.js';

const CORPUS_FILES = Number(process.env.RULE_COST_FILES ?? 2_000);
const ROUNDS = Number(process.env.RULE_COST_ROUNDS ?? 5);
const PROJECT_DIR = process.env.RULE_COST_DIR;

const MODES = ['no rules', 'core recommended', 'core recommended + ours'] as const;
type Mode = (typeof MODES)[number];
const SUBSETS = ['all files', 'files without MCP code', 'files with MCP code'] as const;
type Subset = (typeof SUBSETS)[number];

const CORE_RULES: Linter.RulesRecord = js.configs.recommended.rules;
const CORE_RULE_COUNT = Object.keys(CORE_RULES).length;
const OUR_RULE_COUNT = new Set(
  plugin.configs.recommended.flatMap((config) => Object.keys(config.rules ?? {})),
).size;
/** The generator's ordinary modules (a `Service` class, no MCP import, nothing MCP-shaped). */
const ORDINARY_MODULE = /^export class Service\d+ \{/m;

function config(mode: Mode): Linter.Config[] {
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

interface CorpusFile {
  readonly filePath: string;
  readonly text: string;
  readonly subset: Exclude<Subset, 'all files'>;
}

/** CPU microseconds of each file's lint, per mode; one of these per round. */
type RoundTimes = Record<Mode, Float64Array>;

/** Lints one file in one mode; returns CPU microseconds and the findings of our rules. */
async function lintOnce(eslint: ESLint, file: CorpusFile): Promise<{ cpu: number; ours: number }> {
  const before = process.cpuUsage();
  const [result] = await eslint.lintText(file.text, { filePath: file.filePath });
  const used = process.cpuUsage(before);
  const messages = result?.messages ?? [];
  const fatal = messages.find((message) => message.fatal === true);
  if (fatal !== undefined) throw new Error(`${file.filePath}:${fatal.line}: ${fatal.message}`);
  return {
    cpu: used.user + used.system,
    ours: messages.filter((message) => message.ruleId?.startsWith(`${NAMESPACE}/`) === true).length,
  };
}

/**
 * One round over every file, all three modes per file in an order rotated by file and round.
 * Checks that our rules find exactly what the corpus plants, and nothing in ordinary modules.
 */
async function round(
  linters: Record<Mode, ESLint>,
  files: readonly CorpusFile[],
  index: number,
  /** What the generated corpus plants; undefined for a project's own code. */
  planted: number | undefined,
): Promise<RoundTimes> {
  const times = Object.fromEntries(MODES.map((mode) => [mode, new Float64Array(files.length)])) as RoundTimes;
  let ours = 0;
  for (const [i, file] of files.entries()) {
    for (let k = 0; k < MODES.length; k++) {
      const mode = MODES[(i + index + k) % MODES.length] as Mode;
      const run = await lintOnce(linters[mode], file);
      times[mode][i] = run.cpu;
      if (run.ours > 0 && mode !== 'core recommended + ours')
        throw new Error(`${mode}: our rules reported in ${file.filePath}`);
      if (run.ours > 0 && planted !== undefined && file.subset === 'files without MCP code')
        throw new Error(`our rules reported in ${file.filePath}, where nothing is planted`);
      if (mode === 'core recommended + ours') ours += run.ours;
    }
  }
  if (planted !== undefined && ours !== planted)
    throw new Error(`our rules found ${ours}; the corpus plants ${planted}`);
  if (planted === undefined && index === 0) console.log(`our rules report ${ours} findings there`);
  return times;
}

/** Summed CPU time per mode over one subset's files. */
type Totals = Record<Mode, number>;

function totals(
  files: readonly CorpusFile[],
  subset: Subset,
  time: (mode: Mode, i: number) => number,
): Totals {
  const sum = (mode: Mode) =>
    files.reduce(
      (total, file, i) => (subset === 'all files' || file.subset === subset ? total + time(mode, i) : total),
      0,
    );
  return {
    'no rules': sum('no rules'),
    'core recommended': sum('core recommended'),
    'core recommended + ours': sum('core recommended + ours'),
  };
}

/** The issue's ratio, and what ours add to core's time. */
function perRule(t: Totals): { ratio: number; share: number } {
  const ours = t['core recommended + ours'] - t['core recommended'];
  const core = t['core recommended'] - t['no rules'];
  return { ratio: ours / OUR_RULE_COUNT / (core / CORE_RULE_COUNT), share: ours / t['core recommended'] };
}

/**
 * Two estimates per subset. The headline sums each file's fastest lint over the rounds: whatever
 * else runs on the machine only ever adds time, so the minimum is the steadiest estimate of what a
 * lint costs. It also leaves out most garbage collection, which lands on whichever lint fills the
 * young generation; our rules allocate little beside ESLint's own per-rule objects. The median over rounds of each round's plain sums is printed beside it, with the
 * rounds, to show how much the machine moved the figures.
 */
function report(rounds: readonly RoundTimes[], files: readonly CorpusFile[], subset: Subset): void {
  const count = files.filter((file) => subset === 'all files' || file.subset === subset).length;
  const fastest = totals(files, subset, (mode, i) => Math.min(...rounds.map((times) => times[mode][i] ?? 0)));
  const headline = perRule(fastest);
  const perRound = rounds.map(
    (times) => perRule(totals(files, subset, (mode, i) => times[mode][i] ?? 0)).ratio,
  );
  const goal = subset === 'all files' ? ` (goal ≤ 1.00×: ${headline.ratio <= 1 ? 'met' : 'NOT met'})` : '';
  const perFile = (mode: Mode) => (fastest[mode] / count / 1000).toFixed(3);
  console.log(
    `per-rule cost, ours (${OUR_RULE_COUNT} rules) / core recommended (${CORE_RULE_COUNT} rules), ${subset} (${count}): ` +
      `${headline.ratio.toFixed(3)}× CPU${goal}, ours add ${(headline.share * 100).toFixed(1)}% to core's time ` +
      `[fastest of ${rounds.length} per file: ms per file no rules ${perFile('no rules')}, core ${perFile('core recommended')}, ` +
      `core + ours ${perFile('core recommended + ours')}]; ` +
      `round sums ${median(perRound).toFixed(3)}× (median; rounds ${perRound.map((r) => r.toFixed(2)).join(' ')})`,
  );
}

const STATS_ROUNDS = 3;

/** Each rule's mean time per file in microseconds, by subset, from ESLint's `stats`. */
async function ruleTimes(
  dir: string,
  files: readonly CorpusFile[],
): Promise<Map<Subset, Map<string, number>>> {
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: config('core recommended + ours'),
    ignore: false,
    stats: true,
  });
  const sums = new Map<Subset, Map<string, number>>(SUBSETS.map((subset) => [subset, new Map()]));
  for (let round = 0; round <= STATS_ROUNDS; round++) {
    for (const file of files) {
      const [result] = await eslint.lintText(file.text, { filePath: file.filePath });
      if (round === 0) continue;
      for (const pass of result?.stats?.times.passes ?? []) {
        for (const [rule, time] of Object.entries(pass.rules ?? {})) {
          for (const subset of ['all files', file.subset] as const) {
            const sum = sums.get(subset) as Map<string, number>;
            sum.set(rule, (sum.get(rule) ?? 0) + time.total * 1000);
          }
        }
      }
    }
  }
  for (const [subset, sum] of sums) {
    const count = files.filter((file) => subset === 'all files' || file.subset === subset).length;
    for (const [rule, total] of sum) sum.set(rule, total / count / STATS_ROUNDS);
  }
  return sums;
}

function reportRuleTimes(times: Map<Subset, Map<string, number>>): void {
  const isOurs = (rule: string) => rule.startsWith(`${NAMESPACE}/`);
  for (const [subset, perRule] of times) {
    const rules = [...perRule];
    const ours = rules.filter(([rule]) => isOurs(rule));
    const core = rules.filter(([rule]) => !isOurs(rule));
    const mean = (list: typeof rules) => list.reduce((sum, [, time]) => sum + time, 0) / list.length;
    console.log(
      `per-rule cost by ESLint's rule timing (stats, mean of ${STATS_ROUNDS} rounds), ${subset}: ` +
        `${(mean(ours) / mean(core)).toFixed(3)}× (µs per rule per file: ours ${mean(ours).toFixed(1)} over ${ours.length} rules, ` +
        `core ${mean(core).toFixed(1)} over ${core.length})`,
    );
    if (subset === 'files with MCP code') {
      const costliest = ours.sort((a, b) => b[1] - a[1]).slice(0, 5);
      console.log(
        `  our costliest rules there, µs per file: ${costliest
          .map(([rule, time]) => `${rule.slice(NAMESPACE.length + 1)} ${time.toFixed(1)}`)
          .join(', ')}`,
      );
    }
  }
}

interface Corpus {
  readonly files: readonly CorpusFile[];
  /** Where ESLint runs: the corpus's root, with a `node_modules` the configs resolve from. */
  readonly cwd: string;
  readonly planted: number | undefined;
}

/** The generated corpus, written to `dir`: ordinary modules and MCP code with planted findings. */
function generatedCorpus(dir: string): Corpus {
  symlinkSync(path.resolve(import.meta.dirname, '../node_modules'), path.join(dir, 'node_modules'), 'dir');
  const corpus = writeLintCorpus(dir, CORPUS_FILES);
  const files: CorpusFile[] = corpus.files.map((filePath) => {
    const text = readFileSync(filePath, 'utf8');
    const subset = ORDINARY_MODULE.test(text) ? 'files without MCP code' : 'files with MCP code';
    return { filePath, text, subset };
  });
  const planted = Object.values(corpus.expected).reduce((sum, n) => sum + n, 0);
  const ordinary = files.filter((file) => file.subset === 'files without MCP code').length;
  console.log(
    `corpus: ${files.length} files: ${ordinary} ordinary modules with no MCP code, ` +
      `${files.length - ordinary} MCP files (${Object.entries(corpus.kinds)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ')}); ${planted} planted findings; ${ROUNDS} rounds after a warm-up round`,
  );
  return { files, cwd: dir, planted };
}

/** A project's own code (`RULE_COST_DIR`): what `check` discovers there, sampled evenly. */
async function projectCorpus(dir: string): Promise<Corpus> {
  const cwd = path.resolve(dir);
  const { files: discovered } = await discoverFiles({ patterns: ['.'], cwd });
  const step = Math.max(1, Math.ceil(discovered.length / CORPUS_FILES));
  const probe = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: config('no rules'),
    ignore: false,
  });
  const files: CorpusFile[] = [];
  let rejected = 0;
  for (const filePath of discovered.filter((_, i) => i % step === 0)) {
    const text = readFileSync(filePath, 'utf8');
    const [result] = await probe.lintText(text, { filePath });
    if (result?.messages.some((message) => message.fatal === true)) {
      rejected++;
      continue;
    }
    const importsMcp = SDK_MODULE_IN_TEXT.test(text) || FRAMEWORK_MODULE_IN_TEXT.test(text);
    files.push({ filePath, text, subset: importsMcp ? 'files with MCP code' : 'files without MCP code' });
  }
  const mcp = files.filter((file) => file.subset === 'files with MCP code').length;
  console.log(
    `corpus: ${files.length} of the ${discovered.length} files in ${cwd} (every ${step}), ` +
      `${mcp} of them naming an MCP SDK or framework module; ${rejected} the parser rejects left out; ` +
      `${ROUNDS} rounds after a warm-up round`,
  );
  return { files, cwd, planted: undefined };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-rule-cost-bench-'));
  try {
    const { files, cwd, planted } =
      PROJECT_DIR === undefined ? generatedCorpus(dir) : await projectCorpus(PROJECT_DIR);

    const linters = Object.fromEntries(
      MODES.map((mode) => [
        mode,
        new ESLint({ cwd, overrideConfigFile: true, overrideConfig: config(mode), ignore: false }),
      ]),
    ) as Record<Mode, ESLint>;
    const rounds: RoundTimes[] = [];
    for (let index = 0; index <= ROUNDS; index++) {
      const times = await round(linters, files, index, planted);
      if (index > 0) rounds.push(times);
    }
    for (const subset of SUBSETS) report(rounds, files, subset);
    reportRuleTimes(await ruleTimes(cwd, files));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
