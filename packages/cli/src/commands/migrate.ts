import { transforms } from '@mcp-mrtr/codemod';
import { discoverFiles } from '../discover-files.js';
import { ExitCode } from '../exit-codes.js';
import { createLog, type CliIo } from '../io.js';
import { describeScope, type CommonOptions } from './common-options.js';

export interface MigrateOptions extends CommonOptions {
  /** Write the changes; without it the command is a dry run. */
  readonly write: boolean;
  /** Exit 1 if anything would change (for CI). */
  readonly check: boolean;
}

/** `mcp-mrtr migrate`: rewrite old-style handlers into MRTR form (dry run unless `--write`). */
export async function runMigrate(
  patterns: readonly string[],
  options: MigrateOptions,
  io: CliIo,
): Promise<ExitCode> {
  const log = createLog(io, options.quiet);
  const discovered = await discoverFiles({ patterns, cwd: io.cwd, ignore: options.ignore });
  log.info(`mcp-mrtr migrate: ${describeScope(discovered, io.cwd)}, ${transforms.length} transforms`);

  io.stdout.write(
    `No transforms are available yet: found ${discovered.files.length} files, changed nothing.\n`,
  );
  return ExitCode.Ok;
}
