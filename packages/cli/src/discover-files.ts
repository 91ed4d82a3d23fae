import { existsSync, opendirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { glob, isDynamicPattern } from 'tinyglobby';
import { UsageError } from './exit-codes.js';
import { findRepositoryRoot, isInside } from './run-root.js';

/** Every extension a JavaScript or TypeScript MCP server may be written in. */
export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

/** Dependencies, build output and tool caches: never source to check or rewrite. */
export const SKIPPED_DIRECTORIES = [
  'node_modules',
  // Yarn's own release, plugins and cache, which projects commit.
  '.yarn',
  'dist',
  'build',
  'out',
  'coverage',
  '.git',
  '.next',
  '.turbo',
  '.cache',
] as const;

/**
 * Larger source files are bundled or generated code (a committed `run.js` bundle, a vendored tool):
 * nobody writes an MCP server by hand in one, and the parser alone takes seconds per megabyte of
 * minified code. Biome leaves such files out by default with the same limit.
 */
export const MAX_SOURCE_BYTES = 1024 * 1024;

const SOURCE_GLOB = `**/*.{${SOURCE_EXTENSIONS.map((e) => e.slice(1)).join(',')}}`;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

export interface DiscoverOptions {
  /** Files, directories or globs, relative to `cwd`. Defaults to `cwd` itself. */
  readonly patterns: readonly string[];
  readonly cwd: string;
  /** Extra gitignore-style patterns, relative to `cwd`. */
  readonly ignore?: readonly string[];
}

/** Why a file named on the command line was left out: the reasons directory discovery has too. */
export type SkipReason =
  | 'not a regular file'
  | 'not a source file'
  | 'declaration file'
  | 'dependency or build output'
  | 'ignored'
  | 'larger than 1 MiB';

export interface SkippedFile {
  /** Absolute path. */
  readonly file: string;
  readonly reason: SkipReason;
}

export interface DiscoveredFiles {
  /** Absolute paths, sorted, without duplicates. */
  readonly files: readonly string[];
  /** Directories that were given but hold no source files. */
  readonly emptyDirectories: readonly string[];
  /**
   * Files named explicitly (a shell expands `src/*.ts` into names) that directory discovery
   * would not take, in the order given.
   */
  readonly skipped: readonly SkippedFile[];
  /** Files directories and globs hold that are larger than `MAX_SOURCE_BYTES`, left out. */
  readonly large: readonly string[];
}

function hasSourceExtension(file: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => file.endsWith(ext));
}

function isSourceFile(file: string): boolean {
  return hasSourceExtension(file) && !DECLARATION_FILE.test(file);
}

function isLarge(file: string): boolean {
  return statSync(file).size > MAX_SOURCE_BYTES;
}

/** Whether a directory between `base` and the file is a dependency or build output directory. */
function inSkippedDirectory(file: string, base: string): boolean {
  const segments = path.relative(base, path.dirname(file)).split(path.sep);
  return segments.some((segment) => (SKIPPED_DIRECTORIES as readonly string[]).includes(segment));
}

/**
 * Applies every `.gitignore` between the repository root and a file, deeper files overriding
 * shallower ones, the way git does for the common cases (patterns, negations, directory rules).
 */
class GitignoreRules {
  readonly #root: string;
  readonly #byDirectory = new Map<string, Ignore | undefined>();

  constructor(root: string) {
    this.#root = root;
  }

  #rulesIn(dir: string): Ignore | undefined {
    if (!this.#byDirectory.has(dir)) {
      const file = path.join(dir, '.gitignore');
      this.#byDirectory.set(dir, existsSync(file) ? ignore().add(readFileSync(file, 'utf8')) : undefined);
    }
    return this.#byDirectory.get(dir);
  }

  ignores(file: string): boolean {
    const relativeToRoot = path.relative(this.#root, file);
    if (relativeToRoot.startsWith('..')) return false;
    let ignored = false;
    let dir = this.#root;
    for (const segment of [
      '',
      ...path
        .dirname(relativeToRoot)
        .split(path.sep)
        .filter((s) => s !== '.'),
    ]) {
      dir = path.join(dir, segment);
      const rules = this.#rulesIn(dir);
      if (rules === undefined) continue;
      const verdict = rules.test(path.relative(dir, file).split(path.sep).join('/'));
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}

/**
 * A directory named on the command line must be listable: the glob passes over one it cannot read,
 * which would make the run report "0 files" and pass.
 */
function assertReadableDirectory(pattern: string, directory: string): void {
  try {
    opendirSync(directory).closeSync();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${pattern}: cannot read this directory (${reason})`);
  }
}

/**
 * Finds the source files to check or migrate. Directories and globs skip dependencies, build
 * output, declaration files, whatever `.gitignore` excludes, anything but regular files (the glob
 * lists no FIFOs, sockets or devices), and files larger than 1 MiB (listed in `large`, so the
 * caller can say which). A file named explicitly is taken
 * unless `--ignore` matches it or directory discovery would have skipped it: those are returned
 * as `skipped`, with the reason, so the caller can say so without ending the run. A path that
 * does not exist, a directory that cannot be read or a glob that matches nothing is a usage error.
 */
export async function discoverFiles(options: DiscoverOptions): Promise<DiscoveredFiles> {
  const { cwd } = options;
  const patterns = options.patterns.length > 0 ? options.patterns : ['.'];
  const userIgnore = ignore().add([...(options.ignore ?? [])]);
  const userIgnores = (file: string) => {
    const relative = path.relative(cwd, file).split(path.sep).join('/');
    return !relative.startsWith('..') && relative !== '' && userIgnore.ignores(relative);
  };
  // Targets elsewhere (another checkout) obey the .gitignore files of their own repository.
  const cwdRoot = findRepositoryRoot(cwd) ?? cwd;
  const gitignores = new Map<string, GitignoreRules>();
  const gitignoreOf = (target: string): GitignoreRules => {
    const root = isInside(cwd, target) ? cwdRoot : (findRepositoryRoot(target) ?? target);
    let rules = gitignores.get(root);
    if (rules === undefined) {
      rules = new GitignoreRules(root);
      gitignores.set(root, rules);
    }
    return rules;
  };
  const skippedDirectories = SKIPPED_DIRECTORIES.map((dir) => `**/${dir}/**`);

  const found = new Set<string>();
  const emptyDirectories: string[] = [];
  const skipped: SkippedFile[] = [];
  const skipReason = (file: string): SkipReason | undefined => {
    // Reading a FIFO waits for a writer and a device may never end: the run would hang.
    if (!statSync(file).isFile()) return 'not a regular file';
    if (!hasSourceExtension(file)) return 'not a source file';
    if (DECLARATION_FILE.test(file)) return 'declaration file';
    // Only directories below the working directory, or below the repository of a file elsewhere.
    const base = isInside(cwd, file) ? cwd : (findRepositoryRoot(path.dirname(file)) ?? path.dirname(file));
    if (inSkippedDirectory(file, base)) return 'dependency or build output';
    if (gitignoreOf(path.dirname(file)).ignores(file)) return 'ignored';
    if (isLarge(file)) return 'larger than 1 MiB';
    return undefined;
  };
  const large: string[] = [];
  const walk = async (globPatterns: string[], base: string) => {
    const gitignore = gitignoreOf(base);
    return (
      await glob(globPatterns, {
        cwd: base,
        absolute: true,
        dot: true,
        ignore: skippedDirectories,
        followSymbolicLinks: false,
      })
    )
      .map((file) => path.normalize(file))
      .filter((file) => isSourceFile(file) && !gitignore.ignores(file) && !userIgnores(file))
      .filter((file) => {
        if (!isLarge(file)) return true;
        large.push(file);
        return false;
      });
  };

  for (const pattern of patterns) {
    const target = path.resolve(cwd, pattern);
    if (existsSync(target)) {
      if (statSync(target).isDirectory()) {
        assertReadableDirectory(pattern, target);
        const files = await walk([SOURCE_GLOB], target);
        if (files.length === 0) emptyDirectories.push(target);
        files.forEach((file) => found.add(file));
      } else if (!userIgnores(target)) {
        const reason = skipReason(target);
        if (reason === undefined) found.add(target);
        else skipped.push({ file: target, reason });
      }
    } else if (isDynamicPattern(pattern)) {
      const files = await walk([pattern], cwd);
      if (files.length === 0) throw new UsageError(`${pattern}: no source files match this pattern`);
      files.forEach((file) => found.add(file));
    } else {
      throw new UsageError(`${pattern}: no such file or directory`);
    }
  }
  return { files: [...found].sort(), emptyDirectories, skipped, large: [...new Set(large)].sort() };
}
