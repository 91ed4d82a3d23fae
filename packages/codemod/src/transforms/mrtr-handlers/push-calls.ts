import {
  hasPushCallShape,
  isMcpSdkDeclarationFile,
  isMcpSdkModule,
  legacyMethod,
  legacyMethodOfType,
  legacyMembersNamed,
  PUSH_CALL_SHAPES,
  SDK_OWNER_PROPERTIES,
  type LegacyMethod,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { importsMcpSdk } from '../../analysis/sdk-imports.js';
import { isUnresolvedType, sdkExportName } from '../../analysis/sdk-resolution.js';
import { importedName, serverChainOwner, syntacticOwner } from '../../analysis/syntactic-owner.js';
import { unresolvedSdkExportName } from '../../analysis/unresolved-sdk-evidence.js';
import { findProperty, propertyValue, staticString, unwrapExpression } from '../../analysis/syntax.js';
import { asMemberCall } from '../shared/calls.js';
import { pushValidatesAnswer } from './answer-validation.js';
import { isInputRequestBuilder } from './input-request-builders.js';

// The server-initiated requests MRTR replaces, as the SDKs spell them: v1 `server.elicitInput`,
// `createMessage`, `listRoots`, `extra.sendRequest({ method })`; v2 `ctx.mcpReq.elicitInput`,
// `requestSampling`, `send`; and the generic `server.request({ method })`.

/** What a push call asks the client for. */
export type PushShape = 'elicit-form' | 'elicit-url' | 'sampling' | 'roots';

export type PushCategory = 'elicitation' | 'sampling' | 'roots';

export interface PushCall {
  readonly call: ts.CallExpression;
  /**
   * What the call asks through: `server` in `server.elicitInput(…)`, `extra` in `const {
   * sendRequest } = extra`, a helper's `send` parameter called bare; undefined for a sender taken
   * off a destructured parameter (`async (args, { sendRequest }) => …`).
   */
  readonly receiver: ts.Expression | undefined;
  /** The SDK member it calls (`elicitInput`, `sendRequest`). */
  readonly member: string;
  /** A sender taken off its owner and called bare (`sendRequest(…)`): the local it is called by. */
  readonly sender?: ts.Identifier;
  readonly shape: PushShape;
  readonly category: PushCategory;
  /** The request's params as written (`elicitInput(params)`, `sendRequest({ method, params })`). */
  readonly params: ts.Expression | undefined;
  /** For generic sends: the `{ method, params }` object itself. */
  readonly requestObject?: ts.ObjectLiteralExpression;
  /** For generic sends: the variable the request was built in before the call (`send(request, …)`). */
  readonly builtApart?: ts.Identifier;
  /** The receiver's type could not be resolved (`any`), so the call was matched by name alone. */
  readonly unresolved: boolean;
  /**
   * Whether the call checked the client's answer as `round.ask` does by default; when not, the
   * rewrite asks with `{ validate: false }` (see `pushValidatesAnswer`).
   */
  readonly validatesAnswer: boolean;
}

const DEDICATED_NAMES = new Set(['elicitInput', 'createMessage', 'listRoots', 'requestSampling']);
const GENERIC_NAMES = new Set(['sendRequest', 'request', 'send']);

const CATEGORY_SHAPE: Readonly<Record<PushCategory, PushShape>> = {
  elicitation: 'elicit-form',
  sampling: 'sampling',
  roots: 'roots',
};

function isPushCategory(category: string): category is PushCategory {
  return category === 'elicitation' || category === 'sampling' || category === 'roots';
}

/** `mode: 'url'` in literal elicitation params. */
function isUrlMode(params: ts.Expression | undefined): boolean {
  if (params === undefined) return false;
  const object = unwrapExpression(params);
  if (!ts.isObjectLiteralExpression(object)) return false;
  const mode = findProperty(object, 'mode');
  return mode !== undefined && staticString(propertyValue(mode)) === 'url';
}

/** What a generic send carries: its push category, params, and the request as written. */
interface CarriedRequest {
  readonly category: PushCategory;
  readonly params: ts.Expression | undefined;
  readonly object: ts.ObjectLiteralExpression | undefined;
  readonly builtApart: ts.Identifier | undefined;
}

/** The push category of a legacy method, when it is a request a server pushes. */
function pushCategoryOf(entry: LegacyMethod | undefined): PushCategory | undefined {
  return entry?.kind === 'request' && isPushCategory(entry.category) ? entry.category : undefined;
}

/** The push category an SDK request type names (`CreateMessageRequest`, `types.ElicitRequest`). */
function categoryOfTypeNode(
  checker: ts.TypeChecker,
  type: ts.TypeNode | undefined,
): PushCategory | undefined {
  if (type === undefined || !ts.isTypeReferenceNode(type)) return undefined;
  const origin = importedName(checker, type.typeName);
  return origin !== undefined && isMcpSdkModule(origin.module)
    ? pushCategoryOf(legacyMethodOfType(origin.imported))
    : undefined;
}

/** `{ method: 'elicitation/create', params }`: the object's push category and params. */
function ofRequestObject(object: ts.ObjectLiteralExpression): CarriedRequest | undefined {
  const methodProperty = findProperty(object, 'method');
  const method = methodProperty === undefined ? undefined : staticString(propertyValue(methodProperty));
  const category = method === undefined ? undefined : pushCategoryOf(legacyMethod(method));
  if (category === undefined) return undefined;
  const paramsProperty = findProperty(object, 'params');
  return {
    category,
    params: paramsProperty === undefined ? undefined : propertyValue(paramsProperty),
    object,
    builtApart: undefined,
  };
}

/**
 * The request a generic send carries: `{ method: 'elicitation/create', params }` written in the
 * call, or built apart in a variable, which the lint reports too: one declared with an SDK request
 * type or holding such an object (`const request: CreateMessageRequest = { … }`), or asserted to
 * be one (`request as ElicitRequest`).
 */
function carriedRequest(checker: ts.TypeChecker, call: ts.CallExpression): CarriedRequest | undefined {
  const first = call.arguments[0];
  if (first === undefined) return undefined;
  const argument = unwrapExpression(first);
  if (ts.isObjectLiteralExpression(argument)) return ofRequestObject(argument);
  if (!ts.isIdentifier(argument)) return undefined;
  const asserted =
    ts.isAsExpression(first) || ts.isTypeAssertionExpression(first)
      ? categoryOfTypeNode(checker, first.type)
      : undefined;
  const declaration = checker.getSymbolAtLocation(argument)?.valueDeclaration;
  const variable =
    declaration !== undefined && ts.isVariableDeclaration(declaration) ? declaration : undefined;
  const initializer =
    variable?.initializer === undefined ? undefined : unwrapExpression(variable.initializer);
  const built =
    initializer !== undefined && ts.isObjectLiteralExpression(initializer)
      ? ofRequestObject(initializer)
      : undefined;
  const category = asserted ?? categoryOfTypeNode(checker, variable?.type) ?? built?.category;
  if (category === undefined) return undefined;
  return { category, params: built?.params, object: built?.object, builtApart: argument };
}

/**
 * Whether a dedicated call whose receiver has no type may be the SDK's, by the lint's rule: called
 * on an SDK owner (`x.server.createMessage`, `ctx.mcpReq.elicitInput`), or in a file that imports
 * the SDK, or with the SDK's argument (`ctx.elicitInput({ message, requestedSchema })`). A
 * receiver syntax proves to be something else (built by a class imported from another package) is
 * not, nor is an SDK-named call elsewhere (`context.elicitInput('Name?', fields)` of a framework).
 */
function isSdkByName(context: FileContext, access: ts.PropertyAccessExpression): boolean {
  if (hasPushArgument(access)) return true;
  // `agent.server.server` is the SDK's idiom whatever `agent` is; any other member of a proven
  // non-SDK object is that object's.
  if (serverChainOwner(access.expression) !== undefined) return true;
  if (syntacticOwner(context.checker, access.expression) === 'other') return false;
  const receiver = unwrapExpression(access.expression);
  if (ts.isPropertyAccessExpression(receiver) && receiver.name.text in SDK_OWNER_PROPERTIES) return true;
  return importsMcpSdk(context.sourceFile);
}

/**
 * `x.elicitInput({ message, requestedSchema })`: a call with the SDK's name and argument, evidence
 * enough whatever the receiver, unless the method is a class's of the project (the lint's rule).
 */
function hasPushArgument(access: ts.PropertyAccessExpression): boolean {
  const shape = PUSH_CALL_SHAPES[access.name.text];
  const argument = ts.isCallExpression(access.parent) ? access.parent.arguments[0] : undefined;
  if (shape === undefined || argument === undefined) return false;
  const object = unwrapExpression(argument);
  return (
    ts.isObjectLiteralExpression(object) &&
    hasPushCallShape(shape, (key) => findProperty(object, key) !== undefined)
  );
}

/** Whether the method a call names is declared by a class (its own code, not the SDK's). */
function isClassMethod(checker: ts.TypeChecker, access: ts.PropertyAccessExpression): boolean {
  const declarations = checker.getSymbolAtLocation(access.name)?.declarations ?? [];
  return declarations.some((declaration) => ts.isClassLike(declaration.parent));
}

/**
 * The push call `node` is, if it is one the SDKs declare (or an unresolved receiver's call by that
 * name), or a generic send called bare (see `asDetachedSend`).
 */
export function asPushCall(context: FileContext, node: ts.Node): PushCall | undefined {
  const member = asMemberCall(node);
  if (member === undefined) return asDetachedSend(context, node);
  const dedicated = DEDICATED_NAMES.has(member.name);
  if (!dedicated && !GENERIC_NAMES.has(member.name)) return undefined;
  let category: PushCategory;
  let params: ts.Expression | undefined;
  let carried: CarriedRequest | undefined;
  if (dedicated) {
    const catalog = legacyMembersNamed(member.name).find((entry) => entry.kind === 'dedicated');
    if (catalog?.kind !== 'dedicated' || !isPushCategory(catalog.category)) return undefined;
    category = catalog.category;
    params = member.call.arguments[0];
  } else {
    carried = carriedRequest(context.checker, member.call);
    if (carried === undefined) return undefined;
    ({ category, params } = carried);
  }
  let resolution = context.resolveMember(member.access);
  // An object typed by an interface of the project's that takes the SDK's argument is the SDK's
  // object typed structurally, as the lint takes it.
  if (
    resolution.kind === 'other' &&
    hasPushArgument(member.access) &&
    !isClassMethod(context.checker, member.access)
  )
    resolution = { kind: 'unresolved' };
  if (resolution.kind === 'other') return undefined;
  if (resolution.kind === 'unresolved' && dedicated && !isSdkByName(context, member.access)) return undefined;
  // SDK v2's `inputRequired.createMessage(…)` builds an input request: nothing is pushed.
  if (isInputRequestBuilder(context.checker, member.access)) return undefined;
  const shape = category === 'elicitation' && isUrlMode(params) ? 'elicit-url' : CATEGORY_SHAPE[category];
  return {
    call: member.call,
    receiver: member.access.expression,
    member: member.name,
    shape,
    category,
    params,
    ...(carried?.object && { requestObject: carried.object }),
    ...(carried?.builtApart && { builtApart: carried.builtApart }),
    unresolved: resolution.kind === 'unresolved',
    validatesAnswer: pushValidatesAnswer(context, member.call, category, !dedicated),
  };
}

/** Where a sender called bare comes from: the SDK member it is, and the object it was taken off. */
interface TakenMember {
  readonly member: string;
  /** `extra` in `const { sendRequest } = extra`; undefined off a destructured parameter. */
  readonly owner: ts.Expression | undefined;
}

/**
 * The member a bare callee was taken off: destructured (`{ sendRequest }` in a parameter, `const {
 * sendRequest: ask } = extra`), or read into a const (`const send = extra.sendRequest`, with or
 * without `.bind(extra)`).
 */
function takenMember(checker: ts.TypeChecker, callee: ts.Identifier): TakenMember | undefined {
  const declaration = checker.getSymbolAtLocation(callee)?.valueDeclaration;
  if (declaration === undefined) return undefined;
  if (ts.isBindingElement(declaration)) {
    const property = declaration.propertyName ?? declaration.name;
    if (!ts.isIdentifier(property)) return undefined;
    const holder = declaration.parent.parent;
    const owner = ts.isVariableDeclaration(holder) ? holder.initializer : undefined;
    return { member: property.text, owner: owner === undefined ? undefined : unwrapExpression(owner) };
  }
  if (!ts.isVariableDeclaration(declaration) || declaration.initializer === undefined) return undefined;
  let value = unwrapExpression(declaration.initializer);
  // `extra.sendRequest.bind(extra)`: the member bound to the object it was read off.
  if (ts.isCallExpression(value)) {
    const bind = unwrapExpression(value.expression);
    if (!ts.isPropertyAccessExpression(bind) || bind.name.text !== 'bind') return undefined;
    value = unwrapExpression(bind.expression);
  }
  return ts.isPropertyAccessExpression(value)
    ? { member: value.name.text, owner: value.expression }
    : undefined;
}

/**
 * `sendRequest({ method: 'elicitation/create', … }, Schema)`: a generic send called bare, which the
 * lint reports by its name and the request it carries: a sender named as the SDK names it, or
 * taken off an object in a file that imports the SDK. It asks through the object it was taken
 * off, or through the sender itself when that is a parameter (a helper's `send`).
 */
function asDetachedSend(context: FileContext, node: ts.Node): PushCall | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const callee = unwrapExpression(node.expression);
  if (!ts.isIdentifier(callee)) return undefined;
  const taken = takenMember(context.checker, callee);
  if (taken !== undefined && DEDICATED_NAMES.has(taken.member))
    return takenDedicatedCall(context, node, callee, taken);
  const member =
    taken !== undefined && (GENERIC_NAMES.has(callee.text) || importsMcpSdk(context.sourceFile))
      ? taken.member
      : GENERIC_NAMES.has(callee.text)
        ? callee.text
        : undefined;
  if (member === undefined || !GENERIC_NAMES.has(member)) return undefined;
  const carried = carriedRequest(context.checker, node);
  if (carried === undefined) return undefined;
  const shape =
    carried.category === 'elicitation' && isUrlMode(carried.params)
      ? 'elicit-url'
      : CATEGORY_SHAPE[carried.category];
  return {
    call: node,
    receiver: taken === undefined ? callee : taken.owner,
    member,
    sender: callee,
    shape,
    category: carried.category,
    params: carried.params,
    ...(carried.object && { requestObject: carried.object }),
    ...(carried.builtApart && { builtApart: carried.builtApart }),
    unresolved: true,
    validatesAnswer: pushValidatesAnswer(context, node, carried.category, true),
  };
}

/**
 * `ask(params)` after `const ask = server.elicitInput.bind(server)` (or `const { elicitInput } =
 * ctx.mcpReq`): a push request's own member taken off an SDK object, in a file that imports the
 * SDK, as the lint takes a bare alias.
 */
function takenDedicatedCall(
  context: FileContext,
  call: ts.CallExpression,
  sender: ts.Identifier,
  taken: TakenMember,
): PushCall | undefined {
  if (!importsMcpSdk(context.sourceFile)) return undefined;
  if (taken.owner !== undefined && !isSdkMemberOf(context, taken.owner, taken.member)) return undefined;
  const catalog = legacyMembersNamed(taken.member).find((entry) => entry.kind === 'dedicated');
  if (catalog?.kind !== 'dedicated' || !isPushCategory(catalog.category)) return undefined;
  const category = catalog.category;
  const params = call.arguments[0];
  return {
    call,
    receiver: taken.owner,
    member: taken.member,
    sender,
    shape: category === 'elicitation' && isUrlMode(params) ? 'elicit-url' : CATEGORY_SHAPE[category],
    category,
    params,
    unresolved: true,
    validatesAnswer: pushValidatesAnswer(context, call, category, false),
  };
}

/** `throw new UrlElicitationRequiredError(…)`: asks for URL-mode input the removed -32042 way. */
export function isUrlElicitationRequiredError(context: FileContext, node: ts.Node): node is ts.NewExpression {
  if (!ts.isNewExpression(node)) return false;
  const name =
    sdkExportName(context.checker, unwrapExpression(node.expression)) ??
    unresolvedSdkExportName(context, node.expression);
  return name === 'UrlElicitationRequiredError';
}

/**
 * `elicit.call(server, params)`: a push member read off its receiver as a value (`const elicit =
 * server.elicitInput`, or in place) and invoked through `.call` or `.apply`, or bound and passed
 * on (`return server.elicitInput.bind(server)`), so nothing names the push where it runs. The codemod cannot rewrite it, but must report it, as the lint does.
 */
export interface HeldPushCall {
  readonly call: ts.CallExpression;
  /** `server.elicitInput` as read. */
  readonly read: ts.Expression;
  /** What it was read off (`server`). */
  readonly receiver: ts.Expression;
  /** `call`, `apply` or `bind`. */
  readonly invoker: string;
  readonly member: string;
  readonly category: PushCategory;
  readonly shape: PushShape;
}

/** `x.elicitInput` or `x?.['elicitInput']`: the receiver and the member a value read names. */
function memberRead(node: ts.Expression): { receiver: ts.Expression; member: string } | undefined {
  const read = unwrapExpression(node);
  if (ts.isPropertyAccessExpression(read) && ts.isIdentifier(read.name))
    return { receiver: unwrapExpression(read.expression), member: read.name.text };
  if (ts.isElementAccessExpression(read)) {
    const member = staticString(read.argumentExpression);
    return member === undefined ? undefined : { receiver: unwrapExpression(read.expression), member };
  }
  return undefined;
}

/**
 * Whether a dedicated push member read off `receiver` is the SDK's: its type declares it in the
 * SDK, or, its type unknown, the file imports the SDK (the lint's rule for bare aliases).
 */
function isSdkMemberOf(context: FileContext, receiver: ts.Expression, member: string): boolean {
  const type = context.checker.getTypeAtLocation(receiver);
  if (isUnresolvedType(type)) return importsMcpSdk(context.sourceFile);
  const declarations = type.getProperty(member)?.declarations ?? [];
  return declarations.some((declaration) => isMcpSdkDeclarationFile(declaration.getSourceFile().fileName));
}

/** Whether an expression is what a `const name = …` declaration holds, through parentheses and assertions. */
function isConstInitializer(node: ts.Expression): boolean {
  let outer: ts.Node = node;
  while (
    ts.isParenthesizedExpression(outer.parent) ||
    ts.isAsExpression(outer.parent) ||
    ts.isNonNullExpression(outer.parent) ||
    ts.isSatisfiesExpression(outer.parent)
  )
    outer = outer.parent;
  const parent = outer.parent;
  return ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name);
}

export function asHeldPushCall(context: FileContext, node: ts.Node): HeldPushCall | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const callee = unwrapExpression(node.expression);
  if (!ts.isPropertyAccessExpression(callee) || !['call', 'apply', 'bind'].includes(callee.name.text))
    return undefined;
  // `const ask = server.elicitInput.bind(server)` is an alias its calls are followed through.
  if (callee.name.text === 'bind' && isConstInitializer(node)) return undefined;
  let held = unwrapExpression(callee.expression);
  // `const elicit = server.elicitInput`, then `elicit.call(server, …)`.
  if (ts.isIdentifier(held)) {
    const declaration = context.checker.getSymbolAtLocation(held)?.valueDeclaration;
    if (
      declaration === undefined ||
      !ts.isVariableDeclaration(declaration) ||
      declaration.initializer === undefined
    )
      return undefined;
    held = declaration.initializer;
  }
  const read = memberRead(held);
  if (read === undefined || !DEDICATED_NAMES.has(read.member)) return undefined;
  const catalog = legacyMembersNamed(read.member).find((entry) => entry.kind === 'dedicated');
  if (catalog?.kind !== 'dedicated' || !isPushCategory(catalog.category)) return undefined;
  if (!isSdkMemberOf(context, read.receiver, read.member)) return undefined;
  return {
    call: node,
    read: held,
    receiver: read.receiver,
    invoker: callee.name.text,
    member: read.member,
    category: catalog.category,
    shape: CATEGORY_SHAPE[catalog.category],
  };
}

/**
 * `params: { task: { ttl } }`: the request asks the client to run it as a task and may be answered
 * with a CreateTaskResult, which an MRTR input request has no equivalent for.
 */
export function asksAsTask(push: Pick<PushCall, 'params'>): boolean {
  const params = push.params === undefined ? undefined : unwrapExpression(push.params);
  return (
    params !== undefined && ts.isObjectLiteralExpression(params) && findProperty(params, 'task') !== undefined
  );
}
