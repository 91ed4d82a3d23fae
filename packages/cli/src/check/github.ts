import type { ESLint } from 'eslint';
import { pluginRule, relativePath, type ReportContext } from './report-context.js';

// GitHub's escaping for workflow commands (as @actions/core writes them): `%`, CR and LF in the
// message; additionally `:` and `,` in property values, which would otherwise end the value.
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands: one `::error` or `::warning` annotation per finding, which
 * GitHub shows on the pull request's diff without a SARIF upload (so also for pull requests from
 * forks). File paths are relative to the directory `check` ran in: run it from the repository root.
 */
export function githubAnnotations(results: readonly ESLint.LintResult[], context: ReportContext): string {
  const lines: string[] = [];
  for (const result of results) {
    const file = relativePath(context.cwd, result.filePath);
    for (const message of result.messages) {
      const properties = [
        `file=${escapeProperty(file)}`,
        `line=${Math.max(1, message.line)}`,
        ...(message.endLine === undefined ? [] : [`endLine=${message.endLine}`]),
        `col=${Math.max(1, message.column)}`,
        ...(message.endColumn === undefined ? [] : [`endColumn=${message.endColumn}`]),
        `title=${escapeProperty(message.ruleId ?? 'mcp-mrtr: file could not be checked')}`,
      ];
      const url = pluginRule(message.ruleId)?.rule.meta.docs?.url;
      const text = url === undefined ? message.message : `${message.message}\nSee ${url}`;
      const command = message.severity === 2 ? 'error' : 'warning';
      lines.push(`::${command} ${properties.join(',')}::${escapeData(text)}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
