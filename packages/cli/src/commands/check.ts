import path from 'node:path';
import { rules } from '@mcp-mrtr/eslint-plugin';
import { formatResults, type CheckFormat } from '../check/formats.js';
import { lintFiles } from '../check/lint.js';
import { applyMessageSeverities } from '../check/severity.js';
import { writeOutputAtomically } from '../check/write-output.js';
import { discoverFiles } from '../discover-files.js';
import { ExitCode } from '../exit-codes.js';
import { createLog, type CliIo } from '../io.js';
import { VERSION } from '../version.js';
import { describeScope, describeSkipped, type CommonOptions } from './common-options.js';

export interface CheckOptions extends CommonOptions {
  /** Resolve receivers with type information from the target's tsconfig.json files. */
  readonly typeAware: boolean;
  readonly format: CheckFormat;
  /** Write the report here instead of stdout. */
  readonly output?: string | undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `mcp-mrtr check`: report old-style and unsafe MCP code without changing anything. */
export async function runCheck(
  patterns: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<ExitCode> {
  const log = createLog(io, options.quiet);
  const discovered = await discoverFiles({ patterns, cwd: io.cwd, ignore: options.ignore });
  const ruleCount = Object.keys(rules).length;
  const skipped = describeSkipped(discovered);
  if (skipped !== undefined) log.info(`mcp-mrtr check: ${skipped}`);
  log.info(
    `mcp-mrtr check: ${describeScope(discovered, io.cwd)}, ${ruleCount} rules${options.typeAware ? ', type-aware' : ''}`,
  );

  const run = await lintFiles(discovered.files, { cwd: io.cwd, typeAware: options.typeAware, log });
  const results = applyMessageSeverities(run.results);
  const report = await formatResults(
    options.format,
    results,
    { cwd: io.cwd, toolVersion: VERSION },
    run.eslint,
    options.output === undefined && io.stdout.isTTY === true && io.env.NO_COLOR === undefined,
  );

  if (options.output === undefined) {
    io.stdout.write(report);
  } else {
    const file = path.resolve(io.cwd, options.output);
    await writeOutputAtomically(file, report);
    log.info(`mcp-mrtr check: wrote the ${options.format} report to ${path.relative(io.cwd, file) || file}`);
  }

  const errors = results.reduce((sum, result) => sum + result.errorCount, 0);
  const warnings = results.reduce((sum, result) => sum + result.warningCount, 0);
  const files = results.filter((result) => result.messages.length > 0).length;
  log.info(
    errors + warnings === 0
      ? `mcp-mrtr check: no problems in ${plural(results.length, 'file')}`
      : `mcp-mrtr check: ${plural(errors, 'error')} and ${plural(warnings, 'warning')} in ${plural(files, 'file')}`,
  );
  return errors > 0 ? ExitCode.Findings : ExitCode.Ok;
}
