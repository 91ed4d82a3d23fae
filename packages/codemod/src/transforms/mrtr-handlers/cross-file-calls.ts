import path from 'node:path';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { RequiredUnit } from '../../analysis/site.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { TRANSFORM_ID } from './transform-id.js';

// An exported helper that asks can take `round` only if every use of it in the project is a call
// this run can update. Its calls in other files are found by symbol, in every file of the program
// (the engine puts the project's importers of a candidate into it), and each of those files is
// brought into the run so that its own analysis plans the handler side of the rewrite.

/** A call of an exported helper in another file, with that file's context. */
export interface ForeignCall {
  readonly context: FileContext;
  readonly call: ts.CallExpression;
  /** What was presumed to take the call as one of the function's: its receiver's type is unknown. */
  readonly assumed?: string;
}

/** How a reason names a place in another file: its path relative to `from`'s file, and line. */
export function placeIn(from: FileContext, other: FileContext, node: ts.Node): string {
  const relative = path.relative(path.dirname(from.path), other.path).replaceAll('\\', '/');
  return `${relative}:${other.lineOf(node)}`;
}

/** The key a rewrite of one function is linked by: its file and offset. */
export function unitOf(fn: ts.Node): string {
  return `${fn.getSourceFile().fileName}#${fn.pos}`;
}

/** A link to a function in another file, for the sites of `from`. */
export function requiredUnit(from: FileContext, fn: ts.Node, name: string): RequiredUnit {
  const relative = path.relative(path.dirname(from.path), fn.getSourceFile().fileName).replaceAll('\\', '/');
  return { unit: unitOf(fn), label: `${name}() in ${relative}` };
}

function resolvedSymbol(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0
    ? checker.getAliasedSymbol(symbol)
    : symbol;
}

/** `export * from './helpers.js'` of the helper's module, in another file. */
function reExportsAll(other: FileContext, module: ts.SourceFile): ts.ExportDeclaration | undefined {
  if (!other.text.includes('export')) return undefined;
  return other.sourceFile.statements.find(
    (statement): statement is ts.ExportDeclaration =>
      ts.isExportDeclaration(statement) &&
      statement.exportClause === undefined &&
      statement.moduleSpecifier !== undefined &&
      other.checker.getSymbolAtLocation(statement.moduleSpecifier)?.valueDeclaration === module,
  );
}

/**
 * Every call of the exported helper `symbol` (named `name`) in the program's other files, or why
 * they cannot all be updated: it is re-exported (callers outside the project may use it), passed
 * on or stored, or called from a file this run may not write. Without a view of the run (a file
 * analysed alone), its callers elsewhere cannot be seen.
 */
export function foreignCalls(context: FileContext, symbol: ts.Symbol, name: string): ForeignCall[] | string {
  const run = context.run;
  if (run === undefined)
    return 'its callers in other files cannot be updated to pass the round when the file is migrated alone; migrate them together';
  const calls: ForeignCall[] = [];
  for (const sourceFile of run.sourceFiles) {
    if (sourceFile === context.sourceFile) continue;
    const other = run.contextOf(sourceFile);
    const everything = reExportsAll(other, context.sourceFile);
    if (everything !== undefined)
      return `${placeIn(context, other, everything)} re-exports it, so callers outside the project may use it; migrate them together by hand`;
    if (!sourceFile.text.includes(name)) continue;
    let why: string | undefined;
    const visit = (node: ts.Node): void => {
      if (why !== undefined) return;
      if (ts.isIdentifier(node) && node.text === name && resolvedSymbol(other.checker, node) === symbol) {
        why = useOf(context, other, node, calls);
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    if (why !== undefined) return why;
  }
  if (calls.length === 0) {
    // Its module imported whole (`import * as tools`) and used as a value (a registry a loop
    // registers): it may be called through that value, where the codemod cannot follow it.
    const whole = namespaceImportOf(context, run.sourceFiles);
    if (whole !== undefined)
      return `${placeIn(context, whole.context, whole.node)} imports its module as ${whole.node.name.text}, which may call it without naming it (a registry of tools, a loop over the module's exports); pass the round to it there by hand, or call it by name`;
    // Exported yet imported by no other file of the project: its callers may be outside it.
    return 'no other file of the project calls it, so its callers may be outside the project; migrate them together by hand';
  }
  for (const { context: other, call } of calls)
    if (!run.relate(other.path, TRANSFORM_ID))
      return `it is called at ${placeIn(context, other, call)}, in another TypeScript project of the run, whose analysis cannot pass the round; migrate both by hand`;
  return calls;
}

/** `import * as tools from './tools.js'` of the helper's module in another file of the program. */
function namespaceImportOf(
  context: FileContext,
  sourceFiles: readonly ts.SourceFile[],
): { readonly context: FileContext; readonly node: ts.NamespaceImport } | undefined {
  for (const sourceFile of sourceFiles) {
    if (sourceFile === context.sourceFile || !sourceFile.text.includes('* as')) continue;
    const other = context.run!.contextOf(sourceFile);
    for (const statement of sourceFile.statements) {
      if (!ts.isImportDeclaration(statement)) continue;
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      if (
        bindings !== undefined &&
        ts.isNamespaceImport(bindings) &&
        clause?.isTypeOnly !== true &&
        other.checker.getSymbolAtLocation(statement.moduleSpecifier)?.valueDeclaration === context.sourceFile
      )
        return { context: other, node: bindings };
    }
  }
  return undefined;
}

/** Records a call of the helper; anything else is why it cannot take the round. */
function useOf(
  context: FileContext,
  other: FileContext,
  identifier: ts.Identifier,
  calls: ForeignCall[],
): string | undefined {
  const parent = identifier.parent;
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent)) return undefined;
  const where = placeIn(context, other, identifier);
  if (ts.isExportSpecifier(parent) || ts.isExportAssignment(parent))
    return `${where} re-exports it, so callers outside the project may use it; migrate them together by hand`;
  // `helpers.classify(…)` through a namespace import.
  const reference = ts.isPropertyAccessExpression(parent) && parent.name === identifier ? parent : identifier;
  let outer: ts.Node = reference;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  const call = outer.parent;
  if (!ts.isCallExpression(call) || unwrapExpression(call.expression) !== reference)
    return `it is passed on or stored at ${where}, so not every caller can be followed`;
  if (!other.run?.mayWrite(other.path))
    return `it is called at ${where}, which this run does not include, so that call cannot be updated to pass the round; add the file to the run or migrate both by hand`;
  calls.push({ context: other, call });
  return undefined;
}
