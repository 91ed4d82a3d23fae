import { ts } from 'ts-morph';
import { referencesBySymbol, type Reference } from './symbol-references.js';

/** A module-private type alias and every place the file refers to it. */
export interface TypeAliasUsage {
  readonly declaration: ts.TypeAliasDeclaration;
  readonly references: readonly Reference[];
}

/**
 * Finds the references of every top-level type alias the module does not export, so that an alias
 * only the rewritten code used (`type Extra = RequestHandlerExtra<…>` annotating the `extra`
 * parameter a handler gives up for `round`) can go with it instead of failing `noUnusedLocals`.
 */
export function collectTypeAliasUsages(sourceFile: ts.SourceFile, checker: ts.TypeChecker): TypeAliasUsage[] {
  const aliases = new Map<ts.Symbol, ts.TypeAliasDeclaration>();
  for (const statement of sourceFile.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    if (statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const symbol = checker.getSymbolAtLocation(statement.name);
    if (symbol !== undefined) aliases.set(symbol, statement);
  }
  const names = new Map([...aliases].map(([symbol, declaration]) => [symbol, declaration.name.text]));
  // The alias's own name is its declaration, not a use.
  const isOwnName = (node: ts.Node) =>
    ts.isIdentifier(node) && ts.isTypeAliasDeclaration(node.parent) && node.parent.name === node;
  const references = referencesBySymbol(sourceFile, checker, names, isOwnName);
  return [...aliases].map(([symbol, declaration]) => ({
    declaration,
    references: references.get(symbol) ?? [],
  }));
}
