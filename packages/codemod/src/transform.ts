import type { FileContext } from './analysis/file-context.js';
import type { SiteCategory } from './analysis/site-category.js';
import type { Site } from './analysis/site.js';
import type { PrefilterTerm } from './engine/prefilter.js';

/** What the engine knows about the whole run when transforms settle cross-file decisions. */
export interface ResolveContext {
  /** The directory paths in reasons are written relative to. */
  readonly cwd: string;
  /**
   * Files of the same TypeScript projects that are not part of this run but whose text matches a
   * transform's prefilter, by transform ID: they may hold sites this run cannot see.
   */
  readonly unvisitedCandidates: ReadonlyMap<string, readonly string[]>;
}

/**
 * One migration the codemod runs. The engine calls `analyse` for every candidate file while type
 * information is available, then `resolve` once with every site found, and only then edits.
 */
export interface Transform {
  /** Stable ID used in reports, on the command line and as the jscodeshift module name. */
  readonly id: string;
  /** The categories it migrates; the matching lint rules report what it leaves. */
  readonly categories: readonly SiteCategory[];
  /** Lint rules, besides its categories' rules, whose findings it marks (a form asking for a secret). */
  readonly alsoMarks?: readonly string[];
  readonly description: string;
  /** A file that contains none of these strings has nothing for this transform and is not parsed. */
  readonly prefilter: readonly PrefilterTerm[];
  /**
   * What marks a file outside the run as possibly holding a site `resolve` must know about
   * (listed in `ResolveContext.unvisitedCandidates`); defaults to `prefilter`.
   */
  readonly crossFileTerms?: readonly PrefilterTerm[];
  analyse(file: FileContext): readonly Site[];
  /** Settles decisions that depend on other sites; returns the sites, some perhaps downgraded. */
  resolve?(sites: readonly Site[], context: ResolveContext): readonly Site[];
}
