import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NAMESPACE, rules, type PluginRule } from '@mcp-mrtr/eslint-plugin';

/** What every report writer needs besides the results. */
export interface ReportContext {
  /** Paths in reports are relative to this directory. */
  readonly cwd: string;
  readonly toolVersion: string;
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
