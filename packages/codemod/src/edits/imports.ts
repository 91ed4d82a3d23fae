import { ts } from 'ts-morph';
import { braces, quoteString, semicolon, type SourceStyle } from './source-style.js';
import { lineStartOf, nextLineStartOf } from './line-ranges.js';
import { removeListElements } from './removal.js';
import type { TextEdit } from './text-edit.js';

/** A named value a rewrite needs in scope: `import { name as local } from 'module'`. */
export interface ImportRequest {
  readonly module: string;
  readonly name: string;
  /** The identifier the rewritten code uses; differs from `name` only to avoid a clash. */
  readonly local: string;
}

function moduleOf(declaration: ts.ImportDeclaration): string | undefined {
  return ts.isStringLiteral(declaration.moduleSpecifier) ? declaration.moduleSpecifier.text : undefined;
}

function specifierText(request: ImportRequest): string {
  return request.name === request.local ? request.name : `${request.name} as ${request.local}`;
}

/** Value imports of `module` with named bindings (`import { a } from 'module'`). */
function namedValueImports(sourceFile: ts.SourceFile, module: string): ts.ImportDeclaration[] {
  return sourceFile.statements.filter(
    (statement): statement is ts.ImportDeclaration =>
      ts.isImportDeclaration(statement) &&
      moduleOf(statement) === module &&
      statement.importClause !== undefined &&
      !statement.importClause.isTypeOnly &&
      statement.importClause.namedBindings !== undefined &&
      ts.isNamedImports(statement.importClause.namedBindings),
  );
}

/** The local name an existing import already gives `name` from `module`, if any. */
export function existingImportLocal(
  sourceFile: ts.SourceFile,
  module: string,
  name: string,
): string | undefined {
  for (const declaration of namedValueImports(sourceFile, module)) {
    const named = declaration.importClause?.namedBindings as ts.NamedImports;
    for (const element of named.elements) {
      if (!element.isTypeOnly && (element.propertyName ?? element.name).text === name)
        return element.name.text;
    }
  }
  return undefined;
}

/**
 * Whether the file is written as CommonJS: `.cjs`, or no import/export syntax while it is `.cts`
 * or calls `require`. Imports are then added as `const { a } = require('m')`.
 */
export function isCommonJsSource(sourceFile: ts.SourceFile): boolean {
  if (sourceFile.fileName.endsWith('.cjs')) return true;
  const hasModuleSyntax = sourceFile.statements.some(
    (s) =>
      ts.isImportDeclaration(s) ||
      ts.isExportDeclaration(s) ||
      ts.isExportAssignment(s) ||
      (ts.canHaveModifiers(s) &&
        (ts.getModifiers(s) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)),
  );
  if (hasModuleSyntax) return false;
  return sourceFile.fileName.endsWith('.cts') || /\brequire\s*\(/.test(sourceFile.text);
}

/** `const x = require(…)` and the like: a CommonJS import. */
export function isRequireStatement(statement: ts.Statement): boolean {
  if (!ts.isVariableStatement(statement)) return false;
  return statement.declarationList.declarations.some((declaration) => {
    const init = declaration.initializer;
    return (
      init !== undefined &&
      ts.isCallExpression(init) &&
      ts.isIdentifier(init.expression) &&
      init.expression.text === 'require'
    );
  });
}

/** Where a new import line goes: after the last import (or require), else after the file's preamble. */
function insertionLine(sourceFile: ts.SourceFile, commonJs: boolean): number {
  const text = sourceFile.text;
  const imports = sourceFile.statements.filter((s) =>
    commonJs ? isRequireStatement(s) : ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s),
  );
  // Package imports usually come before relative ones: join the packages when both are there.
  const isRelative = (s: ts.Statement) =>
    ts.isImportDeclaration(s) &&
    ts.isStringLiteral(s.moduleSpecifier) &&
    s.moduleSpecifier.text.startsWith('.');
  const lastPackage = imports.filter((s) => !isRelative(s)).at(-1);
  const last = lastPackage ?? imports.at(-1);
  if (last !== undefined) return nextLineStartOf(text, last.end);
  // Before the first statement, after a shebang, leading comments and directives ('use strict').
  const first = sourceFile.statements.find(
    (s) => !(ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression)),
  );
  if (first === undefined) return text.length;
  return lineStartOf(text, first.getStart(sourceFile));
}

/**
 * The edits that bring the requested names into scope: new specifiers join an existing import of
 * the same module (in sorted position when the list is sorted), other modules get one new import
 * line each, written in the file's style. Names already imported are left alone.
 */
export function importEdits(
  sourceFile: ts.SourceFile,
  style: SourceStyle,
  requests: readonly ImportRequest[],
): TextEdit[] {
  const edits: TextEdit[] = [];
  const commonJs = isCommonJsSource(sourceFile);
  const byModule = new Map<string, ImportRequest[]>();
  for (const request of requests) {
    if (!commonJs && existingImportLocal(sourceFile, request.module, request.name) === request.local)
      continue;
    const list = byModule.get(request.module) ?? [];
    if (!list.some((r) => r.name === request.name && r.local === request.local)) list.push(request);
    byModule.set(request.module, list);
  }
  const newLines: string[] = [];
  for (const [module, list] of byModule) {
    const existing = commonJs ? undefined : namedValueImports(sourceFile, module)[0];
    if (existing !== undefined) {
      edits.push(...mergeIntoImport(sourceFile, style, existing, list));
      continue;
    }
    const names = list.map((request) =>
      commonJs && request.name !== request.local
        ? `${request.name}: ${request.local}`
        : specifierText(request),
    );
    const bindings = braces(style, names.join(', '));
    newLines.push(
      commonJs
        ? `const ${bindings} = require(${quoteString(style, module)})${semicolon(style)}`
        : `import ${bindings} from ${quoteString(style, module)}${semicolon(style)}`,
    );
  }
  if (newLines.length > 0) {
    const at = insertionLine(sourceFile, commonJs);
    const atEndWithoutNewline = at === sourceFile.text.length && !sourceFile.text.endsWith('\n') && at > 0;
    const body = newLines.join(style.newline) + style.newline;
    edits.push({ start: at, end: at, text: atEndWithoutNewline ? style.newline + body : body });
  }
  return edits;
}

function isSorted(names: readonly string[]): boolean {
  return names.every(
    (name, i) => i === 0 || names[i - 1]!.localeCompare(name, 'en', { sensitivity: 'base' }) <= 0,
  );
}

function mergeIntoImport(
  sourceFile: ts.SourceFile,
  style: SourceStyle,
  declaration: ts.ImportDeclaration,
  requests: readonly ImportRequest[],
): TextEdit[] {
  const text = sourceFile.text;
  const named = declaration.importClause?.namedBindings as ts.NamedImports;
  const elements = named.elements;
  const names = elements.map((element) => element.name.text);
  const multiline = text.slice(named.getStart(sourceFile), named.end).includes('\n');
  const edits: TextEdit[] = [];
  for (const request of requests) {
    const spec = specifierText(request);
    if (elements.length === 0) {
      const open = named.getStart(sourceFile) + 1;
      edits.push({ start: open, end: named.end - 1, text: braces(style, spec).slice(1, -1) });
      continue;
    }
    const sorted = isSorted(names);
    const before = sorted
      ? elements.find(
          (element) => element.name.text.localeCompare(request.local, 'en', { sensitivity: 'base' }) > 0,
        )
      : undefined;
    if (multiline) {
      const anchor = before ?? elements[elements.length - 1]!;
      const indent = /^[ \t]*/.exec(text.slice(lineStartOf(text, anchor.getStart(sourceFile))))?.[0] ?? '';
      if (before !== undefined) {
        const at = lineStartOf(text, before.getStart(sourceFile));
        edits.push({ start: at, end: at, text: `${indent}${spec},${style.newline}` });
      } else {
        const last = elements[elements.length - 1]!;
        edits.push({
          start: last.end,
          end: last.end,
          text: `,${style.newline}${indent}${spec}`,
        });
      }
    } else if (before !== undefined) {
      const at = before.getStart(sourceFile);
      edits.push({ start: at, end: at, text: `${spec}, ` });
    } else {
      const last = elements[elements.length - 1]!;
      edits.push({ start: last.end, end: last.end, text: `, ${spec}` });
    }
  }
  return edits;
}

/**
 * The edits that remove import specifiers nothing uses any more; a declaration left with no
 * bindings goes with its line. A default or namespace binding keeps its declaration.
 */
export function removeImportSpecifiers(
  sourceFile: ts.SourceFile,
  unused: ReadonlySet<ts.ImportSpecifier>,
): TextEdit[] {
  const text = sourceFile.text;
  const edits: TextEdit[] = [];
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const clause = statement.importClause;
    const named = clause?.namedBindings;
    if (clause === undefined || named === undefined || !ts.isNamedImports(named)) continue;
    const removed = named.elements.filter((element) => unused.has(element));
    if (removed.length === 0) continue;
    if (removed.length === named.elements.length && clause.name === undefined) {
      edits.push({
        start: lineStartOf(text, statement.getStart(sourceFile)),
        end: nextLineStartOf(text, statement.end),
        text: '',
      });
      continue;
    }
    if (removed.length === named.elements.length) {
      // `import d, { a } from 'm'` becomes `import d from 'm'`.
      edits.push({ start: clause.name!.end, end: named.end, text: '' });
      continue;
    }
    edits.push(
      ...removeListElements(
        sourceFile,
        named.elements,
        removed.map((element) => named.elements.indexOf(element)),
      ),
    );
  }
  return edits;
}
