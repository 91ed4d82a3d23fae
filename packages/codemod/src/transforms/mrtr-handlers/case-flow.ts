import { ts } from 'ts-morph';

// Where control goes at the end of a statement or a switch clause, read from the syntax alone.

/** Whether control never leaves the statement normally: it ends in `return` or `throw`. */
export function alwaysExits(statement: ts.Statement): boolean {
  if (ts.isReturnStatement(statement) || ts.isThrowStatement(statement)) return true;
  if (ts.isBlock(statement)) {
    const last = statement.statements.at(-1);
    return last !== undefined && alwaysExits(last);
  }
  if (ts.isIfStatement(statement))
    return (
      statement.elseStatement !== undefined &&
      alwaysExits(statement.thenStatement) &&
      alwaysExits(statement.elseStatement)
    );
  return false;
}

/** Whether a switch clause falls into the next one. */
export function fallsThrough(clause: ts.CaseOrDefaultClause): boolean {
  const last = clause.statements.at(-1);
  if (last === undefined) return true;
  if (ts.isBreakStatement(last) || ts.isContinueStatement(last)) return false;
  if (ts.isBlock(last) && clause.statements.length === 1) {
    const inner = last.statements.at(-1);
    if (inner !== undefined && (ts.isBreakStatement(inner) || alwaysExits(inner))) return false;
  }
  return !alwaysExits(last);
}
