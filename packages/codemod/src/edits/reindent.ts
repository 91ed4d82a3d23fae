import { ts } from 'ts-morph';
import { indentationAt, nextLineStartOf } from './line-ranges.js';
import type { TextEdit } from './text-edit.js';

/** Ranges of string and template literals, whose line starts are content, not indentation. */
function literalRanges(sourceFile: ts.SourceFile, node: ts.Node): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (current: ts.Node): void => {
    if (
      ts.isStringLiteral(current) ||
      ts.isNoSubstitutionTemplateLiteral(current) ||
      ts.isTemplateExpression(current)
    ) {
      ranges.push([current.getStart(sourceFile), current.end]);
      if (!ts.isTemplateExpression(current)) return;
    }
    ts.forEachChild(current, visit);
  };
  visit(node);
  return ranges;
}

/**
 * The edits that give the continuation lines of `node` the indentation `newIndent` in place of
 * `oldIndent`, the indentation of the line it started on, so that it keeps its shape relative
 * to its new line. Lines inside string and template literals are left alone: there the
 * whitespace is part of the value. The edits are layout edits: one that another edit overlaps
 * gives way.
 */
export function shiftIndentEdits(
  sourceFile: ts.SourceFile,
  node: ts.Node,
  oldIndent: string,
  newIndent: string,
): TextEdit[] {
  if (oldIndent === newIndent) return [];
  const text = sourceFile.text;
  const literals = literalRanges(sourceFile, node);
  const edits: TextEdit[] = [];
  for (
    let line = nextLineStartOf(text, node.getStart(sourceFile));
    line < node.end;
    line = nextLineStartOf(text, line)
  ) {
    if (literals.some(([start, end]) => start < line && line < end)) continue;
    const current = indentationAt(text, line);
    if (current.startsWith(oldIndent)) {
      edits.push({ start: line, end: line + oldIndent.length, text: newIndent, layout: true });
    }
  }
  return edits;
}

/**
 * The edits that shift the continuation lines of a node that moves from the line at `from` to
 * the line at `to`, so that it keeps its shape relative to its new line.
 */
export function reindentEdits(
  sourceFile: ts.SourceFile,
  node: ts.Node,
  from: number,
  to: number,
): TextEdit[] {
  const text = sourceFile.text;
  return shiftIndentEdits(sourceFile, node, indentationAt(text, from), indentationAt(text, to));
}

/**
 * The text of `node` as it reads when copied to a line indented `newIndent`: its continuation
 * lines shifted as `shiftIndentEdits` would shift them in place.
 */
export function reindentedText(sourceFile: ts.SourceFile, node: ts.Node, newIndent: string): string {
  const start = node.getStart(sourceFile);
  const oldIndent = indentationAt(sourceFile.text, start);
  let result = '';
  let cursor = start;
  for (const edit of shiftIndentEdits(sourceFile, node, oldIndent, newIndent)) {
    result += sourceFile.text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + sourceFile.text.slice(cursor, node.end);
}
