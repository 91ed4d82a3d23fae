import {
  legacyMethod,
  legacyMembersNamed,
  SDK_OWNER_PROPERTIES,
  SDK_SPECIFIC_MEMBER_NAMES,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { importsMcpSdk } from '../../analysis/sdk-imports.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
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
  readonly access: ts.PropertyAccessExpression;
  readonly shape: PushShape;
  readonly category: PushCategory;
  /** The request's params as written (`elicitInput(params)`, `sendRequest({ method, params })`). */
  readonly params: ts.Expression | undefined;
  /** For generic sends: the `{ method, params }` object itself. */
  readonly requestObject?: ts.ObjectLiteralExpression;
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

/** `{ method: 'elicitation/create', params }` as a generic send's first argument. */
function carriedRequest(
  call: ts.CallExpression,
):
  | { object: ts.ObjectLiteralExpression; category: PushCategory; params: ts.Expression | undefined }
  | undefined {
  const first = call.arguments[0];
  if (first === undefined) return undefined;
  const object = unwrapExpression(first);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const methodProperty = findProperty(object, 'method');
  const method = methodProperty === undefined ? undefined : staticString(propertyValue(methodProperty));
  const entry = method === undefined ? undefined : legacyMethod(method);
  if (entry === undefined || entry.kind !== 'request' || !isPushCategory(entry.category)) return undefined;
  const paramsProperty = findProperty(object, 'params');
  return {
    object,
    category: entry.category,
    params: paramsProperty === undefined ? undefined : propertyValue(paramsProperty),
  };
}

/**
 * Whether a dedicated call whose receiver has no type may be the SDK's by its name: a name only the
 * SDK uses (`elicitInput`), or a common one (`createMessage`) called on an SDK owner
 * (`x.server.createMessage`) or in a file that imports the SDK. An API client's
 * `client.conversation.createMessage(…)` elsewhere is not a sampling request. Such a site is left by
 * hand, saying the receiver's type is unknown; the lint, which reports rather than asks for review,
 * also wants an SDK owner for a common name in an SDK file.
 */
function isSdkByName(context: FileContext, access: ts.PropertyAccessExpression): boolean {
  if (SDK_SPECIFIC_MEMBER_NAMES.has(access.name.text)) return true;
  const receiver = unwrapExpression(access.expression);
  if (ts.isPropertyAccessExpression(receiver) && receiver.name.text in SDK_OWNER_PROPERTIES) return true;
  return importsMcpSdk(context.sourceFile);
}

/** The push call `node` is, if it is one the SDKs declare (or an unresolved receiver's call by that name). */
export function asPushCall(context: FileContext, node: ts.Node): PushCall | undefined {
  const member = asMemberCall(node);
  if (member === undefined) return undefined;
  const dedicated = DEDICATED_NAMES.has(member.name);
  if (!dedicated && !GENERIC_NAMES.has(member.name)) return undefined;
  let category: PushCategory;
  let params: ts.Expression | undefined;
  let requestObject: ts.ObjectLiteralExpression | undefined;
  if (dedicated) {
    const catalog = legacyMembersNamed(member.name).find((entry) => entry.kind === 'dedicated');
    if (catalog?.kind !== 'dedicated' || !isPushCategory(catalog.category)) return undefined;
    category = catalog.category;
    params = member.call.arguments[0];
  } else {
    const carried = carriedRequest(member.call);
    if (carried === undefined) return undefined;
    ({ category, params } = carried);
    requestObject = carried.object;
  }
  const resolution = context.resolveMember(member.access);
  if (resolution.kind === 'other') return undefined;
  if (resolution.kind === 'unresolved' && dedicated && !isSdkByName(context, member.access)) return undefined;
  // SDK v2's `inputRequired.createMessage(…)` builds an input request: nothing is pushed.
  if (isInputRequestBuilder(context.checker, member.access)) return undefined;
  const shape = category === 'elicitation' && isUrlMode(params) ? 'elicit-url' : CATEGORY_SHAPE[category];
  return {
    call: member.call,
    access: member.access,
    shape,
    category,
    params,
    ...(requestObject && { requestObject }),
    unresolved: resolution.kind === 'unresolved',
    validatesAnswer: pushValidatesAnswer(context, member.call, category, !dedicated),
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
