import { ts } from 'ts-morph';
import { valueSymbol } from './syntax.js';

/** Where a name is used in the text: what applying edits checks a removal against. */
export type Reference = { readonly start: number; readonly end: number };

/**
 * Every reference in the file to each of `symbols`, found by symbol rather than by name, so that a
 * property or a shadowing local of the same name is not mistaken for a use. `skip` leaves out
 * subtrees that are not uses (the declarations themselves).
 */
export function referencesBySymbol(
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
  symbols: ReadonlyMap<ts.Symbol, string>,
  skip: (node: ts.Node) => boolean,
): Map<ts.Symbol, Reference[]> {
  const references = new Map<ts.Symbol, Reference[]>([...symbols.keys()].map((symbol) => [symbol, []]));
  if (symbols.size === 0) return references;
  const names = new Set(symbols.values());
  const visit = (node: ts.Node): void => {
    if (skip(node)) return;
    if (ts.isIdentifier(node) && names.has(node.text)) {
      const symbol = valueSymbol(checker, node);
      if (symbol !== undefined)
        references.get(symbol)?.push({ start: node.getStart(sourceFile), end: node.end });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return references;
}

/**
 * The symbol an identifier refers to; in a shorthand property (`{ confirm }`), the value it
 * stores, not the property it declares.
 */
export function referredSymbol(checker: ts.TypeChecker, identifier: ts.Identifier): ts.Symbol | undefined {
  const parent = identifier.parent;
  return ts.isShorthandPropertyAssignment(parent) && parent.name === identifier
    ? checker.getShorthandAssignmentValueSymbol(parent)
    : checker.getSymbolAtLocation(identifier);
}

/**
 * Every identifier under `scope` that refers to `symbol`, except `declarationName` (the name its
 * declaration binds); a shorthand property storing it (`{ confirm }`) is one.
 */
export function identifiersReferringTo(
  checker: ts.TypeChecker,
  scope: ts.Node,
  symbol: ts.Symbol,
  declarationName: ts.Identifier,
): ts.Identifier[] {
  const found: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node !== declarationName && node.text === declarationName.text) {
      if (referredSymbol(checker, node) === symbol) found.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return found;
}
