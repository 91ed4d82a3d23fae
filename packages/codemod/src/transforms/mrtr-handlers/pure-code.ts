import {
  IMPURE_NAMESPACE_MEMBERS,
  PURE_ARRAY_METHODS,
  PURE_COLLECTION_METHODS,
  PURE_CONSTRUCTORS,
  PURE_CONSTRUCTORS_WITH_ARGUMENTS,
  PURE_GLOBAL_FUNCTIONS,
  PURE_NAMESPACES,
  PURE_NUMBER_METHODS,
  PURE_STATIC_FUNCTIONS,
  PURE_STRING_METHODS,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';

// A replayed handler runs from the top on every round, so whatever it does before its last
// question happens once per round. Names do not say what code does (`record()` may write a file,
// `getClient()` may open a connection, `next++` may count invoices), so nothing is taken to be
// harmless by its name: code is pure only when this proof shows it, and anything else is presumed
// to have effects.
//
// Pure: reads of anything, literals, operators, closures created but not called, assignments to
// the function's own variables and to objects it built itself, built-ins core lists as pure
// (`@mcp-mrtr/core` pure-builtins), and calls of the project's own functions whose bodies are
// pure by the same proof. Everything else is presumed an effect: any other call, `new`, writes to
// anything declared outside (module-level `let`, captured variables, `this.x`, properties of
// objects the function did not build), `delete`, `yield`.

/**
 * The SDK's logging and notification methods (`server.sendLoggingMessage`, `extra.sendNotification`,
 * `ctx.mcpReq.log`) and `console`: the logging transform migrates them, and a log line or progress
 * notification sent again by a replay misleads nobody, so they are left to repeat.
 */
const LOG_METHODS: ReadonlySet<string> = new Set([
  'sendLoggingMessage',
  'sendNotification',
  'notification',
  'log',
]);

type FunctionWithBody = ts.FunctionLikeDeclaration & { readonly body: ts.ConciseBody };

type ValueKind = 'string' | 'number' | 'array' | 'collection';

const METHODS: Readonly<Record<ValueKind, readonly string[]>> = {
  string: PURE_STRING_METHODS,
  number: PURE_NUMBER_METHODS,
  array: PURE_ARRAY_METHODS,
  collection: PURE_COLLECTION_METHODS,
};

const COLLECTIONS: readonly string[] = ['Map', 'Set', 'ReadonlyMap', 'ReadonlySet', 'WeakMap', 'WeakSet'];

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

function isUpdate(node: ts.Node): node is ts.PrefixUnaryExpression | ts.PostfixUnaryExpression {
  return (
    (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
    (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
  );
}

/** The identifier an access chain starts from: `draft` in `draft.lines[0].text`. */
function rootOf(expression: ts.Expression): ts.Expression {
  let current = unwrapExpression(expression);
  while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current))
    current = unwrapExpression(current.expression);
  return current;
}

/** An object the function builds itself: `{…}`, `[…]`, `new Map()`. */
function isFreshObject(initializer: ts.Expression | undefined): boolean {
  if (initializer === undefined) return false;
  const inner = unwrapExpression(initializer);
  if (ts.isObjectLiteralExpression(inner) || ts.isArrayLiteralExpression(inner)) return true;
  return (
    ts.isNewExpression(inner) &&
    ts.isIdentifier(inner.expression) &&
    ['Map', 'Set', 'Array'].includes(inner.expression.text)
  );
}

/** Whether code can be shown to do nothing but compute a value, and the first part that cannot. */
export class PurityProof {
  readonly #bodies = new Map<ts.Node, boolean>();

  constructor(
    private readonly context: FileContext,
    /** The function whose parameters and variables are the code's own. */
    private readonly scope: ts.Node,
    /** Nodes left out of the proof: the questions, and what the rewrite removes. */
    private readonly ignore: (node: ts.Node) => boolean = () => false,
  ) {}

  /** The first part of `node`, in source order, not proven pure; undefined when it all is. */
  firstUnproven(node: ts.Node): ts.Node | undefined {
    return this.#first(node, this.scope);
  }

  /** Every outermost part of `node` not proven pure, in source order. */
  allUnproven(node: ts.Node): ts.Node[] {
    const found: ts.Node[] = [];
    const visit = (current: ts.Node): void => {
      const first = this.#first(current, this.scope);
      if (first === undefined) return;
      if (first === current) {
        found.push(current);
        return;
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
    return found;
  }

  /** Whether `node` writes to something declared outside the scope (`next++`, `this.x = …`, `delete`). */
  writesOutside(node: ts.Node): boolean {
    let found = false;
    const visit = (current: ts.Node): void => {
      if (found || this.ignore(current) || ts.isFunctionLike(current)) return;
      if (
        (ts.isBinaryExpression(current) &&
          isAssignmentOperator(current.operatorToken.kind) &&
          !this.#isOwnTarget(current.left, this.scope)) ||
        (isUpdate(current) && !this.#isOwnTarget(current.operand, this.scope)) ||
        ts.isDeleteExpression(current)
      ) {
        found = true;
        return;
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
    return found;
  }

  /**
   * Whether `node` changes the scope's own variables or the objects it built (`total += x`,
   * `labels.push(x)`): a journaled step would do that on the first round only.
   */
  writesOwn(node: ts.Node): boolean {
    let found = false;
    const visit = (current: ts.Node): void => {
      if (found || this.ignore(current) || ts.isFunctionLike(current)) return;
      if (
        (ts.isBinaryExpression(current) &&
          isAssignmentOperator(current.operatorToken.kind) &&
          this.#isOwnTarget(current.left, this.scope)) ||
        (isUpdate(current) && this.#isOwnTarget(current.operand, this.scope)) ||
        (ts.isCallExpression(current) && this.#ownCollectionMethod(current, this.scope) === 'mutates')
      ) {
        found = true;
        return;
      }
      ts.forEachChild(current, visit);
    };
    visit(node);
    return found;
  }

  /** Whether `identifier` names something declared inside `scope` (its parameters included). */
  isOwn(identifier: ts.Identifier, scope: ts.Node = this.scope): boolean {
    const symbol = this.context.checker.getSymbolAtLocation(identifier);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    return (
      declaration !== undefined &&
      declaration.getSourceFile() === scope.getSourceFile() &&
      declaration.pos >= scope.pos &&
      declaration.end <= scope.end
    );
  }

  #first(node: ts.Node, scope: ts.Node): ts.Node | undefined {
    if (this.ignore(node)) return undefined;
    // A closure runs when it is called: its call is what the proof looks at.
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return undefined;
    if (!this.#pureItself(node, scope)) return node;
    return ts.forEachChild(node, (child) => this.#first(child, scope));
  }

  /** Whether the node itself, not counting its children, is pure. */
  #pureItself(node: ts.Node, scope: ts.Node): boolean {
    if (ts.isCallExpression(node)) return this.#pureCall(node, scope);
    if (ts.isNewExpression(node)) return this.#pureNew(node);
    if (ts.isTaggedTemplateExpression(node)) return this.#dotted(node.tag) === 'String.raw';
    if (ts.isBinaryExpression(node) && isAssignmentOperator(node.operatorToken.kind))
      return this.#isOwnTarget(node.left, scope);
    if (isUpdate(node)) return this.#isOwnTarget(node.operand, scope);
    if (
      (ts.isForOfStatement(node) || ts.isForInStatement(node)) &&
      !ts.isVariableDeclarationList(node.initializer)
    )
      return this.#isOwnTarget(node.initializer, scope);
    return !ts.isDeleteExpression(node) && !ts.isYieldExpression(node);
  }

  /** A variable of the scope, or a property of an object the scope built itself. */
  #isOwnTarget(target: ts.Expression, scope: ts.Node): boolean {
    const inner = unwrapExpression(target);
    if (ts.isIdentifier(inner)) return this.isOwn(inner, scope);
    if (!ts.isPropertyAccessExpression(inner) && !ts.isElementAccessExpression(inner)) return false;
    const root = rootOf(inner);
    if (!ts.isIdentifier(root) || !this.isOwn(root, scope)) return false;
    const declaration = this.context.checker.getSymbolAtLocation(root)?.valueDeclaration;
    return (
      declaration !== undefined &&
      ts.isVariableDeclaration(declaration) &&
      isFreshObject(declaration.initializer)
    );
  }

  /**
   * A method call on an array, map or set the scope built itself (`const seen = new Set()`), and
   * whether the method changes it. Undefined for any other call.
   */
  #ownCollectionMethod(call: ts.CallExpression, scope: ts.Node): 'reads' | 'mutates' | undefined {
    const callee = unwrapExpression(call.expression);
    if (!ts.isPropertyAccessExpression(callee)) return undefined;
    const receiver = unwrapExpression(callee.expression);
    if (!ts.isIdentifier(receiver) || !this.isOwn(receiver, scope)) return undefined;
    const declaration = this.context.checker.getSymbolAtLocation(receiver)?.valueDeclaration;
    if (declaration === undefined || !ts.isVariableDeclaration(declaration)) return undefined;
    const initializer = declaration.initializer && unwrapExpression(declaration.initializer);
    if (initializer === undefined || ts.isObjectLiteralExpression(initializer) || !isFreshObject(initializer))
      return undefined;
    const array = ts.isArrayLiteralExpression(initializer) || this.#valueKind(receiver) === 'array';
    return array && PURE_ARRAY_METHODS.includes(callee.name.text) ? 'reads' : 'mutates';
  }

  /** `JSON.stringify` for a callee on a global the project does not redeclare. */
  #dotted(callee: ts.Expression): string | undefined {
    const inner = unwrapExpression(callee);
    if (ts.isIdentifier(inner)) return this.#isBuiltin(inner) ? inner.text : undefined;
    if (!ts.isPropertyAccessExpression(inner)) return undefined;
    const object = unwrapExpression(inner.expression);
    if (!ts.isIdentifier(object) || !this.#isBuiltin(object)) return undefined;
    return `${object.text}.${inner.name.text}`;
  }

  /** Declared by the platform (a library's .d.ts), not by the project. */
  #isBuiltin(identifier: ts.Identifier): boolean {
    const symbol = this.context.checker.getSymbolAtLocation(identifier);
    const declarations = symbol?.declarations ?? [];
    return declarations.every((declaration) => declaration.getSourceFile().isDeclarationFile);
  }

  #pureNew(node: ts.NewExpression): boolean {
    const name = this.#dotted(node.expression);
    if (name === undefined) return false;
    if (PURE_CONSTRUCTORS.includes(name)) return true;
    return PURE_CONSTRUCTORS_WITH_ARGUMENTS.includes(name) && (node.arguments?.length ?? 0) > 0;
  }

  #pureCall(call: ts.CallExpression, scope: ts.Node): boolean {
    const callee = unwrapExpression(call.expression);
    const dotted = this.#dotted(callee);
    if (dotted !== undefined) {
      const [namespace] = dotted.split('.');
      if (
        PURE_GLOBAL_FUNCTIONS.includes(dotted) ||
        PURE_STATIC_FUNCTIONS.includes(dotted) ||
        (dotted.includes('.') &&
          PURE_NAMESPACES.includes(namespace!) &&
          !IMPURE_NAMESPACE_MEMBERS.includes(dotted))
      )
        return this.#pureCallbacks(call, scope);
      if (namespace === 'console') return true;
    }
    if (ts.isIdentifier(callee)) {
      const fn = this.#projectFunction(callee);
      return fn !== undefined && this.#pureBody(fn);
    }
    if (!ts.isPropertyAccessExpression(callee)) return false;
    if (LOG_METHODS.has(callee.name.text)) return true;
    // Changing an array, map or set the scope built changes nothing outside: it is built again.
    if (this.#ownCollectionMethod(call, scope) !== undefined) return this.#pureCallbacks(call, scope);
    const kind = this.#valueKind(callee.expression);
    return kind !== undefined && METHODS[kind].includes(callee.name.text) && this.#pureCallbacks(call, scope);
  }

  /** What a pure built-in calls back must be pure too: `items.map(item => …)`. */
  #pureCallbacks(call: ts.CallExpression, scope: ts.Node): boolean {
    return call.arguments.every((argument) => {
      const inner = unwrapExpression(argument);
      if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner))
        return this.#first(inner.body, scope) === undefined;
      if (ts.isIdentifier(inner)) {
        const fn = this.#projectFunction(inner);
        if (fn !== undefined) return this.#pureBody(fn);
      }
      return this.context.checker.getTypeAtLocation(inner).getCallSignatures().length === 0;
    });
  }

  /** A string, number or array, by its type, or by its syntax when types do not resolve. */
  #valueKind(expression: ts.Expression): ValueKind | undefined {
    const inner = unwrapExpression(expression);
    if (ts.isStringLiteralLike(inner) || ts.isTemplateExpression(inner)) return 'string';
    if (ts.isNumericLiteral(inner)) return 'number';
    if (ts.isArrayLiteralExpression(inner)) return 'array';
    const checker = this.context.checker;
    // `const projects = new Map()`, when types do not resolve.
    if (ts.isIdentifier(inner)) {
      const declaration = checker.getSymbolAtLocation(inner)?.valueDeclaration;
      const initializer =
        declaration !== undefined && ts.isVariableDeclaration(declaration) && declaration.initializer
          ? unwrapExpression(declaration.initializer)
          : undefined;
      if (
        initializer !== undefined &&
        ts.isNewExpression(initializer) &&
        ts.isIdentifier(initializer.expression) &&
        COLLECTIONS.includes(initializer.expression.text) &&
        this.#isBuiltin(initializer.expression)
      )
        return 'collection';
    }
    const type = checker.getTypeAtLocation(inner);
    const parts = type.isUnion() ? type.types : [type];
    const kinds = new Set(
      parts.map((part): ValueKind | undefined => {
        if (part.flags & ts.TypeFlags.StringLike) return 'string';
        if (part.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) return 'number';
        if (checker.isArrayType(part) || checker.isTupleType(part)) return 'array';
        const symbol = part.getSymbol();
        const builtin =
          symbol?.declarations?.every((each) => each.getSourceFile().isDeclarationFile) ?? false;
        if (symbol !== undefined && builtin && COLLECTIONS.includes(symbol.name)) return 'collection';
        return undefined;
      }),
    );
    return kinds.size === 1 ? [...kinds][0] : undefined;
  }

  /** The project's own function a callee names, followed through imports; not a library's. */
  #projectFunction(identifier: ts.Identifier): FunctionWithBody | undefined {
    const checker = this.context.checker;
    let symbol = checker.getSymbolAtLocation(identifier);
    if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias)
      symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration;
    if (declaration === undefined) return undefined;
    const file = declaration.getSourceFile();
    if (file.isDeclarationFile || /[\\/]node_modules[\\/]/.test(file.fileName)) return undefined;
    if (ts.isFunctionDeclaration(declaration) && declaration.body !== undefined)
      return declaration as FunctionWithBody;
    if (
      ts.isVariableDeclaration(declaration) &&
      (declaration.parent.flags & ts.NodeFlags.Const) !== 0 &&
      declaration.initializer !== undefined
    ) {
      const initializer = unwrapExpression(declaration.initializer);
      if (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer)) return initializer;
    }
    return undefined;
  }

  /** A function whose body is pure with its own parameters and variables; recursion is not followed. */
  #pureBody(fn: FunctionWithBody): boolean {
    const known = this.#bodies.get(fn);
    if (known !== undefined) return known;
    this.#bodies.set(fn, false);
    const pure = this.#first(fn.body, fn) === undefined;
    this.#bodies.set(fn, pure);
    return pure;
  }
}
