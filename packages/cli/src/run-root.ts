import { existsSync } from 'node:fs';
import path from 'node:path';

/** The nearest directory at or above `from` that holds a `.git` (a repository or a work tree). */
export function findRepositoryRoot(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Whether `file` is `dir` or lies below it. */
export function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function commonDirectory(files: readonly string[]): string {
  let common = path.dirname(files[0] ?? '');
  for (const file of files) while (!isInside(common, file)) common = path.dirname(common);
  return common;
}

/**
 * The directory a run is rooted at: ESLint's base path (it ignores every file outside it) and what
 * paths in reports, diffs and git commands are relative to. That is the working directory when it
 * holds every file; files elsewhere (another checkout) are rooted at their repository, or at the
 * deepest directory that holds them all.
 */
export function runRoot(cwd: string, files: readonly string[]): string {
  if (files.every((file) => isInside(cwd, file))) return cwd;
  const common = commonDirectory(files);
  return findRepositoryRoot(common) ?? common;
}
