import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import type { Log } from '../io.js';
import { engineOptions, type EngineSettings } from './engine-options.js';
import { lintWithOxlint } from './oxlint.js';
import { lintReadableFiles } from './unreadable-files.js';

/** What lints the files: ESLint, or oxlint's JS-plugin host (untyped, no cache or ESLint threads). */
export type Engine = 'eslint' | 'oxlint';

export interface LintOptions extends EngineSettings {
  readonly engine: Engine;
  readonly log: Log;
}

/** typescript-eslint's project service could not place the file in any tsconfig.json. */
const NOT_IN_A_PROJECT = /was not found by the project service|not included in|could not find a tsconfig/i;

/**
 * ESLint's worker threads cannot receive plugin objects, so they import their options from a module
 * (as ESLint's own CLI does): a data: URL that calls the built `engineOptions` with these settings.
 */
function optionsModule(settings: EngineSettings): URL {
  const engineModule = pathToFileURL(createRequire(import.meta.url).resolve('@mcp-mrtr/cli/engine-options'));
  const source =
    `import { engineOptions } from ${JSON.stringify(engineModule.href)};\n` +
    `export default engineOptions(${JSON.stringify(settings)});\n`;
  return new URL(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
}

async function engineFor(settings: EngineSettings): Promise<ESLint> {
  return settings.concurrency === 'off'
    ? new ESLint(engineOptions(settings))
    : ESLint.fromOptionsModule(optionsModule(settings));
}

export interface LintRun {
  readonly results: ESLint.LintResult[];
  /** The engine that linted every file; formatters and rule metadata come from it. */
  readonly eslint: ESLint;
}

/**
 * Lints the files; one that cannot be read is an error result, not the end of the run. With `typeAware`, files no tsconfig.json includes are linted again without type
 * information rather than failing, and the log says which.
 */
export async function lintFiles(files: readonly string[], options: LintOptions): Promise<LintRun> {
  const { log, engine, ...settings } = options;
  if (engine === 'oxlint') {
    // ESLint lints nothing here; reports take the rules' metadata and the formatters from it.
    const eslint = new ESLint(engineOptions({ ...settings, concurrency: 'off' }));
    return { results: await lintWithOxlint(files, settings.cwd), eslint };
  }
  const eslint = await engineFor(settings);
  const results = await lintReadableFiles(eslint, files);
  if (!settings.typeAware) return { results, eslint };

  const outside = results.filter((result) =>
    result.messages.some((message) => message.fatal === true && NOT_IN_A_PROJECT.test(message.message)),
  );
  if (outside.length === 0) return { results, eslint };
  log.info(
    `mcp-mrtr check: ${outside.length} ${outside.length === 1 ? 'file is' : 'files are'} in no tsconfig.json; checked without type information`,
  );
  const untyped = await engineFor({ ...settings, typeAware: false, concurrency: 'off' });
  const retried = await untyped.lintFiles(outside.map((result) => result.filePath));
  const byPath = new Map(retried.map((result) => [result.filePath, result]));
  return { results: results.map((result) => byPath.get(result.filePath) ?? result), eslint };
}
