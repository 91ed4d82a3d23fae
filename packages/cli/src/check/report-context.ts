import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NAMESPACE, rules, type PluginRule } from '@mcp-mrtr/eslint-plugin';
import type { ESLint } from 'eslint';

/** What every report writer needs besides the results. */
export interface ReportContext {
  /** Paths in reports are relative to this directory. */
  readonly cwd: string;
  readonly toolVersion: string;
  /** The suppressions file the run applied, as given on the command line. */
  readonly suppressionsFile?: string | undefined;
  /** SARIF `automationDetails.id`, so code scanning keeps one category per shard. */
  readonly automationId?: string | undefined;
}

/** How many findings the suppressions file tolerated in these results, and in how many files. */
export function suppressedCounts(results: readonly ESLint.LintResult[]): { problems: number; files: number } {
  const perFile = results
    .map(
      (result) =>
        result.suppressedMessages.filter((message) => message.suppressions.some((s) => s.kind === 'file'))
          .length,
    )
    .filter((count) => count > 0);
  return { problems: perFile.reduce((sum, count) => sum + count, 0), files: perFile.length };
}

/** A file path relative to the report's root, with forward slashes on every platform. */
export function relativePath(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join('/');
}

/** The plugin rule behind a reported rule ID such as `@mcp-mrtr/no-push-elicitation`. */
export function pluginRule(ruleId: string | null): { name: string; rule: PluginRule } | undefined {
  if (ruleId === null || !ruleId.startsWith(`${NAMESPACE}/`)) return undefined;
  const name = ruleId.slice(NAMESPACE.length + 1);
  const rule = rules[name];
  return rule === undefined ? undefined : { name, rule };
}

/** Reads a file's lines once per report (for fingerprints); a file that vanished reads as empty. */
export function lineReader(): (file: string) => readonly string[] {
  const cache = new Map<string, readonly string[]>();
  return (file) => {
    let lines = cache.get(file);
    if (lines === undefined) {
      try {
        lines = readFileSync(file, 'utf8').split(/\r?\n/);
      } catch {
        lines = [];
      }
      cache.set(file, lines);
    }
    return lines;
  };
}
