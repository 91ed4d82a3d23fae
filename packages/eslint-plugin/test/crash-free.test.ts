import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import plugin, { FILES, NAMESPACE } from '../src/index.js';
import { writeLintCorpus } from '@mcp-mrtr/generated-corpus';

const REPO = path.resolve(import.meta.dirname, '../../..');

function eslint(cwd: string, typed: boolean): ESLint {
  const overrideConfig: Linter.Config[] = [...plugin.configs.all];
  if (typed) {
    overrideConfig.push({
      files: FILES,
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: cwd } },
    });
  }
  return new ESLint({ cwd, overrideConfigFile: true, overrideConfig, ignore: false });
}

function countByRule(results: readonly ESLint.LintResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) {
    expect(
      result.messages.filter((message) => message.fatal),
      result.filePath,
    ).toEqual([]);
    for (const message of result.messages) {
      const rule = String(message.ruleId).replace(`${NAMESPACE}/`, '');
      counts[rule] = (counts[rule] ?? 0) + 1;
    }
  }
  return counts;
}

describe('every rule on every fixture', () => {
  // Type-aware, this builds a program per fixture project: well past vitest's 30 s on a loaded machine.
  it.each([false, true])('runs without crashing (type-aware: %s)', { timeout: 120_000 }, async (typed) => {
    const files = await glob(['fixtures/*/{src,test}/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'], {
      cwd: REPO,
      absolute: true,
      // The corpus generators hold MCP code only as text; the corpus tests below lint what they write.
      // The composition test's working copy comes and goes while this runs in another worker.
      ignore: [
        '**/node_modules/**',
        'fixtures/generated-corpus/**',
        'fixtures/legacy-server-composition-*/**',
      ],
    });
    expect(files.length).toBeGreaterThan(15);
    const counts = countByRule(await eslint(REPO, typed).lintFiles(files));
    expect(Object.keys(counts).sort()).toEqual(Object.keys(plugin.rules).sort());
  });
});

describe('a generated corpus', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-corpus-'));
  // The SDK packages must resolve from the corpus for the type-aware run.
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const corpus = writeLintCorpus(dir, 240);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([false, true])(
    'finds exactly the planted sites and nothing else (type-aware: %s)',
    async (typed) => {
      const results = await eslint(dir, typed).lintFiles([...corpus.files]);
      expect(countByRule(results)).toEqual(corpus.expected);
    },
  );
});
