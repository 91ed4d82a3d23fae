import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import { enclosingFunction, forEachDescendant, unwrapExpression } from '../../analysis/syntax.js';
import { answerWait, skipParentheses } from './awaited-question.js';
import { classMemberOf, inheritanceReason, memberCalls } from './class-members.js';
import { foreignCalls, placeIn, type ForeignCall } from './cross-file-calls.js';
import { objectMemberCalls, objectMemberLabel, objectMemberOf } from './object-members.js';
import {
  functionOfSymbol,
  nameOfFunction,
  registrationOf,
  type EligibleHandler,
  type HandlerFunction,
  type HelperFunction,
} from './eligible-handlers.js';
import { calledFunction } from './called-function.js';
import { asPushCall, type PushCall } from './push-calls.js';
import { roundArgumentIndex, type RoundSlot } from './round-parameter.js';
import { assignedContext, callbackContext, isTestBody } from './run-context.js';

// Classifies where a push call runs. Only a question the handler of a tools/call, prompts/get or
// resources/read request awaits can become an input request: everything else has no request to
// answer input_required to, or no way to resume where it stopped.

/** A function or method that asks questions for the handlers calling it. */
export interface Helper {
  readonly fn: HelperFunction;
  /** What its calls call it (`confirm`, `#confirm`), for reasons and answer keys. */
  readonly name: string;
  /** Where it takes the round: in place of the parameter its questions go through, or as its first parameter. */
  readonly slot: RoundSlot;
  /** Every call of the helper (in this file, then in other files of the run), each awaited inside an eligible handler or another such helper. */
  readonly calls: readonly ts.CallExpression[];
  /** Calls taken to be of this helper though their receiver's type is unknown, said for the report. */
  readonly assumptions: readonly string[];
}

export interface HandlerPlacement {
  readonly kind: 'handler';
  readonly handler: EligibleHandler;
}

/** A call of a helper in a test's body: it passes the test kit's round, `pushRound(server)`. */
export interface TestCallerPlacement {
  readonly kind: 'test';
  /** The test's body. */
  readonly fn: ts.ArrowFunction | ts.FunctionExpression;
  /** The server the test passes, which `pushRound(…)` asks through. */
  readonly server: ts.Expression;
}

export interface HelperPlacement {
  readonly kind: 'helper';
  readonly helper: Helper;
  /**
   * Where each of `helper.calls` runs, in the same order: a handler or a helper above this one,
   * or a test.
   */
  readonly callers: readonly (HandlerPlacement | HelperPlacement | TestCallerPlacement)[];
  /** How many helper calls below its farthest handler it runs (1 for a helper a handler calls). */
  readonly level: number;
}

export type Placement =
  HandlerPlacement | HelperPlacement | { readonly kind: 'manual'; readonly reason: string };

/** A helper reached again while its callers are followed: settled once the outermost is. */
interface Cycle {
  readonly kind: 'cycle';
  readonly fn: ts.FunctionLikeDeclaration;
}

/** A call of a helper made in another helper of the same file, which the settling may turn manual. */
interface CallerLink {
  readonly caller: ts.Node;
  readonly where: string;
  /** Where the caller's placement goes once settled, when it was reached again in a cycle. */
  readonly slot?: { readonly callers: Caller[]; readonly index: number };
}

type Caller = HandlerPlacement | HelperPlacement | TestCallerPlacement;

/** The root identifier of `a.b.c` (`a`). */
export function receiverRoot(expression: ts.Expression): ts.Identifier | undefined {
  let current = unwrapExpression(expression);
  while (ts.isPropertyAccessExpression(current)) current = unwrapExpression(current.expression);
  return ts.isIdentifier(current) ? current : undefined;
}

/** One finder per file context, so that the analyses of files calling each other share placements. */
const finders = new WeakMap<FileContext, PlacementFinder>();

export class PlacementFinder {
  readonly #cache = new Map<ts.Node, Placement>();
  /** The functions whose callers are being followed, outermost first. */
  readonly #following = new Set<ts.Node>();
  /**
   * For each helper placed while following, its callers in this file that are helpers too, which
   * may still turn manual when a cycle through them is settled.
   */
  readonly #links = new Map<ts.Node, { readonly label: string; readonly links: CallerLink[] }>();

  /** The finder of a file, following helpers to `--depth`. */
  static for(context: FileContext): PlacementFinder {
    let finder = finders.get(context);
    if (finder === undefined)
      finders.set(context, (finder = new PlacementFinder(context, context.handlers.depth)));
    return finder;
  }

  constructor(
    private readonly context: FileContext,
    /** How many helper calls deep a question may sit below its handler. */
    private readonly depth: number,
  ) {}

  /** Where a push call runs. */
  of(call: ts.CallExpression, receiver: ts.Expression | undefined): Placement {
    const fn = enclosingFunction(call);
    if (fn === undefined)
      return { kind: 'manual', reason: 'it runs at module initialization, outside any request' };
    // Where it runs first: a question in a test or a timer is manual for that reason, however it is awaited.
    const placement = this.#ofFunction(fn, receiver === undefined ? undefined : receiverRoot(receiver));
    // Nothing is being followed here, so nothing is reached again.
    if (placement.kind === 'cycle') throw new Error('a question placed while its helper is followed');
    if (placement.kind === 'manual') return placement;
    const wait = answerWait(this.context, call);
    if (typeof wait === 'string') return { kind: 'manual', reason: wait };
    if (placement.kind === 'helper' && placement.level > this.depth) {
      const name = placement.helper.name;
      return {
        kind: 'manual',
        reason: `it runs in ${name}(), ${placement.level} helper calls below its handler, deeper than --depth ${this.depth} follows; raise --depth or migrate the chain by hand`,
      };
    }
    return placement;
  }

  /**
   * Where a thrown `UrlElicitationRequiredError` runs: only a handler's own body counts, since a
   * helper that throws has no round to ask with.
   */
  ofThrow(node: ts.Node): Placement {
    const fn = enclosingFunction(node);
    if (fn === undefined)
      return { kind: 'manual', reason: 'it runs at module initialization, outside any request' };
    const placement = this.#classify(fn, undefined);
    const name =
      ts.isArrowFunction(fn) ||
      ts.isFunctionExpression(fn) ||
      ts.isFunctionDeclaration(fn) ||
      ts.isMethodDeclaration(fn)
        ? nameOfFunction(fn)
        : undefined;
    if (placement.kind === 'handler' || name === undefined) return placement;
    return {
      kind: 'manual',
      reason: `it is thrown in ${name.text}(), not in a handler's own body, so there is no round to ask with; ask from the handler by hand`,
    };
  }

  #ofFunction(fn: ts.FunctionLikeDeclaration, root: ts.Identifier | undefined): Placement | Cycle {
    const cached = this.#cache.get(fn);
    if (cached !== undefined) return cached;
    // A helper reached again while its callers are followed (it calls itself, or a helper it
    // calls calls it back) is taken to be a helper until the outermost one is settled.
    if (this.#following.has(fn)) return { kind: 'cycle', fn };
    this.#following.add(fn);
    const placement = this.#classify(fn, root);
    this.#following.delete(fn);
    this.#cache.set(fn, placement);
    if (this.#following.size === 0) {
      this.#settleCycles();
      // Settling may have turned it manual (a helper only its own cycle calls).
      return this.#cache.get(fn) ?? placement;
    }
    return placement;
  }

  /**
   * Once no helper is being followed: a helper whose caller turned out manual (one reached again in
   * a cycle, or one settled manual here) goes manual too, saying where; the calls made in a cycle
   * then name their caller's placement.
   */
  #settleCycles(): void {
    // A helper only its own cycle calls (a method calling itself, two calling each other, with no
    // handler or test above them) is never reached from a request.
    for (const [fn, { label }] of this.#links) {
      const own = this.#cache.get(fn);
      if (own?.kind === 'helper' && !this.#reachesRequest(own, new Set()))
        this.#cache.set(fn, {
          kind: 'manual',
          reason: `${label}() is called only by itself or by the helpers it calls, never from a handler; migrate it by hand`,
        });
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [fn, { label, links }] of this.#links) {
        const own = this.#cache.get(fn);
        if (own?.kind !== 'helper') continue;
        const failed = links.find((link) => this.#cache.get(link.caller)?.kind === 'manual');
        if (failed === undefined) continue;
        const reason = (this.#cache.get(failed.caller) as { reason: string }).reason;
        this.#cache.set(fn, {
          kind: 'manual',
          reason: `${label}() is called at ${failed.where}, where ${reason}`,
        });
        changed = true;
      }
    }
    for (const { links } of this.#links.values())
      for (const link of links) {
        const caller = this.#cache.get(link.caller);
        if (link.slot !== undefined && caller?.kind === 'helper') link.slot.callers[link.slot.index] = caller;
      }
    this.#links.clear();
  }

  /**
   * Whether a chain of calls from a handler or a test reaches this placement. A slot still holding
   * a cycle's marker stands for the placement its function settled to.
   */
  #reachesRequest(placement: Placement | Cycle | Caller, seen: Set<ts.Node>): boolean {
    if (placement.kind === 'cycle') {
      const settled = this.#cache.get(placement.fn);
      return settled !== undefined && this.#reachesRequest(settled, seen);
    }
    if (placement.kind === 'manual') return false;
    if (placement.kind !== 'helper') return true;
    if (seen.has(placement.helper.fn)) return false;
    seen.add(placement.helper.fn);
    return (placement.callers as readonly (Caller | Cycle)[]).some((caller) =>
      this.#reachesRequest(caller, seen),
    );
  }

  #classify(fn: ts.FunctionLikeDeclaration, root: ts.Identifier | undefined): Placement {
    const context = this.context;
    const member = classMemberOf(fn);
    const declaration = member?.declaration ?? fn;
    const decorator = ts.canHaveDecorators(declaration) ? ts.getDecorators(declaration)?.[0] : undefined;
    if (decorator !== undefined)
      return {
        kind: 'manual',
        reason: `it runs in a method a framework registers (@${context.textOf(decorator.expression).split('(')[0]}), which the runtime's adapters do not wrap (they wrap SDK registrations); use the framework's MRTR support or migrate it by hand`,
      };
    if (member !== undefined) {
      const inherited = inheritanceReason(context, member);
      if (inherited !== undefined) return { kind: 'manual', reason: inherited };
      const calls = memberCalls(context, member);
      if (typeof calls === 'string') return { kind: 'manual', reason: calls };
      return this.#ofCalls(
        member.fn,
        member.name.text,
        calls,
        root,
        `${member.klass.name?.text ?? 'a class'}.${member.name.text}`,
      );
    }
    const held = objectMemberOf(fn);
    if (held !== undefined) {
      const found = objectMemberCalls(context, held);
      if (typeof found === 'string') return { kind: 'manual', reason: found };
      return this.#ofCalls(
        held.fn,
        held.name.text,
        found.calls,
        root,
        objectMemberLabel(held),
        found.assumed,
      );
    }
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn) && !ts.isFunctionDeclaration(fn))
      return {
        kind: 'manual',
        reason: `it runs in ${unfollowedMember(fn)}, which the codemod does not follow`,
      };
    const parent = skipParentheses(fn);
    if (
      ts.isCallExpression(parent) &&
      parent.arguments.some((argument) => unwrapExpression(argument) === fn)
    ) {
      const registration = registrationOf(context, parent, fn);
      if (registration !== undefined)
        return 'reason' in registration
          ? { kind: 'manual', reason: registration.reason }
          : { kind: 'handler', handler: registration };
      return { kind: 'manual', reason: callbackContext(context, parent) };
    }
    if (ts.isBinaryExpression(parent) && ts.isPropertyAccessExpression(parent.left))
      return { kind: 'manual', reason: assignedContext(parent.left.name.text) };
    const name = nameOfFunction(fn);
    if (name === undefined || !ts.isIdentifier(name))
      return {
        kind: 'manual',
        reason: `it runs in ${unnamedFunction(context, fn)}, which the codemod cannot follow to its callers`,
      };
    return this.#ofNamed(fn, name, root);
  }

  /** A named function: a handler registered by name, or a helper that eligible handlers call. */
  #ofNamed(fn: HandlerFunction, name: ts.Identifier, root: ts.Identifier | undefined): Placement {
    const context = this.context;
    const symbol = context.checker.getSymbolAtLocation(name);
    if (symbol === undefined || functionOfSymbol(symbol) !== fn)
      return { kind: 'manual', reason: `${name.text}() cannot be followed to its callers` };
    let foreign: readonly ForeignCall[] = [];
    let assumed: string | undefined;
    if (isExported(context, symbol)) {
      const found = foreignCalls(context, symbol, name.text);
      if (typeof found === 'string')
        return { kind: 'manual', reason: `it runs in ${name.text}(), which is exported: ${found}` };
      foreign = found.calls;
      assumed = found.assumed;
    }
    const references = identifiersReferringTo(context.checker, context.sourceFile, symbol, name);
    const calls: ForeignCall[] = [];
    for (const reference of references) {
      // `export { confirm }` and `export default confirm` export it: its callers were looked for above.
      if (ts.isExportSpecifier(reference.parent) || ts.isExportAssignment(reference.parent)) continue;
      const parent = skipParentheses(reference);
      if (
        ts.isCallExpression(parent) &&
        parent.arguments.some((argument) => unwrapExpression(argument) === reference)
      ) {
        const registration = registrationOf(context, parent, fn);
        if (registration !== undefined) {
          if ('reason' in registration) return { kind: 'manual', reason: registration.reason };
          if (references.length > 1 || foreign.length > 0)
            return {
              kind: 'manual',
              reason: `${name.text}() is registered as a handler and also used elsewhere`,
            };
          return { kind: 'handler', handler: registration };
        }
      }
      if (!ts.isCallExpression(parent) || unwrapExpression(parent.expression) !== reference)
        return {
          kind: 'manual',
          reason: `${name.text}() is passed on or stored, so not every caller can be followed`,
        };
      calls.push({ context, call: parent });
    }
    if (calls.length === 0 && foreign.length === 0)
      return {
        kind: 'manual',
        reason: `${name.text}() is never called${assumed === undefined ? ' in this file' : ' in the project'}`,
      };
    return this.#ofCalls(fn, name.text, [...calls, ...foreign], root, name.text, assumed);
  }

  /**
   * A function or method that asks, from its calls: a helper when every call is awaited where a
   * round can be passed (in an eligible handler or a helper above it), else manual, naming each
   * call that runs elsewhere and where.
   */
  #ofCalls(
    fn: HelperFunction,
    name: string,
    calls: readonly ForeignCall[],
    root: ts.Identifier | undefined,
    label = name,
    /** Why no call from outside the project was presumed, said for the report. */
    unpublished?: string,
  ): Placement {
    const context = this.context;
    if (calls.length === 0) return { kind: 'manual', reason: `${label}() is never called` };
    const parameter = questionParameter(context, fn, root);
    const slot: RoundSlot =
      parameter !== undefined && carriesOnlyQuestions(context, fn, parameter)
        ? { kind: 'replaces', parameter }
        : { kind: 'added' };
    const index = roundArgumentIndex(fn, slot);
    // A caller reached again in a cycle holds its place until #settleCycles puts its placement there.
    const callers: (Caller | Cycle)[] = [];
    const links: CallerLink[] = [];
    const elsewhere: string[] = [];
    let level = 1;
    for (const { context: other, call } of calls) {
      // A method's call says which instance it is called on: `tools.ts:12 (confirmations.confirm(…))`.
      const callee = other.textOf(call.expression);
      const where = `${placeIn(context, other, call)}${callee === name ? '' : ` (${callee}(…))`}`;
      const caller = enclosingFunction(call);
      if (caller === undefined) {
        elsewhere.push(`${where}, at module initialization, outside any request`);
        continue;
      }
      // The project's own test calling the helper directly passes the test kit's round instead.
      if (isTestBody(other, caller)) {
        const test = testCaller(context, fn, name, parameter, call, caller);
        if (typeof test === 'string') elsewhere.push(`${where}, in a test, where ${test}`);
        else callers.push(test);
        continue;
      }
      const argument = slot.kind === 'replaces' ? call.arguments[index] : undefined;
      const finder = other === context ? this : PlacementFinder.for(other);
      const placement = finder.#ofFunction(
        caller,
        argument === undefined ? undefined : receiverRoot(argument),
      );
      if (placement.kind === 'manual') {
        elsewhere.push(`${where}, where ${placement.reason}`);
        continue;
      }
      if (placement.kind === 'cycle' && finder !== this) {
        elsewhere.push(
          `${where}, where it runs in a function that calls itself through another file, which the codemod does not follow`,
        );
        continue;
      }
      // The calling file's rewrite passes the round where the call is awaited; a kept promise is not followed there.
      const wait = answerWait(other, call);
      if (typeof wait === 'string' || (other !== context && wait.kept)) {
        elsewhere.push(
          `${where}, where ${typeof wait === 'string' ? wait : 'its promise is kept in a variable and awaited later; await it where it is asked'}`,
        );
        continue;
      }
      if (placement.kind === 'cycle')
        links.push({
          caller: placement.fn,
          where,
          slot: { callers: callers as Caller[], index: callers.length },
        });
      else if (placement.kind === 'helper' && finder === this) links.push({ caller: caller, where });
      if (placement.kind === 'helper') level = Math.max(level, placement.level + 1);
      callers.push(placement);
    }
    if (elsewhere.length > 0)
      return { kind: 'manual', reason: `${label}() is called at ${elsewhere.join('; and at ')}` };
    if (links.length > 0) this.#links.set(fn, { label, links });
    return {
      kind: 'helper',
      helper: {
        fn,
        name,
        slot,
        calls: calls.map(({ call }) => call),
        assumptions: [
          ...(unpublished === undefined ? [] : [unpublished]),
          ...calls.flatMap(({ assumed }) => (assumed === undefined ? [] : [assumed])),
        ],
      },
      // Settled before the placement leaves the finder: a cycle's slot then holds its caller's placement.
      callers: callers as Caller[],
      level,
    };
  }
}

/** The push APIs `pushRound(server)` of the runtime's test kit asks through. */
const TEST_KIT_APIS = new Set(['elicitInput', 'createMessage', 'listRoots']);

/** `server` or `this.server`: an expression a test may evaluate twice without an effect. */
function isPlainReference(expression: ts.Expression): boolean {
  const inner = unwrapExpression(expression);
  if (ts.isIdentifier(inner) || inner.kind === ts.SyntaxKind.ThisKeyword) return true;
  return ts.isPropertyAccessExpression(inner) && isPlainReference(inner.expression);
}

/**
 * A helper's call in a test's body, which passes `pushRound(server)` with the server the test gives
 * the helper, or why it cannot: the helper asks through something the test kit does not answer
 * through, or through no parameter (the test has no server to give), or the call hides the server.
 */
function testCaller(
  context: FileContext,
  fn: HelperFunction,
  name: string,
  parameter: ts.ParameterDeclaration | undefined,
  call: ts.CallExpression,
  body: ts.ArrowFunction | ts.FunctionExpression,
): TestCallerPlacement | string {
  const pushes: PushCall[] = [];
  forEachDescendant(fn, (node) => {
    const push = asPushCall(context, node);
    if (push !== undefined) pushes.push(push);
  });
  if (pushes.length === 0)
    return `${name}() asks only through the helpers it calls, which the test kit's round is not checked against; update the test by hand`;
  const other = pushes.find((push) => !TEST_KIT_APIS.has(push.member));
  if (other !== undefined)
    return `${name}() asks through ${context.textOf(other.call.expression)}(…), which pushRound() of @mcp-mrtr/runtime/testing does not answer through (it uses elicitInput, createMessage and listRoots); update the test by hand`;
  const receiver = pushes[0]!.receiver;
  if (parameter === undefined)
    return `${name}() asks through ${receiver === undefined ? 'a destructured parameter' : context.textOf(receiver)}, not a parameter, so the test has no server to give pushRound(); update the test by hand`;
  const index = roundArgumentIndex(fn, { kind: 'replaces', parameter });
  const spread = call.arguments.findIndex((argument) => ts.isSpreadElement(argument));
  if (spread !== -1 && spread <= index)
    return 'it spreads its arguments, so the server among them is unknown';
  const server = call.arguments[index];
  if (server === undefined) return `it does not pass the server ${name}() asks through`;
  // A helper that keeps its server parameter gets the round beside it: the server is written twice.
  if (!carriesOnlyQuestions(context, fn, parameter) && !isPlainReference(server))
    return `the server it passes is not a plain name, and passing it to pushRound() too would evaluate it twice`;
  return { kind: 'test', fn: body, server };
}

/** What a function with no name to follow it by is, for its reason: where it is written. */
function unnamedFunction(
  context: FileContext,
  fn: ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration,
): string {
  const parent = skipParentheses(fn);
  if (ts.isPropertyAssignment(parent))
    return `a function stored under ${context.textOf(parent.name)} in an object literal`;
  if (ts.isArrayLiteralExpression(parent)) return 'a function in an array literal';
  if (ts.isExportAssignment(parent) || ts.isFunctionDeclaration(fn)) return 'a default-exported function';
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return 'a function returned from another';
  if (ts.isConditionalExpression(parent) || ts.isBinaryExpression(parent))
    return 'a function chosen by an expression';
  if (ts.isNewExpression(parent)) return `a function passed to new ${context.textOf(parent.expression)}()`;
  return 'a function expression';
}

/** What a function-like member the codemod does not follow is, for its reason. */
function unfollowedMember(fn: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(fn)) return 'a constructor';
  if (ts.isGetAccessor(fn) || ts.isSetAccessor(fn)) return 'an accessor';
  if (ts.isMethodDeclaration(fn) && ts.isObjectLiteralExpression(fn.parent))
    return 'a method of an object literal whose name is not a plain identifier';
  return 'a class member';
}

/** Whether its module exports the function, by any name (`export function`, `export { f }`, `export default f`). */
function isExported(context: FileContext, symbol: ts.Symbol): boolean {
  const module = context.checker.getSymbolAtLocation(context.sourceFile);
  if (module === undefined) return false;
  return context.checker
    .getExportsOfModule(module)
    .some(
      (each) =>
        each === symbol ||
        ((each.flags & ts.SymbolFlags.Alias) !== 0 && context.checker.getAliasedSymbol(each) === symbol),
    );
}

/** The parameter a helper's questions go through, when the question's receiver starts with it. */
function questionParameter(
  context: FileContext,
  fn: HelperFunction,
  root: ts.Identifier | undefined,
): ts.ParameterDeclaration | undefined {
  if (root === undefined) return undefined;
  const symbol = context.checker.getSymbolAtLocation(root);
  return fn.parameters.find(
    (parameter) =>
      ts.isIdentifier(parameter.name) && context.checker.getSymbolAtLocation(parameter.name) === symbol,
  );
}

const onlyQuestions = new WeakMap<ts.ParameterDeclaration, boolean>();

/**
 * Whether a parameter only carries questions, so the round can take its place: every use is the
 * receiver of a push call (`server.elicitInput(…)`) or an argument a called helper only asks
 * with. A parameter used for anything else (capabilities, logging, another call) stays, and the
 * helper gains the round beside it.
 */
function carriesOnlyQuestions(
  context: FileContext,
  fn: HelperFunction,
  parameter: ts.ParameterDeclaration,
): boolean {
  const known = onlyQuestions.get(parameter);
  if (known !== undefined) return known;
  // A helper that passes the parameter back to itself is settled while it is being looked at.
  onlyQuestions.set(parameter, false);
  const body = fn.body;
  if (!ts.isIdentifier(parameter.name) || body === undefined) return false;
  const symbol = context.checker.getSymbolAtLocation(parameter.name);
  let only = true;
  const visit = (node: ts.Node): void => {
    if (!only) return;
    if (ts.isIdentifier(node) && context.checker.getSymbolAtLocation(node) === symbol) {
      only = asksThrough(context, node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  onlyQuestions.set(parameter, only);
  return only;
}

/** Whether a use of a parameter is a question's receiver, or an argument a helper only asks with. */
function asksThrough(context: FileContext, reference: ts.Identifier): boolean {
  let outer: ts.Node = reference;
  while (
    (ts.isPropertyAccessExpression(outer.parent) && outer.parent.expression === outer) ||
    ts.isParenthesizedExpression(outer.parent) ||
    ts.isNonNullExpression(outer.parent) ||
    ts.isAsExpression(outer.parent)
  )
    outer = outer.parent;
  const call = outer.parent;
  if (ts.isCallExpression(call) && call.expression === outer) {
    const push = asPushCall(context, call);
    return push?.receiver !== undefined && receiverRoot(push.receiver) === reference;
  }
  if (!ts.isCallExpression(call) || outer !== reference) return false;
  const index = call.arguments.indexOf(reference);
  const called = calledFunction(context, call);
  if (index === -1 || called === undefined) return false;
  const offset = called.fn.parameters[0]?.name.getText(called.context.sourceFile) === 'this' ? 1 : 0;
  const parameter = called.fn.parameters[index + offset];
  return parameter !== undefined && carriesOnlyQuestions(called.context, called.fn, parameter);
}
