import {
  isMcpSdkDeclarationFile,
  legacyMember,
  SDK_DECLARATION_OWNERS,
  type LegacyMember,
} from '@mcp-mrtr/core';
import type { ParserServicesWithTypeInformation, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

/** The parser's type information, present only when linting with a TypeScript program. */
export interface TypedServices {
  readonly checker: TypeScript.TypeChecker;
  readonly toTs: ParserServicesWithTypeInformation['esTreeNodeToTSNodeMap'];
}

/**
 * TypeScript's API, loaded by `typedServices` for the first file with type information: every
 * function below takes a `TypedServices`, so it is loaded before they run. Importing it with the
 * plugin cost most of the plugin's load time, and untyped linting (and oxlint) never needs it.
 */
let ts: typeof TypeScript;

export function typedServices(sourceCode: Readonly<TSESLint.SourceCode>): TypedServices | undefined {
  const services = sourceCode.parserServices as Partial<ParserServicesWithTypeInformation> | undefined;
  if (services?.program == null || services.esTreeNodeToTSNodeMap === undefined) return undefined;
  // The TypeScript the parser resolves is the one that built the program.
  ts ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return { checker: services.program.getTypeChecker(), toTs: services.esTreeNodeToTSNodeMap };
}

/** What the checker says about where a called function or a symbol is declared. */
export type Provenance =
  | { readonly kind: 'sdk'; readonly container: string; readonly name: string }
  | { readonly kind: 'other' }
  | { readonly kind: 'unknown' };

const UNKNOWN: Provenance = { kind: 'unknown' };
const OTHER: Provenance = { kind: 'other' };

/** Bundlers rename clashing declarations (`Server$1`); the SDK's public name is the part before `$`. */
function publicName(name: string): string {
  return name.replace(/\$\d+$/, '');
}

function nameOf(node: TypeScript.Node): string | undefined {
  const name = (node as { name?: TypeScript.Node }).name;
  return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name))
    ? publicName(name.text)
    : undefined;
}

function isMemberDeclaration(node: TypeScript.Node): boolean {
  return (
    ts.isPropertySignature(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node)
  );
}

/**
 * The member a signature belongs to: the method or property itself, or the function type (or call
 * signature list) written as a property's type. A function type nested anywhere else, such as a
 * method's return type, is not the member.
 */
function memberOfSignature(declaration: TypeScript.Node): TypeScript.Node | undefined {
  if (isMemberDeclaration(declaration)) return declaration;
  const parent = declaration.parent;
  const isTypeOf = (property: TypeScript.Node, node: TypeScript.Node) =>
    (ts.isPropertySignature(property) || ts.isPropertyDeclaration(property)) &&
    (property.type === node || (ts.isPropertyDeclaration(property) && property.initializer === node));
  if (
    ts.isFunctionTypeNode(declaration) ||
    ts.isArrowFunction(declaration) ||
    ts.isFunctionExpression(declaration)
  ) {
    return isTypeOf(parent, declaration) ? parent : undefined;
  }
  if (ts.isCallSignatureDeclaration(declaration) && ts.isTypeLiteralNode(parent)) {
    return isTypeOf(parent.parent, parent) ? parent.parent : undefined;
  }
  return undefined;
}

/**
 * `Server.elicitInput`, `ServerContext.mcpReq.elicitInput`, `RequestHandlerExtra.sendRequest`: the
 * named type that declares a member, then the property names leading to it.
 */
function declarationPath(declaration: TypeScript.Node): Provenance {
  const member = memberOfSignature(declaration);
  if (member === undefined) return OTHER;
  const names: string[] = [];
  for (let node: TypeScript.Node | undefined = member; node !== undefined; node = node.parent) {
    if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      const name = nameOf(node);
      if (name === undefined) return OTHER;
      names.unshift(name);
      break;
    }
    if (isMemberDeclaration(node)) {
      const name = nameOf(node);
      if (name === undefined) return OTHER;
      names.unshift(name);
    }
    if (ts.isSourceFile(node)) return OTHER;
  }
  const name = names.pop();
  return name === undefined || names.length === 0 ? OTHER : { kind: 'sdk', container: names.join('.'), name };
}

function provenanceOfDeclaration(declaration: TypeScript.Node | undefined): Provenance {
  if (declaration === undefined) return UNKNOWN;
  if (!isMcpSdkDeclarationFile(declaration.getSourceFile().fileName)) return OTHER;
  return declarationPath(declaration);
}

/** Where the function a call resolves to is declared; sees through aliases, fields and helper parameters. */
export function callProvenance(typed: TypedServices, call: TSESTree.CallExpression): Provenance {
  const tsCall = typed.toTs.get(call) as TypeScript.CallExpression | undefined;
  if (tsCall === undefined) return UNKNOWN;
  // `fn.call(thisArg, …)` and `fn.apply(thisArg, […])` run `fn`, not Function.prototype.
  const callee = tsCall.expression;
  if (
    ts.isPropertyAccessExpression(callee) &&
    (callee.name.text === 'call' || callee.name.text === 'apply')
  ) {
    const target = typed.checker.getTypeAtLocation(callee.expression).getCallSignatures()[0];
    if (target !== undefined) return provenanceOfDeclaration(target.getDeclaration());
  }
  const signature = typed.checker.getResolvedSignature(tsCall);
  const declaration = signature?.getDeclaration() as TypeScript.Node | undefined;
  if (declaration === undefined || ts.isJSDocSignature(declaration)) return UNKNOWN;
  return provenanceOfDeclaration(declaration);
}

/** The catalog member a provenance names, when it is one. */
export function memberOfProvenance(provenance: Provenance): LegacyMember | undefined {
  if (provenance.kind !== 'sdk') return undefined;
  const owner = SDK_DECLARATION_OWNERS[provenance.container];
  return owner === undefined ? undefined : legacyMember(owner, provenance.name);
}

/** Whether a symbol or type is declared by the SDK, and under which public name. */
export type SdkOrigin = { readonly kind: 'sdk'; readonly name: string } | { readonly kind: 'other' };

const NOT_SDK: SdkOrigin = { kind: 'other' };

/** The exported SDK name an identifier refers to (through imports, re-exports and aliases). */
export function sdkSymbolName(typed: TypedServices, node: TSESTree.Node): SdkOrigin | undefined {
  const tsNode = typed.toTs.get(node);
  if (tsNode === undefined) return undefined;
  let symbol = typed.checker.getSymbolAtLocation(tsNode);
  if (symbol === undefined) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = typed.checker.getAliasedSymbol(symbol);
  const declaration = symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  if (!isMcpSdkDeclarationFile(declaration.getSourceFile().fileName)) return NOT_SDK;
  return { kind: 'sdk', name: publicName(symbol.getName()) };
}

/** The string literal type of an object's `method` property, e.g. for `req: ElicitRequest`. */
export function methodOfType(typed: TypedServices, node: TSESTree.Node): string | undefined {
  const tsNode = typed.toTs.get(node);
  if (tsNode === undefined) return undefined;
  const type = typed.checker.getTypeAtLocation(tsNode);
  const method = type.getProperty('method');
  if (method === undefined) return undefined;
  const methodType = typed.checker.getTypeOfSymbolAtLocation(method, tsNode);
  return methodType.isStringLiteral() ? methodType.value : undefined;
}

/** The SDK class or type alias an expression's type is declared as, if any. */
export function sdkTypeName(typed: TypedServices, node: TSESTree.Node): SdkOrigin | undefined {
  const tsNode = typed.toTs.get(node);
  if (tsNode === undefined) return undefined;
  const type = typed.checker.getTypeAtLocation(tsNode);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const declaration = symbol?.declarations?.[0];
  if (symbol === undefined || declaration === undefined) return undefined;
  if (!isMcpSdkDeclarationFile(declaration.getSourceFile().fileName)) return NOT_SDK;
  return { kind: 'sdk', name: publicName(symbol.getName()) };
}
