import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../exit-codes.js';

const run = promisify(execFile);

async function git(args: readonly string[], cwd: string): Promise<string> {
  return (await run('git', [...args], { cwd, maxBuffer: 256 * 1024 * 1024 })).stdout;
}

function firstLine(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : String(error);
  return text.trim().split('\n')[0] ?? '';
}

/** A path with its directory resolved through symlinks, as git reports paths under its top level. */
function canonical(file: string): string {
  try {
    return path.join(realpathSync.native(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}

/**
 * The commit `ref` names. `--end-of-options` keeps git from reading a ref such as `--independent`
 * as one of its own options, and `^{commit}` refuses what names a tree or a blob, so that only
 * a commit, given as a hash, reaches the commands that follow.
 */
async function verifyCommit(ref: string, root: string): Promise<string> {
  try {
    return (await git(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], root)).trim();
  } catch (error) {
    throw new UsageError(
      `--changed-since ${ref}: git knows no commit ${ref} (${firstLine(error)}). ` +
        `Give a branch, tag or commit; fetch it first if it is remote (in GitHub Actions give actions/checkout fetch-depth: 0)`,
    );
  }
}

export interface ChangedFiles {
  /** Absolute paths of files added, modified, renamed (new name) or untracked since the merge base. */
  readonly files: ReadonlySet<string>;
  /** The merge base of `ref` and HEAD. */
  readonly mergeBase: string;
}

/**
 * What a pull request changes: every file that differs between the merge base of `ref` and HEAD and
 * the work tree (committed, staged or not), plus untracked files that .gitignore does not exclude.
 * Deleted files are left out; a renamed file counts under its new name.
 */
export async function changedSince(ref: string, cwd: string): Promise<ChangedFiles> {
  let root: string;
  try {
    root = (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') {
      throw new UsageError('--changed-since needs git, and git is not installed or not on PATH');
    }
    throw new UsageError(
      `--changed-since ${ref}: ${cwd} is not in a git repository (${firstLine(error)}); run check there without --changed-since`,
    );
  }
  const commit = await verifyCommit(ref, root);
  let mergeBase: string;
  try {
    mergeBase = (await git(['merge-base', commit, 'HEAD'], root)).trim();
  } catch (error) {
    throw new UsageError(
      `--changed-since ${ref}: git finds no merge base of ${ref} and HEAD (${firstLine(error)}). ` +
        `Fetch the ref first; in GitHub Actions give actions/checkout fetch-depth: 0`,
    );
  }
  const [changed, untracked] = await Promise.all([
    git(['diff', '--name-only', '-z', '--no-renames', '--diff-filter=d', mergeBase, '--'], root),
    git(['ls-files', '--others', '--exclude-standard', '-z'], root),
  ]);
  const files = new Set(
    `${changed}${untracked}`
      .split('\0')
      .filter((file) => file !== '')
      .map((file) => path.resolve(root, file)),
  );
  return { files, mergeBase };
}

/** The discovered files that `changed` includes, in their original order. */
export function keepChanged(files: readonly string[], changed: ChangedFiles): string[] {
  return files.filter((file) => changed.files.has(canonical(file)));
}
