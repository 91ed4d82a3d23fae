import path from 'node:path';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { RequiredUnit } from '../../analysis/site.js';
import { referredSymbol } from '../../analysis/symbol-references.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { TRANSFORM_ID } from './transform-id.js';

// An exported helper that asks can take `round` only if no code outside the project may call it
// (its package does not publish it) and every use of it in the project is a call this run can
// update. Its calls in other files are found by symbol, in every file of the program (the engine
// puts the project's files importing a candidate, directly or not, and the package's entry points
// into it), and each of those files is brought into the run so that its own analysis plans the
// handler side of the rewrite.

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

/** What a name refers to, through imports and re-exports, and through a shorthand property (`{ confirm }`). */
function resolvedSymbol(
  checker: ts.TypeChecker,
  node: ts.Identifier | ts.StringLiteral,
): ts.Symbol | undefined {
  const symbol = ts.isIdentifier(node) ? referredSymbol(checker, node) : checker.getSymbolAtLocation(node);
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0
    ? checker.getAliasedSymbol(symbol)
    : symbol;
}

/** What is known of an exported helper's callers outside its own file. */
export interface ForeignCalls {
  /** Its calls in the project's other files. */
  readonly calls: readonly ForeignCall[];
  /** Why no code outside the project is taken to call it, said for the report. */
  readonly assumed: string;
}

/**
 * Every call of the exported helper `symbol` (named `name`) in the program's other files, or why
 * they cannot all be updated: the package publishes it (or what it publishes is unknown), it is
 * passed on or stored, or it is called from a file this run may not write. Re-exports inside the
 * project (barrels, `export { x } from`, `export *`) are followed to the calls through them.
 * Without a view of the run (a file analysed alone), its callers elsewhere cannot be seen.
 */
export function foreignCalls(context: FileContext, symbol: ts.Symbol, name: string): ForeignCalls | string {
  const run = context.run;
  if (run === undefined)
    return 'its callers in other files cannot be updated to pass the round when the file is migrated alone; migrate them together';
  const published = publication(context, symbol, name);
  if ('reason' in published) return published.reason;
  const names = namesOf(context.checker, run.sourceFiles, symbol, name);
  const mention = run.mentionOutsideProgram(names);
  if (mention !== undefined)
    return `${path.relative(path.dirname(context.path), mention).replaceAll('\\', '/')} names it but does not import it by a relative path, so the codemod cannot follow that call; migrate them together by hand`;
  const calls: ForeignCall[] = [];
  for (const sourceFile of run.sourceFiles) {
    if (sourceFile === context.sourceFile || !mentionsAny(sourceFile, names)) continue;
    const other = run.contextOf(sourceFile);
    let why: string | undefined;
    const visit = (node: ts.Node): void => {
      if (why !== undefined) return;
      if (ts.isIdentifier(node) && names.has(node.text) && resolvedSymbol(other.checker, node) === symbol) {
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
  }
  for (const { context: other, call } of calls)
    if (!run.relate(other.path, TRANSFORM_ID))
      return `it is called at ${placeIn(context, other, call)}, in another TypeScript project of the run, whose analysis cannot pass the round; migrate both by hand`;
  return { calls, assumed: published.assumed };
}

/**
 * Whether code outside the project may import the helper, decided from its package: the reason
 * when an entry point of the package exports it or what the package publishes is unknown, else
 * what was assumed.
 */
function publication(
  context: FileContext,
  symbol: ts.Symbol,
  name: string,
): { readonly reason: string } | { readonly assumed: string } {
  const run = context.run!;
  const api = run.packageApi(context.path);
  const callers = 'so code outside the package may call it; migrate it and its callers together by hand';
  if (api.kind === 'unknown') return { reason: `${api.why}, ${callers}` };
  if (api.kind === 'none')
    return { assumed: `assumed ${name}() is not called from outside the package: ${api.why}` };
  for (const entry of api.entries) {
    const published = `package.json's ${entry.field} (${entry.target}`;
    const sourceFile = run.sourceFiles.find((each) => each.fileName === entry.source);
    if (sourceFile === undefined)
      return {
        reason: `${published}) is built from ${relativeTo(context, entry.source)}, which the codemod did not load, ${callers}`,
      };
    const module = context.checker.getSymbolAtLocation(sourceFile);
    const exported = module === undefined ? [] : context.checker.getExportsOfModule(module);
    const as = exported.find((each) => resolvedAlias(context.checker, each) === symbol);
    if (as !== undefined)
      return {
        reason: `${published}${sourceFile === context.sourceFile ? '' : `, built from ${relativeTo(context, entry.source)}`}) exports it${as.name === name ? '' : ` as ${as.name}`}, ${callers}`,
      };
  }
  const entries = api.entries.map((entry) => `${entry.field} is ${entry.target}`).join(' and its ');
  return {
    assumed: `assumed ${name}() is not called from outside the package: package.json's ${entries}, which ${api.entries.length === 1 ? 'does' : 'do'} not export it`,
  };
}

function relativeTo(context: FileContext, file: string): string {
  return path.relative(path.dirname(context.path), file).replaceAll('\\', '/');
}

function resolvedAlias(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol;
}

function mentionsAny(sourceFile: ts.SourceFile, names: ReadonlySet<string>): boolean {
  for (const name of names) if (sourceFile.text.includes(name)) return true;
  return false;
}

/**
 * The names the helper goes by in the program: its own, and those imports and re-exports give it
 * (`import { confirm as ask }`, `export { confirm as confirmAction } from`, a default import).
 */
function namesOf(
  checker: ts.TypeChecker,
  sourceFiles: readonly ts.SourceFile[],
  symbol: ts.Symbol,
  name: string,
): ReadonlySet<string> {
  const names = new Set([name]);
  for (let known = 0; known !== names.size;) {
    known = names.size;
    for (const sourceFile of sourceFiles) {
      const adopt = (original: string | undefined, local: ts.Identifier | ts.StringLiteral): void => {
        if ((original === undefined || names.has(original)) && !names.has(local.text))
          if (resolvedSymbol(checker, local) === symbol) names.add(local.text);
      };
      for (const statement of sourceFile.statements) {
        if (ts.isImportDeclaration(statement) && statement.importClause !== undefined) {
          const clause = statement.importClause;
          if (clause.name !== undefined) adopt(undefined, clause.name);
          if (clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings))
            for (const element of clause.namedBindings.elements)
              adopt((element.propertyName ?? element.name).text, element.name);
        } else if (
          ts.isExportDeclaration(statement) &&
          statement.exportClause !== undefined &&
          ts.isNamedExports(statement.exportClause)
        )
          for (const element of statement.exportClause.elements)
            adopt((element.propertyName ?? element.name).text, element.name);
      }
    }
  }
  return names;
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
  // A re-export inside the project: its callers are found by symbol through it, and whether code
  // outside the project may call it was decided from the package.
  if (ts.isExportSpecifier(parent) || ts.isExportAssignment(parent)) return undefined;
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
