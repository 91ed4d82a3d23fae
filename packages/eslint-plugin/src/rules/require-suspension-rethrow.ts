import { RUNTIME_PACKAGE, SUSPENSION_CLASS, SUSPENSION_TEST } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable, staticKey, unwrap } from '../analysis/ast.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { isFunction, type FunctionNode } from '../analysis/handlers.js';
import { calleeName } from '../analysis/invoked-member.js';
import { JOURNAL_IN_TEXT, mayAsk } from '../analysis/journaled-replay.js';
import { walk } from '../analysis/walk.js';
import { createRule } from '../util/create-rule.js';

type Node = TSESTree.Node;

const messages = {
  swallowsSuspension:
    'This catch can swallow the suspension of the question on line {{line}}: while an answer is awaited, the handler unwinds with a suspension that must reach the runtime. Make `if (isSuspension(error)) throw error;` its first statement.',
  rethrowSuspension: 'Rethrow the suspension first: `if (isSuspension({{name}})) throw {{name}};`.',
} as const;

type MessageId = keyof typeof messages;

/** The first call in `root` that may ask a question (not looking into functions it only defines). */
function firstQuestion(file: FileAnalysis, root: Node): TSESTree.CallExpression | undefined {
  let found: TSESTree.CallExpression | undefined;
  walk(file.sourceCode, root, (node) => {
    if (found !== undefined) return false;
    // A callback handed to a call runs there (`Promise.all(items.map(…))`); a stored one may not.
    if (isFunction(node) && node !== root && node.parent?.type !== AST_NODE_TYPES.CallExpression)
      return false;
    if (node.type === AST_NODE_TYPES.CallExpression && mayAsk(file, node)) found = node;
    return true;
  });
  return found;
}

function isNamed(node: Node, name: string): boolean {
  const current = unwrap(node);
  return current.type === AST_NODE_TYPES.Identifier && current.name === name;
}

/** `isSuspension(e)`, `runtime.isSuspension(e)`, `e instanceof Suspension`, or either in an `||` chain. */
function testsSuspension(test: Node, name: string): boolean {
  const current = unwrap(test);
  if (current.type === AST_NODE_TYPES.LogicalExpression && current.operator === '||')
    return testsSuspension(current.left, name) || testsSuspension(current.right, name);
  if (current.type === AST_NODE_TYPES.CallExpression) {
    const [argument] = current.arguments;
    return (
      calleeName(unwrap(current.callee)) === SUSPENSION_TEST &&
      argument !== undefined &&
      isNamed(argument, name)
    );
  }
  if (current.type !== AST_NODE_TYPES.BinaryExpression || current.operator !== 'instanceof') return false;
  const type = unwrap(current.right);
  const typeName =
    type.type === AST_NODE_TYPES.MemberExpression
      ? staticKey(type)
      : type.type === AST_NODE_TYPES.Identifier
        ? type.name
        : undefined;
  return isNamed(current.left, name) && typeName === SUSPENSION_CLASS;
}

function throwsCaught(statement: Node, name: string): boolean {
  if (statement.type === AST_NODE_TYPES.ThrowStatement) return isNamed(statement.argument, name);
  if (statement.type !== AST_NODE_TYPES.BlockStatement) return false;
  const [first] = statement.body;
  return first !== undefined && throwsCaught(first, name);
}

/** Whether a statement rethrows the suspension: `if (isSuspension(e)) throw e;` or `throw e;`. */
function rethrows(statement: Node, name: string): boolean {
  if (statement.type === AST_NODE_TYPES.IfStatement)
    return testsSuspension(statement.test, name) && throwsCaught(statement.consequent, name);
  return throwsCaught(statement, name);
}

/** Whether a statement can leave the catch (return, throw, break, continue) before a rethrow. */
function mayLeave(sourceCode: Readonly<TSESLint.SourceCode>, statement: Node): boolean {
  let leaves = false;
  walk(sourceCode, statement, (node) => {
    if (leaves || isFunction(node)) return false;
    switch (node.type) {
      case AST_NODE_TYPES.ReturnStatement:
      case AST_NODE_TYPES.ThrowStatement:
      case AST_NODE_TYPES.BreakStatement:
      case AST_NODE_TYPES.ContinueStatement:
        leaves = true;
        return false;
      default:
        return true;
    }
  });
  return leaves;
}

/** Whether the handler's statements rethrow the caught error `name` before anything can leave. */
function rethrowsFirst(
  sourceCode: Readonly<TSESLint.SourceCode>,
  statements: readonly TSESTree.Statement[],
  name: string | undefined,
): boolean {
  if (name === undefined) return false;
  for (const statement of statements) {
    if (rethrows(statement, name)) return true;
    if (mayLeave(sourceCode, statement)) return false;
  }
  return false;
}

export default createRule<[], MessageId>({
  name: 'require-suspension-rethrow',
  meta: {
    type: 'problem',
    docs: {
      description:
        "Require a catch around a question of a journaled handler to rethrow the runtime's suspension before anything else",
      recommended: 'recommended',
    },
    hasSuggestions: true,
    messages,
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp || !file.mentions(JOURNAL_IN_TEXT)) return {};
    const sourceCode = context.sourceCode;

    /** The edits that import `isSuspension` from the runtime, when it is not in scope yet. */
    function importSuspensionTest(fixer: TSESLint.RuleFixer, at: Node): TSESLint.RuleFix[] | undefined {
      const inScope = findVariable(file.scopeOf(at), SUSPENSION_TEST);
      if (inScope !== undefined) return [];
      const imports = sourceCode.ast.body.filter(
        (statement): statement is TSESTree.ImportDeclaration =>
          statement.type === AST_NODE_TYPES.ImportDeclaration,
      );
      const runtime = imports.find(
        (statement) =>
          statement.source.value === RUNTIME_PACKAGE &&
          statement.importKind !== 'type' &&
          statement.specifiers.at(-1)?.type === AST_NODE_TYPES.ImportSpecifier,
      );
      const last = runtime?.specifiers.at(-1);
      if (last !== undefined) return [fixer.insertTextAfter(last, `, ${SUSPENSION_TEST}`)];
      const after = imports.at(-1);
      // A file without ESM imports may be CommonJS: leave the import to its author.
      if (after === undefined) return undefined;
      return [fixer.insertTextAfter(after, `\nimport { ${SUSPENSION_TEST} } from '${RUNTIME_PACKAGE}';`)];
    }

    /** Insert the rethrow as the handler's first statement, naming the caught error if it has no name. */
    function suggestion(
      handler: FunctionNode | TSESTree.CatchClause,
      body: TSESTree.BlockStatement,
      indent: string,
    ): TSESLint.SuggestionReportDescriptor<MessageId>[] {
      const param = handler.type === AST_NODE_TYPES.CatchClause ? handler.param : handler.params[0];
      if (param != null && param.type !== AST_NODE_TYPES.Identifier) return [];
      const name =
        param?.name ?? (findVariable(file.scopeOf(body), 'error') === undefined ? 'error' : 'caught');
      const guard = `if (${SUSPENSION_TEST}(${name})) throw ${name};`;
      return [
        {
          messageId: 'rethrowSuspension',
          data: { name },
          fix(fixer) {
            const imported = importSuspensionTest(fixer, body);
            if (imported === undefined) return [];
            const fixes = [...imported];
            if (param == null) {
              if (handler.type === AST_NODE_TYPES.CatchClause) {
                fixes.push(fixer.insertTextBefore(body, `(${name}) `));
              } else {
                // No parameters: the first `(` of the function opens its empty parameter list.
                const open = sourceCode.text.indexOf('(', handler.range[0]);
                if (open === -1 || open >= body.range[0]) return [];
                fixes.push(fixer.insertTextAfterRange([open, open + 1], name));
              }
            }
            fixes.push(
              body.body.length === 0
                ? fixer.replaceText(body, `{\n${indent}  ${guard}\n${indent}}`)
                : fixer.insertTextAfterRange([body.range[0], body.range[0] + 1], `\n${indent}  ${guard}`),
            );
            return fixes;
          },
        },
      ];
    }

    function check(
      handler: FunctionNode | TSESTree.CatchClause,
      body: Node,
      question: TSESTree.CallExpression,
      indent: string,
    ) {
      const param = handler.type === AST_NODE_TYPES.CatchClause ? handler.param : handler.params[0];
      const name = param?.type === AST_NODE_TYPES.Identifier ? param.name : undefined;
      const statements = body.type === AST_NODE_TYPES.BlockStatement ? body.body : [];
      if (rethrowsFirst(sourceCode, statements, name)) return;
      context.report({
        node: param ?? handler,
        messageId: 'swallowsSuspension',
        data: { line: String(question.loc.start.line) },
        suggest: body.type === AST_NODE_TYPES.BlockStatement ? suggestion(handler, body, indent) : [],
      });
    }

    function indentOf(node: Node): string {
      const line = sourceCode.lines[node.loc.start.line - 1] ?? '';
      return /^\s*/.exec(line)?.[0] ?? '';
    }

    return {
      TryStatement(node) {
        if (node.handler === null) return;
        const question = firstQuestion(file, node.block);
        if (question !== undefined) check(node.handler, node.handler.body, question, indentOf(node.handler));
      },
      // `round.ask(…).catch(() => fallback)` swallows it as well.
      CallExpression(node) {
        const callee = unwrap(node.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression || staticKey(callee) !== 'catch') return;
        const [handler] = node.arguments;
        if (handler === undefined || !isFunction(handler)) return;
        const question = firstQuestion(file, callee.object);
        if (question !== undefined) check(handler, handler.body, question, indentOf(handler.body));
      },
    };
  },
});
