import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest `tsconfig.json` at or above the file's directory, not looking past the repository
 * root (a directory holding `.git`) or the file system root.
 */
export function findNearestTsconfig(
  file: string,
  cache: Map<string, string | undefined>,
): string | undefined {
  const visited: string[] = [];
  let found: string | undefined;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (cache.has(dir)) {
      found = cache.get(dir);
      break;
    }
    visited.push(dir);
    const candidate = path.join(dir, 'tsconfig.json');
    if (existsSync(candidate)) {
      found = candidate;
      break;
    }
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) break;
  }
  for (const dir of visited) cache.set(dir, found);
  return found;
}
