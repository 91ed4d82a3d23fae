import path from 'node:path';
import { ts } from 'ts-morph';

/** Compiler settings for one shard, after the in-memory fixes the preflight applied. */
export interface ProjectConfig {
  /** Absolute path, or undefined when the files have no tsconfig and defaults apply. */
  readonly tsconfig: string | undefined;
  readonly options: ts.CompilerOptions;
  /** Every file the tsconfig includes, absolute. */
  readonly fileNames: readonly string[];
  /** What the preflight changed or found, one sentence each. */
  readonly notes: readonly string[];
}

/** Settings for files without a tsconfig: modern Node resolution, JavaScript included. */
export const DEFAULT_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  allowJs: true,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
  types: ['*'],
};

/** Options TypeScript 6 deprecates: with them, ts-morph's bundled TypeScript 6 refuses the config. */
function deprecatedSettings(options: ts.CompilerOptions): string[] {
  const found: string[] = [];
  if (options.baseUrl !== undefined) found.push('baseUrl');
  if (
    options.moduleResolution === ts.ModuleResolutionKind.Node10 ||
    options.moduleResolution === ts.ModuleResolutionKind.Classic
  )
    found.push(`moduleResolution ${ts.ModuleResolutionKind[options.moduleResolution]}`);
  if (options.target === ts.ScriptTarget.ES3 || options.target === ts.ScriptTarget.ES5)
    found.push(`target ${ts.ScriptTarget[options.target]}`);
  if (
    options.module === ts.ModuleKind.AMD ||
    options.module === ts.ModuleKind.UMD ||
    options.module === ts.ModuleKind.System ||
    options.module === ts.ModuleKind.None
  )
    found.push(`module ${ts.ModuleKind[options.module]}`);
  if (options.outFile !== undefined) found.push('outFile');
  if (options.downlevelIteration !== undefined) found.push('downlevelIteration');
  return found;
}

function describe(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
}

/**
 * Reads a tsconfig the way the codemod needs it: deprecation errors silenced in memory (the file on
 * disk is never touched), `types` widened to every installed `@types` package when the config does
 * not choose (TypeScript 6 defaults it to none, which turns Node's globals into `any`), and
 * JavaScript files allowed so that `.js` sources get types too. Every such fix is noted.
 */
export function loadProjectConfig(tsconfig: string | undefined): ProjectConfig {
  if (tsconfig === undefined) {
    return {
      tsconfig,
      options: DEFAULT_COMPILER_OPTIONS,
      fileNames: [],
      notes: ['no tsconfig.json: default settings'],
    };
  }
  const notes: string[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => notes.push(describe(diagnostic)),
    },
  );
  if (parsed === undefined) {
    return {
      tsconfig,
      options: DEFAULT_COMPILER_OPTIONS,
      fileNames: [],
      notes: [...notes, 'the tsconfig could not be read: default settings'],
    };
  }
  for (const error of parsed.errors) {
    // "No inputs were found" only means the include globs matched nothing here.
    if (error.code !== 18003) notes.push(describe(error));
  }
  const options: ts.CompilerOptions = { ...parsed.options, allowJs: true, noEmit: true };
  const deprecated = deprecatedSettings(parsed.options);
  if (deprecated.length > 0 && parsed.options.ignoreDeprecations === undefined) {
    options.ignoreDeprecations = '6.0';
    notes.push(`set ignoreDeprecations "6.0" in memory for ${deprecated.join(', ')}`);
  }
  if (parsed.options.types === undefined) {
    options.types = ['*'];
    notes.push('set types ["*"] in memory: TypeScript 6 includes no @types packages unless told to');
  }
  return {
    tsconfig,
    options,
    fileNames: parsed.fileNames.map((file) => path.resolve(file)),
    notes,
  };
}
