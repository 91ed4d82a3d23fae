import type { ts } from 'ts-morph';
import { removeLastParameter } from '../analysis/parameter-usage.js';
import type { Site } from '../analysis/site.js';
import { importEdits, removeImportSpecifiers } from '../edits/imports.js';
import { isBlankLine, lineStartOf, nextLineStartOf } from '../edits/line-ranges.js';
import { markerEdit } from '../edits/markers.js';
import { applyTextEdits, EditConflictError, isInsideEditedRange, type TextEdit } from '../edits/text-edit.js';
import type { FileOutcome } from './migration-result.js';
import type { AnalysedFile } from './analysed-file.js';
import { firstSyntaxError } from './reparse.js';

function deletingEdits(site: Site): TextEdit[] {
  return (site.rewrite?.edits ?? []).filter((edit) => edit.end > edit.start);
}

/** Whether every edit of `site` (and the site itself) lies inside what another rewrite deletes. */
function isSubsumed(site: Site, others: readonly Site[]): boolean {
  const deleted = others.filter((other) => other !== site).flatMap(deletingEdits);
  if (!isInsideEditedRange(deleted, site.start, site.start + 1)) return false;
  return (site.rewrite?.edits ?? []).every((edit) =>
    isInsideEditedRange(deleted, edit.start, Math.max(edit.end, edit.start + 1)),
  );
}

/**
 * Whether every reference lies in text the edits take out: inside an edit's range whose new text
 * does not mention the name again. A name with no references (an import that was already
 * unused) does not count: only what the rewrites made unused is cleaned up.
 */
function onlyUsedIn(
  references: readonly { start: number; end: number }[],
  name: string,
  edits: readonly TextEdit[],
): boolean {
  if (references.length === 0) return false;
  const mentions = mentionOf(name);
  return references.every((reference) =>
    edits.some(
      (edit) =>
        edit.start <= reference.start &&
        reference.end <= edit.end &&
        edit.start < edit.end &&
        !mentions.test(edit.text),
    ),
  );
}

function mentionOf(name: string): RegExp {
  return new RegExp(`(^|[^\\w$])${name.replaceAll('$', '\\$')}($|[^\\w$])`);
}

/** Whether code an edit inserts between `start` and `end` names `name`: a new use of it. */
function insertedUseOf(name: string, edits: readonly TextEdit[], start = 0, end = Infinity): boolean {
  const mentions = mentionOf(name);
  return edits.some((edit) => start <= edit.start && edit.end <= end && mentions.test(edit.text));
}

/** Import specifiers whose every reference lies in code the rewrites remove. */
function unusedImportsAfter(file: AnalysedFile, edits: readonly TextEdit[]): Set<ts.ImportSpecifier> {
  return new Set(
    file.importUsages
      .filter((usage) => {
        const name = usage.specifier.name.text;
        return onlyUsedIn(usage.references, name, edits) && !insertedUseOf(name, edits);
      })
      .map((usage) => usage.specifier),
  );
}

/**
 * Whole-line removals of the module-private type aliases whose every reference lies in code the
 * rewrites remove (with their doc comment), so the aliases' own imports can go too.
 */
function unusedTypeAliasesAfter(file: AnalysedFile, edits: readonly TextEdit[]): TextEdit[] {
  const removals: TextEdit[] = [];
  for (const usage of file.typeAliasUsages) {
    const name = usage.declaration.name.text;
    if (!onlyUsedIn(usage.references, name, edits) || insertedUseOf(name, edits)) continue;
    const start = lineStartOf(file.text, usage.declaration.getStart(file.sourceFile, true));
    let end = nextLineStartOf(file.text, usage.declaration.end);
    // Blank lines on both sides would leave two in a row: take the one after along.
    if (start > 0 && isBlankLine(file.text, lineStartOf(file.text, start - 1)) && isBlankLine(file.text, end))
      end = nextLineStartOf(file.text, end);
    if (edits.some((edit) => edit.start < end && start < edit.end)) continue;
    removals.push({ start, end, text: '' });
  }
  return removals;
}

/**
 * Turns a file's final sites into its new text: the rewrites' edits (minus those inside code
 * another rewrite removes), the imports they need, removal of imports and trailing callback
 * parameters only the rewritten code used, and one marker per manual site. The result must
 * re-parse, or the file is left as it was and reported.
 */
export function applySites(file: AnalysedFile, candidateSites: readonly Site[]): FileOutcome {
  const rewrites = candidateSites.filter((site) => site.rewrite !== undefined);
  // A rewrite inside code another rewrite removes is done by that removal; a manual site there is
  // gone, unless its marker is carried by inserted code (the runtime setup's notes), which stays.
  const applied = rewrites.filter((site) => !isSubsumed(site, rewrites));
  const manual = candidateSites.filter(
    (site) =>
      site.rewrite === undefined && (site.anchor.kind === 'in-rewrite' || !isSubsumed(site, rewrites)),
  );
  const sites = candidateSites
    .filter((site) => site.rewrite !== undefined || manual.includes(site))
    .sort((a, b) => a.start - b.start);

  // One edit may belong to two sites: a declaration both need (the keys a module's sealer and
  // runtime share) is written once.
  const rewriteEdits = [...new Set(applied.flatMap((site) => site.rewrite?.edits ?? []))];
  const edits: TextEdit[] = [...rewriteEdits];
  const imports = applied.flatMap((site) => site.rewrite?.imports ?? []);
  edits.push(...importEdits(file.sourceFile, file.style, imports));
  const aliasRemovals = unusedTypeAliasesAfter(file, rewriteEdits);
  edits.push(...aliasRemovals);
  edits.push(
    ...removeImportSpecifiers(file.sourceFile, unusedImportsAfter(file, [...rewriteEdits, ...aliasRemovals])),
  );
  for (const usage of file.parameterUsages) {
    const name = usage.parameter.name.getText(file.sourceFile);
    if (!onlyUsedIn(usage.references, name, rewriteEdits)) continue;
    if (insertedUseOf(name, rewriteEdits, usage.callback.pos, usage.callback.end)) continue;
    const edit = removeLastParameter(file.sourceFile, usage);
    // A callback inside code a rewrite removes goes with it.
    if (!isInsideEditedRange(rewriteEdits, edit.start, Math.max(edit.end, edit.start + 1))) edits.push(edit);
  }

  const marked = new Set<string>();
  for (const site of manual) {
    const { anchor } = site;
    // The rewrite that inserts the code this site is about also wrote its marker.
    if (anchor.kind === 'in-rewrite') continue;
    const key = `${anchor.kind === 'line' ? anchor.lineStart : anchor.offset}\0${site.ruleId}`;
    if (marked.has(key)) continue;
    marked.add(key);
    const edit = markerEdit(file.text, file.style, site.anchor, site.ruleId, site.todo);
    if (edit !== undefined) edits.push(edit);
  }

  let output: string;
  try {
    output = applyTextEdits(file.text, edits);
  } catch (error) {
    if (!(error instanceof EditConflictError)) throw error;
    return {
      file: file.file,
      status: 'failed',
      reason: `conflicting edits, please report it: ${error.message}`,
      sites,
    };
  }
  if (output === file.text) return { file: file.file, status: 'unchanged', sites };
  const syntaxError = firstSyntaxError(file.file, output);
  if (syntaxError !== undefined) {
    return {
      file: file.file,
      status: 'failed',
      reason: `the rewritten file would not parse (${syntaxError}); left unchanged, please report it`,
      sites,
    };
  }
  const bom = file.bom ? '\uFEFF' : '';
  return { file: file.file, status: 'changed', original: bom + file.text, output: bom + output, sites };
}
