import { ts } from 'ts-morph';
import type { ImportUsage } from './import-usage.js';

/** The last parameter of a callback and every place its body refers to it. */
export interface ParameterUsage {
  readonly parameter: ts.ParameterDeclaration;
  readonly callback: ts.ArrowFunction | ts.FunctionExpression;
  readonly references: ImportUsage['references'];
}

/**
 * Finds the last parameter of every callback passed as an argument (`registerTool(…, async (args,
 * extra) => …)`) with its references. Dropping a callback's trailing parameter is always safe for
 * its caller, so a parameter only rewritten code used can go instead of failing
 * `noUnusedParameters` or a linter.
 */
export function collectCallbackParameters(
  sourceFile: ts.SourceFile,
  checker: ts.TypeChecker,
): ParameterUsage[] {
  const usages = new Map<
    ts.Symbol,
    {
      parameter: ts.ParameterDeclaration;
      callback: ts.ArrowFunction | ts.FunctionExpression;
      references: { start: number; end: number }[];
    }
  >();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) &&
      (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent))
    ) {
      const parameter = node.parameters.at(-1);
      if (
        parameter !== undefined &&
        ts.isIdentifier(parameter.name) &&
        parameter.dotDotDotToken === undefined
      ) {
        const symbol = checker.getSymbolAtLocation(parameter.name);
        if (symbol !== undefined) usages.set(symbol, { parameter, callback: node, references: [] });
      }
    }
    if (ts.isIdentifier(node) && !ts.isParameter(node.parent)) {
      const symbol =
        ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : checker.getSymbolAtLocation(node);
      const usage = symbol === undefined ? undefined : usages.get(symbol);
      usage?.references.push({ start: node.getStart(sourceFile), end: node.end });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return [...usages.values()];
}

/** The edit that drops a callback's last parameter: `(args, extra) =>` to `(args) =>`, `extra =>` to `() =>`. */
export function removeLastParameter(sourceFile: ts.SourceFile, usage: ParameterUsage) {
  const { parameter, callback } = usage;
  const parameters = callback.parameters;
  const index = parameters.indexOf(parameter);
  const previous = parameters[index - 1];
  if (previous !== undefined) return { start: previous.end, end: parameter.end, text: '' };
  const start = parameter.getStart(sourceFile);
  const parenthesized = sourceFile.text.slice(callback.getStart(sourceFile), start).includes('(');
  return { start, end: parameter.end, text: parenthesized ? '' : '()' };
}
