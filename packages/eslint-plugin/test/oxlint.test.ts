import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ESLint, type Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';
import plugin, { NAMESPACE } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
/** The sample projects whose sources hold, between them, a finding of every rule. */
const FIXTURES = ['legacy-server', 'legacy-server-v2', 'lint-project'];
/**
 * The first files of the 2,000-file corpus the benchmarks lint (same seed): every kind of file, and
 * enough findings of each rule to compare, in a few seconds. The bench's oxlint row lints all of it.
 */
const CORPUS_FILES = 300;
const OXLINT = path.join(
  path.dirname(createRequire(import.meta.url).resolve('oxlint/package.json')),
  'bin/oxlint',
);

type Counts = Record<string, number>;

/** The `.oxlintrc.json` the README shows. */
function readmeRecipe(): { jsPlugins: string[]; rules: Record<string, string> } {
  const readme = readFileSync(path.join(import.meta.dirname, '../README.md'), 'utf8');
  const block = /^## oxlint\n[\s\S]*?^```json\n([\s\S]*?)^```$/m.exec(readme);
  if (block === null) throw new Error('the README has no ```json block under ## oxlint');
  return JSON.parse(block[1] as string) as { jsPlugins: string[]; rules: Record<string, string> };
}

function rulesOf(configs: readonly Linter.Config[]): Record<string, string> {
  return Object.assign({}, ...configs.map((config) => config.rules ?? {})) as Record<string, string>;
}

interface OxlintReport {
  readonly diagnostics: readonly { readonly code?: string; readonly message: string }[];
  readonly number_of_files: number;
}

/**
 * Findings per rule of the real oxlint binary. The plugin is the built one (`npm run build`): oxlint
 * loads it as Node does, from `dist/`. Built-in rules are turned off, so every finding is ours.
 */
async function oxlintCounts(
  dir: string,
  config: object,
  targets: readonly string[],
): Promise<{ counts: Counts; files: number }> {
  const configFile = path.join(dir, '.oxlintrc.json');
  writeFileSync(configFile, JSON.stringify({ ...config, categories: { correctness: 'off' } }));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [OXLINT, '--config', configFile, '--format', 'json', '--no-ignore', ...targets],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => {
    // Exit code 1 means findings; anything else leaves no JSON report and fails the parse below.
    return { stdout: error.stdout ?? '' };
  });
  const report = JSON.parse(stdout) as OxlintReport;
  const counts: Counts = {};
  for (const diagnostic of report.diagnostics) {
    // oxlint names a plugin's rule `@mcp-mrtr(rule)`; a parse error or a crash has no such code.
    const rule = /^@mcp-mrtr\((.+)\)$/.exec(diagnostic.code ?? '')?.[1] ?? `not ours: ${diagnostic.message}`;
    counts[rule] = (counts[rule] ?? 0) + 1;
  }
  return { counts, files: report.number_of_files };
}

async function eslintCounts(
  cwd: string,
  configs: readonly Linter.Config[],
  targets: readonly string[],
): Promise<{ counts: Counts; files: number }> {
  const results = await new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [...configs],
    ignore: false,
  }).lintFiles([...targets]);
  const counts: Counts = {};
  for (const result of results) {
    for (const message of result.messages) {
      const rule = message.ruleId?.replace(`${NAMESPACE}/`, '') ?? `not ours: ${message.message}`;
      counts[rule] = (counts[rule] ?? 0) + 1;
    }
  }
  return { counts, files: results.length };
}

describe('under oxlint', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-oxlint-'));
  // oxlint resolves `jsPlugins` from the config's directory, as a project would from its own.
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // ESLint lints only files under its cwd: both linters get copies in one directory.
  for (const fixture of FIXTURES) {
    cpSync(path.join(REPO, 'fixtures', fixture, 'src'), path.join(dir, fixture), { recursive: true });
  }
  writeLintCorpus(path.join(dir, 'corpus'), CORPUS_FILES);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the README's .oxlintrc.json enables the recommended config's rules", () => {
    const recipe = readmeRecipe();
    expect(recipe.jsPlugins).toEqual([plugin.meta.name]);
    expect(recipe.rules).toEqual(rulesOf(plugin.configs.recommended));
  });

  it("finds what ESLint's recommended config finds on the sample server, with the README's recipe", async () => {
    const [oxlint, eslint] = await Promise.all([
      oxlintCounts(dir, readmeRecipe(), ['legacy-server']),
      eslintCounts(dir, plugin.configs.recommended, ['legacy-server']),
    ]);
    expect(oxlint.files).toBe(eslint.files);
    expect(Object.values(eslint.counts).reduce((sum, n) => sum + n, 0)).toBeGreaterThan(20);
    expect(oxlint.counts).toEqual(eslint.counts);
  });

  // Two linters over 300 files: well past vitest's 30 s on a loaded machine.
  it(
    'finds, rule by rule, what ESLint finds with every rule on the sample projects and the generated corpus',
    { timeout: 180_000 },
    async () => {
      const targets = [...FIXTURES, 'corpus/src'];
      const [oxlint, eslint] = await Promise.all([
        oxlintCounts(dir, { jsPlugins: [plugin.meta.name], rules: rulesOf(plugin.configs.all) }, targets),
        eslintCounts(dir, plugin.configs.all, targets),
      ]);
      expect(oxlint.files).toBe(eslint.files);
      // Every rule has something to compare.
      expect(Object.keys(eslint.counts).sort()).toEqual(Object.keys(plugin.rules).sort());
      expect(oxlint.counts).toEqual(eslint.counts);
    },
  );
});
