import { plural } from '../plural.js';
import type { MigrationReport } from '@mcp-mrtr/codemod';
import type { Colors } from './colors.js';

/** Colours a unified diff the way `git diff` does. */
export function colorDiff(diff: string, colors: Colors): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return colors.bold(line);
      if (line.startsWith('@@')) return colors.cyan(line);
      if (line.startsWith('+')) return colors.green(line);
      if (line.startsWith('-')) return colors.red(line);
      return line;
    })
    .join('\n');
}

/** What is left to do, as plain text for stdout: manual sites, dependencies and what to install, failed files. */
export function formatRemainingWork(report: MigrationReport, colors: Colors): string {
  const lines: string[] = [];
  if (report.manual.length > 0) {
    lines.push(
      colors.bold(
        `Manual work (${plural(report.manual.length, 'site')}, marked "// mcp-mrtr: <rule-id> — …" in the code):`,
      ),
    );
    for (const site of report.manual) {
      lines.push(
        `  ${colors.cyan(`${site.file}:${site.line}:${site.column}`)}  ${colors.yellow(site.ruleId)}`,
      );
      lines.push(`    ${site.todo}`);
      lines.push(colors.dim(`    not rewritten: ${site.reason}`));
      lines.push(colors.dim(`    ${site.docs}`));
    }
  }
  const fromSyntax = [...report.rewritten, ...report.manual].filter((site) => site.evidence === 'syntax');
  if (fromSyntax.length > 0) {
    lines.push(
      colors.bold(
        `Taken to be the MCP SDK from syntax alone, as its types are not installed (${plural(fromSyntax.length, 'site')}; review them):`,
      ),
    );
    for (const site of fromSyntax)
      lines.push(`  ${colors.cyan(`${site.file}:${site.line}:${site.column}`)}  ${site.kind}`);
  }
  if (report.missingDependencies.length > 0) {
    lines.push(colors.bold('Dependencies to add:'));
    for (const dependency of report.missingDependencies) {
      lines.push(
        `  ${dependency.name} to ${dependency.packageJson ?? 'a package.json'} (imported by ${dependency.files.join(', ')})`,
      );
    }
  }
  if (report.install.length > 0) {
    lines.push(colors.bold('To install:'));
    for (const advice of report.install) {
      const where = advice.packageJson === null ? '' : ` (beside ${advice.packageJson})`;
      const manager =
        advice.lockFile === null
          ? `${advice.packageManager}: no lock file`
          : `${advice.packageManager}: ${advice.lockFile}`;
      lines.push(`  ${colors.cyan(advice.command)}${where}  ${colors.dim(manager)}`);
      for (const upgrade of advice.upgrades)
        lines.push(colors.dim(`    ${upgrade.name} to ${upgrade.range}: ${upgrade.reason}`));
    }
  }
  const problems = report.files.filter((file) => file.status === 'failed' || file.status === 'skipped');
  if (problems.length > 0) {
    lines.push(colors.bold('Files not processed:'));
    for (const file of problems)
      lines.push(`  ${colors.red(file.status)} ${file.file}: ${file.reason ?? ''}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Push elicitation, sampling and roots calls (mrtr-handlers): found, rewritten by style, manual by reason. */
function pushQuestionRows(report: MigrationReport): [string, number][] {
  const isQuestion = (site: { transform: string; category: string }) =>
    site.transform === 'mrtr-handlers' && ['elicitation', 'sampling', 'roots'].includes(site.category);
  const rewritten = report.rewritten.filter((site) => isQuestion(site) && site.kind !== 'helper-caller');
  const manual = report.manual.filter((site) => isQuestion(site) && site.kind !== 'sensitive-form-field');
  if (rewritten.length + manual.length === 0) return [];
  const count = (labels: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b));
  };
  return [
    ['push questions found', rewritten.length + manual.length],
    ...count(rewritten.map((site) => `  rewritten, ${site.kind.split('-').at(-1) ?? site.kind} style`)),
    // The reasons in full are listed with each site on stdout.
    ...count(
      manual.map(
        (site) => `  manual: ${site.reason.length > 48 ? `${site.reason.slice(0, 47)}…` : site.reason}`,
      ),
    ),
  ];
}

/** The summary table for stderr. */
export function formatSummaryTable(report: MigrationReport): string {
  const { summary } = report;
  const rows: [string, number][] = [
    ['files', summary.files],
    ['candidates (parsed)', summary.candidates],
    ['changed', summary.changed],
    ['unchanged', summary.unchanged],
    ['skipped', summary.skipped],
    ['failed', summary.failed],
    ['sites rewritten', summary.rewritten],
    ['sites left for manual work', summary.manual],
    ['dependencies to add', summary.missingDependencies],
  ];
  const byRule = new Map<string, number>();
  for (const site of report.manual) byRule.set(site.ruleId, (byRule.get(site.ruleId) ?? 0) + 1);
  for (const [rule, count] of [...byRule].sort()) rows.push([`  ${rule}`, count]);
  rows.push(...pushQuestionRows(report));
  const width = Math.max(...rows.map(([label]) => label.length));
  return `${rows.map(([label, value]) => `${label.padEnd(width)}  ${String(value).padStart(6)}`).join('\n')}\n`;
}
