import path from 'node:path';
import type { DiscoveredFiles } from '../discover-files.js';

/** Options every subcommand takes. */
export interface CommonOptions {
  readonly ignore: readonly string[];
  readonly quiet: boolean;
}

/** "9 files in fixtures/legacy-server" style progress text, with empty directories called out. */
export function describeScope(discovered: DiscoveredFiles, cwd: string): string {
  const empty = discovered.emptyDirectories.map((dir) => path.relative(cwd, dir) || '.');
  const note = empty.length > 0 ? ` (no source files in ${empty.join(', ')})` : '';
  return `${discovered.files.length} files${note}`;
}
