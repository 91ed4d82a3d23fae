import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { failWithLinked, linkedFiles } from './linked-rewrites.js';
import { allSites, type FileOutcome, type MigrationResult } from './migration-result.js';
import type { ProgressListener } from './progress.js';
import { commitStaged, CommitError, discardStaged, stageFile, type StagedFile } from './staged-write.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a changed file must not be written, or undefined when it may. */
function whyNotWritable(outcome: FileOutcome): string | undefined {
  let current: string;
  try {
    if ((statSync(outcome.file).mode & 0o222) === 0)
      return 'the file is read-only; make it writable and run again';
    current = readFileSync(outcome.file, 'utf8');
  } catch (error) {
    return `could not read the file before writing: ${messageOf(error)}`;
  }
  if (current !== outcome.original) return 'the file changed on disk during the run; run again';
  return undefined;
}

/**
 * Writes every changed file atomically: its new text is staged in a temporary file beside it, then
 * renamed over it (keeping its mode). A file that cannot be written is left untouched and becomes
 * `failed` with the reason. The files tied together by a cross-file rewrite are written all or
 * none: checked before anything is written, all staged before any is renamed, and the renamed
 * ones put back when a later rename fails. Other files are still written.
 */
export async function writeChanges(
  result: MigrationResult,
  onProgress?: ProgressListener,
  cwd = process.cwd(),
): Promise<MigrationResult> {
  const groups = linkedFiles(allSites(result));
  const checked = failWithLinked(
    result.files.map((outcome) => {
      if (outcome.status !== 'changed') return outcome;
      const refusal = whyNotWritable(outcome);
      return refusal === undefined ? outcome : { ...outcome, status: 'failed' as const, reason: refusal };
    }),
    groups,
    cwd,
  );
  const changed = checked.filter((outcome) => outcome.status === 'changed' && outcome.output !== undefined);
  const written = new Map<string, FileOutcome>();
  let done = 0;
  for (const unit of writeUnits(changed, groups)) {
    onProgress?.({ phase: 'write', done, total: changed.length });
    for (const outcome of await writeUnit(unit, groups, cwd)) written.set(outcome.file, outcome);
    done += unit.length;
  }
  onProgress?.({ phase: 'write', done: changed.length, total: changed.length });
  return { ...result, files: checked.map((outcome) => written.get(outcome.file) ?? outcome) };
}

/** The changed files in order, those of one cross-file rewrite together, every other file alone. */
function writeUnits(
  changed: readonly FileOutcome[],
  groups: ReadonlyMap<string, ReadonlySet<string>>,
): FileOutcome[][] {
  const units = new Map<ReadonlySet<string> | string, FileOutcome[]>();
  for (const outcome of changed) {
    const key = groups.get(outcome.file) ?? outcome.file;
    units.set(key, [...(units.get(key) ?? []), outcome]);
  }
  return [...units.values()];
}

/** Writes the files of one unit all or none; returns their outcomes. */
async function writeUnit(
  unit: readonly FileOutcome[],
  groups: ReadonlyMap<string, ReadonlySet<string>>,
  cwd: string,
): Promise<FileOutcome[]> {
  const keepBackups = unit.length > 1;
  const staged: StagedFile[] = [];
  let failure: { file: string; reason: string } | undefined;
  for (const outcome of unit) {
    try {
      staged.push(await stageFile(outcome.file, outcome.output!, keepBackups));
    } catch (error) {
      failure = { file: outcome.file, reason: `could not write the file: ${messageOf(error)}` };
      break;
    }
  }
  const notRestored = new Set<string>();
  if (failure === undefined) {
    try {
      await commitStaged(staged);
      return [...unit];
    } catch (error) {
      if (!(error instanceof CommitError)) throw error;
      const fileOf = (target: string) => unit[staged.findIndex((each) => each.target === target)]!.file;
      for (const target of error.notRestored) notRestored.add(fileOf(target));
      failure = { file: fileOf(error.file), reason: `could not write the file: ${error.message}` };
    }
  } else {
    await discardStaged(staged);
  }
  const { file: failedFile, reason } = failure;
  const failed = unit.map((outcome) =>
    outcome.file === failedFile ? { ...outcome, status: 'failed' as const, reason } : outcome,
  );
  return failWithLinked(failed, groups, cwd).map((outcome) =>
    notRestored.has(outcome.file)
      ? {
          ...outcome,
          reason: `written, but ${path.relative(cwd, failedFile).replaceAll('\\', '/')}, part of the same cross-file rewrite, failed (${reason}) and the old text could not be put back: restore this file from version control`,
        }
      : outcome,
  );
}
