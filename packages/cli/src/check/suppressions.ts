import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NAMESPACE, rules } from '@mcp-mrtr/eslint-plugin';
import type { ESLint } from 'eslint';
import { UsageError } from '../exit-codes.js';

/** ESLint's bulk-suppressions file: per file (relative to cwd, POSIX), per rule, how many errors to tolerate. */
export type SuppressedViolations = Record<string, Record<string, { count: number }>>;

/** ESLint's `SuppressionsService`, as its CLI uses it for `--suppress-all` and friends. */
interface SuppressionsService {
  suppress(results: ESLint.LintResult[], rules?: string[]): Promise<void>;
  prune(results: ESLint.LintResult[]): Promise<void>;
  load(): Promise<SuppressedViolations>;
  applySuppressions(
    results: ESLint.LintResult[],
    suppressions: SuppressedViolations,
  ): { results: ESLint.LintResult[]; unused: SuppressedViolations };
  save(suppressions: SuppressedViolations): Promise<void>;
}

/** The name ESLint's CLI reads and writes by default, in the directory it runs in. */
export const DEFAULT_SUPPRESSIONS_FILE = 'eslint-suppressions.json';

/**
 * ESLint's own implementation, so the file `check` writes is exactly what `eslint --suppress-all`
 * writes and is read the same way. ESLint does not export it; eslint is pinned to an exact version.
 */
function eslintSuppressionsService(filePath: string, cwd: string): SuppressionsService {
  const require = createRequire(import.meta.url);
  const lib = path.dirname(require.resolve('eslint'));
  const { SuppressionsService } = require(path.join(lib, 'services/suppressions-service.js')) as {
    SuppressionsService: new (options: { filePath: string; cwd: string }) => SuppressionsService;
  };
  return new SuppressionsService({ filePath, cwd });
}

export interface SuppressionOptions {
  readonly suppressAll: boolean;
  /** Rule IDs, with or without the `@mcp-mrtr/` prefix. */
  readonly suppressRule: readonly string[];
  readonly pruneSuppressions: boolean;
  readonly suppressionsLocation?: string | undefined;
}

export interface Baseline {
  /** Results with the tolerated errors moved to `suppressedMessages`. */
  readonly results: ESLint.LintResult[];
  /** Suppressions the findings no longer use: what `--prune-suppressions` would remove. */
  readonly unused: SuppressedViolations;
}

function fullRuleId(rule: string): string {
  const name = rule.startsWith(`${NAMESPACE}/`) ? rule.slice(NAMESPACE.length + 1) : rule;
  if (rules[name] === undefined) {
    throw new UsageError(
      `--suppress-rule ${rule}: no such rule; the rules are ${Object.keys(rules).sort().join(', ')}`,
    );
  }
  return `${NAMESPACE}/${name}`;
}

/** A run's baseline: ESLint's bulk suppressions, written and read the way `eslint` does. */
export class Suppressions {
  readonly #service: SuppressionsService;
  readonly #options: SuppressionOptions;
  readonly #rules: string[] | undefined;
  readonly #cwd: string;
  /** The file as given (or the default), for messages. */
  readonly displayName: string;

  private constructor(file: string, displayName: string, cwd: string, options: SuppressionOptions) {
    this.#service = eslintSuppressionsService(file, cwd);
    this.#options = options;
    this.#rules = options.suppressRule.length > 0 ? options.suppressRule.map(fullRuleId) : undefined;
    this.displayName = displayName;
    this.#cwd = cwd;
  }

  /**
   * Validates the options as ESLint's CLI does, and returns undefined when there is nothing to do:
   * no suppressions file and no option that writes one.
   */
  static open(options: SuppressionOptions, cwd: string): Suppressions | undefined {
    const writes = options.suppressAll || options.suppressRule.length > 0;
    if (options.suppressAll && options.suppressRule.length > 0) {
      throw new UsageError('--suppress-all and --suppress-rule cannot be used together');
    }
    if (writes && options.pruneSuppressions) {
      throw new UsageError(
        `${options.suppressAll ? '--suppress-all' : '--suppress-rule'} and --prune-suppressions cannot be used together`,
      );
    }
    const displayName = options.suppressionsLocation ?? DEFAULT_SUPPRESSIONS_FILE;
    const file = path.resolve(cwd, displayName);
    if (existsSync(file) && statSync(file).isDirectory()) {
      throw new UsageError(`--suppressions-location ${displayName}: is a directory; give a file name`);
    }
    if (!existsSync(path.dirname(file))) {
      throw new UsageError(
        `--suppressions-location ${displayName}: directory ${path.dirname(file)} does not exist`,
      );
    }
    if (!existsSync(file)) {
      if (writes) return new Suppressions(file, displayName, cwd, options);
      if (options.pruneSuppressions || options.suppressionsLocation !== undefined) {
        throw new UsageError(
          `${displayName}: no such suppressions file; create it with --suppress-all or --suppress-rule <rule>`,
        );
      }
      return undefined;
    }
    return new Suppressions(file, displayName, cwd, options);
  }

  /** Writes or prunes the file if asked to, then moves the errors it tolerates out of the results. */
  async apply(results: ESLint.LintResult[]): Promise<Baseline> {
    if (this.#options.suppressAll || this.#rules !== undefined) {
      await this.#service.suppress(results, this.#rules);
    }
    if (this.#options.pruneSuppressions) await this.#prune(results);
    const applied = this.#service.applySuppressions(results, await this.#load());
    return { results: applied.results, unused: ofOurRules(applied.unused) };
  }

  async #load(): Promise<SuppressedViolations> {
    try {
      return await this.#service.load();
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      throw new UsageError(
        `${this.displayName}: not a valid suppressions file${cause}; fix it, or delete it and run check --suppress-all`,
      );
    }
  }

  /**
   * ESLint's prune, limited to the plugin's rules. The file is shared with the project's own
   * `eslint --suppress-all`, and `check` never reports the project's other rules: ESLint's prune
   * would take every entry of theirs for fixed and delete it.
   */
  async #prune(results: ESLint.LintResult[]): Promise<void> {
    const suppressions = await this.#load();
    const { unused } = this.#service.applySuppressions(results, suppressions);
    for (const [file, byRule] of Object.entries(ofOurRules(unused))) {
      const kept = suppressions[file];
      if (kept === undefined) continue;
      for (const [ruleId, { count }] of Object.entries(byRule)) {
        const entry = kept[ruleId];
        if (entry === undefined) continue;
        if (entry.count <= count) delete kept[ruleId];
        else entry.count -= count;
      }
      if (Object.keys(kept).length === 0) delete suppressions[file];
    }
    // As ESLint's prune does: entries of files that no longer exist go, whatever their rules.
    for (const file of Object.keys(suppressions)) {
      if (!existsSync(path.resolve(this.#cwd, file))) delete suppressions[file];
    }
    await this.#service.save(suppressions);
  }
}

/** The entries of the plugin's rules. */
function ofOurRules(violations: SuppressedViolations): SuppressedViolations {
  const ours: SuppressedViolations = {};
  for (const [file, byRule] of Object.entries(violations)) {
    const kept = Object.entries(byRule).filter(([ruleId]) => ruleId.startsWith(`${NAMESPACE}/`));
    if (kept.length > 0) ours[file] = Object.fromEntries(kept);
  }
  return ours;
}

/** What a run prints when errors were fixed but the suppressions file still tolerates them. */
export function pruneHint(unused: SuppressedViolations, displayName: string): string | undefined {
  const entries = Object.entries(unused).flatMap(([file, byRule]) =>
    Object.entries(byRule).map(([ruleId, { count }]) => `  ${file}: ${count} fewer ${ruleId}`),
  );
  if (entries.length === 0) return undefined;
  const location = displayName === DEFAULT_SUPPRESSIONS_FILE ? '' : ` --suppressions-location ${displayName}`;
  const shown = entries.slice(0, 10);
  if (entries.length > shown.length) shown.push(`  … and ${entries.length - shown.length} more`);
  return [
    `mcp-mrtr check: ${displayName} tolerates errors that no longer occur:`,
    ...shown,
    `Run mcp-mrtr check --prune-suppressions${location} to lower the counts, so they cannot come back unnoticed.`,
  ].join('\n');
}
