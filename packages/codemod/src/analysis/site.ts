import type { ImportRequest } from '../edits/imports.js';
import type { MarkerAnchor } from '../edits/markers.js';
import type { TextEdit } from '../edits/text-edit.js';
import type { SiteCategory } from './site-category.js';

/** A planned rewrite of one site: edits against the original text and the imports they need. */
export interface Rewrite {
  readonly edits: readonly TextEdit[];
  readonly imports: readonly ImportRequest[];
  /** Packages the rewritten code imports that the project may need to add. */
  readonly packages: readonly string[];
}

/** A unit of rewriting in another file that a rewrite only works together with. */
export interface RequiredUnit {
  readonly unit: string;
  /** What a reason calls it: `classifySeverity() in triage.ts`. */
  readonly label: string;
}

/**
 * Ties a rewrite to rewrites in other files: a helper that takes `round` and its callers that
 * pass it. Either every unit involved is rewritten, or none is (see engine/linked-rewrites.ts).
 */
export interface RewriteLink {
  /** What the site's rewrite belongs to, e.g. one function: `file#offset`. */
  readonly unit: string;
  readonly requires: readonly RequiredUnit[];
}

/**
 * One place of old-style code a transform found. With a `rewrite` the codemod changes it; without
 * one it is manual work: marked in the code, listed in the report, still reported by `ruleId`.
 */
export interface Site {
  readonly transform: string;
  readonly category: SiteCategory;
  /** The lint rule that reports this site (`ruleIdOf(category)`). */
  readonly ruleId: string;
  /** A short, stable name for the shape, e.g. `send-logging-message`. */
  readonly kind: string;
  /** Absolute path. */
  readonly file: string;
  readonly start: number;
  readonly line: number;
  readonly column: number;
  /** What to do by hand if the site is not rewritten; the marker comment says this. */
  readonly todo: string;
  /** Why there is no rewrite, for manual sites. */
  readonly reason?: string;
  readonly rewrite?: Rewrite;
  readonly anchor: MarkerAnchor;
  /**
   * `'syntax'` when the SDK's types did not resolve and the receiver was taken to be the SDK's
   * from syntax alone (`--allow-unresolved`): a `new Server(…)` imported from the SDK.
   */
  readonly evidence?: 'syntax';
  /** Rewrites in other files this site's rewrite needs, and the unit it belongs to. */
  readonly link?: RewriteLink;
  /** What a person should check in the rewritten code, e.g. a call left to run again each round. */
  readonly notes?: readonly string[];
}

export function isManual(site: Site): boolean {
  return site.rewrite === undefined;
}

/** The same site left for manual work, saying why. */
export function downgrade(site: Site, reason: string): Site {
  const { rewrite: _dropped, ...rest } = site;
  return { ...rest, reason };
}
