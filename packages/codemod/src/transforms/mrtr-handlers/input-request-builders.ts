import {
  DEPRECATED_INPUT_REQUEST_GUIDANCE,
  INPUT_REQUEST_BUILDER_OBJECT,
  INPUT_REQUEST_BUILDERS,
  legacyMethod,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { resolveMember } from '../../analysis/sdk-resolution.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { asMemberCall } from '../shared/calls.js';
import type { PushCategory } from './push-calls.js';

// SDK v2's `inputRequired.createMessage(…)` and `inputRequired.listRoots()` share their names with
// the push calls `Server.createMessage` and `Server.listRoots`, but they only build the entry of an
// input_required result: the handler already runs the MRTR round trip. Nothing is pushed and there
// is nothing to rewrite; sampling and roots requests are still deprecated, which the site says.

/** The SDK v2 interface that declares the input-request builders (`inputRequired.…`). */
const BUILDER_CONTAINER = 'InputRequiredBuilder';

/**
 * Whether `inputRequired.createMessage` is a builder: the SDK declares it on its builder interface
 * or, when types do not resolve (the SDK or a framework re-exporting it is not installed), the
 * receiver is the builder object's name, as the lint decides.
 */
export function isInputRequestBuilder(checker: ts.TypeChecker, access: ts.PropertyAccessExpression): boolean {
  const resolution = resolveMember(checker, access);
  if (resolution.kind === 'sdk') return resolution.container === BUILDER_CONTAINER;
  const receiver = unwrapExpression(access.expression);
  return (
    resolution.kind === 'unresolved' &&
    ts.isIdentifier(receiver) &&
    receiver.text === INPUT_REQUEST_BUILDER_OBJECT
  );
}

export interface BuiltInputRequest {
  readonly call: ts.CallExpression;
  readonly category: PushCategory;
  readonly method: string;
  /** What to do about it: core's guidance for deprecated input requests, as the lint says it. */
  readonly guidance: string;
}

/** A deprecated input request built by SDK v2 (`inputRequired.createMessage(…)`), if `node` is one. */
export function deprecatedInputRequestBuilder(
  context: FileContext,
  node: ts.Node,
): BuiltInputRequest | undefined {
  const member = asMemberCall(node);
  const method = member === undefined ? undefined : INPUT_REQUEST_BUILDERS[member.name];
  const guidance = method === undefined ? undefined : DEPRECATED_INPUT_REQUEST_GUIDANCE[method];
  const category = method === undefined ? undefined : legacyMethod(method)?.category;
  if (member === undefined || method === undefined || guidance === undefined) return undefined;
  if (category !== 'sampling' && category !== 'roots') return undefined;
  if (!isInputRequestBuilder(context.checker, member.access)) return undefined;
  return { call: member.call, category, method, guidance };
}

/** Why the site stays as it is. */
export function builtRequestReason(context: FileContext, request: BuiltInputRequest): string {
  return `${context.textOf(request.call.expression)}() already builds an MRTR ${request.method} input request, which 2026-07-28 still accepts but deprecates: nothing to rewrite`;
}
