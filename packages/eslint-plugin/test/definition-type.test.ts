import { TSESLint } from '@typescript-eslint/utils';
import { expect, it } from 'vitest';
import { DefinitionType } from '../src/analysis/definition-type.js';

it("names every kind of definition as typescript-eslint's scope manager does", () => {
  expect({ ...DefinitionType }).toEqual({ ...TSESLint.Scope.DefinitionType });
});
