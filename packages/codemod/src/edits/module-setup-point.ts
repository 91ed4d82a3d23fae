import { ts } from 'ts-morph';
import { isRequireStatement } from './imports.js';
import { lineStartOf } from './line-ranges.js';

// Module-level setup a transform adds (the runtime's sealer, an SDK adapter) goes after the
// imports, directives and re-exports, and before the comments attached to the first statement.

function isPreamble(statement: ts.Statement): boolean {
  return (
    ts.isImportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined) ||
    isRequireStatement(statement) ||
    (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression))
  );
}

/** The first statement after the imports, and where its attached leading comments start. */
export function moduleSetupPoint(
  sourceFile: ts.SourceFile,
): { statement: ts.Statement; offset: number } | undefined {
  const statement = sourceFile.statements.find((candidate) => !isPreamble(candidate));
  if (statement === undefined) return undefined;
  const text = sourceFile.text;
  let start = statement.getStart(sourceFile);
  const comments = ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? [];
  for (let i = comments.length - 1; i >= 0; i--) {
    const comment = comments[i]!;
    if (/\n[ \t]*\r?\n/.test(text.slice(comment.end, start))) break;
    start = comment.pos;
  }
  return { statement, offset: lineStartOf(text, start) };
}
