import { ts } from 'ts-morph';
import { referencesBySymbol, type Reference } from './symbol-references.js';

/** An import specifier and every place the file refers to what it imports. */
export interface ImportUsage {
  readonly specifier: ts.ImportSpecifier;
  readonly references: readonly Reference[];
}

/** Finds the references of every named import, by symbol. */
export function collectImportUsages(sourceFile: ts.SourceFile, checker: ts.TypeChecker): ImportUsage[] {
  const specifiers = new Map<ts.Symbol, ts.ImportSpecifier>();
  for (const statement of sourceFile.statements) {
    const named = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (named === undefined || !ts.isNamedImports(named)) continue;
    for (const specifier of named.elements) {
      const symbol = checker.getSymbolAtLocation(specifier.name);
      if (symbol !== undefined) specifiers.set(symbol, specifier);
    }
  }
  const names = new Map([...specifiers].map(([symbol, specifier]) => [symbol, specifier.name.text]));
  const references = referencesBySymbol(sourceFile, checker, names, ts.isImportDeclaration);
  return [...specifiers].map(([symbol, specifier]) => ({
    specifier,
    references: references.get(symbol) ?? [],
  }));
}
