// Code that has tested what a value is: `r.resultType === 'input_required'` tells that `r` is an
// MRTR result, whoever built the client that received it.
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPath, staticKey, staticString, unwrap } from './ast.js';
import type { FileAnalysis } from './file-analysis.js';
import { INPUT_REQUIRED } from './mrtr-code.js';

type Node = TSESTree.Node;

/** `x.resultType === 'input_required'` (or `!==`): the tested object's path and whether the test is positive. */
function resultTypeTest(file: FileAnalysis, node: Node): { path: string; positive: boolean } | undefined {
  const test = unwrap(node);
  if (test.type !== AST_NODE_TYPES.BinaryExpression || !['===', '==', '!==', '!='].includes(test.operator))
    return undefined;
  const scope = file.scopeOf(test);
  const [member, value] =
    staticString(scope, test.right) === INPUT_REQUIRED ? [test.left, test.right] : [test.right, test.left];
  if (staticString(scope, value) !== INPUT_REQUIRED) return undefined;
  const current = unwrap(member);
  if (current.type !== AST_NODE_TYPES.MemberExpression || staticKey(current) !== 'resultType')
    return undefined;
  const path = memberPath(unwrap(current.object))?.join('.');
  return path === undefined ? undefined : { path, positive: test.operator.startsWith('=') };
}

/** Whether a test (or an `&&` chain around it) says `path` is an input_required result when it holds. */
function testsPositively(file: FileAnalysis, test: Node, path: string, positive: boolean): boolean {
  const current = unwrap(test);
  if (current.type === AST_NODE_TYPES.LogicalExpression && current.operator === (positive ? '&&' : '||'))
    return (
      testsPositively(file, current.left, path, positive) ||
      testsPositively(file, current.right, path, positive)
    );
  const found = resultTypeTest(file, current);
  return found?.path === path && found.positive === positive;
}

function exits(statement: TSESTree.Statement): boolean {
  switch (statement.type) {
    case AST_NODE_TYPES.ReturnStatement:
    case AST_NODE_TYPES.ThrowStatement:
    case AST_NODE_TYPES.ContinueStatement:
    case AST_NODE_TYPES.BreakStatement:
      return true;
    case AST_NODE_TYPES.BlockStatement: {
      const last = statement.body.at(-1);
      return last !== undefined && exits(last);
    }
    default:
      return false;
  }
}

/**
 * Whether `member` (`r.requestState`) only runs once `r.resultType === 'input_required'` held: inside
 * the branch of that test, on the right of `&&`, or after `if (r.resultType !== 'input_required')`
 * left the block.
 */
export function runsAfterInputRequiredTest(file: FileAnalysis, member: TSESTree.MemberExpression): boolean {
  const path = memberPath(unwrap(member.object))?.join('.');
  if (path === undefined) return false;
  let child: Node = member;
  for (let parent: Node | undefined = member.parent; parent != null; child = parent, parent = parent.parent) {
    switch (parent.type) {
      case AST_NODE_TYPES.IfStatement:
      case AST_NODE_TYPES.ConditionalExpression:
        if (parent.consequent === child && testsPositively(file, parent.test, path, true)) return true;
        if (parent.alternate === child && testsPositively(file, parent.test, path, false)) return true;
        break;
      case AST_NODE_TYPES.LogicalExpression:
        if (
          parent.operator === '&&' &&
          parent.right === child &&
          testsPositively(file, parent.left, path, true)
        )
          return true;
        break;
      case AST_NODE_TYPES.BlockStatement:
      case AST_NODE_TYPES.Program: {
        const body = parent.body as Node[];
        for (const statement of body.slice(0, body.indexOf(child))) {
          if (
            statement.type === AST_NODE_TYPES.IfStatement &&
            exits(statement.consequent) &&
            testsPositively(file, statement.test, path, false)
          )
            return true;
        }
        break;
      }
      default:
        break;
    }
    if (
      parent.type === AST_NODE_TYPES.FunctionDeclaration ||
      parent.type === AST_NODE_TYPES.FunctionExpression ||
      parent.type === AST_NODE_TYPES.ArrowFunctionExpression
    )
      return false;
  }
  return false;
}
