import { randomBytes } from 'node:crypto';
import { constants, realpathSync } from 'node:fs';
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file `--write` creates beside a source file is named `.<name>.mcp-mrtr-<pid>-<random>.tmp`:
 * the new text before it is renamed over the source, and the copy of the old text that undoes a
 * cross-file rewrite. A run killed before it removed them leaves them behind; the name lets the
 * next run find them (`findStrayTemporaryFiles`).
 */
const TEMPORARY_NAME = /^\..+\.mcp-mrtr-(\d+)-[0-9a-f]{12}\.tmp$/;

function temporaryNameFor(file: string): string {
  const name = `.${path.basename(file)}.mcp-mrtr-${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  return path.join(path.dirname(file), name);
}

/** A source file's new text, written beside it and not yet renamed over it. */
export interface StagedFile {
  /** The file written through, symlinks resolved. */
  readonly target: string;
  readonly staged: string;
  /** A copy of the old text, kept while a group of files is committed so that it can be undone. */
  readonly backup?: string;
}

/**
 * Writes `text` to a temporary file beside `file` (flushed, with the file's mode and owner), and
 * with `keepBackup` a copy of the file's current bytes too. Nothing is left behind on failure.
 */
export async function stageFile(file: string, text: string, keepBackup: boolean): Promise<StagedFile> {
  const target = realpathSync(file);
  const { mode, uid, gid } = await stat(target);
  const staged = temporaryNameFor(target);
  let backup: string | undefined;
  try {
    const handle = await open(staged, 'wx', mode & 0o7777);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode & 0o7777);
      // Keeping the owner needs privileges the run may not have; the file then belongs to the user.
      await handle.chown(uid, gid).catch(() => undefined);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (keepBackup) {
      backup = temporaryNameFor(target);
      await copyFile(target, backup, constants.COPYFILE_EXCL);
    }
    return { target, staged, ...(backup && { backup }) };
  } catch (error) {
    await discard([staged, backup]);
    throw error;
  }
}

async function discard(files: ReadonlyArray<string | undefined>): Promise<void> {
  const present = files.filter((file) => file !== undefined);
  await Promise.all(present.map((file) => rm(file, { force: true })));
}

/** Removes the temporary files of staged files that will not be committed. */
export async function discardStaged(files: readonly StagedFile[]): Promise<void> {
  await discard(files.flatMap((file) => [file.staged, file.backup]));
}

/** Why committing a group failed: the file whose rename failed, and the error. */
export class CommitError extends Error {
  override readonly name = 'CommitError';
  constructor(
    readonly file: string,
    error: unknown,
    /** Files already renamed whose old text could not be put back; empty when the rollback held. */
    readonly notRestored: readonly string[],
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Renames each staged file over its target, in order. When a rename fails, the targets already
 * renamed get their old text back (from the backups staged with them) and the rest are discarded,
 * so a group is committed whole or not at all; `CommitError` says which rename failed.
 */
export async function commitStaged(files: readonly StagedFile[]): Promise<void> {
  for (const [index, file] of files.entries()) {
    try {
      await rename(file.staged, file.target);
    } catch (error) {
      const notRestored: string[] = [];
      for (const done of files.slice(0, index).reverse()) {
        if (done.backup === undefined) notRestored.push(done.target);
        else await rename(done.backup, done.target).catch(() => notRestored.push(done.target));
      }
      await discardStaged(files.slice(index));
      throw new CommitError(file.target, error, notRestored);
    }
  }
  await discard(files.map((file) => file.backup));
}

function isLiveProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The temporary files that an interrupted `--write` left in the directories of these files. A file
 * named for a process that is still running, other than this one, may be another run's work in
 * progress, and is left alone.
 */
export async function findStrayTemporaryFiles(files: readonly string[]): Promise<string[]> {
  const stray: string[] = [];
  for (const dir of new Set(files.map((file) => path.dirname(file)))) {
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const pid = TEMPORARY_NAME.exec(entry)?.[1];
      if (pid === undefined) continue;
      if (Number(pid) !== process.pid && isLiveProcess(Number(pid))) continue;
      stray.push(path.join(dir, entry));
    }
  }
  return stray.sort();
}
