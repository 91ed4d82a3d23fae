import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { enclosingFunction, unwrapExpression } from '../../analysis/syntax.js';
import { removeListElements, removeStatement } from '../../edits/removal.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { PushCall } from './push-calls.js';

// A generic send taken off the handler's context and called bare: `async (args, { sendRequest })
// => …`, `const { sendRequest } = extra`, `const send = extra.sendRequest` (or `.bind(extra)`), or
// a helper's `send` parameter. Its calls are rewritten as `extra.sendRequest(…)` is, when the
// sender is taken in the function that calls it; the binding goes when nothing else uses it.

interface Range {
  readonly start: number;
  readonly end: number;
}

/** Where a sender called bare is declared, relative to the function calling it. */
type SenderBinding =
  /** `async (args, { sendRequest }) => …`: an element of the function's destructured parameter. */
  | { readonly kind: 'parameter-pattern'; readonly parameter: ts.ParameterDeclaration }
  /** `const { sendRequest } = extra`, `const send = extra.sendRequest`: taken in the function's body. */
  | { readonly kind: 'local'; readonly declaration: ts.VariableDeclaration; readonly owner: ts.Identifier }
  /** A helper's `send` parameter: the round takes its place. */
  | { readonly kind: 'parameter'; readonly parameter: ts.ParameterDeclaration };

/**
 * The owner a local sender was taken off: the identifier in `const { sendRequest } = extra`,
 * `const send = extra.sendRequest` or `extra.sendRequest.bind(extra)`.
 */
function localOwner(push: PushCall): ts.Identifier | undefined {
  const receiver = push.receiver === undefined ? undefined : unwrapExpression(push.receiver);
  return receiver !== undefined && ts.isIdentifier(receiver) && receiver !== push.sender
    ? receiver
    : undefined;
}

/** How a push call's bare sender is declared, or why the codemod does not follow it. */
function senderBinding(context: FileContext, push: PushCall): SenderBinding | string | undefined {
  const sender = push.sender;
  if (sender === undefined) return undefined;
  const fn = enclosingFunction(push.call);
  const declaration = context.checker.getSymbolAtLocation(sender)?.valueDeclaration;
  const taken = declaration === undefined ? '' : ` (line ${context.lineOf(declaration)})`;
  const elsewhere = `${sender.text}() is taken off the context${taken} outside the function that calls it, which the codemod does not follow; call \`${push.member}\` on the context where it is called to have it rewritten`;
  if (declaration === undefined || fn === undefined) return elsewhere;
  if (ts.isParameter(declaration))
    return declaration.parent === fn ? { kind: 'parameter', parameter: declaration } : elsewhere;
  if (ts.isBindingElement(declaration)) {
    const pattern = declaration.parent;
    const holder = pattern.parent;
    if (ts.isParameter(holder) && ts.isObjectBindingPattern(pattern))
      return holder.parent === fn ? { kind: 'parameter-pattern', parameter: holder } : elsewhere;
    if (!ts.isVariableDeclaration(holder) || !ts.isObjectBindingPattern(pattern))
      return `${sender.text}() is taken off the context in a nested destructuring, which the codemod does not follow; call \`${push.member}\` on the context to have it rewritten`;
    return localBinding(context, push, holder, fn, elsewhere);
  }
  if (ts.isVariableDeclaration(declaration)) return localBinding(context, push, declaration, fn, elsewhere);
  return elsewhere;
}

function localBinding(
  context: FileContext,
  push: PushCall,
  declaration: ts.VariableDeclaration,
  fn: ts.FunctionLikeDeclaration,
  elsewhere: string,
): SenderBinding | string {
  if (enclosingFunction(declaration) !== fn) return elsewhere;
  const owner = localOwner(push);
  const list = declaration.parent;
  const ownerParameter =
    owner === undefined ? undefined : context.checker.getSymbolAtLocation(owner)?.valueDeclaration;
  if (
    owner === undefined ||
    ownerParameter === undefined ||
    !ts.isParameter(ownerParameter) ||
    ownerParameter.parent !== fn ||
    !ts.isVariableDeclarationList(list) ||
    (list.flags & ts.NodeFlags.Const) === 0
  )
    return `${push.sender!.text}() is taken off ${push.receiver === undefined ? 'a value' : context.textOf(push.receiver)} on line ${context.lineOf(declaration)}, which the codemod follows only in a const taken off a parameter of the function that calls it; call \`${push.member}\` on the context itself to have it rewritten`;
  return { kind: 'local', declaration, owner };
}

/** Why a push call's bare sender keeps it from being rewritten, if it does. */
export function takenSenderReason(context: FileContext, push: PushCall): string | undefined {
  const binding = senderBinding(context, push);
  return typeof binding === 'string' ? binding : undefined;
}

/** Whether an identifier refers to `symbol` outside the given ranges. */
function usedOutside(
  context: FileContext,
  scope: ts.Node,
  name: ts.Identifier,
  removed: readonly Range[],
): boolean {
  const symbol = context.checker.getSymbolAtLocation(name);
  let used = false;
  const visit = (node: ts.Node): void => {
    if (used) return;
    if (ts.isIdentifier(node) && node !== name) {
      const start = node.getStart(context.sourceFile);
      const target =
        ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
          ? context.checker.getShorthandAssignmentValueSymbol(node.parent)
          : context.checker.getSymbolAtLocation(node);
      if (target === symbol && !removed.some((range) => range.start <= start && node.end <= range.end))
        used = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return used;
}

/**
 * The elements of a destructured context parameter that the body still uses once its questions
 * are rewritten (`signal` in `{ sendRequest, signal }`), as written.
 */
export function keptContextElements(
  context: FileContext,
  pattern: ts.ObjectBindingPattern,
  body: ts.Node,
  removed: readonly Range[],
): string[] | string {
  const kept: string[] = [];
  for (const element of pattern.elements) {
    if (element.dotDotDotToken !== undefined || !ts.isIdentifier(element.name))
      return 'the handler destructures its extra/ctx parameter with a rest element or a nested pattern';
    if (usedOutside(context, body, element.name, removed)) kept.push(context.textOf(element));
  }
  return kept;
}

/**
 * The edits removing the senders taken in a function's body that nothing uses once their calls
 * are rewritten (`const { sendRequest } = extra;`), and the ranges they remove.
 */
export function unusedSenderEdits(
  context: FileContext,
  fn: ts.FunctionLikeDeclaration,
  pushes: readonly PushCall[],
  removed: readonly Range[],
): { edits: TextEdit[]; removed: Range[] } {
  const file = context.sourceFile;
  const body = fn.body ?? fn;
  const declarations = new Map<ts.VariableDeclaration, ts.Identifier[]>();
  for (const push of pushes) {
    const binding = senderBinding(context, push);
    if (typeof binding !== 'object' || binding.kind !== 'local') continue;
    const names = declarations.get(binding.declaration) ?? [];
    if (!names.some((name) => name.text === push.sender!.text)) names.push(push.sender!);
    declarations.set(binding.declaration, names);
  }
  const edits: TextEdit[] = [];
  const gone: Range[] = [];
  for (const [declaration, senders] of declarations) {
    const unused = new Set<ts.Node>(
      senders.flatMap((sender) => {
        const name = declaredName(context, sender);
        return name === undefined || usedOutside(context, body, name, removed) ? [] : [name];
      }),
    );
    if (unused.size === 0) continue;
    const list = declaration.parent as ts.VariableDeclarationList;
    const statement = list.parent;
    const elements = ts.isObjectBindingPattern(declaration.name) ? declaration.name.elements : undefined;
    const emptied = elements === undefined || elements.every((element) => unused.has(element.name));
    if (emptied) {
      // `const send = extra.sendRequest;` or a pattern left with nothing: the statement goes.
      if (list.declarations.length !== 1 || !ts.isVariableStatement(statement)) continue;
      edits.push(removeStatement(file, statement));
      gone.push({ start: statement.getStart(file), end: statement.end });
      continue;
    }
    const indexes = elements.flatMap((element, index) => (unused.has(element.name) ? [index] : []));
    edits.push(...removeListElements(file, elements, indexes));
    for (const index of indexes)
      gone.push({ start: elements[index]!.getStart(file), end: elements[index]!.end });
  }
  return { edits, removed: gone };
}

/** The identifier a sender's declaration names (`ask` in `const { sendRequest: ask } = extra`). */
function declaredName(context: FileContext, sender: ts.Identifier): ts.Identifier | undefined {
  const declared = context.checker.getSymbolAtLocation(sender)?.valueDeclaration;
  return declared !== undefined &&
    (ts.isBindingElement(declared) || ts.isVariableDeclaration(declared)) &&
    ts.isIdentifier(declared.name)
    ? declared.name
    : undefined;
}
