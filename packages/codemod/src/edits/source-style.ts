import { ts } from 'ts-morph';

/** How a file writes code, so that inserted code looks like the code around it. */
export interface SourceStyle {
  readonly quote: "'" | '"';
  readonly semicolons: boolean;
  /** One level of indentation: a tab, or some spaces. */
  readonly indentUnit: string;
  readonly newline: '\n' | '\r\n';
  /** `{ a }` rather than `{a}`. */
  readonly bracketSpacing: boolean;
  /** A comma after the last element of a list whose closing bracket stands on its own line. */
  readonly trailingCommas: boolean;
  /** The longest line of code the file already holds (at least 80): inserted lines stay within it. */
  readonly printWidth: number;
}

/**
 * Infers the style of a file from its own code: the majority quote of string literals, whether
 * statements end in semicolons, the smallest indentation step, the line ending, the spacing
 * inside object braces and the comma after the last element of multi-line lists. Ties go to what
 * Prettier writes by default, except quotes (single).
 */
export function inferSourceStyle(sourceFile: ts.SourceFile): SourceStyle {
  const text = sourceFile.text;
  let single = 0;
  let double = 0;
  let withSemicolon = 0;
  let withoutSemicolon = 0;
  let spacedBraces = 0;
  let tightBraces = 0;
  let trailing = 0;
  let notTrailing = 0;

  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const first = text[node.getStart(sourceFile)];
      if (first === "'") single++;
      else if (first === '"') double++;
    } else if (endsWithOptionalSemicolon(node)) {
      if (text[node.end - 1] === ';') withSemicolon++;
      else withoutSemicolon++;
    }
    const members = ts.isObjectLiteralExpression(node)
      ? node.properties
      : ts.isNamedImports(node)
        ? node.elements
        : undefined;
    if (members !== undefined && members.length > 0) {
      const inner = text[node.getStart(sourceFile) + 1];
      if (inner === ' ') spacedBraces++;
      else if (inner !== '\n' && inner !== '\r') tightBraces++;
    }
    const list = multiLineList(node);
    if (list !== undefined && list.length > 0 && /\n[ \t]*[)}\]]$/.test(text.slice(list.end, node.end))) {
      if (list.hasTrailingComma) trailing++;
      else notTrailing++;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);

  return {
    quote: double > single ? '"' : "'",
    semicolons: withSemicolon >= withoutSemicolon,
    indentUnit: inferIndentUnit(text),
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    bracketSpacing: spacedBraces >= tightBraces,
    trailingCommas: trailing >= notTrailing,
    printWidth: inferPrintWidth(text),
  };
}

/** Comment lines do not count: a long comment is no licence for long code. */
function inferPrintWidth(text: string): number {
  let longest = 80;
  for (const line of text.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed.length > longest && !/^\s*(?:\/\/|\/\*|\*)/.test(trimmed)) longest = trimmed.length;
  }
  return longest;
}

/** Whether a line of `text` at `indent` stays within the file's print width. */
export function fitsOnLine(style: SourceStyle, indent: string, text: string): boolean {
  return indent.length + text.length <= style.printWidth;
}

/** The elements of a bracketed list that may end in a comma. */
function multiLineList(node: ts.Node): ts.NodeArray<ts.Node> | undefined {
  if (ts.isObjectLiteralExpression(node)) return node.properties;
  if (ts.isArrayLiteralExpression(node)) return node.elements;
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) return node.arguments;
  return undefined;
}

function endsWithOptionalSemicolon(node: ts.Node): boolean {
  return (
    ts.isExpressionStatement(node) ||
    ts.isVariableStatement(node) ||
    ts.isReturnStatement(node) ||
    ts.isImportDeclaration(node) ||
    ts.isExportDeclaration(node) ||
    ts.isThrowStatement(node)
  );
}

function inferIndentUnit(text: string): string {
  let tabs = 0;
  let smallestSpaces = Infinity;
  for (const match of text.matchAll(/^([ \t]+)\S/gm)) {
    const indent = match[1] ?? '';
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length >= 2 && indent.length < smallestSpaces) smallestSpaces = indent.length;
  }
  if (tabs > 0 && smallestSpaces === Infinity) return '\t';
  return ' '.repeat(smallestSpaces === Infinity ? 2 : Math.min(smallestSpaces, 8));
}

/** Quotes a string for the file's style, escaping what must be escaped. */
export function quoteString(style: SourceStyle, value: string): string {
  const q = style.quote;
  const escaped = value.replaceAll('\\', '\\\\').replaceAll(q, `\\${q}`).replaceAll('\n', '\\n');
  return `${q}${escaped}${q}`;
}

/** `{ a, b }` or `{a, b}` in the file's style. */
export function braces(style: SourceStyle, inner: string): string {
  return style.bracketSpacing ? `{ ${inner} }` : `{${inner}}`;
}

export function semicolon(style: SourceStyle): string {
  return style.semicolons ? ';' : '';
}
