import { ts } from 'ts-morph';
import { isBlankLine, lineStartOf, nextLineStartOf, startsItsLine } from './line-ranges.js';
import type { TextEdit } from './text-edit.js';

/**
 * The edit that removes a statement. A statement alone on its lines goes with its lines, and with
 * a blank line that would otherwise double another or sit just before a closing brace. Comments
 * above it stay: they are the user's words.
 */
export function removeStatement(sourceFile: ts.SourceFile, statement: ts.Statement): TextEdit {
  const text = sourceFile.text;
  const start = statement.getStart(sourceFile);
  const end = statement.end;
  const afterEnd = nextLineStartOf(text, end);
  if (!startsItsLine(text, start) || text.slice(end, afterEnd).trim() !== '') {
    return { start, end, text: '' };
  }
  const lineStart = lineStartOf(text, start);
  const previousLineStart = lineStartOf(text, lineStart - 1);
  const blankBefore = lineStart === 0 || (lineStart > 0 && isBlankLine(text, previousLineStart));
  const blankAfter = afterEnd < text.length && isBlankLine(text, afterEnd);
  const closesBlock = /^[ \t]*[}\])]/.test(text.slice(afterEnd, nextLineStartOf(text, afterEnd)));
  // Two blank lines would meet, or a blank line would end up just before a closing brace.
  const dropBlankAfter = blankAfter && (blankBefore || closesBlock);
  return { start: lineStart, end: dropBlankAfter ? nextLineStartOf(text, afterEnd) : afterEnd, text: '' };
}

/**
 * The edit that removes one element of a comma-separated list (object literal property, call
 * argument) together with the comma that separates it from its neighbours. An element alone on
 * its lines goes with its lines.
 */
export function removeListElement(
  sourceFile: ts.SourceFile,
  list: ts.NodeArray<ts.Node>,
  index: number,
): TextEdit {
  const text = sourceFile.text;
  const element = list[index];
  if (element === undefined) throw new RangeError(`no element ${index} in the list`);
  const start = element.getStart(sourceFile);
  let end = element.end;
  const commaAfter = skipTrivia(text, end);
  const hasCommaAfter = text[commaAfter] === ',';
  if (hasCommaAfter) end = commaAfter + 1;

  if (startsItsLine(text, start)) {
    const lineEnd = nextLineStartOf(text, end);
    if (text.slice(end, lineEnd).trim() === '')
      return { start: lineStartOf(text, start), end: lineEnd, text: '' };
  }
  const next = list[index + 1];
  if (next !== undefined) return { start, end: next.getStart(sourceFile), text: '' };
  const previous = list[index - 1];
  if (previous !== undefined) {
    // The last element: take the comma before it, keep a trailing comma if there was one.
    return { start: previous.end, end: hasCommaAfter ? end - 1 : element.end, text: '' };
  }
  // The only element: leave the braces or parentheses empty, `{}`, without the space inside.
  const close = skipTrivia(text, end);
  if (!containsComment(text, list.pos, close)) return { start: list.pos, end: close, text: '' };
  return { start, end, text: '' };
}

/** The offset of the first character at or after `offset` that is not whitespace or a comment. */
export function skipTrivia(text: string, offset: number): number {
  let at = offset;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith('//', at)) {
      const newline = text.indexOf('\n', at);
      at = newline === -1 ? text.length : newline + 1;
    } else if (text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      at = close === -1 ? text.length : close + 2;
    } else {
      return at;
    }
  }
}

/** Whether `[start, end)` of the text holds a comment. */
export function containsComment(text: string, start: number, end: number): boolean {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  scanner.resetTokenState(start);
  for (let token = scanner.scan(); scanner.getTokenStart() < end; token = scanner.scan()) {
    if (token === ts.SyntaxKind.EndOfFileToken) return false;
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia)
      return true;
  }
  return false;
}

/**
 * The edits that remove several elements of one list. Elements on lines of their own go line by
 * line (a trailing comma left on the new last element is valid everywhere a list can be);
 * otherwise the span from the first to the last element is rewritten from the kept elements'
 * own text.
 */
export function removeListElements(
  sourceFile: ts.SourceFile,
  list: ts.NodeArray<ts.Node>,
  indexes: readonly number[],
): TextEdit[] {
  const unique = [...new Set(indexes)].sort((a, b) => a - b);
  if (unique.length <= 1) return unique.map((index) => removeListElement(sourceFile, list, index));
  const text = sourceFile.text;
  const ownLines = unique.every((index) => {
    const element = list[index]!;
    const afterComma = skipTrivia(text, element.end);
    const end = text[afterComma] === ',' ? afterComma + 1 : element.end;
    return (
      startsItsLine(text, element.getStart(sourceFile)) &&
      text.slice(end, nextLineStartOf(text, end)).trim() === ''
    );
  });
  if (ownLines) return unique.map((index) => removeListElement(sourceFile, list, index));
  const first = list[0]!;
  if (unique.length === list.length) {
    // Every element goes: leave the braces or parentheses empty, `{}`.
    const close = skipTrivia(text, list.end);
    if (!containsComment(text, list.pos, close)) return [{ start: list.pos, end: close, text: '' }];
  }
  const last = list[list.length - 1]!;
  const kept = list
    .filter((_, index) => !unique.includes(index))
    .map((element) => text.slice(element.getStart(sourceFile), element.end));
  return [{ start: first.getStart(sourceFile), end: last.end, text: kept.join(', ') }];
}
