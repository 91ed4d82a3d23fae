/** Line-oriented helpers over raw text; offsets are UTF-16 indexes as TypeScript reports them. */

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the line break that ends the line holding `offset` (or the text's end). */
export function nextLineStartOf(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** The whitespace a line starts with. */
export function indentationAt(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** Whether only spaces and tabs stand between the start of the line and `offset`. */
export function startsItsLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStartOf(text, offset), offset));
}

/** Whether only spaces, tabs and a `,` or `;` stand between `offset` and the end of its line. */
export function endsItsLine(text: string, offset: number): boolean {
  const end = text.indexOf('\n', offset);
  return /^[ \t]*[,;]?[ \t]*\r?$/.test(text.slice(offset, end === -1 ? text.length : end));
}

export function isBlankLine(text: string, lineStart: number): boolean {
  const end = text.indexOf('\n', lineStart);
  return /^[ \t]*\r?$/.test(text.slice(lineStart, end === -1 ? text.length : end));
}

/** One-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: offset - lineStartOf(text, offset) + 1 };
}
