import path from 'node:path';
import { findNearestTsconfig } from '@mcp-mrtr/codemod';
import ts from 'typescript';

/** The first error in a tsconfig.json's text, with its line and column, or undefined when it parses. */
function firstParseError(tsconfig: string): string | undefined {
  const { error } = ts.readConfigFile(tsconfig, (file) => ts.sys.readFile(file));
  if (error === undefined) return undefined;
  const message = ts.flattenDiagnosticMessageText(error.messageText, ' ').replace(/\.$/, '');
  if (error.file === undefined || error.start === undefined) return message;
  const { line, character } = ts.getLineAndCharacterOfPosition(error.file, error.start);
  return `${line + 1}:${character + 1} ${message}`;
}

/**
 * One line for each tsconfig.json the files take their settings from that does not parse. TypeScript
 * then goes on with whatever it could read of the file, so types and file lists may silently
 * differ from what the project means; a broken tsconfig deserves to be named.
 */
export function describeBrokenTsconfigs(files: readonly string[], cwd: string): string[] {
  const cache = new Map<string, string | undefined>();
  const tsconfigs = new Set<string>();
  for (const file of files) {
    const tsconfig = findNearestTsconfig(file, cache);
    if (tsconfig !== undefined) tsconfigs.add(tsconfig);
  }
  return [...tsconfigs].sort().flatMap((tsconfig) => {
    const error = firstParseError(tsconfig);
    if (error === undefined) return [];
    const name = path.relative(cwd, tsconfig) || tsconfig;
    return [`${name} does not parse (${error}); TypeScript goes on with what it could read of it`];
  });
}
