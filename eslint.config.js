// @ts-check
import js from '@eslint/js';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    name: 'mcp-mrtr/ignores',
    ignores: [
      '**/dist/**',
      'packages/*/commonjs/**',
      '**/node_modules/**',
      '**/coverage/**',
      'fixtures/codemod/.work/**',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    name: 'mcp-mrtr/typed-linting',
    languageOptions: {
      globals: globals.nodeBuiltin,
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            '*.ts',
            'scripts/*.js',
            'packages/cli/bin/*.js',
            'packages/codemod/jscodeshift/*.cjs',
          ],
          defaultProject: 'tsconfig.base.json',
          // Config files, scripts and the jscodeshift modules belong to no tsconfig.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    name: 'mcp-mrtr/jscodeshift-modules',
    files: ['packages/codemod/jscodeshift/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Codemod before/after pairs stand for arbitrary user code: parsed, not held to house rules.
    name: 'mcp-mrtr/codemod-cases',
    files: ['fixtures/codemod/cases/**'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      // Real servers import types as values.
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // What the official codemod and mcp-mrtr migrate wrote, byte for byte: generated user code.
    name: 'mcp-mrtr/equivalence-golden-files',
    files: [
      'fixtures/mrtr-equivalence/before-v2/**',
      'fixtures/mrtr-equivalence/after-v1/**',
      'fixtures/mrtr-equivalence/after-v2/**',
    ],
    extends: [tseslint.configs.disableTypeChecked],
    // Type-aware rules are off here, so directives the original needed for them report nothing.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // The MRTR guide's code examples, kept verbatim: its `JSON.parse` result is assigned untyped.
    name: 'mcp-mrtr/spec-guide-examples',
    files: ['fixtures/lint-project/src/spec-guide/**'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    name: 'mcp-mrtr/rules-package',
    files: ['packages/eslint-plugin/src/rules/**/*.ts'],
    ...eslintPlugin.configs.recommended,
  },
  {
    name: 'mcp-mrtr/rule-tests',
    files: ['packages/eslint-plugin/test/*.test.ts'],
    ...eslintPlugin.configs['tests-recommended'],
  },
);
