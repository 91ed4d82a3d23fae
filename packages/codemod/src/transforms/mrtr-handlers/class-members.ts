import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { placeIn, type ForeignCall } from './cross-file-calls.js';
import type { HelperFunction } from './eligible-handlers.js';
import { asPushCall } from './push-calls.js';
import { TRANSFORM_ID } from './transform-id.js';

// A class that wraps the server (`this.server.elicitInput(…)` in `confirm()`) is followed as a
// helper function is: the method takes the round and every call passes it, `this.confirm(…)`
// inside the class as `tools.confirm(…)` through an instance. Its calls are found by symbol in
// every file of the program, so an instance typed by the class or built by `new` in sight is
// seen; a method that may be reached another way (overridden, overriding, an interface's, called
// on a receiver of unknown type) is presumed to have callers the codemod cannot update.

/** A class's method, or a property holding an arrow function or function expression. */
export interface ClassMember {
  readonly fn: HelperFunction;
  readonly declaration: ts.MethodDeclaration | ts.PropertyDeclaration;
  readonly name: ts.Identifier | ts.PrivateIdentifier;
  readonly klass: ts.ClassLikeDeclaration;
}

/** The class member `fn` is, when it is one the rewrite can follow by name. */
export function classMemberOf(fn: ts.FunctionLikeDeclaration): ClassMember | undefined {
  const declaration = ts.isMethodDeclaration(fn)
    ? fn
    : (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
        ts.isPropertyDeclaration(fn.parent) &&
        fn.parent.initializer === fn
      ? fn.parent
      : undefined;
  if (declaration === undefined || !ts.isClassLike(declaration.parent)) return undefined;
  const name = declaration.name;
  if (!ts.isIdentifier(name) && !ts.isPrivateIdentifier(name)) return undefined;
  return { fn: fn as HelperFunction, declaration, name, klass: declaration.parent };
}

function isUnknown(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
}

function className(member: ClassMember): string {
  return member.klass.name?.text ?? 'the class';
}

function resolved(checker: ts.TypeChecker, node: ts.Node): ts.Symbol | undefined {
  const symbol = checker.getSymbolAtLocation(node);
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0
    ? checker.getAliasedSymbol(symbol)
    : symbol;
}

/** The files to look for calls in: the program's, or the file alone when it is analysed alone. */
function filesOf(context: FileContext): { sourceFile: ts.SourceFile; context: FileContext }[] {
  const run = context.run;
  if (run === undefined) return [{ sourceFile: context.sourceFile, context }];
  return run.sourceFiles.map((sourceFile) => ({
    sourceFile,
    context: sourceFile === context.sourceFile ? context : run.contextOf(sourceFile),
  }));
}

/**
 * Why the member may be called where its calls cannot be seen: it overrides or implements another
 * declaration (calls through that type reach it), or a subclass overrides it (calls of it may reach
 * the override instead). An ancestor whose type does not resolve is presumed to declare it.
 */
export function inheritanceReason(context: FileContext, member: ClassMember): string | undefined {
  if (ts.isPrivateIdentifier(member.name)) return undefined;
  const checker = context.checker;
  const name = member.name.text;
  const label = `${className(member)}.${name}()`;
  for (const clause of member.klass.heritageClauses ?? []) {
    const verb = clause.token === ts.SyntaxKind.ExtendsKeyword ? 'extends' : 'implements';
    for (const heritage of clause.types) {
      const type = checker.getTypeAtLocation(heritage);
      const written = context.textOf(heritage.expression);
      if (isUnknown(type))
        return `${className(member)} ${verb} ${written}, whose type is unknown here, so ${name}() may ${verb === 'extends' ? 'override' : 'implement'} one of its members that other code calls; migrate it by hand`;
      const inherited = type.getProperty(name);
      if (inherited === undefined) continue;
      if (verb === 'extends')
        return `${label} overrides ${written}.${name}(), so calls through ${written} may reach it; migrate it by hand`;
      const others = throughInterface(context, member, inherited, written);
      return `${label} implements ${written}.${name}()${others === '' ? '' : `, ${others}`}, so the round would have to go into ${written}, every implementation and every call through it; migrate them together by hand`;
    }
  }
  const klass = member.klass.name === undefined ? undefined : resolved(checker, member.klass.name);
  if (klass === undefined) return undefined;
  for (const { sourceFile, context: other } of filesOf(context)) {
    let overriding: ts.ClassElement | undefined;
    const visit = (node: ts.Node): void => {
      if (overriding !== undefined) return;
      if (ts.isClassLike(node) && node !== member.klass)
        for (const clause of node.heritageClauses ?? [])
          if (
            clause.token === ts.SyntaxKind.ExtendsKeyword &&
            clause.types.some((heritage) => resolved(other.checker, heritage.expression) === klass)
          )
            overriding = node.members.find(
              (element) =>
                element.name !== undefined && ts.isIdentifier(element.name) && element.name.text === name,
            );
      ts.forEachChild(node, visit);
    };
    if (sourceFile.text.includes(name)) visit(sourceFile);
    if (overriding !== undefined)
      return `${label} is overridden at ${placeIn(context, other, overriding)}, so its calls may run the override instead; migrate both by hand`;
  }
  return undefined;
}

/**
 * Every call of the member in the program (`this.confirm(…)`, `tools.confirm(…)`), each with its
 * file's context, or why not every use is a call the run can update.
 */
export function memberCalls(context: FileContext, member: ClassMember): ForeignCall[] | string {
  const name = member.name.text;
  const calls: ForeignCall[] = [];
  for (const { sourceFile, context: other } of filesOf(context)) {
    if (!sourceFile.text.includes(name)) continue;
    let why: string | undefined;
    const visit = (node: ts.Node): void => {
      if (why !== undefined) return;
      if (
        (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) &&
        node.text === name &&
        node !== member.name
      )
        why = useOf(context, other, member, node, calls);
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    if (why !== undefined) return why;
  }
  return calls;
}

/** Records a call of the member; any other use of it is why it cannot take the round. */
function useOf(
  context: FileContext,
  other: FileContext,
  member: ClassMember,
  name: ts.Identifier | ts.PrivateIdentifier,
  calls: ForeignCall[],
): string | undefined {
  const checker = other.checker;
  const access = name.parent;
  const symbol = checker.getSymbolAtLocation(name);
  const where = placeIn(context, other, name);
  const label = `${className(member)}.${name.text}()`;
  let assumed: string | undefined;
  if (symbol === undefined) {
    // `agent.confirm(…)` on a receiver of unknown type may be this method: it is taken to be when
    // no other declaration in the run has its name and the call passes what the method takes.
    const call = access.parent;
    if (
      !ts.isPropertyAccessExpression(access) ||
      access.name !== name ||
      !ts.isCallExpression(call) ||
      call.expression !== access ||
      !isUnknown(checker.getTypeAtLocation(access.expression)) ||
      // `this.server.server.createMessage(…)` on an any is the push itself, not a call of a
      // project method that happens to share the SDK's name.
      asPushCall(other, call) !== undefined
    )
      return undefined;
    const unknown = `${other.textOf(access)}() at ${where} is called on a receiver whose type is unknown, so it may be ${label} and could not be updated to pass the round`;
    const namesake = otherDeclarationNamed(context, member);
    if (namesake !== undefined)
      return `${unknown}: ${placeIn(context, namesake.context, namesake.node)} declares ${name.text} too`;
    if (!acceptsArguments(member.fn, call))
      return `${unknown}: it passes ${call.arguments.length} argument(s), not what ${label} takes`;
    assumed = `assumed ${other.textOf(access)}() at ${where}, on a receiver whose type is unknown, is ${label}, the only declaration of ${name.text} in the files migrate sees; check that it is`;
  } else if (!(symbol.declarations ?? []).includes(member.declaration)) return undefined;
  const call = access.parent;
  if (
    !ts.isPropertyAccessExpression(access) ||
    access.name !== name ||
    !ts.isCallExpression(call) ||
    call.expression !== access
  )
    return `${label} is passed on or stored at ${where}, so not every caller can be followed`;
  if (other !== context && !other.run?.mayWrite(other.path))
    return `${label} is called at ${where}, which this run does not include, so that call cannot be updated to pass the round; add the file to the run or migrate both by hand`;
  if (other !== context && !other.run?.relate(other.path, TRANSFORM_ID))
    return `${label} is called at ${where}, in another TypeScript project of the run, whose analysis cannot pass the round; migrate both by hand`;
  calls.push(assumed === undefined ? { context: other, call } : { context: other, call, assumed });
  return undefined;
}

/** A member, property or signature declaration of an object type: what `x.name` may refer to. */
function declaresMember(node: ts.Node): node is ts.NamedDeclaration & { name: ts.PropertyName } {
  return (
    ts.isMethodDeclaration(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isPropertyAssignment(node) ||
    ts.isShorthandPropertyAssignment(node) ||
    ts.isMethodSignature(node) ||
    ts.isPropertySignature(node)
  );
}

/**
 * Another declaration of the member's name in the files the run sees (class and object-literal
 * members, interface and type members). With none, a call of that name on a receiver of unknown
 * type can only mean the member, as far as the run can tell.
 */
function otherDeclarationNamed(
  context: FileContext,
  member: ClassMember,
): { readonly context: FileContext; readonly node: ts.Node } | undefined {
  const name = member.name.text;
  for (const { sourceFile, context: other } of filesOf(context)) {
    if (!sourceFile.text.includes(name)) continue;
    let found: ts.Node | undefined;
    const visit = (node: ts.Node): void => {
      if (found !== undefined) return;
      if (
        declaresMember(node) &&
        node !== member.declaration &&
        (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
        node.name.text === name
      ) {
        found = node;
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    if (found !== undefined) return { context: other, node: found };
  }
  return undefined;
}

/** Whether a call passes as many arguments as the function takes (no spread, none missing or extra). */
function acceptsArguments(fn: HelperFunction, call: ts.CallExpression): boolean {
  if (call.arguments.some((argument) => ts.isSpreadElement(argument))) return false;
  const parameters = fn.parameters.filter(
    (parameter) => !(ts.isIdentifier(parameter.name) && parameter.name.text === 'this'),
  );
  if (parameters.some((parameter) => parameter.dotDotDotToken !== undefined)) return false;
  const required = parameters.filter(
    (parameter) => parameter.initializer === undefined && parameter.questionToken === undefined,
  ).length;
  return call.arguments.length >= required && call.arguments.length <= parameters.length;
}

/**
 * The other classes of the run implementing the interface member, and the calls through it, said
 * for a reason: `which Noop (gate.ts:9) implements too, and code calls it through Gate at client.ts:40 (…)`.
 */
function throughInterface(
  context: FileContext,
  member: ClassMember,
  inherited: ts.Symbol,
  written: string,
): string {
  const declarations = new Set<ts.Node>(inherited.declarations ?? []);
  const name = inherited.getName();
  const implementations: string[] = [];
  const calls: string[] = [];
  for (const { sourceFile, context: other } of filesOf(context)) {
    if (!sourceFile.text.includes(name)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassLike(node) && node !== member.klass) {
        const implemented = node.members.find(
          (element) =>
            element.name !== undefined && ts.isIdentifier(element.name) && element.name.text === name,
        );
        if (
          implemented !== undefined &&
          (node.heritageClauses ?? []).some((clause) =>
            clause.types.some((heritage) =>
              other.checker
                .getTypeAtLocation(heritage)
                .getProperty(name)
                ?.declarations?.some((declaration) => declarations.has(declaration)),
            ),
          )
        )
          implementations.push(`${node.name?.text ?? 'a class'} (${placeIn(context, other, implemented)})`);
      }
      if (
        ts.isPropertyAccessExpression(node) &&
        node.name.text === name &&
        ts.isCallExpression(node.parent)
      ) {
        const symbol = other.checker.getSymbolAtLocation(node.name);
        if (symbol?.declarations?.some((declaration) => declarations.has(declaration)))
          calls.push(`${placeIn(context, other, node)} (${other.textOf(node)}(…))`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  const implemented =
    implementations.length === 0
      ? ''
      : `which ${implementations.join(', ')} implement${implementations.length === 1 ? 's' : ''} too`;
  const through = calls.length === 0 ? '' : `and code calls it through ${written} at ${calls.join(', ')}`;
  return [implemented, through].filter((part) => part !== '').join(', ');
}
