import path from 'node:path';
import { diffLines } from 'diff';
import { firstSyntaxError } from '../engine/reparse.js';
import type { FileOutcome, MigrationResult } from '../engine/migration-result.js';
import { FormatterLoadError, projectFormatter } from './project-formatter.js';

/** A changed file whose formatter failed: its output stays the codemod's own. */
export interface FormatFailure {
  readonly file: string;
  readonly formatter: string;
  readonly message: string;
}

const BOM = '\uFEFF';

/** The ranges of `output` that differ from `original`, in order. */
function changedRanges(original: string, output: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  let offset = 0;
  for (const part of diffLines(original, output)) {
    if (part.removed) continue;
    if (part.added) {
      // Prettier formats nothing for a range that starts in a comment: start at the code.
      const code = /^(?:[ \t]*(?:\/\/[^\n]*)?\r?\n)*/.exec(part.value)?.[0].length ?? 0;
      if (code < part.value.length) ranges.push({ start: offset + code, end: offset + part.value.length });
    }
    offset += part.value.length;
  }
  return ranges;
}

/**
 * The output formatted by the project's formatter: the whole file when the original was already
 * formatted by it (so the result is what the project's own `format` script would write), else
 * only the ranges the migration changed, last first so that earlier offsets hold. A formatter
 * that cannot format ranges leaves a file it did not format before as it is.
 */
async function formatOutput(file: string, original: string, output: string): Promise<string | FormatFailure> {
  const formatter = await projectFormatter(file).catch((error: unknown) => {
    if (!(error instanceof FormatterLoadError)) throw error;
    return { file, formatter: error.formatter, message: messageOf(error) };
  });
  if (formatter === undefined) return output;
  if ('message' in formatter) return formatter;
  let text = output;
  try {
    if (await formatter.isFormatted(original)) text = await formatter.format(output);
    else if (formatter.formatRange === undefined) return output;
    else
      for (const { start, end } of changedRanges(original, output).reverse())
        text = await formatter.formatRange(text, start, end);
  } catch (error) {
    return { file, formatter: formatter.name, message: messageOf(error) };
  }
  const syntaxError = firstSyntaxError(file, text);
  if (syntaxError === undefined) return text;
  return { file, formatter: formatter.name, message: `its output would not parse: ${syntaxError}` };
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/**
 * Formats each changed file of a planned migration with the formatter its project configured and
 * installed (Prettier or Biome), so that the dry-run diff and `--write` show the same text. When
 * a formatter throws, or its text would not parse, the file keeps the codemod's own output and
 * the failure is passed to `onFailure`; no edit is lost and the run goes on.
 */
export async function formatChangedFiles(
  result: MigrationResult,
  onFailure: (failure: FormatFailure) => void,
): Promise<MigrationResult> {
  const files: FileOutcome[] = [];
  for (const outcome of result.files) {
    if (outcome.status !== 'changed' || outcome.original === undefined || outcome.output === undefined) {
      files.push(outcome);
      continue;
    }
    const bom = outcome.output.startsWith(BOM) ? BOM : '';
    const original = outcome.original.slice(outcome.original.startsWith(BOM) ? 1 : 0);
    const formatted = await formatOutput(outcome.file, original, outcome.output.slice(bom.length));
    if (typeof formatted === 'string') {
      files.push({ ...outcome, output: bom + formatted });
    } else {
      onFailure(formatted);
      files.push(outcome);
    }
  }
  return { ...result, files };
}

/** The one stderr line for a failure, the file relative to `cwd`. */
export function describeFormatFailure(failure: FormatFailure, cwd: string): string {
  const relative = path.relative(cwd, failure.file).replaceAll('\\', '/');
  return `${relative}: ${failure.formatter} failed (${failure.message}), so the file keeps migrate's own layout`;
}
