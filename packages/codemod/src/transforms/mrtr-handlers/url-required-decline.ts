import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { indentationAt } from '../../edits/line-ranges.js';
import { quoteString, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';

// The thrown UrlElicitationRequiredError ended the call at once: the client got -32042 and the
// user's decline never reached the server. Its rewrite asks within the call, and the handler runs
// again on the retry; were a decline or cancel not handled there, the check before the throw would
// ask again until the client's round limit. So a decline or cancel of that question ends the call
// with the error's own message, as the throw did; an accept means only that the user agreed to
// open the link, so the check before it decides again.

/** What the SDK's UrlElicitationRequiredError says when the throw gives no message of its own. */
const DEFAULT_MESSAGE = 'URL elicitation required';

/**
 * `if (<declined or cancelled>) throw new Error(<message>);` to write before the statement that
 * replaces the throw (`prefix`), and the edits bracing the branch when the throw was an if's or
 * else's single statement; or why the statement cannot take it.
 */
export function declineEdits(
  context: FileContext,
  statement: ts.ThrowStatement,
  error: ts.NewExpression,
  round: string,
  key: string,
): { prefix: string; edits: TextEdit[] } | string {
  const { style, text } = context;
  const file = context.sourceFile;
  const message = error.arguments?.[1];
  const messageText = message === undefined ? quoteString(style, DEFAULT_MESSAGE) : context.textOf(message);
  const accept = quoteString(style, 'accept');
  const check = `if ((${round}.urlElicitation(${quoteString(style, key)})?.action ?? ${accept}) !== ${accept}) throw new Error(${messageText})${semicolon(style)}`;
  const start = statement.getStart(file);
  const parent = statement.parent;
  if (ts.isBlock(parent) || ts.isCaseClause(parent) || ts.isDefaultClause(parent) || ts.isSourceFile(parent))
    return { prefix: `${check}${style.newline}${indentationAt(text, start)}`, edits: [] };
  if (!ts.isIfStatement(parent))
    return 'the throw is the single statement of a loop; put it in braces and run again';
  // `if (x) throw …` or `else throw …`: the branch becomes a block.
  const outer = indentationAt(text, parent.getStart(file));
  const inner = `${outer}${style.indentUnit}`;
  let before = start;
  while (before > 0 && /\s/.test(text[before - 1]!)) before--;
  return {
    prefix: `${check}${style.newline}${inner}`,
    edits: [
      { start: before, end: start, text: ` {${style.newline}${inner}` },
      { start: statement.end, end: statement.end, text: `${style.newline}${outer}}` },
    ],
  };
}
