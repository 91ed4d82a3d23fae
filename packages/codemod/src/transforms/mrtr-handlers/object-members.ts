import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { foreignCalls, placeIn, type ForeignCall } from './cross-file-calls.js';
import { functionOfSymbol, nameOfFunction, type HelperFunction } from './eligible-handlers.js';
import { asPushCall } from './push-calls.js';

// A function held by an object literal (`const api = { async confirm(…) {…} }`, or the object a
// factory returns) is followed as a helper function is, when the object is bound to a `const` and
// every use of that const is a member access: then every call of the member is in sight
// (`api.confirm(…)`, `this.confirm(…)` in the object's own methods) and can pass the round. An
// object that escapes (passed on, stored, spread, returned further, exported) may have its members
// called where the codemod cannot see, and an object typed by a declared type would no longer
// match it once the member takes the round: both stay manual, saying which.

/** A method of an object literal, or a property holding an arrow function or function expression. */
export interface ObjectMember {
  readonly fn: HelperFunction;
  readonly name: ts.Identifier;
  readonly object: ts.ObjectLiteralExpression;
}

/** The object-literal member `fn` is, when it has a plain name. */
export function objectMemberOf(fn: ts.FunctionLikeDeclaration): ObjectMember | undefined {
  if (ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent))
    return ts.isIdentifier(fn.name) ? { fn, name: fn.name, object: fn.parent } : undefined;
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return undefined;
  let outer: ts.Node = fn;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const property = outer.parent;
  if (
    !ts.isPropertyAssignment(property) ||
    property.initializer !== outer ||
    !ts.isIdentifier(property.name) ||
    !ts.isObjectLiteralExpression(property.parent)
  )
    return undefined;
  return { fn, name: property.name, object: property.parent };
}

/** A `const` that holds the object, in the file of `context`. */
interface Holder {
  readonly context: FileContext;
  readonly name: ts.Identifier;
}

/** How reasons name the member: `api.confirm`, or `createApi().confirm` for a factory's object. */
export function objectMemberLabel(member: ObjectMember): string {
  const place = objectPlace(member.object);
  if (place.kind === 'const') return `${place.declaration.name.getText()}.${member.name.text}`;
  if (place.kind === 'returned') {
    const factory = nameOfFunction(place.fn);
    if (factory !== undefined) return `${factory.text}().${member.name.text}`;
  }
  return member.name.text;
}

type Place =
  | { readonly kind: 'const'; readonly declaration: ts.VariableDeclaration & { name: ts.Identifier } }
  | { readonly kind: 'returned'; readonly fn: HelperFunction }
  | { readonly kind: 'other'; readonly node: ts.Node };

/** Where the object literal goes: a `const`, a function's result, or elsewhere. */
function objectPlace(object: ts.ObjectLiteralExpression): Place {
  let outer: ts.Node = object;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const parent = outer.parent;
  if (
    ts.isVariableDeclaration(parent) &&
    parent.initializer === outer &&
    ts.isIdentifier(parent.name) &&
    ts.isVariableDeclarationList(parent.parent) &&
    (parent.parent.flags & ts.NodeFlags.Const) !== 0
  )
    return { kind: 'const', declaration: parent as ts.VariableDeclaration & { name: ts.Identifier } };
  if (ts.isReturnStatement(parent)) {
    const fn = returningFunction(parent);
    if (fn !== undefined) return { kind: 'returned', fn };
  }
  if (ts.isArrowFunction(parent) && parent.body === outer) return { kind: 'returned', fn: parent };
  return { kind: 'other', node: parent };
}

function returningFunction(statement: ts.ReturnStatement): HelperFunction | undefined {
  for (let current = statement.parent; current !== undefined; current = current.parent) {
    if (
      ts.isArrowFunction(current) ||
      ts.isFunctionExpression(current) ||
      ts.isFunctionDeclaration(current) ||
      ts.isMethodDeclaration(current)
    )
      return current;
    if (ts.isFunctionLike(current) || ts.isClassLike(current)) return undefined;
  }
  return undefined;
}

/** What an expression that is not a plain use does with its operand, for a reason. */
function useDescription(context: FileContext, node: ts.Node): string {
  let outer = node;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const parent = outer.parent;
  if (ts.isCallExpression(parent) && parent.arguments.includes(outer as ts.Expression))
    return `passed to ${context.textOf(parent.expression)}()`;
  if (ts.isNewExpression(parent)) return `passed to new ${context.textOf(parent.expression)}()`;
  if (ts.isSpreadAssignment(parent) || ts.isSpreadElement(parent)) return 'spread';
  if (ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === outer))
    return 'returned';
  if (ts.isExportAssignment(parent) || ts.isExportSpecifier(parent)) return 'exported';
  if (ts.isElementAccessExpression(parent)) return 'indexed by a computed name';
  if (ts.isArrayLiteralExpression(parent)) return 'put in an array';
  if (
    ts.isBinaryExpression(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isShorthandPropertyAssignment(parent)
  )
    return 'stored';
  if (ts.isVariableDeclaration(parent)) return `stored in ${context.textOf(parent.name)}`;
  return 'used other than by a member call';
}

/** The declared type the object must match, which a member taking the round would no longer. */
function declaredType(
  context: FileContext,
  object: ts.ObjectLiteralExpression,
  place: Place,
): string | undefined {
  let outer: ts.Node = object;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const parent = outer.parent;
  if (ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) return context.textOf(parent.type);
  if (place.kind === 'const' && place.declaration.type !== undefined)
    return context.textOf(place.declaration.type);
  if (place.kind === 'returned' && place.fn.type !== undefined) return context.textOf(place.fn.type);
  return undefined;
}

/**
 * Every call of the member (`api.confirm(…)`, and `this.confirm(…)` in the object's own methods),
 * each with its file's context, or why its calls cannot all be followed.
 */
export function objectMemberCalls(
  context: FileContext,
  member: ObjectMember,
): { readonly calls: ForeignCall[]; readonly assumed?: string } | string {
  const place = objectPlace(member.object);
  const factory = place.kind === 'returned' ? nameOfFunction(place.fn) : undefined;
  const what = `it runs in ${member.name.text}(), a member of ${
    place.kind === 'const'
      ? `the object literal ${place.declaration.name.text} holds`
      : factory !== undefined
        ? `the object literal ${factory.text}() returns`
        : 'an object literal'
  }`;
  if (place.kind === 'other')
    return `${what} that is ${useDescription(context, member.object)} at ${placeIn(context, context, member.object)}, so not every call of it can be followed; migrate it by hand`;
  const held = holdersOf(context, place);
  if (typeof held === 'string') return `${what}: ${held}`;
  const calls: ForeignCall[] = [];
  for (const holder of held.holders) {
    const why = holderCalls(context, holder, member, calls);
    if (why !== undefined) return `${what}: ${why}`;
  }
  const escape = thisCalls(context, member, calls);
  if (escape !== undefined) return `${what}: ${escape}`;
  const typed = declaredType(context, member.object, place);
  if (typed !== undefined)
    return `${what}, typed ${typed}, which the member would no longer match once it takes the round; give the type's member a round parameter and migrate it by hand`;
  return held.assumed === undefined ? { calls } : { calls, assumed: held.assumed };
}

/**
 * The consts holding the object: the const it initializes, or for a factory's object, the const
 * each call of the factory initializes (`const api = createApi(…)`, awaited or not).
 */
function holdersOf(
  context: FileContext,
  place: Exclude<Place, { kind: 'other' }>,
): { readonly holders: Holder[]; readonly assumed?: string } | string {
  if (place.kind === 'const') {
    const statement = place.declaration.parent.parent;
    if (ts.isVariableStatement(statement) && isExported(statement))
      return `${place.declaration.name.text} is exported, so callers outside the project may use it; migrate them together by hand`;
    return { holders: [{ context, name: place.declaration.name }] };
  }
  const fn = place.fn;
  const name = nameOfFunction(fn);
  if (name === undefined || !ts.isIdentifier(name))
    return 'the function returning it cannot be followed to its callers; migrate it by hand';
  const symbol = context.checker.getSymbolAtLocation(name);
  if (symbol === undefined || functionOfSymbol(symbol) !== fn)
    return `${name.text}() returns it, and cannot be followed to its callers; migrate it by hand`;
  if (returnCount(fn) !== 1) return `${name.text}() returns it on one of several paths; migrate it by hand`;
  const askingOnly = parameterUsedOnlyToAsk(context, fn);
  if (askingOnly !== undefined)
    return `${name.text}(), which returns it, takes ${askingOnly.text} only to ask through it, so once its members take the round that parameter would be left unused (an error under noUnusedParameters); drop it from ${name.text}() and its calls by hand`;
  const calls: ForeignCall[] = [];
  for (const reference of identifiersReferringTo(context.checker, context.sourceFile, symbol, name)) {
    const call = callOf(reference);
    if (call === undefined)
      return `${name.text}(), which returns it, is ${useDescription(context, reference)} at ${placeIn(context, context, reference)}, so not every use of its object can be followed; migrate it by hand`;
    calls.push({ context, call });
  }
  let assumed: string | undefined;
  if (isExportedFunction(fn)) {
    const foreign = foreignCalls(context, symbol, name.text);
    if (typeof foreign === 'string') return `${name.text}(), which returns it, is exported: ${foreign}`;
    calls.push(...foreign.calls);
    assumed = foreign.assumed;
  }
  if (calls.length === 0) return `${name.text}(), which returns it, is never called`;
  const holders: Holder[] = [];
  for (const { context: other, call } of calls) {
    const holder = constInitializedBy(call);
    if (holder === undefined)
      return `the result of ${name.text}() at ${placeIn(context, other, call)} is ${useDescription(other, awaitedOf(call))}, so not every use of its object can be followed; migrate it by hand`;
    holders.push({ context: other, name: holder });
  }
  return assumed === undefined ? { holders } : { holders, assumed };
}

/** Records the member's calls through one const; any other use of the const is why not. */
function holderCalls(
  context: FileContext,
  holder: Holder,
  member: ObjectMember,
  calls: ForeignCall[],
): string | undefined {
  const other = holder.context;
  const symbol = other.checker.getSymbolAtLocation(holder.name);
  if (symbol === undefined) return `${holder.name.text} cannot be followed; migrate it by hand`;
  for (const reference of identifiersReferringTo(other.checker, other.sourceFile, symbol, holder.name)) {
    const where = placeIn(context, other, reference);
    const access = reference.parent;
    if (!ts.isPropertyAccessExpression(access) || access.expression !== reference)
      return `${holder.name.text} is ${useDescription(other, reference)} at ${where}, so its members may be called where the codemod cannot see; migrate it by hand`;
    if (access.name.text !== member.name.text) continue;
    const call = callOf(access);
    if (call === undefined)
      return `${other.textOf(access)} is ${useDescription(other, access)} at ${where}, so not every call of it can be followed; migrate it by hand`;
    if (other !== context && !other.run?.mayWrite(other.path))
      return `${other.textOf(access)}() is called at ${where}, which this run does not include, so that call cannot be updated to pass the round; add the file to the run or migrate both by hand`;
    calls.push({ context: other, call });
  }
  return undefined;
}

/** Records `this.member(…)` in the object's own methods; any other use of their `this` is why not. */
function thisCalls(context: FileContext, member: ObjectMember, calls: ForeignCall[]): string | undefined {
  let why: string | undefined;
  const visit = (node: ts.Node): void => {
    if (why !== undefined) return;
    if (node.kind === ts.SyntaxKind.ThisKeyword && thisOwner(node) === member.object) {
      const access = node.parent;
      const where = placeIn(context, context, node);
      if (!ts.isPropertyAccessExpression(access) || access.expression !== node) {
        why = `one of its methods uses this (${useDescription(context, node)}) at ${where}, so its members may be called where the codemod cannot see; migrate it by hand`;
        return;
      }
      if (access.name.text !== member.name.text) return;
      const call = callOf(access);
      if (call === undefined) {
        why = `this.${member.name.text} is ${useDescription(context, access)} at ${where}, so not every call of it can be followed; migrate it by hand`;
        return;
      }
      calls.push({ context, call });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(member.object);
  return why;
}

/** The object literal whose method `this` refers to, if it is one (arrow functions pass `this` through). */
function thisOwner(node: ts.Node): ts.Node | undefined {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (ts.isArrowFunction(current)) continue;
    if (ts.isMethodDeclaration(current) || ts.isGetAccessor(current) || ts.isSetAccessor(current))
      return current.parent;
    if (ts.isFunctionExpression(current)) {
      let outer: ts.Node = current;
      while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
      return ts.isPropertyAssignment(outer.parent) ? outer.parent.parent : current;
    }
    if (ts.isFunctionLike(current) || ts.isClassLike(current) || ts.isSourceFile(current)) return current;
  }
  return undefined;
}

/** The call `callee` is the callee of, through parentheses. */
function callOf(callee: ts.Node): ts.CallExpression | undefined {
  let outer = callee;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  return ts.isCallExpression(call) && unwrapExpression(call.expression) === callee ? call : undefined;
}

function awaitedOf(call: ts.CallExpression): ts.Node {
  let outer: ts.Node = call;
  while (ts.isParenthesizedExpression(outer.parent) || ts.isAwaitExpression(outer.parent))
    outer = outer.parent;
  return outer;
}

/** `const api = createApi(…)` or `const api = await createApi(…)`, with no declared type. */
function constInitializedBy(call: ts.CallExpression): ts.Identifier | undefined {
  const outer = awaitedOf(call);
  const declaration = outer.parent;
  if (
    ts.isVariableDeclaration(declaration) &&
    declaration.initializer === outer &&
    declaration.type === undefined &&
    ts.isIdentifier(declaration.name) &&
    ts.isVariableDeclarationList(declaration.parent) &&
    (declaration.parent.flags & ts.NodeFlags.Const) !== 0
  )
    return declaration.name;
  return undefined;
}

/** How many `return` statements the function has (an arrow's expression body counts as one). */
function returnCount(fn: HelperFunction): number {
  if (fn.body === undefined) return 0;
  if (!ts.isBlock(fn.body)) return 1;
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isReturnStatement(node)) count++;
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return count;
}

function isExported(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function isExportedFunction(fn: HelperFunction): boolean {
  if (ts.isFunctionDeclaration(fn)) return isExported(fn);
  const statement = fn.parent.parent?.parent;
  return statement !== undefined && ts.isVariableStatement(statement) && isExported(statement);
}

/** A parameter of the factory that only the receivers of its questions read (`server` in `server.server.elicitInput(…)`). */
function parameterUsedOnlyToAsk(context: FileContext, fn: HelperFunction): ts.Identifier | undefined {
  for (const parameter of fn.parameters) {
    if (!ts.isIdentifier(parameter.name)) continue;
    const symbol = context.checker.getSymbolAtLocation(parameter.name);
    if (symbol === undefined) continue;
    const references = identifiersReferringTo(context.checker, fn, symbol, parameter.name);
    if (references.length > 0 && references.every((reference) => inPushReceiver(context, reference, fn)))
      return parameter.name;
  }
  return undefined;
}

function inPushReceiver(context: FileContext, reference: ts.Identifier, fn: ts.Node): boolean {
  for (let node: ts.Node = reference.parent; node !== fn; node = node.parent) {
    if (!ts.isCallExpression(node)) continue;
    const receiver = asPushCall(context, node)?.receiver;
    if (receiver !== undefined && reference.pos >= receiver.pos && reference.end <= receiver.end) return true;
  }
  return false;
}
