import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CHECK_FORMATS } from './check/formats.js';
import { parseShard } from './check/shard.js';
import { DEFAULT_SUPPRESSIONS_FILE } from './check/suppressions.js';
import { DEFAULT_CACHE_LOCATION, runCheck, type CheckOptions } from './commands/check.js';
import { DEFAULT_HANDLER_OPTIONS, transforms } from '@mcp-mrtr/codemod';
import { runMigrate, type MigrateOptions } from './commands/migrate.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { VERSION } from './version.js';

const EXIT_CODE_HELP = `
Exit codes:
  0  nothing to do, or everything done
  1  findings or manual work remain, or a file could not be processed
  2  usage error or crash`;

const MIGRATE_HELP = `
Without --write nothing is written: the unified diff goes to stdout. Sites the codemod cannot
rewrite get a "// mcp-mrtr: <rule-id> — <what to do>" comment and are listed after the diff.
--write refuses files with uncommitted changes (git) unless --force, and removes the temporary
files (.<name>.mcp-mrtr-<pid>-<random>.tmp) that a killed --write left beside the files.
Each changed file is then formatted with the formatter its project configured (a Prettier or
Biome config file, or a "prettier" key in package.json) and installed (resolved from the file's
directory): the whole file when it was already formatted before the migration, else only the
lines migrate changed (Prettier; Biome formats whole files only, so it leaves such a file alone).
The diff shows the formatted text. A formatter that fails leaves migrate's own layout, with one
line on stderr naming the file. --no-format turns this off.
`;

const PATHS_HELP = 'files, directories or globs (default: the current directory)';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseConcurrency(value: string): number | 'auto' | 'off' {
  if (value === 'auto' || value === 'off') return value;
  if (/^[1-9]\d*$/.test(value)) return Number(value);
  throw new InvalidArgumentError('give a number of worker threads, auto or off');
}

const CHECK_HELP = `
Baseline (ESLint's bulk suppressions, the same file plain eslint reads): errors counted in the
suppressions file do not fail the run; more of them in a file than counted do. Reports keep them
marked as suppressed.

--changed-since compares the work tree (committed, staged, unstaged and untracked files) with the
merge base of the ref and HEAD; exit codes then cover those files only.
`;

function depth(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new InvalidArgumentError('expected a whole number of helper calls, 0 or more');
  return parsed;
}

function commonOptions(command: Command): Command {
  return command
    .argument('[paths...]', PATHS_HELP)
    .addOption(
      new Option('--ignore <pattern>', 'skip files matching a gitignore-style pattern (repeatable)')
        .default([])
        .argParser(collect),
    )
    .option('-q, --quiet', 'print no progress on stderr', false);
}

function buildProgram(io: CliIo, setExit: (code: ExitCode) => void): Command {
  const program = new Command('mcp-mrtr')
    .description(
      'Find and rewrite MCP server code written for the stateful protocol so it runs under the stateless 2026-07-28 revision.',
    )
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run mcp-mrtr --help for usage)')
    .addHelpText(
      'after',
      `${EXIT_CODE_HELP}

Directories and globs skip node_modules, build output, declaration files, anything .gitignore
excludes, anything but regular files (FIFOs, sockets, devices), files larger than 1 MiB (bundled or generated code; stderr names them) and files that
are not UTF-8 text (a video segment named .ts; the run names them); files named one by one (as a
shell expands src/*.ts) skip the same, with one line on stderr saying how many and why. Results
go to stdout; progress and errors go to stderr.`,
    );

  commonOptions(program.command('check').description('report old-style and unsafe MCP code; changes nothing'))
    .option(
      '--type-aware',
      "resolve receivers with type information from the target's tsconfig.json files",
      false,
    )
    .addOption(
      new Option(
        '-f, --format <format>',
        "report format (json is ESLint's JSON shape, sarif is SARIF 2.1.0, github is workflow-command annotations)",
      )
        .choices(CHECK_FORMATS)
        .default('stylish'),
    )
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option(
      '--suppress-all',
      'write every error found to the suppressions file, so it no longer fails',
      false,
    )
    .addOption(
      new Option('--suppress-rule <rule>', "write this rule's errors to the suppressions file (repeatable)")
        .default([])
        .argParser(collect),
    )
    .option('--prune-suppressions', 'remove suppressions for errors that no longer occur', false)
    .option(
      '--suppressions-location <file>',
      `the suppressions file (default: ${DEFAULT_SUPPRESSIONS_FILE}, used when it exists)`,
    )
    .option(
      '--changed-since <git-ref>',
      'check only the files changed since the merge base of <git-ref> and HEAD',
    )
    .addOption(
      new Option(
        '--shard <index/count>',
        'check one of count deterministic, balanced parts of the files',
      ).argParser(parseShard),
    )
    .addOption(
      new Option('--concurrency <n|auto|off>', "ESLint's worker threads for linting")
        .default('off')
        .argParser(parseConcurrency),
    )
    .option(
      '--cache',
      "reuse ESLint's results for unchanged files (content-based; not with --type-aware)",
      false,
    )
    .option('--cache-location <file>', `where --cache keeps them (default: ${DEFAULT_CACHE_LOCATION})`)
    .addOption(
      new Option(
        '--engine <engine>',
        "lint with ESLint, or with oxlint's JS-plugin host when oxlint (1.95 or later) is installed: the same findings, faster, without --type-aware, --cache, --concurrency or suggestions",
      )
        .choices(['eslint', 'oxlint'])
        .default('eslint'),
    )
    .addHelpText('after', `${CHECK_HELP}${EXIT_CODE_HELP}`)
    .action(async (paths: string[], options: CheckOptions) => {
      setExit(await runCheck(paths, options, io));
    });

  commonOptions(
    program
      .command('migrate')
      .description('rewrite old-style MCP code for the 2026-07-28 protocol (dry run unless --write)'),
  )
    .option('--write', 'write the changes instead of printing them', false)
    .option('--check', 'exit 1 if anything would change (for CI); writes nothing', false)
    .option(
      '--force',
      'with --write: write files even when they have uncommitted changes (without --write: a usage error)',
      false,
    )
    .option('--report <file>', 'also write a report of the run: JSON (.json) or Markdown (.md)')
    .option(
      '--no-format',
      "keep migrate's own layout: do not run the project's Prettier or Biome on the changed files",
    )
    .option(
      '--allow-unresolved',
      'when the MCP SDK is not installed, rewrite receivers that syntax shows are SDK objects (new Server(…) imported from the SDK) instead of stopping --check and --write',
      false,
    )
    .addOption(
      new Option('--logging <target>', 'where migrated logging calls write')
        .choices(['stderr', 'otel'])
        .default('stderr'),
    )
    .addOption(
      new Option(
        '--style <style>',
        'how push questions in handlers are rewritten (mrtr-handlers): auto = explicit for straight-line questions with only code proven pure before them, replay otherwise; explicit = never replay, the rest stays manual; replay = always journaled replay',
      )
        .choices(['auto', 'explicit', 'replay'])
        .default('auto'),
    )
    .addOption(
      new Option('--sampling <mode>', 'sampling in handlers: MRTR sampling requests, or manual sites')
        .choices(['rewrite', 'manual'])
        .default('rewrite'),
    )
    .addOption(
      new Option('--roots <mode>', 'roots requests in handlers: MRTR roots requests, or manual sites')
        .choices(['rewrite', 'manual'])
        .default('rewrite'),
    )
    .addOption(
      new Option(
        '--depth <n>',
        'how many helper calls below a handler a question may sit (helpers in the same file, or exported ones only handlers of the run call; 0: none)',
      )
        .default(DEFAULT_HANDLER_OPTIONS.depth)
        .argParser(depth),
    )
    .addOption(
      new Option(
        '--transform <id>',
        `run only this transform (repeatable): ${transforms.map((t) => t.id).join(', ')}`,
      )
        .default([])
        .argParser(collect),
    )
    .addHelpText('after', `${MIGRATE_HELP}${EXIT_CODE_HELP}`)
    .action(async (paths: string[], options: MigrateOptions) => {
      setExit(await runMigrate(paths, options, io));
    });

  return program;
}

/** Runs the CLI and returns its exit code; never calls `process.exit`, so tests can run it in-process. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
  let exitCode: ExitCode = ExitCode.Ok;
  const program = buildProgram(io, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message; help and --version are its only exit-0 paths.
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.UsageOrCrash;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`mcp-mrtr: ${error.message}\n`);
      return ExitCode.UsageOrCrash;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`mcp-mrtr: internal error, please report it with this output:\n${detail}\n`);
    return ExitCode.UsageOrCrash;
  }
}
