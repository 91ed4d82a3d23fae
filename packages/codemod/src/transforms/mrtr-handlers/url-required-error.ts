import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import {
  findProperty,
  propertyNameText,
  propertyValue,
  singleValueDeclaration,
  unwrapExpression,
} from '../../analysis/syntax.js';
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

/**
 * The elicitation the error carries: its object literal, and the variable it was built in when it
 * is not inline. Its message and url are then read through that variable where the error is
 * thrown, as the error read them, so nothing is evaluated at another time than before.
 */
interface Elicitation {
  readonly literal: ts.ObjectLiteralExpression;
  readonly variable?: ts.Identifier;
}

/** `elicitation` in `[elicitation]`: the object literal a variable holds for good. */
function constElicitation(
  context: FileContext,
  element: ts.Expression,
): { literal: ts.ObjectLiteralExpression; variable: ts.Identifier } | undefined {
  if (!ts.isIdentifier(element)) return undefined;
  const declaration = singleValueDeclaration(context.checker, element);
  if (declaration === undefined) return undefined;
  const literal = unwrapExpression(declaration.initializer);
  return ts.isObjectLiteralExpression(literal) ? { literal, variable: element } : undefined;
}

/** The one literal elicitation the error carries, or why the codemod cannot read it. */
function singleElicitation(context: FileContext, node: ts.NewExpression): Elicitation | string {
  // The error's own message (its second argument) went to the client with -32042; input_required
  // has no place for it.
  const list = node.arguments?.[0];
  const array = list === undefined ? undefined : unwrapExpression(list);
  if (array === undefined || !ts.isArrayLiteralExpression(array))
    return 'its elicitations are not an array literal';
  if (array.elements.length !== 1) return 'it carries several elicitations; ask for them together by hand';
  const element = unwrapExpression(array.elements[0]!);
  const found = ts.isObjectLiteralExpression(element)
    ? { literal: element }
    : constElicitation(context, element);
  if (found === undefined)
    return 'its elicitation is neither an object literal nor a variable holding one for good';
  const { literal } = found;
  const names = literal.properties.map((property) =>
    ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)
      ? propertyNameText(property.name)
      : undefined,
  );
  if (names.some((name) => name === undefined || !URL_PARAMS.has(name)))
    return 'its elicitation holds more than mode, message, url and elicitationId';
  if (findProperty(literal, 'message') === undefined || findProperty(literal, 'url') === undefined)
    return 'its elicitation lacks a message or url';
  return found;
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
  const elicitation = singleElicitation(context, node);
  if (typeof elicitation === 'string') return why(elicitation);
  const builder = context.importFor(RUNTIME_PACKAGE, 'elicitUrl');
  const style = context.style;
  const name = [handler.name && snakeCase(handler.name), 'url_required'].filter(Boolean).join('_');
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : quoteString(style, name);
  const read = (name: 'message' | 'url') =>
    elicitation.variable === undefined
      ? context.textOf(propertyValue(findProperty(elicitation.literal, name)!))
      : `${elicitation.variable.text}.${name}`;
  const message = read('message');
  const url = read('url');
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
