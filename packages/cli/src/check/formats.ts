import type { ESLint } from 'eslint';
import { markdownReport } from './markdown.js';
import { pluginRule, type ReportContext } from './report-context.js';
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
      const report = text.endsWith('\n') || text === '' ? text : `${text}\n`;
      return format === 'stylish' ? report + docsFooter(results) : report;
    }
    case 'sarif':
      return `${JSON.stringify(sarifLog(results, context), null, 2)}\n`;
    case 'markdown':
      return markdownReport(results, context);
  }
}

/** Stylish output names rules but not their docs: list the documentation of every rule that fired. */
function docsFooter(results: readonly ESLint.LintResult[]): string {
  const links = new Map<string, string>();
  for (const result of results) {
    for (const message of result.messages) {
      const url = pluginRule(message.ruleId)?.rule.meta.docs?.url;
      if (message.ruleId !== null && url !== undefined) links.set(message.ruleId, url);
    }
  }
  if (links.size === 0) return '';
  const width = Math.max(...[...links.keys()].map((ruleId) => ruleId.length));
  const lines = [...links]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([ruleId, url]) => `  ${ruleId.padEnd(width)}  ${url}`);
  return `\nWhat to do instead, rule by rule:\n${lines.join('\n')}\n`;
}
