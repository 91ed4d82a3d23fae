import { readFileSync, statSync } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import { failWithLinked, linkedFiles } from './linked-rewrites.js';
import { allSites, type FileOutcome, type MigrationResult } from './migration-result.js';
import type { ProgressListener } from './progress.js';

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
 * Writes every changed file atomically (a temporary file renamed over the original, keeping its
 * mode). A file that cannot be written is left untouched and becomes `failed` with the reason,
 * and so do the files tied to it by a cross-file rewrite (checked before anything is written);
 * the others are still written.
 */
export async function writeChanges(
  result: MigrationResult,
  onProgress?: ProgressListener,
  cwd = process.cwd(),
): Promise<MigrationResult> {
  const checked = failWithLinked(
    result.files.map((outcome) => {
      if (outcome.status !== 'changed') return outcome;
      const refusal = whyNotWritable(outcome);
      return refusal === undefined ? outcome : { ...outcome, status: 'failed' as const, reason: refusal };
    }),
    linkedFiles(allSites(result)),
    cwd,
  );
  const changed = checked.filter((file) => file.status === 'changed');
  let done = 0;
  const files: FileOutcome[] = [];
  for (const outcome of checked) {
    if (outcome.status !== 'changed' || outcome.output === undefined) {
      files.push(outcome);
      continue;
    }
    onProgress?.({ phase: 'write', done: done++, total: changed.length });
    try {
      await writeFileAtomic(outcome.file, outcome.output, { encoding: 'utf8' });
      files.push(outcome);
    } catch (error) {
      files.push({ ...outcome, status: 'failed', reason: `could not write the file: ${messageOf(error)}` });
    }
  }
  onProgress?.({ phase: 'write', done: changed.length, total: changed.length });
  return { ...result, files };
}
