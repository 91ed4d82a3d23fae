import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import { findProperty, propertyValue, unwrapExpression } from '../../analysis/syntax.js';
import { asMemberCall } from './calls.js';

/** A capabilities object literal the code passes to an SDK server or client. */
export interface CapabilityDeclaration {
  readonly object: ts.ObjectLiteralExpression;
  /** The SDK class constructed (`new McpServer(…)`), or undefined for `registerCapabilities`. */
  readonly constructed: string | undefined;
  /** The `new …` expression or the `registerCapabilities` call. */
  readonly origin: ts.NewExpression | ts.CallExpression;
  /** The receiver of `registerCapabilities`, when that is how they are declared. */
  readonly receiver?: ts.Expression;
}

/**
 * Finds capability declarations handed to the SDK: the `capabilities` of `new <Class>(info,
 * { capabilities: {…} })` for the given SDK classes, and `registerCapabilities({…})` calls whose
 * receiver the SDK declares.
 */
export function findCapabilityDeclarations(
  context: FileContext,
  classes: ReadonlySet<string>,
  node: ts.Node,
): CapabilityDeclaration | undefined {
  if (ts.isNewExpression(node)) {
    const constructed = sdkExportName(context.checker, unwrapExpression(node.expression));
    if (constructed === undefined || !classes.has(constructed)) return undefined;
    const optionsArgument = node.arguments?.[1];
    const options = optionsArgument === undefined ? undefined : unwrapExpression(optionsArgument);
    if (options === undefined || !ts.isObjectLiteralExpression(options)) return undefined;
    const property = findProperty(options, 'capabilities');
    const value = property === undefined ? undefined : unwrapExpression(propertyValue(property));
    return value !== undefined && ts.isObjectLiteralExpression(value)
      ? { object: value, constructed, origin: node }
      : undefined;
  }
  const member = asMemberCall(node);
  if (member?.name !== 'registerCapabilities') return undefined;
  const first = member.call.arguments[0];
  const object = first === undefined ? undefined : unwrapExpression(first);
  if (object === undefined || !ts.isObjectLiteralExpression(object)) return undefined;
  const resolution = context.resolveMember(member.access);
  if (resolution.kind !== 'sdk') return undefined;
  const owner = resolution.container;
  if (owner !== undefined && !classes.has(owner)) return undefined;
  return { object, constructed: undefined, origin: member.call, receiver: member.access.expression };
}
