import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { identifiersReferringTo } from '../../analysis/symbol-references.js';
import { enclosingFunction, unwrapExpression } from '../../analysis/syntax.js';
import { answerWait, skipParentheses } from './awaited-question.js';
import { foreignCalls, placeIn, type ForeignCall } from './cross-file-calls.js';
import {
  functionOfSymbol,
  nameOfFunction,
  registrationOf,
  type EligibleHandler,
  type HandlerFunction,
} from './eligible-handlers.js';

// Classifies where a push call runs. Only a question the handler of a tools/call, prompts/get or
// resources/read request awaits can become an input request: everything else has no request to
// answer input_required to, or no way to resume where it stopped.

/** A helper that asks questions for the handlers calling it, through one of its parameters. */
export interface Helper {
  readonly fn: HandlerFunction;
  /** The parameter the questions go through (`server`, `extra`, `ctx`); it becomes `round`. */
  readonly parameter: ts.ParameterDeclaration;
  /** Every call of the helper (in this file, then in other files of the run), each awaited inside an eligible handler or another such helper. */
  readonly calls: readonly ts.CallExpression[];
}

export interface HandlerPlacement {
  readonly kind: 'handler';
  readonly handler: EligibleHandler;
}

export interface HelperPlacement {
  readonly kind: 'helper';
  readonly helper: Helper;
  /** Where each of `helper.calls` runs, in the same order: a handler or a helper above this one. */
  readonly callers: readonly (HandlerPlacement | HelperPlacement)[];
  /** How many helper calls below its farthest handler it runs (1 for a helper a handler calls). */
  readonly level: number;
}

export type Placement =
  HandlerPlacement | HelperPlacement | { readonly kind: 'manual'; readonly reason: string };

const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask']);
/** Test runners' callbacks (vitest, jest, mocha, node:test): test code, not a server's handler. */
const TEST_CALLBACKS = new Set([
  'test',
  'it',
  'describe',
  'suite',
  'beforeAll',
  'beforeEach',
  'afterAll',
  'afterEach',
  'before',
  'after',
  'bench',
]);
const LIFECYCLE_HOOKS = new Set(['oninitialized', 'onclose', 'onerror']);

function calleeText(context: FileContext, call: ts.CallExpression): string {
  const callee = unwrapExpression(call.expression);
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : context.textOf(callee);
}

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
  of(call: ts.CallExpression, receiver: ts.Expression): Placement {
    const fn = enclosingFunction(call);
    if (fn === undefined)
      return { kind: 'manual', reason: 'it runs at module initialization, outside any request' };
    // Where it runs first: a question in a test or a timer is manual for that reason, however it is awaited.
    const placement = this.#ofFunction(fn, receiverRoot(receiver));
    if (placement.kind === 'manual') return placement;
    const wait = answerWait(this.context, call);
    if (typeof wait === 'string') return { kind: 'manual', reason: wait };
    if (placement.kind === 'helper' && placement.level > this.depth) {
      const name = nameOfFunction(placement.helper.fn)?.text ?? 'a helper';
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
      ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isFunctionDeclaration(fn)
        ? nameOfFunction(fn)
        : undefined;
    if (placement.kind === 'handler' || name === undefined) return placement;
    return {
      kind: 'manual',
      reason: `it is thrown in ${name.text}(), not in a handler's own body, so there is no round to ask with; ask from the handler by hand`,
    };
  }

  #ofFunction(fn: ts.FunctionLikeDeclaration, root: ts.Identifier | undefined): Placement {
    const cached = this.#cache.get(fn);
    if (cached !== undefined) return cached;
    // A helper that reaches itself again is settled as manual while its callers are followed.
    this.#cache.set(fn, {
      kind: 'manual',
      reason: `it runs in a function that calls itself, which the codemod does not follow`,
    });
    const placement = this.#classify(fn, root);
    this.#cache.set(fn, placement);
    return placement;
  }

  #classify(fn: ts.FunctionLikeDeclaration, root: ts.Identifier | undefined): Placement {
    const context = this.context;
    if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn) && !ts.isFunctionDeclaration(fn)) {
      const decorator = ts.canHaveDecorators(fn) ? ts.getDecorators(fn)?.[0] : undefined;
      if (decorator !== undefined)
        return {
          kind: 'manual',
          reason: `it runs in a method a framework registers (@${context.textOf(decorator.expression).split('(')[0]}), which the runtime's adapters do not wrap (they wrap SDK registrations); use the framework's MRTR support or migrate it by hand`,
        };
      return { kind: 'manual', reason: 'it runs in a class member, which the codemod does not follow' };
    }
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
      const callee = calleeText(context, parent);
      if (TEST_CALLBACKS.has(callee))
        return {
          kind: 'manual',
          reason: `it runs in a test (a callback passed to ${callee}()), not in a server's handler; update the test with the server it tests`,
        };
      if (TIMERS.has(callee))
        return { kind: 'manual', reason: `it runs on a timer (${callee}), outside any request` };
      if (callee === 'setNotificationHandler')
        return {
          kind: 'manual',
          reason: 'it runs in a notification handler, which has no result to carry a question',
        };
      return {
        kind: 'manual',
        reason: `it runs in a callback passed to ${callee}(), which the handler cannot resume; move the question into the handler's own body`,
      };
    }
    if (ts.isBinaryExpression(parent) && ts.isPropertyAccessExpression(parent.left)) {
      const hook = parent.left.name.text;
      return {
        kind: 'manual',
        reason: LIFECYCLE_HOOKS.has(hook)
          ? `it runs in ${hook}, at connection time, outside any request`
          : `it runs in a function assigned to ${hook}, which the codemod does not follow`,
      };
    }
    const name = nameOfFunction(fn);
    if (name === undefined)
      return { kind: 'manual', reason: 'it runs in a function the codemod cannot follow to its callers' };
    return this.#ofNamed(fn, name, root);
  }

  /** A named function: a handler registered by name, or a helper that eligible handlers call. */
  #ofNamed(fn: HandlerFunction, name: ts.Identifier, root: ts.Identifier | undefined): Placement {
    const context = this.context;
    const symbol = context.checker.getSymbolAtLocation(name);
    if (symbol === undefined || functionOfSymbol(symbol) !== fn)
      return { kind: 'manual', reason: `${name.text}() cannot be followed to its callers` };
    let foreign: readonly ForeignCall[] = [];
    if (isExported(fn)) {
      const found = foreignCalls(context, symbol, name.text);
      if (typeof found === 'string')
        return { kind: 'manual', reason: `it runs in ${name.text}(), which is exported: ${found}` };
      foreign = found;
    }
    const references = identifiersReferringTo(context.checker, context.sourceFile, symbol, name);
    const calls: ts.CallExpression[] = [];
    for (const reference of references) {
      const parent = skipParentheses(reference);
      if (
        ts.isCallExpression(parent) &&
        parent.arguments.some((argument) => unwrapExpression(argument) === reference)
      ) {
        const registration = registrationOf(context, parent, fn);
        if (registration !== undefined) {
          if ('reason' in registration) return { kind: 'manual', reason: registration.reason };
          if (references.length > 1)
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
      calls.push(parent);
    }
    if (calls.length === 0 && foreign.length === 0)
      return { kind: 'manual', reason: `${name.text}() is never called in this file` };
    const parameter = questionParameter(context, fn, root);
    if (parameter === undefined)
      return {
        kind: 'manual',
        reason: `${name.text}() asks through something other than one of its parameters (the server, extra, ctx), so it cannot be given the round instead`,
      };
    const index = fn.parameters.indexOf(parameter);
    const callers: (HandlerPlacement | HelperPlacement)[] = [];
    let level = 1;
    for (const call of calls) {
      const caller = enclosingFunction(call);
      if (caller === undefined)
        return {
          kind: 'manual',
          reason: `${name.text}() is also called at module initialization, outside any request`,
        };
      const argument = call.arguments[index];
      const placement = this.#ofFunction(caller, argument === undefined ? undefined : receiverRoot(argument));
      if (placement.kind === 'manual')
        return { kind: 'manual', reason: `${name.text}() is also called where ${placement.reason}` };
      const wait = answerWait(context, call);
      if (typeof wait === 'string')
        return { kind: 'manual', reason: `${name.text}() is called where ${wait}` };
      if (placement.kind === 'helper') level = Math.max(level, placement.level + 1);
      callers.push(placement);
    }
    for (const { context: other, call } of foreign) {
      const where = placeIn(context, other, call);
      const caller = enclosingFunction(call);
      if (caller === undefined)
        return {
          kind: 'manual',
          reason: `${name.text}() is also called at module initialization (${where}), outside any request`,
        };
      const argument = call.arguments[index];
      const placement = PlacementFinder.for(other).#ofFunction(
        caller,
        argument === undefined ? undefined : receiverRoot(argument),
      );
      if (placement.kind === 'manual')
        return {
          kind: 'manual',
          reason: `${name.text}() is also called at ${where} where ${placement.reason}`,
        };
      // The calling file's rewrite passes the round where the call is awaited; a kept promise is not followed there.
      const wait = answerWait(other, call);
      if (typeof wait === 'string' || wait.kept)
        return {
          kind: 'manual',
          reason: `${name.text}() is called at ${where} where ${typeof wait === 'string' ? wait : 'its promise is kept in a variable and awaited later; await it where it is asked'}`,
        };
      if (placement.kind === 'helper') level = Math.max(level, placement.level + 1);
      callers.push(placement);
    }
    return {
      kind: 'helper',
      helper: { fn, parameter, calls: [...calls, ...foreign.map(({ call }) => call)] },
      callers,
      level,
    };
  }
}

function isExported(fn: HandlerFunction): boolean {
  const statement = ts.isFunctionDeclaration(fn) ? fn : fn.parent.parent.parent;
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The parameter a helper's questions go through, when the question's receiver starts with it. */
function questionParameter(
  context: FileContext,
  fn: HandlerFunction,
  root: ts.Identifier | undefined,
): ts.ParameterDeclaration | undefined {
  if (root === undefined) return undefined;
  const symbol = context.checker.getSymbolAtLocation(root);
  return fn.parameters.find(
    (parameter) =>
      ts.isIdentifier(parameter.name) && context.checker.getSymbolAtLocation(parameter.name) === symbol,
  );
}
