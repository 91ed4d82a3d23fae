import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { HelperFunction } from './eligible-handlers.js';

// A URL-mode handler that learns of completion by awaiting a promise it made before the question
// (`const { completed } = flows.begin(id)`, then `await Promise.race([completed, timeout])`) waits
// in-process: only the instance that made the promise can see it settle. Under MRTR the call
// ends with input_required and the retry runs the handler again, perhaps on another instance,
// where that promise no longer exists. Nothing in the syntax says which server-side record the
// promise stands for, so such a handler stays manual with this reason.

/** The first promise made before `question` and awaited after it in `fn`, with the await. */
export function inProcessWait(
  context: FileContext,
  fn: HelperFunction,
  question: ts.CallExpression,
): { readonly promise: ts.Identifier; readonly wait: ts.AwaitExpression } | undefined {
  const checker = context.checker;
  const madeBefore = (identifier: ts.Identifier): boolean => {
    const declaration = checker.getSymbolAtLocation(identifier)?.valueDeclaration;
    if (
      declaration === undefined ||
      !(ts.isVariableDeclaration(declaration) || ts.isBindingElement(declaration)) ||
      declaration.pos < fn.pos ||
      declaration.end > question.pos
    )
      return false;
    return checker.getTypeAtLocation(identifier).getSymbol()?.getName() === 'Promise';
  };
  let found: { promise: ts.Identifier; wait: ts.AwaitExpression } | undefined;
  const inOperand = (wait: ts.AwaitExpression, node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isIdentifier(node) && madeBefore(node)) {
      found = { promise: node, wait };
      return;
    }
    ts.forEachChild(node, (child) => inOperand(wait, child));
  };
  const visit = (node: ts.Node): void => {
    if (found !== undefined) return;
    if (ts.isAwaitExpression(node) && node.pos >= question.end) inOperand(node, node.expression);
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return found;
}
