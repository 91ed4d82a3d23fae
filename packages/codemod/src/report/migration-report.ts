import path from 'node:path';
import { ruleDocsUrl } from '@mcp-mrtr/core';
import type { SiteCategory } from '../analysis/site-category.js';
import type { Site } from '../analysis/site.js';
import type { FileStatus, MigrationResult } from '../engine/migration-result.js';
import { installAdvice, type PackageManager, type SdkUpgrade } from './install-advice.js';

/** How the run was made: a dry run, a CI check or a write. */
export type RunMode = 'dry-run' | 'check' | 'write';

export interface ReportedSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly category: SiteCategory;
  readonly ruleId: string;
  readonly transform: string;
  readonly kind: string;
  /** Present when the SDK's types did not resolve and syntax alone showed the receiver (`--allow-unresolved`). */
  readonly evidence?: 'syntax';
  /** What to check in the rewritten code, e.g. a call left to run again each round. */
  readonly notes?: readonly string[];
}

export interface ReportedManualSite extends ReportedSite {
  /** What to do; the marker comment in the code says the same. */
  readonly todo: string;
  /** Why the codemod did not do it. */
  readonly reason: string;
  readonly docs: string;
}

export interface ReportedFile {
  readonly file: string;
  readonly status: FileStatus;
  readonly reason?: string;
  readonly rewritten: number;
  readonly manual: number;
}

/** The migration report, as JSON (`--report x.json`) and as the source of the Markdown form. */
export interface MigrationReport {
  readonly schemaVersion: 1;
  readonly mode: RunMode;
  readonly transforms: readonly string[];
  readonly summary: {
    readonly files: number;
    /** Files whose text mentioned something a transform looks for, so they were parsed. */
    readonly candidates: number;
    readonly changed: number;
    readonly unchanged: number;
    readonly skipped: number;
    readonly failed: number;
    readonly rewritten: number;
    readonly manual: number;
    readonly missingDependencies: number;
  };
  /** Every file that was parsed, skipped or failed; files nothing looked at are only counted. */
  readonly files: readonly ReportedFile[];
  readonly rewritten: readonly ReportedSite[];
  readonly manual: readonly ReportedManualSite[];
  readonly missingDependencies: readonly {
    readonly name: string;
    readonly packageJson: string | null;
    readonly files: readonly string[];
  }[];
  /**
   * What to install, per package.json: the missing packages and any SDK upgrade the runtime's
   * peer range needs, as one command of the package manager its lock file shows (npm presumed).
   */
  readonly install: readonly {
    readonly packageJson: string | null;
    readonly packageManager: PackageManager;
    readonly lockFile: string | null;
    readonly packages: readonly string[];
    readonly upgrades: readonly SdkUpgrade[];
    /** Run in the package.json's directory. */
    readonly command: string;
  }[];
  readonly projects: readonly {
    readonly tsconfig: string | null;
    readonly candidateFiles: number;
    readonly notes: readonly string[];
    readonly receivers: {
      readonly resolved: number;
      readonly fromSyntax: number;
      readonly unresolved: number;
    };
  }[];
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

function reportedSite(site: Site, relative: (file: string) => string): ReportedSite {
  return {
    file: relative(site.file),
    line: site.line,
    column: site.column,
    category: site.category,
    ruleId: site.ruleId,
    transform: site.transform,
    kind: site.kind,
    ...(site.evidence === undefined ? {} : { evidence: site.evidence }),
    ...(site.notes === undefined ? {} : { notes: site.notes }),
  };
}

/** Builds the report of a run; every path is relative to `cwd`, with forward slashes. */
export function buildReport(result: MigrationResult, mode: RunMode, cwd: string): MigrationReport {
  const relative = (file: string) => toPosix(path.relative(cwd, file));
  const sites = result.files.flatMap((file) => file.sites);
  const rewritten = sites.filter((site) => site.rewrite !== undefined);
  const manual = sites.filter((site) => site.rewrite === undefined);
  const count = (status: FileStatus) => result.files.filter((file) => file.status === status).length;
  return {
    schemaVersion: 1,
    mode,
    transforms: result.transforms,
    summary: {
      files: result.files.length,
      candidates: result.candidates,
      changed: count('changed'),
      unchanged: count('unchanged'),
      skipped: count('skipped'),
      failed: count('failed'),
      rewritten: rewritten.length,
      manual: manual.length,
      missingDependencies: result.missingDependencies.length,
    },
    files: result.files
      .filter((file) => file.sites.length > 0 || file.status !== 'unchanged')
      .map((file) => ({
        file: relative(file.file),
        status: file.status,
        ...(file.reason === undefined ? {} : { reason: file.reason }),
        rewritten: file.sites.filter((site) => site.rewrite !== undefined).length,
        manual: file.sites.filter((site) => site.rewrite === undefined).length,
      })),
    rewritten: rewritten.map((site) => reportedSite(site, relative)),
    manual: manual.map((site) => ({
      ...reportedSite(site, relative),
      todo: site.todo,
      reason: site.reason ?? 'not rewritten',
      docs: ruleDocsUrl(site.ruleId),
    })),
    missingDependencies: result.missingDependencies.map((dependency) => ({
      name: dependency.name,
      packageJson: dependency.packageJson === undefined ? null : relative(dependency.packageJson),
      files: dependency.files.map(relative),
    })),
    install: installAdvice(result).map((advice) => ({
      packageJson: advice.packageJson === undefined ? null : relative(advice.packageJson),
      packageManager: advice.packageManager,
      lockFile: advice.lockFile === undefined ? null : relative(advice.lockFile),
      packages: advice.packages,
      upgrades: advice.upgrades,
      command: advice.command,
    })),
    projects: result.projects.map((project) => ({
      tsconfig: project.tsconfig === undefined ? null : relative(project.tsconfig),
      candidateFiles: project.candidateFiles,
      notes: project.notes,
      receivers: project.receivers,
    })),
  };
}
