import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { rules } from '@mcp-mrtr/eslint-plugin';
import { describeBinary, withoutBinaryFiles } from '../check/binary-files.js';
import { changedSince, keepChanged } from '../check/changed-since.js';
import { formatResults, type CheckFormat } from '../check/formats.js';
import { lintFiles, type Engine } from '../check/lint.js';
import { applyMessageSeverities } from '../check/severity.js';
import { shardAutomationId, shardFiles, type Shard } from '../check/shard.js';
import { withoutOtherRules } from '../check/other-rules.js';
import { pruneHint, Suppressions, type SuppressionOptions } from '../check/suppressions.js';
import { writeOutputAtomically } from '../check/write-output.js';
import { discoverFiles } from '../discover-files.js';
import { runRoot } from '../run-root.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { createLog, type CliIo } from '../io.js';
import { VERSION } from '../version.js';
import { describeLarge, describeScope, describeSkipped, type CommonOptions } from './common-options.js';
import { plural } from '../plural.js';
import { describeBrokenTsconfigs } from '../tsconfig-errors.js';

/** Where `--cache` keeps ESLint's cache unless `--cache-location` says otherwise. */
export const DEFAULT_CACHE_LOCATION = 'node_modules/.cache/mcp-mrtr/eslintcache';

export interface CheckOptions extends CommonOptions, SuppressionOptions {
  /** Resolve receivers with type information from the target's tsconfig.json files. */
  readonly typeAware: boolean;
  readonly format: CheckFormat;
  /** Write the report here instead of stdout. */
  readonly output?: string | undefined;
  /** Check only the files changed since the merge base of this git ref and HEAD. */
  readonly changedSince?: string | undefined;
  /** Check only this part of the files. */
  readonly shard?: Shard | undefined;
  /** ESLint's worker threads: a number, `auto` or `off`. */
  readonly concurrency: number | 'auto' | 'off';
  readonly engine: Engine;
  readonly cache: boolean;
  readonly cacheLocation?: string | undefined;
}

/** ESLint's cache file for this run, or undefined without `--cache`. */
function cacheFile(options: CheckOptions, cwd: string): string | undefined {
  if (!options.cache) {
    if (options.cacheLocation !== undefined) throw new UsageError('--cache-location needs --cache');
    return undefined;
  }
  if (options.typeAware) {
    // ESLint keys each cached result on that file's own content, but a typed finding also depends
    // on the files its types come from: an edit there would leave stale results here.
    throw new UsageError(
      '--cache cannot be combined with --type-aware: ESLint caches each file on its own content, but type information comes from other files too, so cached results would go stale. Drop one of the two',
    );
  }
  const file = path.resolve(cwd, options.cacheLocation ?? DEFAULT_CACHE_LOCATION);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** Options only ESLint has: oxlint gives JS plugins no type information, and has no cache. */
function checkEngineOptions(options: CheckOptions): void {
  if (options.engine !== 'oxlint') return;
  const eslintOnly = [
    options.typeAware && '--type-aware (oxlint gives plugins no type information)',
    options.cache && '--cache',
    options.concurrency !== 'off' && '--concurrency (oxlint uses its own threads)',
  ].filter((option) => option !== false);
  if (eslintOnly.length > 0) {
    throw new UsageError(`--engine oxlint cannot be combined with ${eslintOnly.join(' or ')}`);
  }
}

/** `mcp-mrtr check`: report old-style and unsafe MCP code without changing anything. */
export async function runCheck(
  patterns: readonly string[],
  options: CheckOptions,
  io: CliIo,
): Promise<ExitCode> {
  const log = createLog(io, options.quiet);
  checkEngineOptions(options);
  const suppressions = Suppressions.open(options, io.cwd);
  const cacheLocation = cacheFile(options, io.cwd);
  const discovered = await discoverFiles({ patterns, cwd: io.cwd, ignore: options.ignore });

  let files = [...discovered.files];
  // Taken before narrowing the files, so every shard and review of one checkout shares its root.
  const root = runRoot(io.cwd, files);
  const scope = [describeScope(discovered, io.cwd)];
  if (options.changedSince !== undefined) {
    const changed = await changedSince(options.changedSince, root);
    files = keepChanged(files, changed);
    scope.push(
      `${files.length} changed since ${options.changedSince} (merge base ${changed.mergeBase.slice(0, 12)})`,
    );
  }
  if (options.shard !== undefined) {
    files = shardFiles(files, options.shard, root);
    scope.push(`${files.length} in shard ${options.shard.index}/${options.shard.count}`);
  }
  const ruleCount = Object.keys(rules).length;
  for (const line of [describeSkipped(discovered), describeLarge(discovered, io.cwd)]) {
    if (line !== undefined) log.info(`mcp-mrtr check: ${line}`);
  }
  if (options.typeAware) {
    for (const line of describeBrokenTsconfigs(files, io.cwd)) io.stderr.write(`mcp-mrtr check: ${line}\n`);
  }
  log.info(
    `mcp-mrtr check: ${scope.join(', ')}, ${ruleCount} rules${options.typeAware ? ', type-aware' : ''}` +
      (options.engine === 'oxlint' ? ', oxlint' : '') +
      (suppressions === undefined ? '' : `, baseline ${suppressions.displayName}`),
  );

  const run = await lintFiles(files, {
    cwd: root,
    typeAware: options.typeAware,
    concurrency: options.concurrency,
    engine: options.engine,
    cacheLocation,
    log,
  });
  const text = withoutBinaryFiles(run.results);
  const binaryLine = describeBinary(text.binary, io.cwd);
  if (binaryLine !== undefined) log.info(`mcp-mrtr check: ${binaryLine}`);
  // The baseline counts what ESLint reports, before `check` lowers some errors to warnings, so its
  // counts are the ones plain `eslint` sees with the plugin's configs.
  const linted = withoutOtherRules(text.results);
  const baseline =
    suppressions === undefined ? { results: linted, unused: {} } : await suppressions.apply(linted);
  const results = applyMessageSeverities(baseline.results);
  const report = await formatResults(
    options.format,
    results,
    {
      cwd: root,
      toolVersion: VERSION,
      suppressionsFile: suppressions?.displayName,
      automationId: options.shard === undefined ? undefined : shardAutomationId(options.shard),
    },
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
  const suppressed = results.reduce((sum, result) => sum + result.suppressedMessages.length, 0);
  const withFindings = results.filter((result) => result.messages.length > 0).length;
  const tolerated = suppressed === 0 ? '' : ` (${suppressed} more suppressed)`;
  log.info(
    errors + warnings === 0
      ? `mcp-mrtr check: no problems in ${plural(results.length, 'file')}${tolerated}`
      : `mcp-mrtr check: ${plural(errors, 'error')} and ${plural(warnings, 'warning')} in ${plural(withFindings, 'file')}${tolerated}`,
  );
  const hint = suppressions === undefined ? undefined : pruneHint(baseline.unused, suppressions.displayName);
  // Not progress: a baseline that tolerates more than remains lets fixed problems return unnoticed.
  if (hint !== undefined) io.stderr.write(`${hint}\n`);
  return errors > 0 ? ExitCode.Findings : ExitCode.Ok;
}
