import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HandlerOptions, LoggingTarget } from '../analysis/file-context.js';
import type { MigrationResult } from '../engine/migration-result.js';
import { planMigration } from '../engine/plan-migration.js';
import { findNearestTsconfig } from '../project/find-tsconfig.js';
import { loadProjectConfig } from '../project/project-config.js';

/** What jscodeshift hands a transform module: the file, an API with `report`, and CLI options. */
export interface JscodeshiftFile {
  readonly path: string;
  readonly source: string;
}

export interface JscodeshiftApi {
  report(message: string): void;
}

export interface JscodeshiftOptions {
  readonly logging?: string;
  readonly [option: string]: unknown;
}

interface CachedPlan {
  readonly result: MigrationResult;
  readonly sources: ReadonlyMap<string, string>;
}

/** One plan per project, transform selection and logging target, for the life of a worker. */
const plans = new Map<string, Promise<CachedPlan>>();

function choice<T extends string>(name: string, value: unknown, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly unknown[]).includes(value)) return value as T;
  throw new Error(`--${name}=${JSON.stringify(value)}: expected ${choices.join(' or ')}`);
}

/** `--style`, `--sampling`, `--roots` and `--depth`, as for `mcp-mrtr migrate`. */
function handlerOptions(options: JscodeshiftOptions): Partial<HandlerOptions> {
  const style = choice('style', options.style, ['auto', 'explicit', 'replay'] as const);
  const sampling = choice('sampling', options.sampling, ['rewrite', 'manual'] as const);
  const roots = choice('roots', options.roots, ['rewrite', 'manual'] as const);
  const depth = options.depth === undefined ? undefined : Number(options.depth);
  if (depth !== undefined && (!Number.isInteger(depth) || depth < 0))
    throw new Error(`--depth=${String(options.depth)}: expected a whole number, 0 or more`);
  return {
    ...(style && { style }),
    ...(sampling && { sampling }),
    ...(roots && { roots }),
    ...(depth !== undefined && { depth }),
  };
}

function loggingTarget(options: JscodeshiftOptions): LoggingTarget {
  if (options.logging === undefined || options.logging === 'stderr') return 'stderr';
  if (options.logging === 'otel') return 'otel';
  throw new Error(`--logging=${String(options.logging)}: expected stderr or otel`);
}

/**
 * The files whose sites decide this file's cross-file questions: the file's TypeScript project,
 * as `mcp-mrtr migrate <project>` would see it.
 */
function projectFiles(file: string): { key: string; files: string[] } {
  const tsconfig = findNearestTsconfig(file, new Map());
  if (tsconfig === undefined) return { key: file, files: [file] };
  const files = loadProjectConfig(tsconfig).fileNames.filter(
    (name) => !/\.d\.[cm]?ts$/.test(name) && existsSync(name),
  );
  return { key: tsconfig, files: files.includes(file) ? files : [...files, file] };
}

/** The text the cached plan used for a file: the override it was given, or what is on disk. */
function plannedText(known: CachedPlan, file: string): string | undefined {
  const override = known.sources.get(file);
  if (override !== undefined) return override;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function plan(
  file: string,
  source: string,
  transform: string | undefined,
  logging: LoggingTarget,
  handlers: Partial<HandlerOptions>,
) {
  const { key, files } = projectFiles(file);
  const cacheKey = `${key}\0${transform ?? '*'}\0${logging}\0${JSON.stringify(handlers)}`;
  const cached = plans.get(cacheKey);
  // jscodeshift may hand over text that differs from the disk (an earlier transform changed it).
  if (cached !== undefined && plannedText(await cached, file) === source) return (await cached).result;
  const sources = new Map([[file, source]]);
  const planned = planMigration({
    files,
    cwd: path.dirname(key),
    transforms: transform === undefined ? undefined : [transform],
    logging,
    handlers,
    sources,
  }).then((result) => ({ result, sources }));
  plans.set(cacheKey, planned);
  return (await planned).result;
}

/**
 * Runs one mcp-mrtr transform (or all of them) the way a jscodeshift transform module does:
 * returns the new source, or the same source when nothing changes. Manual sites are marked in the
 * returned source and reported through `api.report`; a file that cannot be migrated throws, which
 * jscodeshift counts as an error.
 */
export async function runAsJscodeshift(
  transform: string | undefined,
  file: JscodeshiftFile,
  api: JscodeshiftApi,
  options: JscodeshiftOptions = {},
): Promise<string> {
  const absolute = path.resolve(file.path);
  const result = await plan(
    absolute,
    file.source,
    transform,
    loggingTarget(options),
    handlerOptions(options),
  );
  const outcome = result.files.find((candidate) => candidate.file === absolute);
  if (outcome === undefined) return file.source;
  if (outcome.status === 'failed' || outcome.status === 'skipped')
    throw new Error(outcome.reason ?? outcome.status);
  for (const site of outcome.sites) {
    if (site.rewrite === undefined)
      api.report(
        `${site.line}:${site.column} ${site.ruleId} — ${site.todo} (not rewritten: ${site.reason ?? 'manual'})`,
      );
  }
  return outcome.output ?? file.source;
}
