import { CATEGORY_INFO } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import type { Site } from '../../analysis/site.js';
import {
  enclosingFunction,
  forEachDescendant,
  staticString,
  unwrapExpression,
} from '../../analysis/syntax.js';
import { lineAndColumn } from '../../edits/line-ranges.js';
import type { Transform } from '../../transform.js';
import { asMemberCall, notificationArgument, NOTIFICATION_SENDERS } from '../shared/calls.js';

const TRANSFORM_ID = 'elicitation-complete';
const METHOD = 'notifications/elicitation/complete';
const WHY_MANUAL =
  'what replaces the notification depends on how the server learns that the URL-mode step finished; the URL-mode rewrite belongs to the handler migration';
const RETRY_ADVICE =
  'Return input_required with the URL-mode elicitation instead of waiting, and when the client retries, check your own record of the out-of-band step (e.g. the stored connection): complete the call if it finished, or return input_required again if not.';

function lineOf(context: FileContext, node: ts.Node): number {
  return lineAndColumn(context.text, node.getStart(context.sourceFile)).line;
}

/** The lines where the notifier a call creates is invoked, when it is kept in a variable. */
function notifierCallLines(
  context: FileContext,
  call: ts.CallExpression,
): { name: string; lines: number[] } | undefined {
  let parent = call.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  if (!ts.isVariableDeclaration(parent) || !ts.isIdentifier(parent.name)) return undefined;
  const symbol = context.checker.getSymbolAtLocation(parent.name);
  const scope = enclosingFunction(call) ?? context.sourceFile;
  const lines: number[] = [];
  forEachDescendant(scope, (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      context.checker.getSymbolAtLocation(node.expression) === symbol
    ) {
      lines.push(lineOf(context, node));
    }
  });
  return { name: parent.name.text, lines };
}

/** "line 3", "lines 3 and 7", "lines 3, 7 and 9". */
function describeLines(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  return `lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`;
}

function notifierTodo(context: FileContext, call: ts.CallExpression): string {
  const notifier = notifierCallLines(context, call);
  const uses =
    notifier === undefined
      ? 'Remove this completion notifier and its calls'
      : `Remove this completion notifier and the call${notifier.lines.length === 1 ? '' : 's'} to ${notifier.name}()${
          notifier.lines.length > 0 ? ` on ${describeLines(notifier.lines)}` : ''
        }`;
  return `${uses}: 2026-07-28 removes ${METHOD}. ${RETRY_ADVICE}`;
}

function isCompletionHandlerRegistration(context: FileContext, call: ts.CallExpression): boolean {
  const first = call.arguments[0];
  return (
    first !== undefined &&
    (staticString(first) === METHOD ||
      sdkExportName(context.checker, unwrapExpression(first)) === 'ElicitationCompleteNotificationSchema')
  );
}

/**
 * Finds `createElicitationCompletionNotifier(…)`, sends of `notifications/elicitation/complete` and
 * client handlers waiting for it, and leaves each as a manual site with precise guidance.
 */
function analyse(context: FileContext): Site[] {
  const sites: Site[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    const member = asMemberCall(node);
    if (member === undefined) return;
    let kind: string;
    let todo: string;
    if (member.name === 'createElicitationCompletionNotifier') {
      kind = 'completion-notifier';
      todo = notifierTodo(context, member.call);
    } else if (
      NOTIFICATION_SENDERS.has(member.name) &&
      notificationArgument(member.call)?.method === METHOD
    ) {
      kind = 'completion-notification';
      todo = `Remove this ${METHOD} send: 2026-07-28 removes the notification. ${RETRY_ADVICE}`;
    } else if (
      member.name === 'setNotificationHandler' &&
      isCompletionHandlerRegistration(context, member.call)
    ) {
      kind = 'completion-handler';
      todo = `Stop waiting for ${METHOD}: servers no longer send it. Retry the original request and let the server say whether the URL-mode step completed.`;
    } else {
      return;
    }
    const resolution = context.resolveMember(member.access);
    if (resolution.kind === 'other') return;
    const base: SiteBase = {
      transform: TRANSFORM_ID,
      category: 'elicitation-complete',
      kind,
      node: member.call,
      todo,
    };
    const reason =
      resolution.kind === 'unresolved' ? `${WHY_MANUAL} (and the receiver's type is unknown)` : WHY_MANUAL;
    sites.push(context.manualSite(base, reason));
  });
  return sites;
}

/** Transform 4: elicitation completion notifications become precisely described manual sites. */
export const elicitationCompleteTransform: Transform = {
  id: TRANSFORM_ID,
  categories: ['elicitation-complete'],
  description: `createElicitationCompletionNotifier and ${METHOD} become manual sites with guidance (${CATEGORY_INFO['elicitation-complete'].ruleId})`,
  prefilter: ['createElicitationCompletionNotifier', METHOD, 'ElicitationCompleteNotificationSchema'],
  analyse,
};
