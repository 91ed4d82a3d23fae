// @ts-check
import js from '@eslint/js';
import eslintPlugin from 'eslint-plugin-eslint-plugin';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    name: 'mcp-mrtr/ignores',
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    name: 'mcp-mrtr/typed-linting',
    languageOptions: {
      globals: globals.nodeBuiltin,
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.ts', 'scripts/*.js', 'packages/cli/bin/*.js', 'bench/*.bench.ts'],
          defaultProject: 'tsconfig.base.json',
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
    name: 'mcp-mrtr/rules-package',
    files: ['packages/eslint-plugin/src/rules/**/*.ts'],
    ...eslintPlugin.configs.recommended,
  },
);
