import {
  sdkOwnerOfImport,
  sdkOwnerOfServerChain,
  sdkOwnerThroughProperty,
  type LegacyOwner,
  type SdkOwnerName,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { unwrapExpression } from './syntax.js';

const MAX_DEPTH = 6;

/** An SDK object found by syntax: what it is, and the SDK module specifier its class or type came from. */
export interface SyntacticOrigin {
  readonly owner: SdkOwnerName;
  readonly module: string;
}

/** What syntax says a receiver is: an SDK object, provably something else, or nothing (unknown). */
type Evidence = SyntacticOrigin | 'other' | undefined;

function declarationOf(checker: ts.TypeChecker, node: ts.Node): ts.Declaration | undefined {
  return checker.getSymbolAtLocation(node)?.declarations?.[0];
}

/** `await import('m')` or `require('m')`: the module a destructuring takes its bindings from. */
function loadedModule(initializer: ts.Expression | undefined): string | undefined {
  if (initializer === undefined) return undefined;
  let current = unwrapExpression(initializer);
  if (ts.isAwaitExpression(current)) current = unwrapExpression(current.expression);
  if (!ts.isCallExpression(current) || current.arguments.length !== 1) return undefined;
  const loads =
    current.expression.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isIdentifier(current.expression) && current.expression.text === 'require');
  const [specifier] = current.arguments;
  return loads && specifier !== undefined && ts.isStringLiteralLike(specifier) ? specifier.text : undefined;
}

/** The module and exported name behind a local import binding, whether or not the module resolves. */
function importOf(declaration: ts.Declaration): { module: string; imported: string } | undefined {
  // `const { McpServer } = await import('m')`, `const { Server: S } = require('m')`
  if (
    ts.isBindingElement(declaration) &&
    ts.isObjectBindingPattern(declaration.parent) &&
    ts.isVariableDeclaration(declaration.parent.parent) &&
    ts.isIdentifier(declaration.name)
  ) {
    const module = loadedModule(declaration.parent.parent.initializer);
    const property = declaration.propertyName ?? declaration.name;
    return module === undefined || !ts.isIdentifier(property)
      ? undefined
      : { module, imported: property.text };
  }
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

/**
 * What core says a name imported from `module` is, with the module it came from. A class or type
 * imported from any other module is that module's own, not the SDK's (the lint's rule too).
 */
function ownerOfImport(module: string, imported: string): Evidence {
  const owner = sdkOwnerOfImport(module, imported);
  return owner === undefined || owner === 'other' ? 'other' : { owner, module };
}

/**
 * The module and exported name a name refers to when it is imported, as written and whether or
 * not the module resolves: `McpServer` from `import { McpServer } from 'm'`, or `types.X` (a type
 * name or a property access) from `import * as types from 'm'`.
 */
export function importedName(
  checker: ts.TypeChecker,
  name: ts.Node,
): { module: string; imported: string } | undefined {
  if (ts.isIdentifier(name)) {
    const declaration = declarationOf(checker, name);
    const origin = declaration === undefined ? undefined : importOf(declaration);
    return origin === undefined || origin.imported === '*' ? undefined : origin;
  }
  const [qualifier, right] = ts.isQualifiedName(name)
    ? [name.left, name.right.text]
    : ts.isPropertyAccessExpression(name)
      ? [name.expression, name.name.text]
      : [undefined, undefined];
  if (qualifier === undefined || !ts.isIdentifier(qualifier)) return undefined;
  const declaration = declarationOf(checker, qualifier);
  const origin = declaration === undefined ? undefined : importOf(declaration);
  return origin?.imported === '*' ? { module: origin.module, imported: right } : undefined;
}

/** A class or type name (`McpServer`, `sdk.Server`) imported from an SDK module specifier. */
function ownerOfName(checker: ts.TypeChecker, name: ts.Node): Evidence {
  const origin = importedName(checker, name);
  return origin === undefined ? undefined : ownerOfImport(origin.module, origin.imported);
}

function ownerOfTypeNode(checker: ts.TypeChecker, type: ts.TypeNode | undefined): Evidence {
  return type !== undefined && ts.isTypeReferenceNode(type) ? ownerOfName(checker, type.typeName) : undefined;
}

/** Whether `let server = …` is assigned again anywhere in its file, so its initializer may not hold. */
function isReassigned(checker: ts.TypeChecker, declaration: ts.VariableDeclaration): boolean {
  if (!ts.isIdentifier(declaration.name)) return true;
  const symbol = checker.getSymbolAtLocation(declaration.name);
  let reassigned = false;
  const visit = (node: ts.Node): void => {
    if (reassigned) return;
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left) &&
      checker.getSymbolAtLocation(node.left) === symbol
    )
      reassigned = true;
    ts.forEachChild(node, visit);
  };
  visit(declaration.getSourceFile());
  return reassigned;
}

/**
 * `this.server = new McpServer(…)` in the constructor of the class declaring `field`: what a
 * field declared without a type or initializer (or only assigned there, in JavaScript) holds.
 */
function ownerOfConstructorAssignment(
  checker: ts.TypeChecker,
  declaration: ts.Declaration,
  depth: number,
): Evidence {
  const name = ts.getNameOfDeclaration(declaration);
  const klass = ts.findAncestor(declaration, ts.isClassLike);
  if (name === undefined || !ts.isIdentifier(name) || klass === undefined) return undefined;
  const constructor = klass.members.find(ts.isConstructorDeclaration);
  const assignments: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node !== constructor) return;
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
      node.left.name.text === name.text
    )
      assignments.push(node.right);
    ts.forEachChild(node, visit);
  };
  if (constructor?.body !== undefined) visit(constructor.body);
  // Only one assignment, in the constructor: anything else may replace it later.
  const writes = countFieldWrites(klass, name.text);
  if (assignments.length !== 1 || writes !== 1) return undefined;
  return syntacticOrigin(checker, assignments[0]!, depth + 1);
}

/** How many times `this.<name> = …` occurs anywhere in a class. */
function countFieldWrites(klass: ts.ClassLikeDeclaration, name: string): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.expression.kind === ts.SyntaxKind.ThisKeyword &&
      node.left.name.text === name
    )
      count++;
    ts.forEachChild(node, visit);
  };
  visit(klass);
  return count;
}

/** The function a callee names, in this file or (imported) in another file of the project. */
function calledFunction(
  checker: ts.TypeChecker,
  callee: ts.Expression,
): ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | undefined {
  const inner = unwrapExpression(callee);
  if (!ts.isIdentifier(inner)) return undefined;
  let symbol = checker.getSymbolAtLocation(inner);
  if (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0)
    symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (declaration === undefined || declaration.getSourceFile().isDeclarationFile) return undefined;
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined) {
    const init = unwrapExpression(declaration.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init;
  }
  return undefined;
}

/**
 * `createServer()`: what a project function returns, by its return type annotation or, without
 * one, by the one thing every `return` in it gives back (`return new McpServer(…)`).
 */
function ownerOfCall(checker: ts.TypeChecker, call: ts.CallExpression, depth: number): Evidence {
  const fn = calledFunction(checker, call.expression);
  if (fn === undefined) return undefined;
  if (fn.type !== undefined) return ownerOfTypeNode(checker, fn.type);
  const body = fn.body;
  if (body === undefined) return undefined;
  if (!ts.isBlock(body)) return syntacticOrigin(checker, body, depth + 1);
  const returned: ts.Expression[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isReturnStatement(node) && node.expression !== undefined) returned.push(node.expression);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  const origins = returned.map((expression) => syntacticOrigin(checker, expression, depth + 1));
  const [first] = origins;
  if (first === undefined || first === 'other') return first;
  return origins.every(
    (origin) =>
      origin !== undefined &&
      origin !== 'other' &&
      origin.owner === first.owner &&
      origin.module === first.module,
  )
    ? first
    : undefined;
}

/**
 * A variable, parameter, class field or import: its annotation, else the initializer it was built
 * by (a `const`, a `let` never assigned again, a field, or the one constructor assignment of a
 * field), else, for a binding imported from another file of the project, that file's declaration.
 */
function ownerOfDeclaration(checker: ts.TypeChecker, declaration: ts.Declaration, depth: number): Evidence {
  if (depth > MAX_DEPTH) return undefined;
  if (ts.isParameter(declaration)) return ownerOfTypeNode(checker, declaration.type);
  if (ts.isVariableDeclaration(declaration) || ts.isPropertyDeclaration(declaration)) {
    const annotated = ownerOfTypeNode(checker, declaration.type);
    if (annotated !== undefined) return annotated;
    if (declaration.initializer === undefined)
      return ts.isPropertyDeclaration(declaration)
        ? ownerOfConstructorAssignment(checker, declaration, depth)
        : undefined;
    const constant =
      ts.isPropertyDeclaration(declaration) ||
      (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0 ||
      !isReassigned(checker, declaration);
    return constant ? syntacticOrigin(checker, declaration.initializer, depth + 1) : undefined;
  }
  if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration)) {
    const symbol = checker.getSymbolAtLocation(declaration.name ?? declaration);
    if (symbol === undefined || (symbol.flags & ts.SymbolFlags.Alias) === 0) return undefined;
    const target = checker.getAliasedSymbol(symbol).declarations?.[0];
    // Only the project's own files: an unresolved package has no declaration to follow.
    return target === undefined || target.getSourceFile().isDeclarationFile
      ? undefined
      : ownerOfDeclaration(checker, target, depth + 1);
  }
  // `this.server = new McpServer(…)` in JavaScript declares the field by the assignment.
  if (
    ts.isBinaryExpression(declaration) ||
    (ts.isPropertyAccessExpression(declaration) && declaration.expression.kind === ts.SyntaxKind.ThisKeyword)
  )
    return ownerOfConstructorAssignment(checker, declaration, depth);
  return undefined;
}

/** `(server as any)`: whatever the expression was, the code chose not to say what it is (the lint's rule too). */
function erasesType(node: ts.Expression): boolean {
  for (let current = node; ;) {
    if (ts.isAsExpression(current) || ts.isTypeAssertionExpression(current)) {
      if (current.type.kind === ts.SyntaxKind.AnyKeyword) return true;
      current = current.expression;
    } else if (
      ts.isParenthesizedExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isSatisfiesExpression(current)
    ) {
      current = current.expression;
    } else return false;
  }
}

/**
 * What a receiver is by syntax alone, for files whose SDK types are not installed: built by
 * `new Server(…)`/`new McpServer(…)` (or annotated with such a type) imported from an MCP SDK
 * module specifier (statically, or destructured from `await import(…)` or `require(…)`), directly
 * or through a `const` (or a `let` never assigned again), a class field (its initializer, or its
 * one assignment in the constructor), `mcpServer.server`, a project function that returns one, or
 * a binding imported from another file of the project that is one of these. The decisions (which imported
 * names, which properties) are core's, shared with the lint rules; unlike the lint, a receiver whose
 * root is unknown is not taken to be the SDK's, because the codemod rewrites what it finds.
 */
export function syntacticOrigin(checker: ts.TypeChecker, node: ts.Expression, depth = 0): Evidence {
  if (depth > MAX_DEPTH || erasesType(node)) return undefined;
  const current = unwrapExpression(node);
  if (ts.isNewExpression(current)) return ownerOfName(checker, current.expression);
  if (ts.isCallExpression(current)) return ownerOfCall(checker, current, depth);
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
    const receiver = syntacticOrigin(checker, current.expression, depth + 1);
    if (receiver === undefined) return undefined;
    // A member of an object proven to be something else (`anthropic.messages`) is that code's too.
    if (receiver === 'other') return 'other';
    const owner = sdkOwnerThroughProperty(current.name.text, receiver.owner);
    return owner === undefined || owner === 'other' ? owner : { owner, module: receiver.module };
  }
  return undefined;
}

/** The SDK owner a receiver is by syntax alone (see {@link syntacticOrigin}). */
export function syntacticOwner(
  checker: ts.TypeChecker,
  node: ts.Expression,
): SdkOwnerName | 'other' | undefined {
  const origin = syntacticOrigin(checker, node);
  return origin === undefined || origin === 'other' ? origin : origin.owner;
}

/**
 * `agent.server.server`, `ctx.mcpServer.server`: the chain frameworks hand the SDK's server out
 * through, which the lint takes as the SDK's whatever its root is (core's `sdkOwnerOfServerChain`).
 */
export function serverChainOwner(node: ts.Expression): LegacyOwner | undefined {
  const current = unwrapExpression(node);
  if (!ts.isPropertyAccessExpression(current)) return undefined;
  const holder = unwrapExpression(current.expression);
  return sdkOwnerOfServerChain(
    ts.isPropertyAccessExpression(holder) ? holder.name.text : undefined,
    current.name.text,
  );
}
