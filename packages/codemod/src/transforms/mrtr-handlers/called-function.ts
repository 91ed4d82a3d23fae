import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { functionOfSymbol, type HelperFunction } from './eligible-handlers.js';

/**
 * The project function or method a call calls, with the context of its file: `helper(…)`,
 * `helpers.helper(…)` through a namespace import, `this.confirm(…)`, `tools.confirm(…)`. Nothing
 * for functions declared in packages, or in another file when the file is analysed alone.
 */
export function calledFunction(
  context: FileContext,
  call: ts.CallExpression,
): { readonly fn: HelperFunction; readonly context: FileContext } | undefined {
  const callee = unwrapExpression(call.expression);
  const name = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  let symbol = context.checker.getSymbolAtLocation(name);
  if (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0)
    symbol = context.checker.getAliasedSymbol(symbol);
  if (symbol === undefined) return undefined;
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  let fn: HelperFunction | undefined = functionOfSymbol(symbol);
  if (fn === undefined && declaration !== undefined) {
    if (ts.isMethodDeclaration(declaration) && declaration.body !== undefined) fn = declaration;
    if (ts.isPropertyDeclaration(declaration) && declaration.initializer !== undefined) {
      const init = unwrapExpression(declaration.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) fn = init;
    }
  }
  const home = fn?.getSourceFile();
  if (fn === undefined || home === undefined || home.isDeclarationFile) return undefined;
  if (home === context.sourceFile) return { fn, context };
  return context.run === undefined ? undefined : { fn, context: context.run.contextOf(home) };
}
