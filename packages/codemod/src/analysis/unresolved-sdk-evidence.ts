import { isMcpSdkModule, mcpSdkGenerationOf, type McpSdkGeneration } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from './file-context.js';
import { isUnresolvedType } from './sdk-resolution.js';
import { importedName, syntacticOrigin } from './syntactic-owner.js';
import { unwrapExpression } from './syntax.js';

// With --allow-unresolved and the SDK not installed, every SDK type is `any`: what the checker
// would read from the SDK's declarations is read from the code instead. Each question here is
// asked only when the checker could not answer it, so code whose types resolve is decided by
// types exactly as before.

/** Whether a node's type is unresolved and syntax may stand in for it. */
function unresolvedHere(context: FileContext, node: ts.Node): boolean {
  return context.syntacticEvidence && isUnresolvedType(context.checker.getTypeAtLocation(node));
}

/**
 * The SDK generation of a receiver syntax showed to be the SDK's (`server` in
 * `server.registerTool`): the generation of the module its class or type was imported from, in
 * this file or in the project file it was imported from.
 */
export function syntacticGeneration(
  context: FileContext,
  access: ts.PropertyAccessExpression,
): McpSdkGeneration | undefined {
  if (!unresolvedHere(context, access.expression)) return undefined;
  const origin = syntacticOrigin(context.checker, access.expression);
  return origin === undefined || origin === 'other' ? undefined : mcpSdkGenerationOf(origin.module);
}

/**
 * The name an SDK export is imported under when its module does not resolve:
 * `CallToolRequestSchema` for `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js'`
 * (or `types.CallToolRequestSchema` through a namespace import).
 */
export function unresolvedSdkExportName(context: FileContext, node: ts.Expression): string | undefined {
  const inner = unwrapExpression(node);
  if (!unresolvedHere(context, inner)) return undefined;
  const origin = importedName(context.checker, inner);
  return origin !== undefined && isMcpSdkModule(origin.module) ? origin.imported : undefined;
}

/** Whether a type annotation names a type imported from an SDK module, perhaps through a local alias. */
function namesSdkType(context: FileContext, type: ts.TypeNode, depth = 0): boolean {
  if (!ts.isTypeReferenceNode(type) || depth > 3) return false;
  const origin = importedName(context.checker, type.typeName);
  if (origin !== undefined) return isMcpSdkModule(origin.module);
  const declaration = context.checker.getSymbolAtLocation(type.typeName)?.declarations?.[0];
  return (
    declaration !== undefined &&
    ts.isTypeAliasDeclaration(declaration) &&
    namesSdkType(context, declaration.type, depth + 1)
  );
}

/**
 * Whether a handler's context parameter (`extra`, `ctx`) whose type is unresolved is the SDK's:
 * the callback is written inline in an SDK registration and the parameter is either not annotated
 * (the SDK's signature types it) or annotated with a type imported from the SDK
 * (`RequestHandlerExtra`, `ServerContext`, or a local alias of one).
 */
export function isUnresolvedSdkContext(
  context: FileContext,
  parameter: ts.ParameterDeclaration,
  inlineInRegistration: boolean,
): boolean {
  // A destructured context (`{ sendRequest, signal }`) is typed by its pattern: each member is unresolved.
  const names = ts.isObjectBindingPattern(parameter.name)
    ? parameter.name.elements.map((element) => element.name)
    : [parameter.name];
  if (!names.every((name) => unresolvedHere(context, name))) return false;
  if (parameter.type !== undefined) return namesSdkType(context, parameter.type);
  return inlineInRegistration;
}
