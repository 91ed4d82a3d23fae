import { sdkOwnerOfImport, sdkOwnerThroughProperty, type SdkOwnerName } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { unwrapExpression } from './syntax.js';

const MAX_DEPTH = 6;

/** What syntax says a receiver is: an SDK owner, provably something else, or nothing (unknown). */
type Evidence = SdkOwnerName | 'other' | undefined;

function declarationOf(checker: ts.TypeChecker, node: ts.Node): ts.Declaration | undefined {
  return checker.getSymbolAtLocation(node)?.declarations?.[0];
}

/** The module and exported name behind a local import binding, whether or not the module resolves. */
function importOf(declaration: ts.Declaration): { module: string; imported: string } | undefined {
  if (ts.isImportSpecifier(declaration)) {
    const module = declaration.parent.parent.parent.moduleSpecifier;
    if (!ts.isStringLiteral(module)) return undefined;
    return { module: module.text, imported: (declaration.propertyName ?? declaration.name).text };
  }
  if (ts.isImportClause(declaration) || ts.isNamespaceImport(declaration)) {
    const clause = ts.isImportClause(declaration) ? declaration : declaration.parent;
    const module = clause.parent.moduleSpecifier;
    if (!ts.isStringLiteral(module)) return undefined;
    return { module: module.text, imported: ts.isNamespaceImport(declaration) ? '*' : 'default' };
  }
  return undefined;
}

/** A class or type name (`McpServer`, `sdk.Server`) imported from an SDK module specifier. */
function ownerOfName(checker: ts.TypeChecker, name: ts.Node): Evidence {
  if (ts.isIdentifier(name)) {
    const declaration = declarationOf(checker, name);
    const origin = declaration === undefined ? undefined : importOf(declaration);
    return origin === undefined || origin.imported === '*'
      ? undefined
      : sdkOwnerOfImport(origin.module, origin.imported);
  }
  const [qualifier, right] = ts.isQualifiedName(name)
    ? [name.left, name.right.text]
    : ts.isPropertyAccessExpression(name)
      ? [name.expression, name.name.text]
      : [undefined, undefined];
  if (qualifier === undefined || !ts.isIdentifier(qualifier)) return undefined;
  const declaration = declarationOf(checker, qualifier);
  const origin = declaration === undefined ? undefined : importOf(declaration);
  return origin?.imported === '*' ? sdkOwnerOfImport(origin.module, right) : undefined;
}

function ownerOfTypeNode(checker: ts.TypeChecker, type: ts.TypeNode | undefined): Evidence {
  return type !== undefined && ts.isTypeReferenceNode(type) ? ownerOfName(checker, type.typeName) : undefined;
}

/** A variable, parameter or class field: its annotation, else the `const` initializer it was built by. */
function ownerOfDeclaration(checker: ts.TypeChecker, declaration: ts.Declaration, depth: number): Evidence {
  if (ts.isParameter(declaration)) return ownerOfTypeNode(checker, declaration.type);
  if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)) {
    const annotated = ownerOfTypeNode(checker, declaration.type);
    if (annotated !== undefined) return annotated;
    const constant =
      ts.isPropertyDeclaration(declaration) ||
      (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0;
    return constant && declaration.initializer !== undefined
      ? syntacticOwner(checker, declaration.initializer, depth + 1)
      : undefined;
  }
  return undefined;
}

/**
 * What a receiver is by syntax alone, for files whose SDK types are not installed: built by
 * `new Server(…)`/`new McpServer(…)` (or annotated with such a type) imported from an MCP SDK
 * module specifier, directly or through a `const`, a class field or `mcpServer.server`. The
 * decisions (which imported names, which properties) are core's, shared with the lint rules;
 * unlike the lint, a receiver whose root is unknown is not taken to be the SDK's, because the
 * codemod rewrites what it finds.
 */
export function syntacticOwner(checker: ts.TypeChecker, node: ts.Expression, depth = 0): Evidence {
  if (depth > MAX_DEPTH) return undefined;
  const current = unwrapExpression(node);
  if (ts.isNewExpression(current)) return ownerOfName(checker, current.expression);
  if (ts.isIdentifier(current)) {
    const declaration = declarationOf(checker, current);
    return declaration === undefined ? undefined : ownerOfDeclaration(checker, declaration, depth);
  }
  if (ts.isPropertyAccessExpression(current)) {
    const declaration = declarationOf(checker, current.name);
    if (declaration !== undefined && current.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const field = ownerOfDeclaration(checker, declaration, depth);
      if (field !== undefined) return field;
    }
    const receiver = syntacticOwner(checker, current.expression, depth + 1);
    return receiver === undefined ? undefined : sdkOwnerThroughProperty(current.name.text, receiver);
  }
  return undefined;
}
