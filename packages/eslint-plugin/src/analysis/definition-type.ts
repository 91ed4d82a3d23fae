import type { TSESLint } from '@typescript-eslint/utils';

/**
 * The kinds of scope-manager definitions, as `TSESLint.Scope.DefinitionType` has them. Reading that
 * enum at run time loads typescript-eslint's whole scope manager and ESLint with it (some 250
 * modules), which made up most of what importing the plugin cost; a test keeps the two equal.
 */
export const DefinitionType = {
  CatchClause: 'CatchClause',
  ClassName: 'ClassName',
  FunctionName: 'FunctionName',
  ImplicitGlobalVariable: 'ImplicitGlobalVariable',
  ImportBinding: 'ImportBinding',
  Parameter: 'Parameter',
  TSEnumName: 'TSEnumName',
  TSEnumMember: 'TSEnumMemberName',
  TSModuleName: 'TSModuleName',
  Type: 'Type',
  Variable: 'Variable',
} as unknown as typeof TSESLint.Scope.DefinitionType;
