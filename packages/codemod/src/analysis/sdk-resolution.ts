import { isMcpSdkDeclarationFile } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';

/** How a member access resolved: to the SDK, to something else, or not at all (`any`, errors). */
export type MemberResolution =
  | { readonly kind: 'sdk'; readonly name: string; readonly container: string | undefined }
  | { readonly kind: 'other' }
  | { readonly kind: 'unresolved' };

function containerName(declaration: ts.Declaration): string | undefined {
  for (let node: ts.Node | undefined = declaration.parent; node !== undefined; node = node.parent) {
    if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name !== undefined)
      return node.name.text;
    if (ts.isTypeAliasDeclaration(node)) return node.name.text;
  }
  return undefined;
}

/** Whether a type is `any`, or the error type TypeScript uses for what it could not resolve. */
export function isUnresolvedType(type: ts.Type): boolean {
  return (type.flags & ts.TypeFlags.Any) !== 0;
}

/** Resolves `receiver.name` to its declaration, asking whether the SDK declares it. */
export function resolveMember(
  checker: ts.TypeChecker,
  access: ts.PropertyAccessExpression,
): MemberResolution {
  const symbol = checker.getSymbolAtLocation(access.name);
  const declarations = symbol?.declarations ?? [];
  if (declarations.length === 0) {
    const receiverType = checker.getTypeAtLocation(access.expression);
    return isUnresolvedType(receiverType) ? { kind: 'unresolved' } : { kind: 'other' };
  }
  const sdk = declarations.find((declaration) =>
    isMcpSdkDeclarationFile(declaration.getSourceFile().fileName),
  );
  if (sdk === undefined) return { kind: 'other' };
  return { kind: 'sdk', name: access.name.text, container: containerName(sdk) };
}

/** The SDK export an identifier refers to (through imports and aliases), by its exported name. */
export function sdkExportName(checker: ts.TypeChecker, node: ts.Node): string | undefined {
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol === undefined) return undefined;
  if ((symbol.flags & ts.SymbolFlags.Alias) !== 0) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined || !isMcpSdkDeclarationFile(declaration.getSourceFile().fileName))
    return undefined;
  return symbol.name;
}
