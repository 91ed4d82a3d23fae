import tsParser from '@typescript-eslint/parser';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { Linter, type Rule, type SourceCode } from 'eslint';
import { describe, expect, it } from 'vitest';
import { fileAnalysis } from '../src/analysis/file-analysis.js';
import { walk } from '../src/analysis/walk.js';

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

  describe('importOf', () => {
    /** What `importOf` says of each identifier named `name`, in source order. */
    function originsOf(code: string, name: string) {
      const sourceCode = sourceCodeOf(code);
      const file = analysisFor(sourceCode);
      const origins: unknown[] = [];
      walk(file.sourceCode, file.ast, (node) => {
        if (node.type === AST_NODE_TYPES.Identifier && node.name === name) origins.push(file.importOf(node));
      });
      return origins;
    }

    it('finds a top-level import and nothing behind a local of the same name or an unbound name', () => {
      const code = `import { a as b } from 'm';\nb();\nfunction f() { const b = 1; return b + c; }\n`;
      expect(originsOf(code, 'b')).toEqual([
        { module: 'm', imported: 'a' },
        { module: 'm', imported: 'a' },
        undefined,
        undefined,
      ]);
      expect(originsOf(code, 'c')).toEqual([undefined]);
    });

    it('finds a require() or an import() in a nested scope, a comment before its parenthesis too', () => {
      expect(
        originsOf(`import { a } from 'm';\nfunction f() { const { x: y } = require('n'); return y; }\n`, 'y'),
      ).toEqual([
        { module: 'n', imported: 'x' },
        { module: 'n', imported: 'x' },
      ]);
      expect(
        originsOf(`async function f() { const ns = await import /* lazy */ ('n'); return ns; }\n`, 'ns'),
      ).toEqual([
        { module: 'n', imported: '*' },
        { module: 'n', imported: '*' },
      ]);
    });

    it('finds an import inside a module declaration', () => {
      expect(
        originsOf(`declare module 'x' {\n  import { z } from 'n';\n  export const w: typeof z;\n}\n`, 'z'),
      ).toEqual([
        { module: 'n', imported: 'z' },
        { module: 'n', imported: 'z' },
        { module: 'n', imported: 'z' },
      ]);
    });
  });
});
