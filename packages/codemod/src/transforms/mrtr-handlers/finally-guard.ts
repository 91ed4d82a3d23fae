import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import { indentationAt, lineStartOf, startsItsLine } from '../../edits/line-ranges.js';
import { shiftIndentEdits } from '../../edits/reindent.js';
import { semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { freshName } from './replay-handler.js';

// A finally block around a question runs on a suspended round too, when the original was still
// waiting for the answer and had not reached it. Its statements run only when the try block did
// not end in a suspension: a flag, set where the suspension passes through a catch block, says
// so. The step planner decides which finally blocks may run once this way (step-planner.ts).

/** The edits for the guarded finally blocks, and each one's flag for the catch block that sets it. */
export interface FinallyGuards {
  readonly edits: TextEdit[];
  /** A try statement with a catch clause whose catch must set the flag (catchEdits). */
  readonly flags: Map<ts.TryStatement, string>;
}

/**
 * `let suspended = false;` before each try statement, `if (!suspended) { … }` around its finally
 * block's statements, and, when it has no catch clause, `catch (error) { suspended =
 * isSuspension(error); throw error; }` so it has one that sets the flag.
 */
export function finallyGuardEdits(
  context: FileContext,
  fn: ts.Node,
  statements: readonly ts.TryStatement[],
  imports: ImportRequest[],
  /** The steps planned in those blocks, which lay out their own lines one level deeper. */
  steps: readonly TextEdit[],
): FinallyGuards {
  const edits: TextEdit[] = [];
  const flags = new Map<ts.TryStatement, string>();
  if (statements.length === 0) return { edits, flags };
  const { sourceFile, style, text } = context;
  const newline = style.newline;
  const end = semicolon(style);
  for (const statement of statements) {
    const finallyBlock = statement.finallyBlock!;
    const flag = freshName(fn, 'suspended');
    const start = statement.getStart(sourceFile);
    const indent = indentationAt(text, start);
    const inner = indent + style.indentUnit;
    edits.push({ start, end: start, text: `let ${flag} = false${end}${newline}${indent}` });
    if (statement.catchClause === undefined) {
      const isSuspension = context.importFor(RUNTIME_PACKAGE, 'isSuspension');
      imports.push(isSuspension);
      const error = freshName(statement, 'error');
      const tryEnd = statement.tryBlock.end;
      edits.push({
        start: tryEnd,
        end: tryEnd,
        text: ` catch (${error}) {${newline}${inner}${flag} = ${isSuspension.local}(${error})${end}${newline}${inner}throw ${error}${end}${newline}${indent}}`,
      });
    } else {
      flags.set(statement, flag);
    }
    const open = finallyBlock.getStart(sourceFile) + 1;
    const close = finallyBlock.end - 1;
    if (!startsItsLine(text, close)) {
      // `finally { release(); }` on one line stays on one line.
      edits.push(
        { start: open, end: open, text: ` if (!${flag}) {` },
        { start: close, end: close, text: '} ' },
      );
      continue;
    }
    const closingLine = lineStartOf(text, close);
    edits.push(
      { start: open, end: open, text: `${newline}${inner}if (!${flag}) {` },
      ...shiftIndentEdits(sourceFile, finallyBlock, inner, inner + style.indentUnit).filter(
        (shift) => !steps.some((step) => step.layout === true && step.start === shift.start),
      ),
      { start: closingLine, end: closingLine, text: `${inner}}${newline}` },
    );
  }
  return { edits, flags };
}
