import type { ESLint } from 'eslint';
import { pluginRule, relativePath, suppressedCounts, type ReportContext } from './report-context.js';
import { plural } from '../plural.js';

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function ruleLink(ruleId: string | null): string {
  if (ruleId === null) return 'parse error';
  const found = pluginRule(ruleId);
  const url = found?.rule.meta.docs?.url;
  return url === undefined ? `\`${ruleId}\`` : `[${found?.name ?? ruleId}](${url})`;
}

/** A summary for pull requests and `$GITHUB_STEP_SUMMARY`: totals per rule, then each finding. */
export function markdownReport(results: readonly ESLint.LintResult[], context: ReportContext): string {
  const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
  const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
  const withFindings = results.filter((result) => result.messages.length > 0);
  const lines = ['## mcp-mrtr check', ''];
  const suppressed = suppressedCounts(results);
  const suppressedNote =
    suppressed.problems === 0
      ? []
      : [
          `${plural(suppressed.problems, 'suppressed problem')} in ${plural(suppressed.files, 'file')} not listed (\`${context.suppressionsFile ?? 'suppressions file'}\`).`,
          '',
        ];
  if (withFindings.length === 0) {
    lines.push(`No problems found in ${plural(results.length, 'file')}.`, '', ...suppressedNote);
    return lines.join('\n');
  }
  lines.push(
    `**${plural(errors + warnings, 'problem')}** (${plural(errors, 'error')}, ${plural(warnings, 'warning')}) in ${withFindings.length} of ${plural(results.length, 'file')}.`,
    '',
    ...suppressedNote,
    '| Rule | Errors | Warnings |',
    '| --- | ---: | ---: |',
  );
  const perRule = new Map<string | null, { errors: number; warnings: number }>();
  for (const result of results) {
    for (const message of result.messages) {
      const entry = perRule.get(message.ruleId) ?? { errors: 0, warnings: 0 };
      if (message.severity === 2) entry.errors++;
      else entry.warnings++;
      perRule.set(message.ruleId, entry);
    }
  }
  for (const [ruleId, entry] of [...perRule].sort(([a], [b]) => String(a).localeCompare(String(b)))) {
    lines.push(`| ${ruleLink(ruleId)} | ${entry.errors} | ${entry.warnings} |`);
  }
  for (const result of withFindings) {
    lines.push(
      '',
      `### \`${relativePath(context.cwd, result.filePath)}\``,
      '',
      '| Line | Severity | Rule | Message |',
      '| ---: | --- | --- | --- |',
    );
    for (const message of result.messages) {
      const severity = message.severity === 2 ? 'error' : 'warning';
      lines.push(
        `| ${message.line}:${message.column} | ${severity} | ${ruleLink(message.ruleId)} | ${cell(message.message)} |`,
      );
    }
  }
  lines.push('');
  return lines.join('\n');
}
