import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { forEachDescendant, unwrapExpression } from '../../analysis/syntax.js';
import { calledFunction } from './called-function.js';
import { classMemberOf } from './class-members.js';
import { functionOfSymbol, type HelperFunction } from './eligible-handlers.js';
import { PlacementFinder, type HelperPlacement } from './placement.js';
import { asPushCall } from './push-calls.js';

// The handler side of a cross-file helper: a call, in this file, of a helper another file exports
// that asks through a parameter. The helper's own file decides whether it takes `round` (every
// caller in the project must be an eligible handler); this side passes it. A method of a class
// another file declares is found the same way, through the instance it is called on.

/** The local names of what the file imports from relative modules (other files of the project). */
function relativeImportNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      !ts.isStringLiteral(statement.moduleSpecifier) ||
      !statement.moduleSpecifier.text.startsWith('.')
    )
      continue;
    const clause = statement.importClause;
    if (clause === undefined || clause.isTypeOnly) continue;
    if (clause.name !== undefined) names.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings !== undefined && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings !== undefined && ts.isNamedImports(bindings))
      for (const element of bindings.elements) if (!element.isTypeOnly) names.add(element.name.text);
  }
  return names;
}

/** The identifier naming the function a call calls: `helper(…)` or `helpers.helper(…)`. */
function calleeName(call: ts.CallExpression, imported: ReadonlySet<string>): ts.Identifier | undefined {
  const callee = unwrapExpression(call.expression);
  if (ts.isIdentifier(callee)) return imported.has(callee.text) ? callee : undefined;
  if (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    ts.isIdentifier(callee.name) &&
    imported.has(callee.expression.text)
  )
    return callee.name;
  return undefined;
}

/** Finds the calls of other files' asking helpers in one file, with each helper's placement. */
export class ForeignHelperCalls {
  readonly #imported: ReadonlySet<string>;

  constructor(private readonly context: FileContext) {
    this.#imported = context.run === undefined ? new Set() : relativeImportNames(context.sourceFile);
  }

  /** The placement of the helper `call` calls, when it is another file's helper taking this call's round. */
  placementOf(node: ts.Node): HelperPlacement | undefined {
    const run = this.context.run;
    if (run === undefined || !ts.isCallExpression(node)) return undefined;
    const fn = this.#otherFilesFunction(node);
    const home = fn?.getSourceFile();
    if (fn === undefined || home === undefined) return undefined;
    return helperPlacementOf(run.contextOf(home), fn, node);
  }

  /** The function of another project file a call calls: an imported helper, or a class's method. */
  #otherFilesFunction(call: ts.CallExpression): HelperFunction | undefined {
    const name = calleeName(call, this.#imported);
    let fn: HelperFunction | undefined;
    if (name !== undefined) {
      let symbol = this.context.checker.getSymbolAtLocation(name);
      if (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0)
        symbol = this.context.checker.getAliasedSymbol(symbol);
      fn = symbol === undefined ? undefined : functionOfSymbol(symbol);
    } else if (ts.isPropertyAccessExpression(unwrapExpression(call.expression))) {
      const called = calledFunction(this.context, call)?.fn ?? this.#untypedMethod(call);
      fn = called !== undefined && classMemberOf(called) !== undefined ? called : undefined;
    }
    const home = fn?.getSourceFile();
    return home === undefined || home === this.context.sourceFile || home.isDeclarationFile ? undefined : fn;
  }

  /**
   * `this.elicitation.confirm(…)` on a receiver whose type is unknown: the one class method of
   * that name in the run that asks, when its own placement takes this call as one of its calls
   * (see class-members.ts for when it presumes so).
   */
  #untypedMethod(call: ts.CallExpression): HelperFunction | undefined {
    const callee = unwrapExpression(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return undefined;
    const type = this.context.checker.getTypeAtLocation(callee.expression);
    if ((type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) === 0) return undefined;
    const name = callee.name.text;
    let found: HelperFunction | undefined;
    for (const sourceFile of this.context.run?.sourceFiles ?? []) {
      if (sourceFile === this.context.sourceFile || !sourceFile.text.includes(name)) continue;
      forEachDescendant(sourceFile, (node) => {
        if (found !== undefined || !ts.isClassLike(node)) return;
        for (const element of node.members) {
          if (element.name === undefined || !ts.isIdentifier(element.name) || element.name.text !== name)
            continue;
          const fn = ts.isMethodDeclaration(element)
            ? element
            : ts.isPropertyDeclaration(element) && element.initializer !== undefined
              ? unwrapExpression(element.initializer)
              : undefined;
          if (
            fn !== undefined &&
            (ts.isMethodDeclaration(fn) || ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))
          )
            found = fn;
        }
      });
      if (found !== undefined) break;
    }
    return found;
  }
}

/**
 * The placement of `fn` as a helper that `call` calls: found from a question it asks itself, or
 * from a helper it calls in turn (whose placement follows its callers, `fn` among them).
 */
function helperPlacementOf(
  context: FileContext,
  fn: HelperFunction,
  call: ts.CallExpression,
  seen = new Set<HelperFunction>(),
): HelperPlacement | undefined {
  if (seen.has(fn)) return undefined;
  seen.add(fn);
  let placement: HelperPlacement | undefined;
  forEachDescendant(fn, (inner) => {
    if (placement !== undefined) return;
    const push = asPushCall(context, inner);
    if (push !== undefined) {
      const found = PlacementFinder.for(context).of(push.call, push.receiver);
      if (found.kind === 'helper' && found.helper.fn === fn && found.helper.calls.includes(call))
        placement = found;
      return;
    }
    if (!ts.isCallExpression(inner)) return;
    const called = calledFunction(context, inner);
    if (called === undefined || called.fn === fn) return;
    const below = helperPlacementOf(called.context, called.fn, inner, seen);
    const caller = below?.callers[below.helper.calls.indexOf(inner)];
    if (caller?.kind === 'helper' && caller.helper.fn === fn && caller.helper.calls.includes(call))
      placement = caller;
  });
  return placement;
}
