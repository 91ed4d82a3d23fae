import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { HelperFunction } from './eligible-handlers.js';

// How a helper receives its handler's round. A parameter that only carries questions (the server,
// `extra` or `ctx` it asks through, and passes on to helpers that ask) becomes the round. A helper
// that asks through `this.server`, a module's server, or a parameter it also uses for something
// else (capabilities, logging) keeps its parameters and gains the round as its first one.

/** Where a helper's round goes in its parameter list. */
export type RoundSlot =
  { readonly kind: 'replaces'; readonly parameter: ts.ParameterDeclaration } | { readonly kind: 'added' };

function isThisParameter(parameter: ts.ParameterDeclaration | undefined): boolean {
  return parameter !== undefined && ts.isIdentifier(parameter.name) && parameter.name.text === 'this';
}

/** The argument index the slot's round takes in a call. */
export function roundArgumentIndex(fn: HelperFunction, slot: RoundSlot): number {
  const offset = isThisParameter(fn.parameters[0]) ? 1 : 0;
  return slot.kind === 'replaces' ? fn.parameters.indexOf(slot.parameter) - offset : 0;
}

/** The edit declaring the round (`declaration` is `round: Round`, or `round` in JavaScript). */
export function roundParameterEdit(
  context: FileContext,
  fn: HelperFunction,
  slot: RoundSlot,
  declaration: string,
): TextEdit {
  const file = context.sourceFile;
  const parameters = fn.parameters;
  // `async x => …` has no parentheses to type a parameter or add one in.
  const only = parameters[0];
  const bare = ts.isArrowFunction(fn) && only !== undefined && !hasParentheses(file, fn);
  if (slot.kind === 'replaces')
    return {
      start: slot.parameter.getStart(file),
      end: slot.parameter.end,
      text: bare ? `(${declaration})` : declaration,
    };
  if (bare)
    return { start: only.getStart(file), end: only.end, text: `(${declaration}, ${context.textOf(only)})` };
  const skipped = isThisParameter(parameters[0]) ? 1 : 0;
  const next = parameters[skipped];
  if (next !== undefined)
    return { start: next.getStart(file), end: next.getStart(file), text: `${declaration}, ` };
  if (skipped === 1) return { start: parameters[0]!.end, end: parameters[0]!.end, text: `, ${declaration}` };
  return { start: parameters.pos, end: parameters.pos, text: declaration };
}

function hasParentheses(file: ts.SourceFile, fn: ts.ArrowFunction): boolean {
  return fn.getChildren(file).some((child) => child.kind === ts.SyntaxKind.OpenParenToken);
}

/**
 * The edit passing `round` to a helper call, and the argument it replaces (whose uses the
 * caller no longer has), or why the call cannot pass it.
 */
export function roundArgumentEdit(
  context: FileContext,
  call: ts.CallExpression,
  fn: HelperFunction,
  slot: RoundSlot,
  round: string,
): { readonly edit: TextEdit; readonly replaced?: ts.Expression } | string {
  const file = context.sourceFile;
  const index = roundArgumentIndex(fn, slot);
  const spread = call.arguments.findIndex((argument) => ts.isSpreadElement(argument));
  if (spread !== -1 && spread <= index)
    return `a call on line ${context.lineOf(call)} spreads its arguments, so the round's place in them is unknown`;
  if (slot.kind === 'replaces') {
    const argument = call.arguments[index];
    if (argument === undefined)
      return `a call on line ${context.lineOf(call)} does not pass the argument the helper asks through`;
    return { edit: { start: argument.getStart(file), end: argument.end, text: round }, replaced: argument };
  }
  const first = call.arguments[0];
  if (first === undefined)
    return { edit: { start: call.arguments.pos, end: call.arguments.pos, text: round } };
  return { edit: { start: first.getStart(file), end: first.getStart(file), text: `${round}, ` } };
}
