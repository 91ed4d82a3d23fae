import { FILES, plugin } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';

/** What `check` configures in ESLint; plain data, so worker threads can rebuild the same options. */
export interface EngineSettings {
  /** The directory paths are reported relative to; also where tsconfig lookup starts from. */
  readonly cwd: string;
  /** Resolve receivers with type information from each file's nearest tsconfig.json. */
  readonly typeAware: boolean;
  /** ESLint's multithreaded linting: a number of worker threads, `auto`, or `off`. */
  readonly concurrency: number | 'auto' | 'off';
  /** ESLint's cache file (content strategy), or undefined for no cache. */
  readonly cacheLocation?: string | undefined;
}

/**
 * Every rule of the plugin, on our own config only: the target's eslint.config.* is never loaded,
 * so `check` works the same in a repository with no ESLint setup (or a broken one).
 */
export function engineOptions(settings: EngineSettings): ESLint.Options {
  const overrideConfig: Linter.Config[] = [
    ...plugin.configs.all,
    // A project's disable comments name rules of its own setup, which `check` does not run: every
    // one of them would be reported unused. `withoutOtherRules` drops the rest of what they cause.
    { name: 'mcp-mrtr/check-directives', linterOptions: { reportUnusedDisableDirectives: 'off' } },
  ];
  if (settings.typeAware) {
    overrideConfig.push({
      name: 'mcp-mrtr/check-type-aware',
      files: FILES,
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: settings.cwd } },
    });
  }
  return {
    cwd: settings.cwd,
    overrideConfigFile: true,
    overrideConfig,
    // File discovery already applied .gitignore, --ignore and the skipped directories.
    ignore: false,
    errorOnUnmatchedPattern: false,
    concurrency: settings.concurrency,
    ...(settings.cacheLocation === undefined
      ? { cache: false }
      : { cache: true, cacheLocation: settings.cacheLocation, cacheStrategy: 'content' as const }),
  };
}
