import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { FileOutcome } from '../engine/migration-result.js';

/** A `git diff`-style unified diff of one changed file, with `a/` and `b/` paths relative to `cwd`. */
export function unifiedDiff(outcome: FileOutcome, cwd: string): string {
  if (outcome.original === undefined || outcome.output === undefined) return '';
  const relative = path.relative(cwd, outcome.file).split(path.sep).join('/');
  const patch = createTwoFilesPatch(
    `a/${relative}`,
    `b/${relative}`,
    outcome.original,
    outcome.output,
    undefined,
    undefined,
    {
      context: 3,
    },
  );
  // The first line is a separator `diff` adds ("=================="); git diffs start at ---.
  return patch
    .split('\n')
    .filter((line, index) => !(index < 2 && (line.startsWith('Index:') || /^=+$/.test(line))))
    .join('\n');
}
