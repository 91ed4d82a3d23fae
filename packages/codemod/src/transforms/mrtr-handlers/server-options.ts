import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { existingImportLocal } from '../../edits/imports.js';
import type { TextEdit } from '../../edits/text-edit.js';

// SDK v2 verifies a retry's requestState in the server's `requestState.verify` hook, before any
// handler runs; the adapter supplies that hook through `serverOptions()`. A server created without
// it refuses every retry, so the construction in the migrated file is wrapped too. A server created
// in another file is not seen here (docs/migration-guide.md says to wrap it by hand).

const V2_SERVER_MODULE = '@modelcontextprotocol/server';
const V2_SERVER_CLASSES = ['McpServer', 'Server'];

function v2ServerConstructions(sourceFile: ts.SourceFile): ts.NewExpression[] {
  const classes = new Set(
    V2_SERVER_CLASSES.map((name) => existingImportLocal(sourceFile, V2_SERVER_MODULE, name)).filter(
      (local): local is string => local !== undefined,
    ),
  );
  const found: ts.NewExpression[] = [];
  if (classes.size === 0) return found;
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) {
      const callee = unwrapExpression(node.expression);
      if (ts.isIdentifier(callee) && classes.has(callee.text)) found.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Wraps the options of every SDK v2 server created in the file with `<adapter>.serverOptions(…)`. */
export function serverOptionsEdits(context: FileContext, adapter: string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const construction of v2ServerConstructions(context.sourceFile)) {
    const args = construction.arguments ?? ts.factory.createNodeArray();
    const options = args[1];
    if (options !== undefined && /\.serverOptions\s*\(/.test(context.textOf(options))) continue;
    if (options === undefined) {
      const info = args[0];
      if (info === undefined) continue;
      edits.push({ start: info.getEnd(), end: info.getEnd(), text: `, ${adapter}.serverOptions()` });
      continue;
    }
    const start = options.getStart(context.sourceFile);
    edits.push(
      { start, end: start, text: `${adapter}.serverOptions(` },
      { start: options.getEnd(), end: options.getEnd(), text: ')' },
    );
  }
  return edits;
}
