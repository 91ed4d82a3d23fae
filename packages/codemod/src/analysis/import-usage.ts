import { ts } from 'ts-morph';

/** An import specifier and every place the file refers to what it imports. */
export interface ImportUsage {
  readonly specifier: ts.ImportSpecifier;
  readonly references: readonly { readonly start: number; readonly end: number }[];
}

/**
 * Finds the references of every named import, by symbol rather than by name, so that a property
 * or a shadowing local of the same name is not mistaken for a use.
 */
export function collectImportUsages(sourceFile: ts.SourceFile, checker: ts.TypeChecker): ImportUsage[] {
  const bySymbol = new Map<
    ts.Symbol,
    { specifier: ts.ImportSpecifier; references: { start: number; end: number }[] }
  >();
  for (const statement of sourceFile.statements) {
    const named = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (named === undefined || !ts.isNamedImports(named)) continue;
    for (const specifier of named.elements) {
      const symbol = checker.getSymbolAtLocation(specifier.name);
      if (symbol !== undefined) bySymbol.set(symbol, { specifier, references: [] });
    }
  }
  if (bySymbol.size === 0) return [];
  const names = new Set([...bySymbol.values()].map((usage) => usage.specifier.name.text));
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && names.has(node.text)) {
      const symbol =
        ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : checker.getSymbolAtLocation(node);
      const usage = symbol === undefined ? undefined : bySymbol.get(symbol);
      usage?.references.push({ start: node.getStart(sourceFile), end: node.end });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return [...bySymbol.values()];
}
