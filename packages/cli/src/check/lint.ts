import { FILES, plugin } from '@mcp-mrtr/eslint-plugin';
import { ESLint, type Linter } from 'eslint';
import type { Log } from '../io.js';

export interface LintOptions {
  /** The directory paths are reported relative to; also where tsconfig lookup starts from. */
  readonly cwd: string;
  /** Resolve receivers with type information from each file's nearest tsconfig.json. */
  readonly typeAware: boolean;
  readonly log: Log;
}

/** typescript-eslint's project service could not place the file in any tsconfig.json. */
const NOT_IN_A_PROJECT = /was not found by the project service|not included in|could not find a tsconfig/i;

/**
 * Every rule of the plugin, on our own config only: the target's eslint.config.* is never loaded,
 * so `check` works the same in a repository with no ESLint setup (or a broken one).
 */
function eslintFor(cwd: string, typeAware: boolean): ESLint {
  const overrideConfig: Linter.Config[] = [...plugin.configs.all];
  if (typeAware) {
    overrideConfig.push({
      name: 'mcp-mrtr/check-type-aware',
      files: FILES,
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: cwd } },
    });
  }
  return new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig,
    // File discovery already applied .gitignore, --ignore and the skipped directories.
    ignore: false,
    errorOnUnmatchedPattern: false,
    cache: false,
  });
}

/**
 * Lints the files. With `typeAware`, files no tsconfig.json includes are linted again without type
 * information rather than failing, and the log says which.
 */
export interface LintRun {
  readonly results: ESLint.LintResult[];
  /** The engine that linted every file; formatters and rule metadata come from it. */
  readonly eslint: ESLint;
}

export async function lintFiles(files: readonly string[], options: LintOptions): Promise<LintRun> {
  const eslint = eslintFor(options.cwd, options.typeAware);
  const results = files.length === 0 ? [] : await eslint.lintFiles([...files]);
  if (!options.typeAware) return { results, eslint };

  const outside = results.filter((result) =>
    result.messages.some((message) => message.fatal === true && NOT_IN_A_PROJECT.test(message.message)),
  );
  if (outside.length === 0) return { results, eslint };
  options.log.info(
    `mcp-mrtr check: ${outside.length} ${outside.length === 1 ? 'file is' : 'files are'} in no tsconfig.json; checked without type information`,
  );
  const retried = await eslintFor(options.cwd, false).lintFiles(outside.map((result) => result.filePath));
  const byPath = new Map(retried.map((result) => [result.filePath, result]));
  return { results: results.map((result) => byPath.get(result.filePath) ?? result), eslint };
}
