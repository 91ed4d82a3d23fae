import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** A formatter the target project configured and installed, ready to format one of its files. */
export interface ProjectFormatter {
  readonly name: 'Prettier' | 'Biome';
  /** Whether `text` is already laid out as the formatter would lay it out. */
  isFormatted(text: string): Promise<boolean>;
  /** The whole text formatted. */
  format(text: string): Promise<string>;
  /** The text with `[start, end)` formatted (widened by the formatter to whole statements); undefined when it cannot format ranges. */
  formatRange?(text: string, start: number, end: number): Promise<string>;
}

const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  '.prettierrc.cts',
  '.prettierrc.mts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
  'prettier.config.cts',
  'prettier.config.mts',
];

const BIOME_CONFIGS = ['biome.json', 'biome.jsonc'];

/** Which formatter the nearest configuration names, and where: a config file or a package.json key. */
function nearestConfig(file: string): { tool: 'prettier' | 'biome'; dir: string } | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (PRETTIER_CONFIGS.some((name) => existsSync(path.join(dir, name)))) return { tool: 'prettier', dir };
    if (BIOME_CONFIGS.some((name) => existsSync(path.join(dir, name)))) return { tool: 'biome', dir };
    if (packageJsonHasKey(path.join(dir, 'package.json'), 'prettier')) return { tool: 'prettier', dir };
    if (path.dirname(dir) === dir) return undefined;
  }
}

function packageJsonHasKey(file: string, key: string): boolean {
  try {
    const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof manifest === 'object' && manifest !== null && key in manifest;
  } catch {
    return false;
  }
}

/** The project's formatter could not be loaded or configured. */
export class FormatterLoadError extends Error {
  override readonly name = 'FormatterLoadError';
  constructor(
    readonly formatter: ProjectFormatter['name'],
    error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Resolves a package as the target file's own code would: from its directory, never from ours. */
function resolveFrom(file: string, specifier: string): string | undefined {
  try {
    return createRequire(file).resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The subset of Prettier's API (2 and 3) used here; version 2 answers synchronously. */
interface PrettierApi {
  format(text: string, options: object): string | Promise<string>;
  check(text: string, options: object): boolean | Promise<boolean>;
  resolveConfig(file: string, options?: object): object | null | Promise<object | null>;
  getFileInfo(file: string, options?: object): { ignored: boolean } | Promise<{ ignored: boolean }>;
}

async function loadPrettier(
  file: string,
  entry: string,
  configDir: string,
): Promise<ProjectFormatter | undefined> {
  const loaded = (await import(pathToFileURL(entry).href)) as PrettierApi & { default?: PrettierApi };
  const prettier = typeof loaded.format === 'function' ? loaded : loaded.default!;
  const ignorePath = path.join(configDir, '.prettierignore');
  const info = await prettier.getFileInfo(file, existsSync(ignorePath) ? { ignorePath } : {});
  if (info.ignored) return undefined;
  const options = { ...(await prettier.resolveConfig(file, { editorconfig: true })), filepath: file };
  return {
    name: 'Prettier',
    isFormatted: async (text) => await prettier.check(text, options),
    format: async (text) => await prettier.format(text, options),
    formatRange: async (text, rangeStart, rangeEnd) =>
      await prettier.format(text, { ...options, rangeStart, rangeEnd }),
  };
}

/** The first diagnostic of Biome's report (`× Expected …`), with where it is when Biome says so. */
function biomeMessage(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((line) => line.trim());
  const where = lines.find((line) => line !== '')?.split(' ')[0];
  const what = lines.find((line) => /^[×✖!]/u.test(line))?.replace(/^[×✖!]\s*/u, '');
  if (what === undefined) return where;
  return where === undefined ? what : `${where}: ${what}`;
}

/** Biome through its own CLI (`biome format --stdin-file-path`), which formats whole files only. */
function loadBiome(file: string, manifest: string, configDir: string): ProjectFormatter {
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
  const relative = typeof bin === 'string' ? bin : (bin?.['biome'] ?? 'bin/biome');
  const binary = path.join(path.dirname(manifest), relative);
  const run = (text: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = execFile(
        process.execPath,
        [binary, 'format', `--stdin-file-path=${file}`],
        { cwd: configDir, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(biomeMessage(stderr) ?? error.message));
          else resolve(stdout);
        },
      );
      child.stdin?.end(text);
    });
  return {
    name: 'Biome',
    isFormatted: async (text) => (await run(text)) === text,
    format: run,
  };
}

/**
 * The formatter the project of `file` configured (a Prettier or Biome config file, or a
 * `prettier` key in package.json, the nearest one winning) and installed where the file's own
 * imports would find it. Undefined when there is none, or when Prettier's ignore file lists the
 * file. Throws `FormatterLoadError` when the formatter is there but cannot be loaded or configured.
 */
export async function projectFormatter(file: string): Promise<ProjectFormatter | undefined> {
  const config = nearestConfig(file);
  if (config === undefined) return undefined;
  if (config.tool === 'prettier') {
    const entry = resolveFrom(file, 'prettier');
    if (entry === undefined) return undefined;
    try {
      return await loadPrettier(file, entry, config.dir);
    } catch (error) {
      throw new FormatterLoadError('Prettier', error);
    }
  }
  const manifest = resolveFrom(file, '@biomejs/biome/package.json');
  if (manifest === undefined) return undefined;
  try {
    return loadBiome(file, manifest, config.dir);
  } catch (error) {
    throw new FormatterLoadError('Biome', error);
  }
}
