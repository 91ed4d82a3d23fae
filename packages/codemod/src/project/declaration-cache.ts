import { statSync } from 'node:fs';
import path from 'node:path';
import { getLibFiles } from '@ts-morph/common';
import { ts } from 'ts-morph';

interface CachedFile {
  readonly sourceFile: ts.SourceFile;
  readonly mtimeMs: number;
}

/** Declaration files kept across programs; enough for TypeScript's libs and a large dependency tree. */
const MAX_CACHED_FILES = 4000;
const cache = new Map<string, CachedFile>();

/**
 * TypeScript's own lib files. ts-morph bundles TypeScript 6 with its libs embedded rather than on
 * disk, so the host serves them from memory at the path TypeScript asks for.
 */
const libTexts = new Map(getLibFiles().map((lib) => [lib.fileName, lib.text]));
const libCache = new Map<string, ts.SourceFile>();

function libText(fileName: string, libDirectory: string): string | undefined {
  return path.dirname(fileName) === libDirectory ? libTexts.get(path.basename(fileName)) : undefined;
}

function isSharedDeclaration(fileName: string): boolean {
  return (
    /\.d\.[cm]?ts$/.test(fileName) &&
    (/[\\/]node_modules[\\/]/.test(fileName) || /[\\/]lib\.[^\\/]*\.d\.ts$/.test(fileName))
  );
}

function modificationTime(fileName: string): number {
  try {
    return statSync(fileName).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * A compiler host that parses each dependency declaration file (TypeScript's libs, `node_modules`
 * types) once per process and hands the same parsed file to every program that needs it, the way
 * the language service's document registry does. Projects of one repository then share their
 * SDK, Node and lib types instead of parsing them again; the project's own files come from
 * `sources` (the text the engine read) and are never cached.
 */
export function createCachingCompilerHost(
  options: ts.CompilerOptions,
  sources: ReadonlyMap<string, string>,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const libDirectory = path.dirname(ts.getDefaultLibFilePath(options));
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const own = sources.get(fileName);
    if (own !== undefined) return ts.createSourceFile(fileName, own, languageVersionOrOptions, true);
    const lib = libText(fileName, libDirectory);
    if (lib !== undefined) {
      let libFile = libCache.get(fileName);
      if (libFile === undefined) {
        libFile = ts.createSourceFile(fileName, lib, languageVersionOrOptions, true);
        libCache.set(fileName, libFile);
      }
      return libFile;
    }
    if (!isSharedDeclaration(fileName))
      return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    const format =
      typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions.impliedNodeFormat : undefined;
    const key = `${fileName}\0${format ?? ''}`;
    const mtimeMs = modificationTime(fileName);
    const cached = cache.get(key);
    if (cached !== undefined && cached.mtimeMs === mtimeMs) return cached.sourceFile;
    const sourceFile = parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (sourceFile !== undefined) {
      if (cache.size >= MAX_CACHED_FILES) cache.delete(cache.keys().next().value!);
      cache.set(key, { sourceFile, mtimeMs });
    }
    return sourceFile;
  };
  host.fileExists = (fileName) =>
    sources.has(fileName) || libText(fileName, libDirectory) !== undefined || ts.sys.fileExists(fileName);
  host.readFile = (fileName) =>
    sources.get(fileName) ?? libText(fileName, libDirectory) ?? ts.sys.readFile(fileName);
  return host;
}
