import type { Site } from '../analysis/site.js';
import { importEdits, removeImportSpecifiers } from '../edits/imports.js';
import { markerEdit } from '../edits/markers.js';
import { applyTextEdits, EditConflictError, isInsideEditedRange, type TextEdit } from '../edits/text-edit.js';
import type { ts } from 'ts-morph';
import type { AnalysedFile } from './plan-migration.js';
import type { FileOutcome } from './migration-result.js';
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
 * Turns a file's final sites into its new text: the rewrites' edits (minus those inside code
 * another rewrite removes), the imports they need, removal of imports only they used, and one
 * marker per manual site. The result must re-parse, or the file is left as it was and reported.
 */
export function applySites(file: AnalysedFile, candidateSites: readonly Site[]): FileOutcome {
  const rewrites = candidateSites.filter((site) => site.rewrite !== undefined);
  // A rewrite inside code another rewrite removes is done by that removal; a manual site there is gone.
  const applied = rewrites.filter((site) => !isSubsumed(site, rewrites));
  const manual = candidateSites.filter((site) => site.rewrite === undefined && !isSubsumed(site, rewrites));
  const sites = candidateSites.filter((site) => site.rewrite !== undefined || manual.includes(site));

  const edits: TextEdit[] = applied.flatMap((site) => site.rewrite?.edits ?? []);
  edits.push(
    ...importEdits(
      file.sourceFile,
      file.style,
      applied.flatMap((site) => site.rewrite?.imports ?? []),
    ),
  );
  edits.push(...removeImportSpecifiers(file.sourceFile, unusedAfter(file, edits)));

  const marked = new Set<string>();
  for (const site of manual) {
    const key = `${site.anchor.kind === 'line' ? site.anchor.lineStart : site.anchor.offset}\0${site.ruleId}`;
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

/** Import specifiers whose every reference lies in code the edits remove. */
function unusedAfter(file: AnalysedFile, edits: readonly TextEdit[]): Set<ts.ImportSpecifier> {
  // Only pure deletions count: a replacement may put the same identifier back.
  const deleting = edits.filter((edit) => edit.end > edit.start && edit.text === '');
  const unused = new Set<ts.ImportSpecifier>();
  for (const usage of file.importUsages) {
    if (usage.references.length === 0) continue;
    if (usage.references.every((reference) => isInsideEditedRange(deleting, reference.start, reference.end)))
      unused.add(usage.specifier);
  }
  return unused;
}
