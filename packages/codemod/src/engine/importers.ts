import path from 'node:path';

// A helper exported from a candidate may be called from a file that has nothing a prefilter looks
// for (handlers with no push call of their own). Such files must be in the program for the
// checker to find those calls; a relative import of the candidate is the cheap textual sign.

const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](\.{1,2}\/[^'"\n]*)['"]/g;

/** The path without its script extension: `a/b.js`, `a/b.ts` and `a/b` all become `a/b`. */
function withoutExtension(file: string): string {
  return file.replace(/\.(?:d\.)?[cm]?[jt]sx?$/, '');
}

/** What `text` imports (or re-exports, or requires) by a relative path, without extensions. */
function relativeImports(file: string, text: string): string[] {
  return [...text.matchAll(RELATIVE_SPECIFIER)].map(([, specifier]) =>
    withoutExtension(path.resolve(path.dirname(file), specifier!)),
  );
}

/**
 * The files among `projectFiles` (with their text) that import one of `candidates` by a relative
 * path, directly or through other such files, and are not candidates themselves: a helper two
 * calls below its handler is called from a file importing the file that imports it, and the
 * files calling through a barrel import the barrel, not the helper's module.
 */
export function importersOf(
  candidates: readonly string[],
  projectFiles: ReadonlyMap<string, string>,
): string[] {
  // Who imports each module, by the module's path without extension (`dir/index` for `dir`).
  const importersOfModule = new Map<string, string[]>();
  for (const [file, text] of projectFiles) {
    if (/\.d\.[cm]?ts$/.test(file)) continue;
    for (const imported of relativeImports(file, text))
      importersOfModule.set(imported, [...(importersOfModule.get(imported) ?? []), file]);
  }
  const own = new Set(candidates);
  const reached = new Set<string>();
  const queue = [...candidates];
  const importers: string[] = [];
  while (queue.length > 0) {
    const module = withoutExtension(queue.pop()!);
    const importing = [
      ...(importersOfModule.get(module) ?? []),
      ...(path.basename(module) === 'index' ? (importersOfModule.get(path.dirname(module)) ?? []) : []),
    ];
    for (const file of importing) {
      if (own.has(file) || reached.has(file)) continue;
      reached.add(file);
      importers.push(file);
      queue.push(file);
    }
  }
  return importers;
}
