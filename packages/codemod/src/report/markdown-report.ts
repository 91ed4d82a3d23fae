import type { MigrationReport } from './migration-report.js';

/** Escapes text for a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

const MODE_TITLE = { 'dry-run': 'dry run', check: 'check', write: 'written' } as const;

/** The report as Markdown: a PR description or a CI step summary. */
export function formatMarkdownReport(report: MigrationReport): string {
  const { summary } = report;
  const parts: string[] = [
    `# mcp-mrtr migrate (${MODE_TITLE[report.mode]})`,
    `Transforms: ${report.transforms.join(', ')}.`,
    table(
      ['files', 'candidates', 'changed', 'unchanged', 'skipped', 'failed', 'rewritten sites', 'manual sites'],
      [
        [
          summary.files,
          summary.candidates,
          summary.changed,
          summary.unchanged,
          summary.skipped,
          summary.failed,
          summary.rewritten,
          summary.manual,
        ].map(String),
      ],
    ),
  ];
  if (report.manual.length > 0) {
    parts.push(
      '## Manual work',
      'Each site carries a `// mcp-mrtr: <rule-id> — …` marker, and the lint rule with that ID still reports it.',
      table(
        ['where', 'rule', 'what to do', 'why it was not rewritten'],
        report.manual.map((site) => [
          `${site.file}:${site.line}`,
          `[${site.ruleId}](${site.docs})`,
          site.todo,
          site.reason,
        ]),
      ),
    );
  }
  const checks = report.rewritten.flatMap((site) => (site.notes ?? []).map((note) => [site, note] as const));
  if (checks.length > 0) {
    parts.push(
      '## Rewritten: check these',
      'The rewrite leaves these to run again on every round of a multi-round call, as a stateless server runs them on every request. Make sure they have no effect a user would see twice.',
      table(
        ['where', 'what to check'],
        checks.map(([site, note]) => [`${site.file}:${site.line}`, note]),
      ),
    );
  }
  const fromSyntax = [
    ...report.rewritten
      .filter((site) => site.evidence === 'syntax')
      .map((site) => [site, 'rewritten'] as const),
    ...report.manual.filter((site) => site.evidence === 'syntax').map((site) => [site, 'manual'] as const),
  ];
  if (fromSyntax.length > 0) {
    parts.push(
      '## Taken to be the MCP SDK from syntax alone',
      "These receivers' types did not resolve (`--allow-unresolved`), so they were recognised by how they were built (`new McpServer(…)` imported from the SDK). Review them.",
      table(
        ['where', 'rule', 'site', 'outcome'],
        fromSyntax.map(([site, outcome]) => [`${site.file}:${site.line}`, site.ruleId, site.kind, outcome]),
      ),
    );
  }
  if (report.missingDependencies.length > 0) {
    parts.push(
      '## Dependencies to add',
      table(
        ['package', 'add to', 'used by'],
        report.missingDependencies.map((dependency) => [
          `\`${dependency.name}\``,
          dependency.packageJson ?? '(no package.json)',
          dependency.files.join(', '),
        ]),
      ),
    );
  }
  if (report.install.length > 0) {
    parts.push(
      '## To install',
      ...report.install.map((advice) => {
        const where = advice.packageJson === null ? 'with no package.json' : `beside ${advice.packageJson}`;
        const manager =
          advice.lockFile === null
            ? `${advice.packageManager}, as no lock file shows another`
            : `${advice.packageManager}, from ${advice.lockFile}`;
        const lines = [`Run ${where} (${manager}):`, '', '```sh', advice.command, '```'];
        for (const upgrade of advice.upgrades)
          lines.push('', `- \`${upgrade.name}\` to \`${upgrade.range}\`: ${upgrade.reason}.`);
        return lines.join('\n');
      }),
    );
  }
  const problems = report.files.filter((file) => file.status === 'failed' || file.status === 'skipped');
  if (problems.length > 0) {
    parts.push(
      '## Files not processed',
      table(
        ['file', 'status', 'reason'],
        problems.map((file) => [file.file, file.status, file.reason ?? '']),
      ),
    );
  }
  const changed = report.files.filter((file) => file.status === 'changed');
  if (changed.length > 0) {
    parts.push(
      '## Changed files',
      table(
        ['file', 'rewritten sites', 'manual sites'],
        changed.map((file) => [file.file, String(file.rewritten), String(file.manual)]),
      ),
    );
  }
  const notes = report.projects.filter((project) => project.notes.length > 0);
  if (notes.length > 0) {
    parts.push(
      '## Type information',
      ...notes.map(
        (project) =>
          `${project.tsconfig ?? 'files without a tsconfig'}:\n${project.notes.map((note) => `- ${note}`).join('\n')}`,
      ),
    );
  }
  return `${parts.join('\n\n')}\n`;
}
