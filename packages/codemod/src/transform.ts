import type { LegacyCategory } from '@mcp-mrtr/core';

/** One rewrite the codemod can apply, described for `--help`, reports and docs. */
export interface Transform {
  /** Stable ID used in reports and on the command line. */
  readonly id: string;
  /** The legacy category it migrates; the matching lint rule reports what it leaves. */
  readonly category: LegacyCategory;
  readonly description: string;
}
