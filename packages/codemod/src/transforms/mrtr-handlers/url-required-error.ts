import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { findProperty, propertyNameText, propertyValue, unwrapExpression } from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import { quoteString } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { snakeCase } from './answer-keys.js';
import type { EligibleHandler } from './eligible-handlers.js';
import { declineEdits } from './url-required-decline.js';

// `throw new UrlElicitationRequiredError([{ mode: 'url', message, url, elicitationId }])` told the
// client to open a link and call the tool again (error -32042, gone in 2026-07-28). The MRTR form
// is `return round.inputRequired({ inputRequests: { key: elicitUrl({ message, url }) } })`: the
// client opens the link and retries by itself, and the handler runs again from the top, so the
// server-side check that led to the throw decides on the retry whether the step completed; a
// decline or cancel ends the call with the error's message (url-required-decline.ts).

const URL_PARAMS = new Set(['mode', 'message', 'url', 'elicitationId']);

/** The one literal elicitation the error carries, or why the codemod cannot read it. */
function singleElicitation(node: ts.NewExpression): ts.ObjectLiteralExpression | string {
  // The error's own message (its second argument) went to the client with -32042; input_required
  // has no place for it.
  const list = node.arguments?.[0];
  const array = list === undefined ? undefined : unwrapExpression(list);
  if (array === undefined || !ts.isArrayLiteralExpression(array))
    return 'its elicitations are not an array literal';
  if (array.elements.length !== 1) return 'it carries several elicitations; ask for them together by hand';
  const element = unwrapExpression(array.elements[0]!);
  if (!ts.isObjectLiteralExpression(element)) return 'its elicitation is not an object literal';
  const names = element.properties.map((property) =>
    ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)
      ? propertyNameText(property.name)
      : undefined,
  );
  if (names.some((name) => name === undefined || !URL_PARAMS.has(name)))
    return 'its elicitation holds more than mode, message, url and elicitationId';
  if (findProperty(element, 'message') === undefined || findProperty(element, 'url') === undefined)
    return 'its elicitation lacks a message or url';
  return element;
}

/** The statement `throw new UrlElicitationRequiredError(…)` stands in. */
function throwStatementOf(node: ts.NewExpression): ts.ThrowStatement | undefined {
  let parent: ts.Node = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return ts.isThrowStatement(parent) ? parent : undefined;
}

/**
 * The edit turning `throw new UrlElicitationRequiredError([…])` in a tool handler registered
 * through the runtime into `return round.inputRequired(…)`, or why it stays manual.
 */
export function urlRequiredEdits(
  context: FileContext,
  node: ts.NewExpression,
  handler: EligibleHandler,
  round: string,
): { edits: TextEdit[]; imports: ImportRequest[] } | string {
  const why = (what: string) => `UrlElicitationRequiredError: ${what}`;
  if (handler.kind !== 'tool' && handler.kind !== 'low-level')
    return why('only tools/call answered -32042; a prompt or resource asks for the link by hand');
  const statement = throwStatementOf(node);
  if (statement === undefined) return why('the error is not thrown where it is built');
  const elicitation = singleElicitation(node);
  if (typeof elicitation === 'string') return why(elicitation);
  const builder = context.importFor(RUNTIME_PACKAGE, 'elicitUrl');
  const style = context.style;
  const name = [handler.name && snakeCase(handler.name), 'url_required'].filter(Boolean).join('_');
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : quoteString(style, name);
  const message = context.textOf(propertyValue(findProperty(elicitation, 'message')!));
  const url = context.textOf(propertyValue(findProperty(elicitation, 'url')!));
  const request = `${builder.local}({ message: ${message}, url: ${url} })`;
  const expression = node.getStart(context.sourceFile);
  const decline = declineEdits(context, statement, node, round, name);
  if (typeof decline === 'string') return why(decline);
  return {
    edits: [
      ...decline.edits,
      { start: statement.getStart(context.sourceFile), end: expression, text: `${decline.prefix}return ` },
      {
        start: expression,
        end: node.end,
        text: `${round}.inputRequired({ inputRequests: { ${key}: ${request} } })`,
      },
    ],
    imports: [builder],
  };
}
