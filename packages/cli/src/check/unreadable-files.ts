import { readFileSync } from 'node:fs';
import type { ESLint } from 'eslint';

/** Why a file cannot be read, or undefined when it can. */
export function readError(file: string): string | undefined {
  try {
    readFileSync(file);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** An error result for a file that could not be read, as ESLint reports a file it could not parse. */
export function unreadableResult(filePath: string, reason: string): ESLint.LintResult {
  return {
    filePath,
    messages: [
      {
        ruleId: null,
        fatal: true,
        severity: 2,
        message: `could not read the file: ${reason}`,
        line: 0,
        column: 0,
      },
    ],
    suppressedMessages: [],
    errorCount: 1,
    fatalErrorCount: 1,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    usedDeprecatedRules: [],
  };
}

/**
 * Lints the files, reporting each one that cannot be read as an error instead of ending the run.
 * ESLint stops at the first file it cannot read, and its error does not always name the file (a
 * read that fails with EIO does not). So only when linting fails are the files read one by one;
 * the unreadable ones become error results and the others are linted again. A failure with every
 * file readable is not about reading and is rethrown.
 */
export async function lintReadableFiles(
  eslint: ESLint,
  files: readonly string[],
): Promise<ESLint.LintResult[]> {
  if (files.length === 0) return [];
  try {
    return await eslint.lintFiles([...files]);
  } catch (error) {
    const unreadable = new Map<string, string>();
    for (const file of files) {
      const reason = readError(file);
      if (reason !== undefined) unreadable.set(file, reason);
    }
    if (unreadable.size === 0) throw error;
    const linted = await lintReadableFiles(
      eslint,
      files.filter((file) => !unreadable.has(file)),
    );
    const order = new Map(files.map((file, index) => [file, index]));
    const position = (result: ESLint.LintResult) => order.get(result.filePath) ?? files.length;
    return [...linted, ...[...unreadable].map(([file, reason]) => unreadableResult(file, reason))].sort(
      (a, b) => position(a) - position(b),
    );
  }
}
