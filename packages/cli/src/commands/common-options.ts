import path from 'node:path';
import type { DiscoveredFiles, SkipReason } from '../discover-files.js';
import { plural } from '../plural.js';

/** Options every subcommand takes. */
export interface CommonOptions {
  readonly ignore: readonly string[];
  readonly quiet: boolean;
}

const SKIP_REASONS: Record<SkipReason, [one: string, many: string]> = {
  'not a regular file': [
    'is not a regular file (a FIFO, socket or device)',
    'are not regular files (FIFOs, sockets or devices)',
  ],
  'not a source file': ['is not JavaScript or TypeScript source', 'are not JavaScript or TypeScript source'],
  'declaration file': ['is a declaration file', 'are declaration files'],
  'dependency or build output': [
    'is under node_modules or build output',
    'are under node_modules or build output',
  ],
  ignored: ['is ignored by .gitignore', 'are ignored by .gitignore'],
  'larger than 1 MiB': ['is larger than 1 MiB', 'are larger than 1 MiB'],
};

/**
 * One line for the named files left out ("skipped 2 of the files named: 1 is a declaration
 * file, 1 is under node_modules or build output"), or undefined when none were.
 */
export function describeSkipped(discovered: DiscoveredFiles): string | undefined {
  if (discovered.skipped.length === 0) return undefined;
  const counts = new Map<SkipReason, number>();
  for (const { reason } of discovered.skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const reasons = [...counts].map(([reason, n]) => `${n} ${SKIP_REASONS[reason][n === 1 ? 0 : 1]}`);
  const n = discovered.skipped.length;
  return `skipped ${n} of the files named, as directory discovery would: ${reasons.join(', ')}`;
}

/** "9 files in fixtures/legacy-server" style progress text, with empty directories called out. */
export function describeScope(discovered: DiscoveredFiles, cwd: string): string {
  const empty = discovered.emptyDirectories.map((dir) => path.relative(cwd, dir) || '.');
  const note = empty.length > 0 ? ` (no source files in ${empty.join(', ')})` : '';
  return `${plural(discovered.files.length, 'file')}${note}`;
}

/** The first five of some files, relative to `cwd`, and how many more there are: "a.js, b.js, and 3 more". */
export function listFiles(files: readonly string[], cwd: string): string {
  const shown = files.slice(0, 5).map((file) => path.relative(cwd, file) || file);
  const more = files.length > shown.length ? `, and ${files.length - shown.length} more` : '';
  return `${shown.join(', ')}${more}`;
}

/**
 * One line for the files larger than 1 MiB that directories and globs held ("left out 2 files
 * larger than 1 MiB, taken for bundled or generated code: scripts/run.js, …"), or undefined.
 */
export function describeLarge(discovered: DiscoveredFiles, cwd: string): string | undefined {
  const n = discovered.large.length;
  if (n === 0) return undefined;
  return `left out ${plural(n, 'file')} larger than 1 MiB, taken for bundled or generated code: ${listFiles(discovered.large, cwd)}`;
}
