import { readFileSync } from 'node:fs';
import { ts } from 'ts-morph';
import {
  DEFAULT_HANDLER_OPTIONS,
  FileContext,
  type HandlerOptions,
  type LoggingTarget,
  type ReceiverStats,
} from '../analysis/file-context.js';
import { collectTypeAliasUsages } from '../analysis/type-alias-usage.js';
import { collectImportUsages } from '../analysis/import-usage.js';
import { collectCallbackParameters } from '../analysis/parameter-usage.js';
import type { RunView } from '../analysis/run-view.js';
import type { Site } from '../analysis/site.js';
import { inferSourceStyle } from '../edits/source-style.js';
import { createCachingCompilerHost } from '../project/declaration-cache.js';
import { findNearestTsconfig } from '../project/find-tsconfig.js';
import { nearestPackageJson, packageApiOf, type PackageApi } from '../project/package-api.js';
import { loadProjectConfig, type ProjectConfig } from '../project/project-config.js';
import type { Transform } from '../transform.js';
import { selectTransforms } from '../transforms/index.js';
import { applySites } from './apply-sites.js';
import { missingDependencies, PackageManifests } from './dependencies.js';
import type { AnalysedFile } from './analysed-file.js';
import type { FileOutcome, MigrationResult, ProjectSummary } from './migration-result.js';
import { importersOf } from './importers.js';
import { failWithLinked, linkedFiles, settleLinkedRewrites } from './linked-rewrites.js';
import { matchesPrefilter } from './prefilter.js';
import { yieldToEventLoop, type ProgressListener } from './progress.js';

export interface MigrationOptions {
  /** Absolute paths of the files to migrate. */
  readonly files: readonly string[];
  /** Paths in reasons and reports are relative to this directory. */
  readonly cwd: string;
  /** Transform IDs to run; all of them by default. */
  readonly transforms?: readonly string[];
  /** Where migrated logging calls write: the stderr logger (default) or OpenTelemetry. */
  readonly logging?: LoggingTarget;
  /** How push questions in handlers are migrated; see `HandlerOptions`. */
  readonly handlers?: Partial<HandlerOptions>;
  /**
   * Take a receiver whose type does not resolve (the SDK, or a package it comes through, is not
   * installed) to be the SDK's when syntax shows it: built by an SDK class imported from an SDK
   * module specifier. Decided receiver by receiver: one whose type resolves is read from its type,
   * however many others do not. Sites resolved so carry `evidence: 'syntax'`.
   */
  readonly allowUnresolved?: boolean;
  /** Text to use instead of what is on disk, by absolute path (editors, jscodeshift). */
  readonly sources?: ReadonlyMap<string, string>;
  readonly onProgress?: ProgressListener;
}

/** A file that passed the prefilter, with the transforms it may interest. */
interface Candidate {
  readonly file: string;
  readonly text: string;
  readonly bom: boolean;
  readonly transforms: readonly Transform[];
}

const BOM = '\uFEFF';

function readSource(file: string, sources: ReadonlyMap<string, string> | undefined): string {
  return sources?.get(file) ?? readFileSync(file, 'utf8');
}

/** Keeps a byte order mark in the text, as `readFileSync(file, 'utf8')` does. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's text, or undefined when its bytes are not UTF-8: a binary file with a source extension
 * (an MPEG transport stream is `.ts`) or text in another encoding, which reading as UTF-8 and
 * writing back would corrupt. A NUL character is valid text (`join("\0")` written with a literal NUL).
 */
function readUtf8Text(file: string): string | undefined {
  try {
    return STRICT_UTF8.decode(readFileSync(file));
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}

/** Whether the file as read starts with a byte order mark (TypeScript's text has it stripped). */
function startsWithBom(file: string, sources: ReadonlyMap<string, string> | undefined): boolean {
  try {
    return readSource(file, sources).startsWith(BOM);
  } catch {
    return false;
  }
}

/** The text of each of the project's own source files (not declaration files) that can be read. */
function readProjectFiles(
  config: ProjectConfig,
  sources: ReadonlyMap<string, string> | undefined,
): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of config.fileNames) {
    if (/\.d\.[cm]?ts$/.test(file)) continue;
    try {
      texts.set(file, readSource(file, sources));
    } catch {
      continue;
    }
  }
  return texts;
}

/** What reading and prefiltering leaves: the candidates, and what it settled about the rest. */
interface ReadFiles {
  readonly candidates: readonly Candidate[];
  readonly nonCandidates: number;
}

/** What analysis leaves: the analysed files, their sites and the projects they belong to. */
interface Analysis {
  readonly analysed: readonly AnalysedFile[];
  readonly sites: readonly Site[];
  readonly projects: readonly ProjectSummary[];
  readonly unvisitedCandidates: ReadonlyMap<string, readonly string[]>;
  readonly manifests: PackageManifests;
}

/**
 * Plans the migration of a set of files without writing anything: reads and prefilters them,
 * analyses the candidates one TypeScript project at a time (every type question is answered
 * before the first edit, and each project is released before the next is loaded), settles the
 * decisions that depend on other files, then computes and validates each file's new text.
 */
export async function planMigration(options: MigrationOptions): Promise<MigrationResult> {
  const transforms = selectTransforms(options.transforms);
  const progress = options.onProgress ?? (() => undefined);
  const outcomes = new Map<string, FileOutcome>();
  const { candidates, nonCandidates } = await readCandidates(options, transforms, progress, outcomes);
  const analysis = await analyseCandidates(options, transforms, candidates, progress, outcomes);
  const sites = settleSites(options, transforms, analysis);
  const needs = applyAll(analysis.analysed, sites, progress, outcomes);
  const files = failWithLinked(
    options.files.map((file) => outcomes.get(file)!),
    linkedFiles(sites),
    options.cwd,
  );
  return {
    files,
    nonCandidates,
    candidates: candidates.length,
    projects: [...analysis.projects],
    missingDependencies: missingDependencies(needs, analysis.manifests),
    transforms: transforms.map((transform) => transform.id),
  };
}

/** 1. Reads each file and keeps those a transform's prefilter matches; the rest are settled here. */
async function readCandidates(
  options: MigrationOptions,
  transforms: readonly Transform[],
  progress: ProgressListener,
  outcomes: Map<string, FileOutcome>,
): Promise<ReadFiles> {
  const candidates: Candidate[] = [];
  let nonCandidates = 0;
  for (const [index, file] of options.files.entries()) {
    if (index % 200 === 0) {
      progress({ phase: 'scan', done: index, total: options.files.length });
      await yieldToEventLoop();
    }
    let text: string | undefined;
    try {
      text = options.sources?.get(file) ?? readUtf8Text(file);
    } catch (error) {
      outcomes.set(file, {
        file,
        status: 'failed',
        reason: `could not read the file: ${messageOf(error)}`,
        sites: [],
      });
      continue;
    }
    if (text === undefined) {
      outcomes.set(file, { file, status: 'skipped', reason: 'not UTF-8 text', sites: [] });
      continue;
    }
    const bom = text.startsWith(BOM);
    if (bom) text = text.slice(1);
    const interested = transforms.filter((transform) => matchesPrefilter(text, transform.prefilter));
    if (interested.length === 0) {
      nonCandidates++;
      outcomes.set(file, { file, status: 'unchanged', sites: [] });
      continue;
    }
    candidates.push({ file, text, bom, transforms: interested });
  }
  progress({ phase: 'scan', done: options.files.length, total: options.files.length });
  return { candidates, nonCandidates };
}

/** 2. Analyses the candidates, one tsconfig project at a time. */
async function analyseCandidates(
  options: MigrationOptions,
  transforms: readonly Transform[],
  candidates: readonly Candidate[],
  progress: ProgressListener,
  outcomes: Map<string, FileOutcome>,
): Promise<Analysis> {
  const logging = options.logging ?? 'stderr';
  const handlers: HandlerOptions = { ...DEFAULT_HANDLER_OPTIONS, ...options.handlers };
  const runFiles = new Set(options.files);
  const tsconfigCache = new Map<string, string | undefined>();
  const shards = new Map<string | undefined, Candidate[]>();
  for (const candidate of candidates) {
    const tsconfig = findNearestTsconfig(candidate.file, tsconfigCache);
    shards.set(tsconfig, [...(shards.get(tsconfig) ?? []), candidate]);
  }
  const manifests = new PackageManifests();
  const analysed: AnalysedFile[] = [];
  const sitesByFile = new Map<string, Site[]>();
  const projects: ProjectSummary[] = [];
  const unvisited = new Map<string, Set<string>>();
  const candidateFiles = new Set(candidates.map((candidate) => candidate.file));
  let analysedCount = 0;
  let total = candidates.length;
  for (const [tsconfig, shard] of shards) {
    const config = loadProjectConfig(tsconfig);
    const receivers: ReceiverStats = { resolved: 0, fromSyntax: 0, unresolved: 0 };
    const project: ProjectSummary = {
      tsconfig,
      candidateFiles: shard.length,
      notes: config.notes,
      receivers,
    };
    const projectTexts = readProjectFiles(config, options.sources);
    const importers = importersOf(
      shard.map((candidate) => candidate.file),
      projectTexts,
    );
    // What each package of the shard publishes, with its entry points in the program so that the
    // checker can tell what they export, however they import it.
    const packageApis = new Map<string | undefined, PackageApi>();
    const packageApi = (file: string): PackageApi => {
      const key = nearestPackageJson(file);
      let api = packageApis.get(key);
      if (api === undefined) packageApis.set(key, (api = packageApiOf(file, config)));
      return api;
    };
    const entries = shard.flatMap(({ file }) => {
      const api = packageApi(file);
      return api.kind === 'entries' ? api.entries.map((entry) => entry.source) : [];
    });
    const program = createProgram(config, shard, [...new Set([...importers, ...entries])], projectTexts);
    const checker = program.getTypeChecker();
    const contexts = new Map<ts.SourceFile, FileContext>();
    const queue: Candidate[] = [...shard];
    const queued = new Map(shard.map((candidate) => [candidate.file, new Set(candidate.transforms)]));
    const run: RunView = {
      sourceFiles: program.getSourceFiles().filter((sourceFile) => !sourceFile.isDeclarationFile),
      mayWrite: (file) => runFiles.has(file),
      packageApi,
      mentionOutsideProgram: (names) => unfollowedMention(names, projectTexts, program, config.options),
      contextOf: (sourceFile) => contextOf(sourceFile),
      relate: (file, id) => {
        const transform = transforms.find((each) => each.id === id);
        const sourceFile = program.getSourceFile(file);
        const already = queued.get(file);
        if (transform === undefined || sourceFile === undefined || !runFiles.has(file)) return false;
        if (already?.has(transform) === true) return true;
        // A candidate of another shard is analysed with its own program.
        if (already === undefined && candidateFiles.has(file)) return false;
        queued.set(file, (already ?? new Set()).add(transform));
        queue.push({
          file,
          text: sourceFile.text,
          bom: startsWithBom(file, options.sources),
          transforms: [transform],
        });
        total++;
        return true;
      },
    };
    const contextOf = (sourceFile: ts.SourceFile): FileContext => {
      let context = contexts.get(sourceFile);
      if (context === undefined) {
        context = new FileContext(
          sourceFile.fileName,
          sourceFile,
          checker,
          inferSourceStyle(sourceFile),
          logging,
          manifests.nearest(sourceFile.fileName)?.name,
          receivers,
          options.allowUnresolved ?? false,
          handlers,
          run,
        );
        contexts.set(sourceFile, context);
      }
      return context;
    };
    // Files whose analysis failed, and the candidate and sites of those analysed, in queue order.
    const failed = new Set<string>();
    const ofFile = new Map<string, { candidate: Candidate; sourceFile: ts.SourceFile; sites: Site[] }>();
    for (let index = 0; index < queue.length; index++) {
      const candidate = queue[index]!;
      progress({ phase: 'analyse', done: analysedCount++, total });
      await yieldToEventLoop();
      if (failed.has(candidate.file)) continue;
      const sourceFile = program.getSourceFile(candidate.file);
      if (sourceFile === undefined) {
        failed.add(candidate.file);
        outcomes.set(candidate.file, {
          file: candidate.file,
          status: 'failed',
          reason: 'TypeScript did not load the file',
          sites: [],
        });
        continue;
      }
      const syntaxError = program.getSyntacticDiagnostics(sourceFile)[0];
      if (syntaxError !== undefined) {
        const { line, character } = sourceFile.getLineAndCharacterOfPosition(syntaxError.start ?? 0);
        const message = ts.flattenDiagnosticMessageText(syntaxError.messageText, ' ').replace(/\.$/, '');
        failed.add(candidate.file);
        outcomes.set(candidate.file, {
          file: candidate.file,
          status: 'failed',
          reason: `syntax error at ${line + 1}:${character + 1}: ${message}; fix it and run again`,
          sites: [],
        });
        continue;
      }
      const context = contextOf(sourceFile);
      const sites: Site[] = [];
      try {
        for (const transform of candidate.transforms) sites.push(...transform.analyse(context));
      } catch (error) {
        failed.add(candidate.file);
        ofFile.delete(candidate.file);
        outcomes.set(candidate.file, {
          file: candidate.file,
          status: 'failed',
          reason: `internal error while analysing the file, please report it: ${messageOf(error)}`,
          sites: [],
        });
        continue;
      }
      const entry = ofFile.get(candidate.file);
      if (entry === undefined) ofFile.set(candidate.file, { candidate, sourceFile, sites });
      else entry.sites.push(...sites);
    }
    const shardFiles: AnalysedFile[] = [];
    for (const { candidate, sourceFile, sites } of ofFile.values()) {
      sitesByFile.set(candidate.file, sites);
      const rewrites = sites.some((site) => site.rewrite !== undefined);
      shardFiles.push({
        ...candidate,
        sourceFile,
        style: contextOf(sourceFile).style,
        importUsages: rewrites ? collectImportUsages(sourceFile, checker) : [],
        parameterUsages: rewrites ? collectCallbackParameters(sourceFile, checker) : [],
        typeAliasUsages: rewrites ? collectTypeAliasUsages(sourceFile, checker) : [],
        project,
      });
    }
    const untyped = untypedReceiversNote(receivers);
    const summary: ProjectSummary = {
      ...project,
      notes: untyped === undefined ? project.notes : [...project.notes, untyped],
    };
    projects.push(summary);
    for (const file of shardFiles) analysed.push({ ...file, project: summary });
    collectUnvisited(projectTexts, runFiles, transforms, unvisited);
  }
  const unvisitedCandidates = new Map([...unvisited].map(([id, files]) => [id, [...files].sort()]));
  return { analysed, sites: [...sitesByFile.values()].flat(), projects, unvisitedCandidates, manifests };
}

/** 3. Settles decisions: each transform's cross-file choices, then rewrites that span files. */
function settleSites(
  options: MigrationOptions,
  transforms: readonly Transform[],
  analysis: Analysis,
): Site[] {
  let sites = [...analysis.sites];
  const unvisitedCandidates = analysis.unvisitedCandidates;
  for (const transform of transforms) {
    if (transform.resolve === undefined) continue;
    const own = sites.filter((site) => site.transform === transform.id);
    const others = sites.filter((site) => site.transform !== transform.id);
    sites = [...others, ...transform.resolve(own, { cwd: options.cwd, unvisitedCandidates })];
  }
  return settleLinkedRewrites(sites);
}

/**
 * 4. Edits and validates file by file; returns, per changed file, the packages its new code
 * imports.
 */
function applyAll(
  analysed: readonly AnalysedFile[],
  sites: readonly Site[],
  progress: ProgressListener,
  outcomes: Map<string, FileOutcome>,
): Map<string, Set<string>> {
  const sitesOf = new Map<string, Site[]>();
  for (const site of sites) sitesOf.set(site.file, [...(sitesOf.get(site.file) ?? []), site]);
  const needs = new Map<string, Set<string>>();
  for (const [index, file] of analysed.entries()) {
    progress({ phase: 'apply', done: index, total: analysed.length });
    const outcome = applySites(file, sitesOf.get(file.file) ?? []);
    outcomes.set(file.file, outcome);
    if (outcome.status === 'changed') {
      const packages = new Set(outcome.sites.flatMap((site) => site.rewrite?.packages ?? []));
      if (packages.size > 0) needs.set(file.file, packages);
    }
  }
  progress({ phase: 'apply', done: analysed.length, total: analysed.length });
  return needs;
}

/**
 * The program for one shard: its candidate files and the project files importing them as roots
 * (their imports are followed), the text the engine read standing in for what is on disk,
 * dependency declarations shared.
 */
function createProgram(
  config: ProjectConfig,
  shard: readonly Candidate[],
  importers: readonly string[],
  projectTexts: ReadonlyMap<string, string>,
): ts.Program {
  const sources = new Map(shard.map((candidate) => [candidate.file, candidate.text]));
  for (const file of importers) {
    const text = projectTexts.get(file);
    if (text !== undefined) sources.set(file, text.startsWith(BOM) ? text.slice(1) : text);
  }
  const host = createCachingCompilerHost(config.options, sources);
  return ts.createProgram({ rootNames: [...sources.keys()], options: config.options, host });
}

/**
 * What a project's receivers typed `any` came to, said once for the project rather than at each
 * site: how many syntax showed to be the SDK's, and that the others were left by hand wherever a
 * rewrite depended on them. Undefined when every receiver's type resolved.
 */
function untypedReceiversNote(receivers: ReceiverStats): string | undefined {
  const { resolved, fromSyntax, unresolved } = receivers;
  const untyped = fromSyntax + unresolved;
  if (untyped === 0) return undefined;
  const parts = [
    `${untyped} of ${resolved + untyped} receivers resolve to any (a package they come from is not installed or not found) and were decided from syntax, the others from their types`,
  ];
  if (fromSyntax > 0)
    parts.push(
      `${fromSyntax} of them ${fromSyntax === 1 ? 'was' : 'were'} built by an MCP SDK class imported from the SDK and taken to be the SDK's (the sites marked "evidence": "syntax"; review them)`,
    );
  if (unresolved > 0)
    parts.push(`${unresolved} of them showed nothing: what depended on them was left by hand`);
  return parts.join('; ');
}

const IMPORTED_SPECIFIER = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"]([^'"\n.][^'"\n]*)['"]/g;

/**
 * A file of the project outside the program that names one of `names` and imports a file of the
 * project by a path that is not relative (a `paths` alias, the package's own name): the program
 * holds only relative importers, so a call there would go unseen.
 */
function unfollowedMention(
  names: ReadonlySet<string>,
  projectTexts: ReadonlyMap<string, string>,
  program: ts.Program,
  options: ts.CompilerOptions,
): string | undefined {
  const words = [...names].map((name) => new RegExp(`(?<![\\w$])${name.replaceAll('$', '\\$')}(?![\\w$])`));
  for (const [file, text] of projectTexts) {
    if (/\.d\.[cm]?ts$/.test(file) || program.getSourceFile(file) !== undefined) continue;
    if (!words.some((word) => word.test(text))) continue;
    for (const [, specifier] of text.matchAll(IMPORTED_SPECIFIER)) {
      const resolved = ts.resolveModuleName(specifier!, file, options, ts.sys).resolvedModule;
      if (resolved !== undefined && resolved.isExternalLibraryImport !== true) return file;
    }
  }
  return undefined;
}

/** Files of the project that this run does not include but that a transform's prefilter matches. */
function collectUnvisited(
  projectTexts: ReadonlyMap<string, string>,
  runFiles: ReadonlySet<string>,
  transforms: readonly Transform[],
  into: Map<string, Set<string>>,
): void {
  for (const [file, text] of projectTexts) {
    if (runFiles.has(file)) continue;
    for (const transform of transforms) {
      if (matchesPrefilter(text, transform.crossFileTerms ?? transform.prefilter))
        into.set(transform.id, (into.get(transform.id) ?? new Set()).add(file));
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
