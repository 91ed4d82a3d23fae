import { ts } from 'ts-morph';

/** The script kind TypeScript parses a file as, from its extension. */
export function scriptKindOf(file: string): ts.ScriptKind {
  if (/\.[cm]?tsx?$/.test(file)) return file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return file.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/** The first syntax error TypeScript finds in the text, as `line:column message`, if any. */
export function firstSyntaxError(file: string, text: string): string | undefined {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKindOf(file));
  // TypeScript keeps parse errors on the source file; there is no public accessor without a Program.
  const diagnostics = (sourceFile as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] })
    .parseDiagnostics;
  if (diagnostics === undefined) {
    const transpiled = ts.transpileModule(text, { fileName: file, reportDiagnostics: true });
    return describeFirst(transpiled.diagnostics ?? [], sourceFile);
  }
  return describeFirst(diagnostics, sourceFile);
}

function describeFirst(diagnostics: readonly ts.Diagnostic[], sourceFile: ts.SourceFile): string | undefined {
  const first = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (first === undefined) return undefined;
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(first.start ?? 0);
  return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`;
}
