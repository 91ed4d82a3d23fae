import path from 'node:path';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { lineAndColumn } from '../../edits/line-ranges.js';
import { MARKER_PREFIX } from '../../edits/markers.js';
import type { EligibleHandler } from './eligible-handlers.js';

// SDK v2 refuses a retry whose requestState its `requestState.verify` hook did not accept, and the
// adapter supplies that hook through `serverOptions()`. serverOptionsEdits wraps the servers
// created in the migrated file; a server created anywhere else is found here through the
// receiver's declaration, and the adapter setup says where it is and what to pass it.

/** What the marker's todo starts with, so a later run recognises its own note. */
const NOTE_START = 'Create the SDK v2 server';

/** Where the server a handler registers on is created, when that is not in this file. */
function elsewhere(context: FileContext, receiver: ts.Expression): string | undefined {
  const inner = unwrapExpression(receiver);
  if (!ts.isIdentifier(inner))
    return `the server \`${context.textOf(inner)}\` comes from an expression the codemod does not follow`;
  let symbol = context.checker.getSymbolAtLocation(inner);
  if (symbol !== undefined && (symbol.flags & ts.SymbolFlags.Alias) !== 0)
    symbol = context.checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
  if (declaration === undefined) return `the server \`${inner.text}\` does not resolve to a declaration`;
  const file = declaration.getSourceFile();
  if (ts.isParameter(declaration)) {
    const fn = declaration.parent;
    const name =
      'name' in fn && fn.name !== undefined && ts.isIdentifier(fn.name)
        ? `${fn.name.text}()`
        : 'its function';
    return `the server \`${inner.text}\` is a parameter of ${name}, so whoever calls it creates the server`;
  }
  if (
    ts.isVariableDeclaration(declaration) &&
    declaration.initializer !== undefined &&
    ts.isNewExpression(unwrapExpression(declaration.initializer))
  ) {
    if (file === context.sourceFile) return undefined;
    const { line } = lineAndColumn(file.text, declaration.initializer.getStart(file));
    const where = path.relative(path.dirname(context.path), file.fileName).replaceAll('\\', '/');
    return `the server \`${inner.text}\` is created in ${where}:${line}`;
  }
  if (file === context.sourceFile && ts.isVariableDeclaration(declaration))
    return `the server \`${inner.text}\` is not created by a \`new\` expression the codemod can see`;
  return `the server \`${inner.text}\` is declared outside this file`;
}

/**
 * The todos for SDK v2 servers the migrated handlers register on that this file does not create,
 * one per distinct place.
 */
export function serverOptionsNotes(
  context: FileContext,
  handlers: readonly EligibleHandler[],
  adapter: string,
): string[] {
  const notes = new Set<string>();
  for (const handler of handlers) {
    if (handler.generation !== 'v2') continue;
    const where = elsewhere(context, handler.access.expression);
    if (where === undefined) continue;
    notes.add(
      `${NOTE_START} these handlers register on with this adapter's serverOptions(): ${where}; build it as new McpServer(info, ${adapter}.serverOptions(options)) with the same ${adapter} (export it from one module), or SDK v2 refuses every retry as unverified. Then delete this comment.`,
    );
  }
  return [...notes];
}

/**
 * Why the handlers of this file, registered on servers created elsewhere, get an adapter of this
 * module rather than the one beside the server's construction; undefined when every server is
 * created here.
 */
export function ownAdapterReason(
  context: FileContext,
  handlers: readonly EligibleHandler[],
): string | undefined {
  const where = new Set<string>();
  for (const handler of handlers) {
    const found = elsewhere(context, handler.access.expression);
    if (found !== undefined) where.add(found);
  }
  if (where.size === 0) return undefined;
  return `this module sets up an adapter of its own, as the codemod cannot set one up beside the server's construction: ${[...where].join('; ')}`;
}

/** The server-options notes an earlier run left in the comment lines right above `lineStart`. */
export function serverOptionsNotesAbove(text: string, lineStart: number): string[] {
  const found: string[] = [];
  const lines = text.slice(0, lineStart).split(/\r?\n/);
  lines.pop();
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (!line.startsWith('//')) break;
    const at = line.indexOf(`${MARKER_PREFIX} `);
    const dash = line.indexOf(' — ', at);
    if (at !== -1 && dash !== -1 && line.startsWith(NOTE_START, dash + 3))
      found.unshift(line.slice(dash + 3));
  }
  return found;
}
