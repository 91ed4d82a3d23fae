import type { ESLint } from 'eslint';
import { markdownReport } from './markdown.js';
import type { ReportContext } from './report-context.js';
import { sarifLog } from './sarif.js';

export const CHECK_FORMATS = ['stylish', 'json', 'sarif', 'markdown'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/**
 * Renders results: `stylish` and `json` are ESLint's own formatters (the JSON is ESLint's
 * LintResult shape); SARIF and Markdown are written here.
 */
export async function formatResults(
  format: CheckFormat,
  results: ESLint.LintResult[],
  context: ReportContext,
  eslint: ESLint,
  color: boolean,
): Promise<string> {
  switch (format) {
    case 'stylish':
    case 'json': {
      const formatter = await eslint.loadFormatter(format);
      // ESLint hands the formatter its cwd and the rules' metadata itself.
      const text = await formatter.format(results, { color });
      return text.endsWith('\n') || text === '' ? text : `${text}\n`;
    }
    case 'sarif':
      return `${JSON.stringify(sarifLog(results, context), null, 2)}\n`;
    case 'markdown':
      return markdownReport(results, context);
  }
}
