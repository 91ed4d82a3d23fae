import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { ESLint } from 'eslint';
import { listFiles } from '../commands/common-options.js';
import { plural } from '../plural.js';

/** A file's bytes; none when it is gone since ESLint read it (its parse error then stands). */
function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.from('');
  }
}

/** The lint results of text files, and the files left out as binary data. */
export interface TextResults {
  readonly results: ESLint.LintResult[];
  /** Absolute paths, in the order they were linted. */
  readonly binary: readonly string[];
}

/**
 * Leaves out the files whose bytes are not UTF-8 text: binary data under a source name, such as an
 * MPEG transport stream segment (`.ts`), which the parser can only refuse, failing the run over a
 * file nobody wrote. `migrate` leaves the same files out. Only files the parser refused are read
 * again, so a run without a parse error reads nothing more than ESLint did.
 */
export function withoutBinaryFiles(results: readonly ESLint.LintResult[]): TextResults {
  const binary: string[] = [];
  const text = results.filter((result) => {
    if (!result.messages.some((message) => message.fatal === true)) return true;
    if (isUtf8(readBytes(result.filePath))) return true;
    binary.push(result.filePath);
    return false;
  });
  return { results: text, binary };
}

/** One line naming the binary files left out, or undefined when there were none. */
export function describeBinary(binary: readonly string[], cwd: string): string | undefined {
  if (binary.length === 0) return undefined;
  return `left out ${plural(binary.length, 'file')} that ${binary.length === 1 ? 'is' : 'are'} not UTF-8 text, taken for binary data: ${listFiles(binary, cwd)}`;
}
