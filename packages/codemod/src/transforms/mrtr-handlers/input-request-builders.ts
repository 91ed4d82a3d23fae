import { DEPRECATED_INPUT_REQUEST_GUIDANCE, INPUT_REQUEST_BUILDERS, legacyMethod } from '@mcp-mrtr/core';
import type { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { resolveMember } from '../../analysis/sdk-resolution.js';
import { asMemberCall } from '../shared/calls.js';
import type { PushCategory } from './push-calls.js';

// SDK v2's `inputRequired.createMessage(…)` and `inputRequired.listRoots()` share their names with
// the push calls `Server.createMessage` and `Server.listRoots`, but they only build the entry of an
// input_required result: the handler already runs the MRTR round trip. Nothing is pushed and there
// is nothing to rewrite; sampling and roots requests are still deprecated, which the site says.

/** The SDK v2 interface that declares the input-request builders (`inputRequired.…`). */
const BUILDER_CONTAINER = 'InputRequiredBuilder';

/** Whether a member the SDK declares is one of its input-request builders. */
export function isInputRequestBuilder(container: string | undefined): boolean {
  return container === BUILDER_CONTAINER;
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
  const resolution = resolveMember(context.checker, member.access);
  if (resolution.kind !== 'sdk' || !isInputRequestBuilder(resolution.container)) return undefined;
  return { call: member.call, category, method, guidance };
}

/** Why the site stays as it is. */
export function builtRequestReason(context: FileContext, request: BuiltInputRequest): string {
  return `${context.textOf(request.call.expression)}() already builds an MRTR ${request.method} input request, which 2026-07-28 still accepts but deprecates: nothing to rewrite`;
}
