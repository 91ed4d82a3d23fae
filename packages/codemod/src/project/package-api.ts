import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ts } from 'ts-morph';

// Whether code outside a project can call one of its exports is a question about the package, not
// the file: only the modules its package.json publishes (`exports`, else `main`, `module` and
// `types`) are importable by name. Deep imports into a package without `exports` are taken not to
// be its API. The published paths name built files, so each is traced back to the source file it
// is built from through the tsconfig's outDir and rootDir; anything that cannot be traced leaves
// the package's API unknown, and the caller takes the safe branch.

/** A published entry point and the source file it is built from. */
export interface PackageEntry {
  /** The package.json field that publishes it: `main`, `exports["./tools"]`. */
  readonly field: string;
  /** What the field says, as written (`dist/index.js`). */
  readonly target: string;
  /** Absolute path of the source file it is built from. */
  readonly source: string;
}

/** What a package publishes that code outside it can import. */
export type PackageApi =
  /** Importable modules, each traced to its source. */
  | { readonly kind: 'entries'; readonly packageJson: string; readonly entries: readonly PackageEntry[] }
  /** Nothing importable: a private package, or one that publishes only commands. */
  | { readonly kind: 'none'; readonly packageJson: string; readonly why: string }
  /** Not known: no package.json, one that cannot be read, or an entry not traced to a source. */
  | { readonly kind: 'unknown'; readonly why: string };

/** How the project builds its sources: where output goes and which directory it mirrors. */
export interface BuildLayout {
  readonly options: ts.CompilerOptions;
  /** The tsconfig's own source files, for the source root when it sets no rootDir. */
  readonly fileNames: readonly string[];
  /** The tsconfig's name, for reasons. */
  readonly tsconfig: string | undefined;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const BUILT_EXTENSION = /(?:\.d)?\.[cm]?[jt]sx?$/;

/** The nearest package.json at or above the file's directory. */
export function nearestPackageJson(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** What the package holding `file` publishes, traced to sources through the build layout. */
export function packageApiOf(file: string, layout: BuildLayout): PackageApi {
  const packageJson = nearestPackageJson(file);
  if (packageJson === undefined)
    return { kind: 'unknown', why: `no package.json above ${path.basename(file)} says what it publishes` };
  let manifest: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(packageJson, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    manifest = parsed as Record<string, unknown>;
  } catch {
    return { kind: 'unknown', why: `${packageJson} cannot be read` };
  }
  // A private package is not published, but the other packages of its workspace import it by name
  // through the entry points it declares.
  const workspace = manifest.private === true ? workspaceAbove(path.dirname(packageJson)) : undefined;
  if (manifest.private === true && workspace === undefined)
    return { kind: 'none', packageJson, why: 'package.json is private, so it publishes nothing to import' };
  const published = publishedTargets(manifest);
  if (typeof published === 'string') return { kind: 'unknown', why: published };
  if (published.length === 0) {
    if (workspace !== undefined)
      return {
        kind: 'none',
        packageJson,
        why: 'package.json is private and names no entry point for its workspace to import',
      };
    return manifest.bin !== undefined
      ? { kind: 'none', packageJson, why: 'package.json publishes only commands (bin), nothing to import' }
      : { kind: 'unknown', why: 'package.json names no entry point, so Node takes index.js' };
  }
  const entries: PackageEntry[] = [];
  for (const { field, target } of published) {
    const source = sourceOf(path.resolve(path.dirname(packageJson), target), layout);
    if (source === undefined)
      return {
        kind: 'unknown',
        why: `package.json's ${field} is ${target}, which is not traced to a source file${layout.options.outDir === undefined ? ` (${path.basename(layout.tsconfig ?? 'the tsconfig')} sets no outDir)` : ''}`,
      };
    entries.push({ field, target, source });
  }
  return { kind: 'entries', packageJson, entries };
}

/**
 * The root of a workspace holding the package's directory, when there is one: a package.json with
 * `workspaces`, or a pnpm-workspace.yaml, in the directory or above it.
 */
function workspaceAbove(directory: string): string | undefined {
  for (let dir = directory; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
        if (typeof parsed === 'object' && parsed !== null && 'workspaces' in parsed) return dir;
      } catch {
        // An unreadable manifest above says nothing about a workspace.
      }
    }
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The paths `exports` publishes (every condition of every subpath), else `main`, `module` and
 * `types`; or why they cannot be listed (a subpath pattern may publish any module).
 */
function publishedTargets(
  manifest: Record<string, unknown>,
): { readonly field: string; readonly target: string }[] | string {
  const targets: { field: string; target: string }[] = [];
  if (manifest.exports !== undefined && manifest.exports !== null) {
    let pattern: string | undefined;
    const visit = (value: unknown, field: string): void => {
      if (typeof value === 'string') {
        if (value.includes('*')) pattern ??= `${field} is ${value}`;
        else if (!value.endsWith('/package.json')) targets.push({ field, target: value });
      } else if (Array.isArray(value)) value.forEach((each) => visit(each, field));
      else if (typeof value === 'object' && value !== null)
        for (const [key, inner] of Object.entries(value))
          visit(inner, key.startsWith('.') ? `exports["${key}"]` : field);
    };
    visit(manifest.exports, 'exports');
    if (pattern !== undefined) return `package.json's ${pattern}, a pattern that may publish any module`;
    return targets;
  }
  for (const field of ['main', 'module', 'types', 'typings'])
    if (typeof manifest[field] === 'string') targets.push({ field, target: manifest[field] });
  return targets;
}

/** The source file a published path is built from: itself, or its mirror under the source root. */
function sourceOf(target: string, layout: BuildLayout): string | undefined {
  const own = new Set(layout.fileNames);
  if (own.has(target)) return target;
  const stem = target.replace(BUILT_EXTENSION, '');
  const outputs = [layout.options.outDir, layout.options.declarationDir].filter(
    (dir): dir is string => dir !== undefined,
  );
  const candidates = [stem];
  const root = layout.options.rootDir ?? commonDirectory(layout.fileNames);
  for (const output of outputs) {
    const relative = path.relative(output, stem);
    if (root !== undefined && !relative.startsWith('..') && !path.isAbsolute(relative))
      candidates.push(path.join(root, relative));
  }
  for (const candidate of candidates)
    for (const extension of SOURCE_EXTENSIONS) {
      const file = candidate + extension;
      if (own.has(file) || (candidate !== stem && existsSync(file))) return file;
    }
  return undefined;
}

/** The deepest directory holding every file, as TypeScript computes the source root. */
function commonDirectory(files: readonly string[]): string | undefined {
  const sources = files.filter((file) => !/\.d\.[cm]?ts$/.test(file));
  if (sources.length === 0) return undefined;
  let common = path.dirname(sources[0]!);
  for (const file of sources)
    while (common !== path.dirname(common) && !file.startsWith(common + path.sep))
      common = path.dirname(common);
  return common;
}
