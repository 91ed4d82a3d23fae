import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import {
  enclosingFunction,
  findProperty,
  propertyNameText,
  unwrapExpression,
} from '../../analysis/syntax.js';
import type { PushCall } from './push-calls.js';

// A request built in a variable before its send (`const request: CreateMessageRequest = { method:
// 'sampling/createMessage', params }`, then `extra.sendRequest(request, Schema)`) is rewritten in
// place: the variable holds the runtime's request (`const request = createMessage(params)`),
// built where it was, so its params are evaluated when they were, and the send asks with it.

/** The variable a request is built in, when the rewrite may build the runtime's request there instead. */
export interface BuiltRequest {
  readonly declaration: ts.VariableDeclaration;
  readonly name: ts.Identifier;
  /** The `{ method, params }` object as written, perhaps asserted (`{ … } as ElicitRequest`). */
  readonly initializer: ts.Expression;
}

/**
 * The variable a push call's request was built in, or why the rewrite leaves it by hand: it must
 * be a `const` of the function that sends it, holding an object literal of only `method` and
 * `params`, and used by that send alone.
 */
export function builtRequest(context: FileContext, push: PushCall): BuiltRequest | string | undefined {
  const variable = push.builtApart;
  if (variable === undefined) return undefined;
  const byHand = `the request is built in \`${variable.text}\` before the call`;
  const declaration = context.checker.getSymbolAtLocation(variable)?.valueDeclaration;
  const object = push.requestObject;
  if (
    declaration === undefined ||
    !ts.isVariableDeclaration(declaration) ||
    !ts.isIdentifier(declaration.name) ||
    declaration.initializer === undefined ||
    object === undefined ||
    unwrapExpression(declaration.initializer) !== object
  )
    return `${byHand}, not as a { method, params } object in a const; write the object in the call to have it rewritten`;
  const list = declaration.parent;
  if (!ts.isVariableDeclarationList(list) || (list.flags & ts.NodeFlags.Const) === 0)
    return `${byHand} in a variable that may change; make it a const, or write the object in the call, to have it rewritten`;
  if (enclosingFunction(declaration) !== enclosingFunction(push.call))
    return `${byHand}, outside the function that sends it; build it there, or write the object in the call, to have it rewritten`;
  const other = object.properties.find((property) => {
    const key = property.name === undefined ? undefined : propertyNameText(property.name);
    const written = ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property);
    return !written || (key !== 'method' && key !== 'params');
  });
  if (other !== undefined)
    return `${byHand}, with more than its method and params (line ${context.lineOf(other)}); write the object in the call to have it rewritten`;
  const scope = enclosingFunction(declaration) ?? declaration.getSourceFile();
  const symbol = context.checker.getSymbolAtLocation(declaration.name);
  const uses =
    symbol === undefined ? [] : identifiersReferringTo(context.checker, scope, symbol, declaration.name);
  if (uses.length !== 1 || unwrapExpression(push.call.arguments[0]!) !== uses[0])
    return `${byHand} and used elsewhere too; write the object in the call to have it rewritten`;
  if (push.params === undefined && findProperty(object, 'params') !== undefined)
    return `${byHand}, with params the codemod cannot read; write the object in the call to have it rewritten`;
  return { declaration, name: declaration.name, initializer: declaration.initializer };
}
