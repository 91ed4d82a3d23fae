import path from 'node:path';
import tsParser from '@typescript-eslint/parser';
import { RuleTester, type RuleTesterConfig } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';

// typescript-eslint's RuleTester runs on whatever test framework provides these hooks.
RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** The typed fixture project: real SDK v1 and v2 packages and a tsconfig. */
export const LINT_PROJECT = path.resolve(import.meta.dirname, '../../../fixtures/lint-project');

/**
 * Syntax-only tests, parsed by the same typescript-eslint parser the plugin's configs use. Each
 * test file constructs its own `RuleTester`, so eslint-plugin-eslint-plugin's test rules see it.
 */
export const SYNTAX_ONLY: RuleTesterConfig = { languageOptions: { parser: tsParser } };

/** Type-aware tests: each case is linted as `src/file.ts` of the fixture project. */
export const TYPE_AWARE: RuleTesterConfig = {
  languageOptions: {
    parser: tsParser,
    parserOptions: { projectService: true, tsconfigRootDir: LINT_PROJECT },
  },
};

export const TYPED_FILE = path.join(LINT_PROJECT, 'src/file.ts');

/** Imports most test cases start from. */
export const V1 = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
`;
export const V1_TYPES = `import { ElicitRequestSchema, ElicitResultSchema, CreateMessageResultSchema, ListRootsResultSchema, SetLevelRequestSchema, RootsListChangedNotificationSchema, ElicitationCompleteNotificationSchema, LoggingMessageNotificationSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
`;
export const V2 = `import { McpServer, inputRequired } from '@modelcontextprotocol/server';
`;
