import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { nextLineStartOf } from '../../edits/line-ranges.js';
import { braces, quoteString, semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';

// Types the rewritten code names (`SdkV1Round`, `FormSchema`) are imported type-only, as
// verbatimModuleSyntax requires; the engine's import requests are for values.

export interface TypeImport {
  readonly module: string;
  readonly name: string;
}

/** The local name a type is imported as: its own, or `Name2` when the file uses the name. */
export function typeName(context: FileContext, name: string): string {
  return context.declarationName(name);
}

/** `import type { A, B } from 'm';` per module, after the file's last import. */
export function typeImportEdits(context: FileContext, imports: readonly TypeImport[]): TextEdit[] {
  const byModule = new Map<string, Set<string>>();
  for (const { module, name } of imports) {
    let names = byModule.get(module);
    if (names === undefined) byModule.set(module, (names = new Set()));
    names.add(name);
  }
  const last = context.sourceFile.statements.filter(ts.isImportDeclaration).at(-1);
  const style = context.style;
  return [...byModule].map(([module, names]) => {
    const specifiers = [...names].map((name) => {
      const local = typeName(context, name);
      return local === name ? name : `${name} as ${local}`;
    });
    const line = `import type ${braces(style, specifiers.join(', '))} from ${quoteString(style, module)}${semicolon(style)}`;
    if (last === undefined) return { start: 0, end: 0, text: `${line}${style.newline}` };
    // At the start of the next line, so that removing that last import (its whole line) does not
    // overlap the insertion.
    const next = nextLineStartOf(context.text, last.end);
    return next > last.end && /^[ \t]*\r?\n$/.test(context.text.slice(last.end, next))
      ? { start: next, end: next, text: `${line}${style.newline}` }
      : { start: last.end, end: last.end, text: `${style.newline}${line}` };
  });
}
