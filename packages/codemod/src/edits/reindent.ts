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
 * The edits that shift the continuation lines of a node that moves from the line at `from` to
 * the line at `to`, so that it keeps its shape relative to its new line. Lines inside string and
 * template literals are left alone: there the whitespace is part of the value.
 */
export function reindentEdits(
  sourceFile: ts.SourceFile,
  node: ts.Node,
  from: number,
  to: number,
): TextEdit[] {
  const text = sourceFile.text;
  const oldIndent = indentationAt(text, from);
  const newIndent = indentationAt(text, to);
  if (oldIndent === newIndent) return [];
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
      edits.push({ start: line, end: line + oldIndent.length, text: newIndent });
    }
  }
  return edits;
}
