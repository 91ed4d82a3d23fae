import { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import type { Site } from '../../analysis/site.js';
import { forEachDescendant, isEffectFree } from '../../analysis/syntax.js';
import { reindentEdits } from '../../edits/reindent.js';
import { containsComment } from '../../edits/removal.js';
import { braces } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import {
  asMemberCall,
  discardedCall,
  notificationArgument,
  NOTIFICATION_SENDERS,
  type MemberCall,
} from '../shared/calls.js';
import { loggerCall } from './logger-call.js';

export const TRANSFORM_ID = 'logging';

const SEND_TODO =
  'Replace this protocol log with logToStderr(record) from @mcp-mrtr/runtime/logger, or an OpenTelemetry logger: protocol logging is deprecated.';

/** A logging send found in the file: which shape it has and what it logs. */
type SendShape =
  | { readonly kind: 'send-logging-message'; readonly record: ts.Expression; readonly wrapper?: undefined }
  | {
      readonly kind: 'notification';
      readonly record: ts.Expression | undefined;
      readonly wrapper: ts.ObjectLiteralExpression;
    }
  | { readonly kind: 'mcp-req-log'; readonly record?: undefined; readonly wrapper?: undefined };

function sendShape(member: MemberCall): SendShape | undefined {
  if (member.name === 'sendLoggingMessage') {
    const record = member.call.arguments[0];
    return record === undefined ? undefined : { kind: 'send-logging-message', record };
  }
  if (NOTIFICATION_SENDERS.has(member.name)) {
    const argument = notificationArgument(member.call);
    if (argument?.method !== 'notifications/message') return undefined;
    return { kind: 'notification', record: argument.params, wrapper: argument.object };
  }
  if (member.name === 'log') {
    const receiver = member.access.expression;
    const viaMcpReq =
      (ts.isPropertyAccessExpression(receiver) && receiver.name.text === 'mcpReq') ||
      (ts.isIdentifier(receiver) && receiver.text === 'mcpReq');
    return viaMcpReq ? { kind: 'mcp-req-log' } : undefined;
  }
  return undefined;
}

/** The result of scanning a file for logging sends. */
export interface LoggingSends {
  readonly sites: readonly Site[];
  /** Statements that hold nothing but a send this transform rewrites. */
  readonly rewrittenStatements: ReadonlySet<ts.Statement>;
}

/**
 * Finds `sendLoggingMessage(params)`, `notification`/`sendNotification`/`notify` of
 * `notifications/message`, and v2 `ctx.mcpReq.log(level, data, logger)` on SDK receivers, and plans
 * their rewrite into a logger call that keeps the record (level, logger, data) byte for byte.
 */
export function analyseLoggingSends(context: FileContext): LoggingSends {
  const sites: Site[] = [];
  const rewrittenStatements = new Set<ts.Statement>();
  forEachDescendant(context.sourceFile, (node) => {
    const member = asMemberCall(node);
    if (member === undefined) return;
    const shape = sendShape(member);
    if (shape === undefined) return;
    const resolution = context.resolveMember(member.access);
    if (resolution.kind === 'other') return;
    const base: SiteBase = {
      transform: TRANSFORM_ID,
      category: 'logging',
      kind: shape.kind,
      node: member.call,
      todo: SEND_TODO,
    };
    if (resolution.kind === 'unresolved') {
      sites.push(
        context.manualSite(
          base,
          `the type of ${context.textOf(member.access.expression)} is unknown (any), so this may not be the MCP SDK`,
        ),
      );
      return;
    }
    const planned = planSendRewrite(context, member, shape);
    if (typeof planned === 'string') {
      sites.push(context.manualSite(base, planned));
      return;
    }
    sites.push(
      context.rewriteSite(base, planned.edits, { imports: planned.imports, packages: planned.packages }),
    );
    rewrittenStatements.add(planned.statement);
  });
  return { sites, rewrittenStatements };
}

interface PlannedSend {
  readonly edits: TextEdit[];
  readonly imports: ReturnType<typeof loggerCall>['imports'];
  readonly packages: readonly string[];
  readonly statement: ts.ExpressionStatement;
}

/** The edits for one send, or the reason it stays manual. */
function planSendRewrite(context: FileContext, member: MemberCall, shape: SendShape): PlannedSend | string {
  const { call } = member;
  const sourceFile = context.sourceFile;
  const text = context.text;
  if (call.arguments.some(ts.isSpreadElement))
    return 'its arguments are spread, so the logged record cannot be seen';
  const discarded = discardedCall(call);
  if (discarded === undefined) {
    return 'the promise it returns is used (returned, assigned or chained), so replacing it with a logger call that returns nothing needs a decision';
  }
  if (discarded.catchCall !== undefined && !discarded.catchCall.arguments.every(isEffectFree)) {
    return 'its .catch(…) argument has side effects';
  }
  const logger = loggerCall(context);
  const outerStart = discarded.outer.getStart(sourceFile);
  const removed: [number, number][] = [];
  const edits: TextEdit[] = [];

  if (shape.kind === 'mcp-req-log') {
    const [level, data, loggerName, ...rest] = call.arguments;
    if (level === undefined || rest.length > 0)
      return 'it does not have the (level, data, logger?) arguments of ctx.mcpReq.log';
    const field = (key: string, value: ts.Expression | undefined) => {
      if (value === undefined) return undefined;
      const valueText = context.textOf(value);
      return valueText === key ? key : `${key}: ${valueText}`;
    };
    const record = braces(
      context.style,
      [field('level', level), field('data', data), field('logger', loggerName)]
        .filter((f) => f !== undefined)
        .join(', '),
    );
    const end = discarded.catchCall?.end ?? call.end;
    const args = call.arguments;
    removed.push([outerStart, args[0]!.getStart(sourceFile)], [args[args.length - 1]!.end, end]);
    for (let i = 1; i < args.length; i++) removed.push([args[i - 1]!.end, args[i]!.getStart(sourceFile)]);
    edits.push({ start: outerStart, end, text: `${logger.head}${record}${logger.tail}` });
  } else {
    const record = shape.record;
    if (record === undefined) return 'the notification has no params to log';
    if (shape.wrapper !== undefined) {
      const extra = shape.wrapper.properties.filter((p) => {
        const name = p.name !== undefined && ts.isIdentifier(p.name) ? p.name.text : undefined;
        return name !== 'method' && name !== 'params';
      });
      if (extra.length > 0) return 'the notification object has properties besides method and params';
    }
    const dropped = call.arguments.slice(1);
    if (!dropped.every(isEffectFree)) return 'an argument it would drop has side effects';
    const argumentsStart = call.arguments.pos;
    edits.push({ start: outerStart, end: argumentsStart, text: logger.head });
    removed.push([outerStart, argumentsStart]);
    const recordStart = record.getStart(sourceFile);
    if (shape.wrapper !== undefined) {
      const wrapperStart = shape.wrapper.getStart(sourceFile);
      edits.push({ start: wrapperStart, end: recordStart, text: '' });
      removed.push([wrapperStart, recordStart]);
      edits.push(...reindentEdits(sourceFile, record, recordStart, wrapperStart));
    }
    // Drops the rest of the notification object and the arguments after it.
    const last = call.arguments[call.arguments.length - 1]!;
    if (last.end > record.end) {
      edits.push({ start: record.end, end: last.end, text: '' });
      removed.push([record.end, last.end]);
    }
    if (text[call.end - 1] !== ')') return 'the call is not closed where expected';
    edits.push({ start: call.end - 1, end: call.end, text: logger.tail });
    if (discarded.catchCall !== undefined) {
      edits.push({ start: call.end, end: discarded.catchCall.end, text: '' });
      removed.push([call.end, discarded.catchCall.end]);
    }
  }
  if (removed.some(([start, end]) => containsComment(text, start, end))) {
    return 'comments inside the call would be lost';
  }
  return { edits, imports: logger.imports, packages: logger.packages, statement: discarded.statement };
}
