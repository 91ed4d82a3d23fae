import path from 'node:path';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { lineAndColumn } from '../../edits/line-ranges.js';

// Whether the program serves MCP over stdio only, for the keys the generated runtime reads. A
// stdio server is one process per client, so a random key per process seals and opens every round
// of its calls; anything served over HTTP may see a retry on another instance, which needs keys
// the deployment shares. Presumed, never recognised: stdio only needs a StdioServerTransport (or
// SDK v2's serveStdio) and no transport or HTTP handler the codemod does not know to be stdio or
// in-process; anything else takes the deployment's keys, failing closed while they are unset.

/** The server side of stdio: evidence for stdio, when imported from one of the SDK's modules. */
const STDIO_SERVER = new Set(['StdioServerTransport', 'serveStdio']);

const SDK_MODULE = /^@modelcontextprotocol\//;

/** Transports that neither serve over HTTP nor spread one client over several processes. */
const NOT_HTTP = new Set(['StdioClientTransport', 'InMemoryTransport']);

/** SDK v2 names that serve MCP over HTTP without a transport class. */
const HTTP_HANDLERS = new Set(['createMcpHandler', 'toNodeHandler']);

export type ServedTransport =
  /** `where` names the stdio transport found, relative to the file being migrated. */
  | { readonly kind: 'stdio-only'; readonly where: string }
  /** `why` says what was found instead, or that no stdio transport was. */
  | { readonly kind: 'unknown'; readonly why: string };

interface Found {
  readonly name: string;
  readonly file: ts.SourceFile;
  readonly node: ts.Node;
}

/** The names a file imports from the SDK's packages, by local name, with the imported name. */
function sdkImports(sourceFile: ts.SourceFile): Map<string, string> {
  const imported = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!SDK_MODULE.test(statement.moduleSpecifier.text)) continue;
    const named = statement.importClause?.namedBindings;
    if (named === undefined || !ts.isNamedImports(named)) continue;
    for (const element of named.elements)
      imported.set(element.name.text, (element.propertyName ?? element.name).text);
  }
  return imported;
}

/** Every transport a file constructs or names, and every HTTP handler it calls. */
function transportsIn(sourceFile: ts.SourceFile, into: { stdio: Found[]; other: Found[] }): void {
  if (!/Transport|serveStdio|createMcpHandler|toNodeHandler/.test(sourceFile.text)) return;
  const imports = sdkImports(sourceFile);
  const visit = (node: ts.Node): void => {
    const callee = ts.isNewExpression(node) || ts.isCallExpression(node) ? node.expression : undefined;
    if (callee !== undefined && ts.isIdentifier(callee)) {
      const name = imports.get(callee.text) ?? callee.text;
      const fromSdk = imports.has(callee.text);
      if (STDIO_SERVER.has(name) && fromSdk) into.stdio.push({ name, file: sourceFile, node });
      else if (HTTP_HANDLERS.has(name) && fromSdk) into.other.push({ name, file: sourceFile, node });
      else if (ts.isNewExpression(node) && /Transport$/.test(name) && !NOT_HTTP.has(name))
        into.other.push({ name, file: sourceFile, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}

function placeOf(context: FileContext, found: Found): string {
  const relative = path.relative(path.dirname(context.path), found.file.fileName).replaceAll('\\', '/');
  const { line } = lineAndColumn(found.file.text, found.node.getStart(found.file));
  return `${relative}:${line}`;
}

const cache = new WeakMap<readonly ts.SourceFile[], { stdio: Found[]; other: Found[] }>();

/** How the program the file belongs to serves MCP, as far as the run's files show it. */
export function servedTransport(context: FileContext): ServedTransport {
  const files = context.run?.sourceFiles ?? [context.sourceFile];
  let found = cache.get(files);
  if (found === undefined) {
    found = { stdio: [], other: [] };
    for (const file of files) transportsIn(file, found);
    cache.set(files, found);
  }
  const other = found.other[0];
  if (other !== undefined)
    return {
      kind: 'unknown',
      why: `${other.name} at ${placeOf(context, other)} serves it otherwise than over stdio`,
    };
  const stdio = found.stdio[0];
  if (stdio === undefined)
    return {
      kind: 'unknown',
      why: 'no StdioServerTransport in the files of this run shows it is served over stdio only',
    };
  return { kind: 'stdio-only', where: `${stdio.name} at ${placeOf(context, stdio)}` };
}
