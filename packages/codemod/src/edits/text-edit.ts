/** Replace the characters in `[start, end)` of the original text with `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /**
   * Only whitespace that lays out moved code (a re-indented line). It gives way to any other
   * edit it overlaps, which may rewrite or delete that line, instead of conflicting with it.
   */
  readonly layout?: boolean;
}

/** Two edits touch the same characters, so applying both would corrupt the file. */
export class EditConflictError extends Error {
  override readonly name = 'EditConflictError';
}

/** Insertions (empty ranges) at one position keep the order they were planned in. */
function compare(a: TextEdit, b: TextEdit): number {
  return a.start - b.start || a.end - b.end;
}

/**
 * Applies edits planned against `original`, all at once. Overlapping ranges are a planning bug
 * and throw, except a layout edit, which is dropped; touching ranges are fine. Only the
 * characters inside the ranges change.
 */
export function applyTextEdits(original: string, edits: readonly TextEdit[]): string {
  const changes = edits.filter((edit) => edit.layout !== true);
  const kept = edits.filter(
    (edit) =>
      edit.layout !== true || !changes.some((change) => change.start < edit.end && edit.start < change.end),
  );
  const sorted = kept
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => compare(a.edit, b.edit) || a.order - b.order)
    .map(({ edit }) => edit);
  let result = '';
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor) {
      throw new EditConflictError(`edits overlap at offset ${edit.start} (previous edit ends at ${cursor})`);
    }
    if (edit.end < edit.start || edit.end > original.length) {
      throw new EditConflictError(`edit range [${edit.start}, ${edit.end}) is outside the file`);
    }
    result += original.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + original.slice(cursor);
}

/** Whether `[start, end)` lies inside a range some edit deletes or replaces. */
export function isInsideEditedRange(edits: readonly TextEdit[], start: number, end: number): boolean {
  return edits.some((edit) => edit.start <= start && end <= edit.end && edit.start < edit.end);
}
