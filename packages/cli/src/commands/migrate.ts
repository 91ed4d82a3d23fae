import { plural } from '../plural.js';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  buildReport,
  describeFormatFailure,
  findStrayTemporaryFiles,
  formatChangedFiles,
  findUnresolvedSdkPackages,
  formatMarkdownReport,
  planMigration,
  selectTransforms,
  UnknownTransformError,
  unifiedDiff,
  writeChanges,
  type HandlerOptions,
  type LoggingTarget,
  type MigrationReport,
  type RunMode,
} from '@mcp-mrtr/codemod';
import { discoverFiles } from '../discover-files.js';
import { describeBrokenTsconfigs } from '../tsconfig-errors.js';
import { runRoot } from '../run-root.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { createLog, type CliIo } from '../io.js';
import { colorsFor } from '../migrate/colors.js';
import { colorDiff, formatRemainingWork, formatSummaryTable } from '../migrate/format-output.js';
import { uncommittedFiles } from '../migrate/git-status.js';
import { createProgressReporter } from '../migrate/progress.js';
import {
  describeLarge,
  describeScope,
  describeSkipped,
  listFiles,
  type CommonOptions,
} from './common-options.js';

export interface MigrateOptions extends CommonOptions {
  /** Write the changes; without it the command is a dry run. */
  readonly write: boolean;
  /** Exit 1 if anything would change (for CI). */
  readonly check: boolean;
  /** Write even when files to change have uncommitted changes. */
  readonly force?: boolean;
  /** Also write the report to this file: JSON (`.json`) or Markdown (`.md`). */
  readonly report?: string;
  readonly logging?: LoggingTarget;
  /** How push questions in handlers are rewritten. */
  readonly style?: HandlerOptions['style'];
  readonly sampling?: HandlerOptions['sampling'];
  readonly roots?: HandlerOptions['roots'];
  readonly depth?: number;
  /** Run only these transforms. */
  readonly transform?: readonly string[];
  /** Go on when the SDK does not resolve, taking receivers that syntax shows to be the SDK's. */
  readonly allowUnresolved?: boolean;
  /** Format the changed files with the project's own formatter (`--no-format`: false). */
  readonly format?: boolean;
}

type ReportFormat = 'json' | 'markdown';

function reportFormat(file: string): ReportFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.json') return 'json';
  if (extension === '.md' || extension === '.markdown') return 'markdown';
  throw new UsageError(`--report ${file}: the file name must end in .json or .md`);
}

function validate(options: MigrateOptions): { mode: RunMode; format: ReportFormat | undefined } {
  if (options.write && options.check)
    throw new UsageError('--write and --check exclude each other: --check never writes');
  if (options.force === true && !options.write)
    throw new UsageError(
      '--force only applies with --write: a dry run writes nothing, so there is nothing to force',
    );
  try {
    selectTransforms(options.transform);
  } catch (error) {
    if (error instanceof UnknownTransformError) throw new UsageError(`--transform: ${error.message}`);
    throw error;
  }
  return {
    mode: options.write ? 'write' : options.check ? 'check' : 'dry-run',
    format: options.report === undefined ? undefined : reportFormat(options.report),
  };
}

function writeReport(file: string, format: ReportFormat, report: MigrationReport): void {
  const text = format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatMarkdownReport(report);
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw new UsageError(`--report: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Says, before anything else and even with --quiet, which MCP SDK packages the files import but
 * cannot find: without them every SDK receiver is `any` and every site would be left by hand for
 * a reason that is one install step away. `--check` and `--write` stop there (exit 2) unless
 * `--allow-unresolved`.
 */
function preflightSdk(files: readonly string[], mode: RunMode, options: MigrateOptions, io: CliIo): void {
  const unresolved = findUnresolvedSdkPackages(files);
  const relative = (file: string) => path.relative(io.cwd, file) || '.';
  for (const sdk of unresolved) {
    const [first, ...others] = sdk.importedBy;
    const more = others.length > 0 ? ` and ${plural(others.length, 'more file')}` : '';
    io.stderr.write(
      `mcp-mrtr migrate: ${sdk.name} (imported by ${relative(first!)}${more}) does not resolve from ${relative(sdk.from)}; run npm install first\n`,
    );
  }
  if (unresolved.length > 0 && mode !== 'dry-run' && options.allowUnresolved !== true)
    throw new UsageError(
      `--${mode} stops here: install the dependencies, or pass --allow-unresolved to rewrite only what syntax shows is the SDK (new Server(…) imported from it)`,
    );
}

/**
 * Removes what a `--write` killed while writing left beside the files (staged new text, copies of
 * old text), saying so even with --quiet: files disappear.
 */
async function removeStrayTemporaryFiles(files: readonly string[], io: CliIo): Promise<void> {
  const stray = await findStrayTemporaryFiles(files);
  if (stray.length === 0) return;
  await Promise.all(stray.map((file) => rm(file, { force: true })));
  io.stderr.write(
    `mcp-mrtr migrate: removed ${plural(stray.length, 'temporary file')} that an interrupted --write left: ${listFiles(stray, io.cwd)}\n`,
  );
}

/**
 * `mcp-mrtr migrate`: rewrite old-style MCP code. A dry run prints the unified diff; `--write`
 * applies it (refusing files with uncommitted changes unless `--force`); `--check` fails when
 * anything would change. What is left to do goes to stdout and, with `--report`, to a file.
 */
export async function runMigrate(
  patterns: readonly string[],
  options: MigrateOptions,
  io: CliIo,
): Promise<ExitCode> {
  const { mode, format } = validate(options);
  const log = createLog(io, options.quiet);
  const discovered = await discoverFiles({ patterns, cwd: io.cwd, ignore: options.ignore });
  preflightSdk(discovered.files, mode, options, io);
  const transformIds = selectTransforms(options.transform).map((transform) => transform.id);
  for (const line of [describeSkipped(discovered), describeLarge(discovered, io.cwd)]) {
    if (line !== undefined) log.info(`mcp-mrtr migrate: ${line}`);
  }
  log.info(`mcp-mrtr migrate: ${describeScope(discovered, io.cwd)}, transforms: ${transformIds.join(', ')}`);
  for (const line of describeBrokenTsconfigs(discovered.files, io.cwd))
    io.stderr.write(`mcp-mrtr migrate: ${line}\n`);
  if (mode === 'write') await removeStrayTemporaryFiles(discovered.files, io);

  const root = runRoot(io.cwd, discovered.files);
  const progress = createProgressReporter(io, options.quiet);
  let result = await planMigration({
    files: discovered.files,
    cwd: root,
    transforms: options.transform,
    logging: options.logging ?? 'stderr',
    handlers: {
      ...(options.style && { style: options.style }),
      ...(options.sampling && { sampling: options.sampling }),
      ...(options.roots && { roots: options.roots }),
      ...(options.depth !== undefined && { depth: options.depth }),
    },
    allowUnresolved: options.allowUnresolved ?? false,
    onProgress: progress.listener,
  });
  if (options.format !== false)
    result = await formatChangedFiles(result, (failure) =>
      io.stderr.write(`mcp-mrtr migrate: ${describeFormatFailure(failure, root)}\n`),
    );

  if (mode === 'write') {
    const changed = result.files.filter((file) => file.status === 'changed').map((file) => file.file);
    const dirty = options.force ? [] : await uncommittedFiles(changed, root);
    if (dirty === undefined) {
      progress.stop();
      log.info(
        'mcp-mrtr migrate: these files are not in a git work tree, so nothing can undo the changes but a backup',
      );
    } else if (dirty.length > 0) {
      progress.stop();
      const listed = dirty.map((file) => path.relative(root, file)).join(', ');
      throw new UsageError(
        `refusing to write: ${listed} ${dirty.length === 1 ? 'has' : 'have'} uncommitted changes; commit or stash them first, or pass --force`,
      );
    }
    result = await writeChanges(result, progress.listener, root);
  }
  progress.stop();

  const report = buildReport(result, mode, root);
  const colors = colorsFor(io.stdout, io.env);
  for (const file of result.files) {
    if (file.status !== 'changed') continue;
    if (mode === 'write') io.stdout.write(`${colors.green('migrated')} ${path.relative(root, file.file)}\n`);
    else io.stdout.write(colorDiff(unifiedDiff(file, root), colors));
  }
  const remaining = formatRemainingWork(report, colors);
  if (remaining !== '') io.stdout.write(`${report.summary.changed > 0 ? '\n' : ''}${remaining}`);
  if (report.summary.changed === 0 && remaining === '') io.stdout.write('Nothing to migrate.\n');
  if (options.report !== undefined && format !== undefined)
    writeReport(path.resolve(io.cwd, options.report), format, report);
  if (!options.quiet) io.stderr.write(formatSummaryTable(report));

  const { summary } = report;
  const upgrades = report.install.some((advice) => advice.upgrades.length > 0);
  const workLeft = summary.manual > 0 || summary.failed > 0 || summary.missingDependencies > 0 || upgrades;
  if (workLeft || (mode === 'check' && summary.changed > 0)) return ExitCode.Findings;
  return ExitCode.Ok;
}
