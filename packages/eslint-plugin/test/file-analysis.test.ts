import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule, type SourceCode } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fileAnalysis } from '../src/analysis/file-analysis.js';

const SDK_FILE = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
export const server = new Server({ name: 'a', version: '1' }, { capabilities: {} });
`;
const PLAIN_FILE = `export const answer = 42;\n`;

/** The `SourceCode` ESLint builds for `code`, as a rule sees it. */
function sourceCodeOf(code: string): SourceCode {
  let seen: SourceCode | undefined;
  const probe: Rule.RuleModule = {
    create(context) {
      seen = context.sourceCode;
      return {};
    },
  };
  new Linter({ configType: 'flat' }).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser },
        plugins: { test: { rules: { probe } } },
        rules: { 'test/probe': 'error' },
      },
    ],
    'file.ts',
  );
  if (seen === undefined) throw new Error('the probe rule did not run');
  return seen;
}

/**
 * One `SourceCode` object for every file, whose members answer for the file being linted: how
 * oxlint's JS-plugin host presents files to rules.
 */
function sharedSourceCode(): { sourceCode: SourceCode; lint(file: SourceCode): void } {
  let current: SourceCode | undefined;
  const sourceCode = new Proxy({} as SourceCode, {
    get(_, key) {
      if (current === undefined) throw new Error('no file is being linted');
      const value: unknown = Reflect.get(current, key, current);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
  return {
    sourceCode,
    lint(file) {
      current = file;
    },
  };
}

function analysisFor(sourceCode: SourceCode) {
  return fileAnalysis({ sourceCode } as unknown as Parameters<typeof fileAnalysis>[0]);
}

describe('fileAnalysis', () => {
  it('builds one analysis per file when the host hands every file the same SourceCode object', () => {
    const host = sharedSourceCode();
    const sdkFile = sourceCodeOf(SDK_FILE);
    const plainFile = sourceCodeOf(PLAIN_FILE);

    host.lint(sdkFile);
    const first = analysisFor(host.sourceCode);
    host.lint(plainFile);
    const second = analysisFor(host.sourceCode);

    expect(first.importsSdk).toBe(true);
    expect(second).not.toBe(first);
    expect(second.ast).toBe(plainFile.ast);
    expect(second.mayBeMcp).toBe(false);
    expect(second.importsSdk).toBe(false);
  });

  it('is shared by every rule of one file', () => {
    const host = sharedSourceCode();
    host.lint(sourceCodeOf(SDK_FILE));
    expect(analysisFor(host.sourceCode)).toBe(analysisFor(host.sourceCode));
  });
});
