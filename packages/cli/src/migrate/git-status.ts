import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The files among `files` that git reports as modified, staged, untracked or in conflict, or
 * undefined when they are not in a git work tree (or git is not installed).
 */
export async function uncommittedFiles(files: readonly string[], cwd: string): Promise<string[] | undefined> {
  if (files.length === 0) return [];
  let root: string;
  try {
    root = (await run('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  } catch {
    return undefined;
  }
  const relative = files.map((file) => path.relative(root, file));
  const { stdout } = await run(
    'git',
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...relative],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout
    .split('\0')
    .filter((entry) => entry.length > 3)
    .map((entry) => path.resolve(root, entry.slice(3)));
}
