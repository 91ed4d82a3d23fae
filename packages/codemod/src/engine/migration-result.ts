import type { Site } from '../analysis/site.js';
import type { MissingDependency } from './dependencies.js';

/** What happened to one file. */
export type FileStatus = 'changed' | 'unchanged' | 'skipped' | 'failed';

export interface FileOutcome {
  /** Absolute path. */
  readonly file: string;
  readonly status: FileStatus;
  /** Why a file was skipped or failed. */
  readonly reason?: string;
  /** The text as read, and the text to write; present for changed files. */
  readonly original?: string;
  readonly output?: string;
  /** The file's sites after every decision: rewritten ones and manual ones. */
  readonly sites: readonly Site[];
}

/** What the preflight found about one TypeScript project (tsconfig) of the run. */
export interface ProjectSummary {
  /** Absolute path, or undefined for files without a tsconfig. */
  readonly tsconfig: string | undefined;
  readonly candidateFiles: number;
  readonly notes: readonly string[];
  /**
   * Member accesses transforms needed types for: read from their types, typed `any` but shown by
   * syntax to be the SDK's, and typed `any` with nothing to show what they are.
   */
  readonly receivers: {
    readonly resolved: number;
    readonly fromSyntax: number;
    readonly unresolved: number;
  };
}

export interface MigrationResult {
  /** Every file that was read; non-candidates are `unchanged` with no sites. */
  readonly files: readonly FileOutcome[];
  /** How many files contained nothing any transform looks for and were never parsed. */
  readonly nonCandidates: number;
  /** How many files passed the prefilter and were analysed. */
  readonly candidates: number;
  readonly projects: readonly ProjectSummary[];
  readonly missingDependencies: readonly MissingDependency[];
  /** The IDs of the transforms that ran, in order. */
  readonly transforms: readonly string[];
}

export function allSites(result: MigrationResult): Site[] {
  return result.files.flatMap((file) => file.sites);
}

export function manualSites(result: MigrationResult): Site[] {
  return allSites(result).filter((site) => site.rewrite === undefined);
}
