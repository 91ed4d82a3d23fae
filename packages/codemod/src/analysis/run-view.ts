import type { ts } from 'ts-morph';
import type { PackageApi } from '../project/package-api.js';
import type { FileContext } from './file-context.js';

/**
 * What a transform sees of the rest of the run while it analyses one file: the other files of
 * the same program, which of them it may write, and a way to bring one into the analysis so that
 * its side of a cross-file rewrite is planned too.
 */
export interface RunView {
  /**
   * The program's own source files (no declaration files): the run's candidates, the files they
   * import, and the project's files that import a candidate.
   */
  readonly sourceFiles: readonly ts.SourceFile[];
  /** Whether the run may write the file: the user's paths and globs include it. */
  mayWrite(file: string): boolean;
  /**
   * What the package holding the file publishes, its entry points traced to the program's source
   * files: whether code outside the project can import one of its exports.
   */
  packageApi(file: string): PackageApi;
  /**
   * A file of the project outside the program that names one of `names` and imports the project's
   * files by a path that is not relative, so that a call there could not be followed.
   */
  mentionOutsideProgram(names: ReadonlySet<string>): string | undefined;
  /** The context of a file of the program; the same object each time. */
  contextOf(sourceFile: ts.SourceFile): FileContext;
  /**
   * Has the transform analyse a file the run may write even though its prefilter did not match
   * it (a file whose handlers call a helper of this one). False when it cannot: the run does not
   * include the file, or the file belongs to another TypeScript project of the run.
   */
  relate(file: string, transform: string): boolean;
}
