import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { isUnresolvedType } from '../../analysis/sdk-resolution.js';
import type { TextEdit } from '../../edits/text-edit.js';

/**
 * v1 context properties and their names on SDK v2's `ServerContext`: the same value, moved. The
 * SDK's own codemod renames them only when the context is a callback's second parameter, so
 * `registerTool(name, config, async (extra) => … extra.requestId …)` reaches us still in v1 form.
 */
const V2_NAMES: Readonly<Record<string, string>> = {
  requestId: 'mcpReq.id',
  signal: 'mcpReq.signal',
};

/**
 * Renames, in `scope`, the v1 properties read on `parameter` (a v2 context) that its type lacks, so
 * the handler this transform rewrites type-checks. Reads inside `skip` (code the rewrite removes)
 * are left alone.
 */
export function v1ContextNameEdits(
  context: FileContext,
  parameter: ts.ParameterDeclaration,
  scope: ts.Node,
  skip: readonly { start: number; end: number }[],
): TextEdit[] {
  if (!ts.isIdentifier(parameter.name)) return [];
  const symbol = context.checker.getSymbolAtLocation(parameter.name);
  const type = context.checker.getTypeAtLocation(parameter.name);
  // Without the SDK's types (--allow-unresolved), the caller showed from syntax that this is a v2 context.
  const v2Context =
    type.getProperty('mcpReq') !== undefined || (context.syntacticEvidence && isUnresolvedType(type));
  if (symbol === undefined || !v2Context) return [];
  const edits: TextEdit[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      context.checker.getSymbolAtLocation(node.expression) === symbol
    ) {
      const renamed = V2_NAMES[node.name.text];
      const start = node.name.getStart(context.sourceFile);
      const skipped = skip.some((range) => range.start <= start && node.name.end <= range.end);
      if (renamed !== undefined && !skipped && type.getProperty(node.name.text) === undefined)
        edits.push({ start, end: node.name.end, text: renamed });
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return edits;
}
