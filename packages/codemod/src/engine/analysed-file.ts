import type { ts } from 'ts-morph';
import type { ImportUsage } from '../analysis/import-usage.js';
import type { ParameterUsage } from '../analysis/parameter-usage.js';
import type { TypeAliasUsage } from '../analysis/type-alias-usage.js';
import type { SourceStyle } from '../edits/source-style.js';
import type { ProjectSummary } from './migration-result.js';

/** A file after analysis: everything applying its sites needs, with no Program kept alive. */
export interface AnalysedFile {
  readonly file: string;
  readonly text: string;
  readonly bom: boolean;
  readonly sourceFile: ts.SourceFile;
  readonly style: SourceStyle;
  readonly importUsages: readonly ImportUsage[];
  readonly parameterUsages: readonly ParameterUsage[];
  readonly typeAliasUsages: readonly TypeAliasUsage[];
  readonly project: ProjectSummary;
}
