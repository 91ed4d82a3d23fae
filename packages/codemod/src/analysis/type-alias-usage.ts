import { ts } from 'ts-morph';

/** A module-private type alias and every place the file refers to it. */
export interface TypeAliasUsage {
  readonly declaration: ts.TypeAliasDeclaration;
  readonly references: readonly { readonly start: number; readonly end: number }[];
}

/**
 * Finds the references of every top-level type alias the module does not export, by symbol, so
 * that an alias only the rewritten code used (`type Extra = RequestHandlerExtra<…>` annotating the
 * `extra` parameter a handler gives up for `round`) can go with it instead of failing
 * `noUnusedLocals`.
 */
export function collectTypeAliasUsages(sourceFile: ts.SourceFile, checker: ts.TypeChecker): TypeAliasUsage[] {
  const bySymbol = new Map<
    ts.Symbol,
    { declaration: ts.TypeAliasDeclaration; references: { start: number; end: number }[] }
  >();
  for (const statement of sourceFile.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    if (statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const symbol = checker.getSymbolAtLocation(statement.name);
    if (symbol !== undefined) bySymbol.set(symbol, { declaration: statement, references: [] });
  }
  if (bySymbol.size === 0) return [];
  const names = new Set([...bySymbol.values()].map((usage) => usage.declaration.name.text));
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && names.has(node.text) && !ts.isTypeAliasDeclaration(node.parent)) {
      const symbol = checker.getSymbolAtLocation(node);
      const usage = symbol === undefined ? undefined : bySymbol.get(symbol);
      usage?.references.push({ start: node.getStart(sourceFile), end: node.end });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return [...bySymbol.values()];
}
