import path from 'node:path';

// A helper exported from a candidate may be called from a file that has nothing a prefilter looks
// for (handlers with no push call of their own). Such files must be in the program for the
// checker to find those calls; a relative import of the candidate is the cheap textual sign.

const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](\.{1,2}\/[^'"\n]*)['"]/g;

/** The path without its script extension: `a/b.js`, `a/b.ts` and `a/b` all become `a/b`. */
function withoutExtension(file: string): string {
  return file.replace(/\.(?:d\.)?[cm]?[jt]sx?$/, '');
}

/** Whether `text` imports (or re-exports, or requires) one of `targets` by a relative path. */
function importsAny(file: string, text: string, targets: ReadonlySet<string>): boolean {
  for (const [, specifier] of text.matchAll(RELATIVE_SPECIFIER)) {
    const resolved = withoutExtension(path.resolve(path.dirname(file), specifier!));
    if (targets.has(resolved) || targets.has(path.join(resolved, 'index'))) return true;
  }
  return false;
}

/**
 * The files among `projectFiles` (with their text) that import one of `candidates` by a relative
 * path, and are not candidates themselves.
 */
export function importersOf(
  candidates: readonly string[],
  projectFiles: ReadonlyMap<string, string>,
): string[] {
  const targets = new Set(candidates.map(withoutExtension));
  const own = new Set(candidates);
  const importers: string[] = [];
  for (const [file, text] of projectFiles) {
    if (own.has(file) || /\.d\.[cm]?ts$/.test(file)) continue;
    if (importsAny(file, text, targets)) importers.push(file);
  }
  return importers;
}
