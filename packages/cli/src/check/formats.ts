import type { ESLint } from 'eslint';
import { markdownReport } from './markdown.js';
import { githubAnnotations } from './github.js';
import { pluginRule, suppressedCounts, type ReportContext } from './report-context.js';
import { sarifLog } from './sarif.js';
import { plural } from '../plural.js';

export const CHECK_FORMATS = ['stylish', 'json', 'sarif', 'markdown', 'github'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/**
 * Renders results: `stylish` and `json` are ESLint's own formatters (the JSON is ESLint's
 * LintResult shape, suppressed findings in `suppressedMessages`); SARIF, Markdown and GitHub
 * workflow commands are written here.
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
      return format === 'stylish' ? report + docsFooter(results) + suppressedLine(results, context) : report;
    }
    case 'sarif':
      return `${JSON.stringify(sarifLog(results, context), null, 2)}\n`;
    case 'markdown':
      return markdownReport(results, context);
    case 'github':
      return githubAnnotations(results, context);
  }
}

/** ESLint's stylish formatter ignores suppressed messages: say how many there are. */
function suppressedLine(results: readonly ESLint.LintResult[], context: ReportContext): string {
  const { problems, files } = suppressedCounts(results);
  if (problems === 0) return '';
  return `\n${plural(problems, 'suppressed problem')} in ${plural(files, 'file')} not shown (${context.suppressionsFile ?? 'suppressions file'}).\n`;
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
