import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { NAMESPACE, plugin } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';
import { UsageError } from '../exit-codes.js';
import { readError, unreadableResult } from './unreadable-files.js';

/** The first oxlint whose JS-plugin host runs the plugin with ESLint's findings. */
const MINIMUM = [1, 95] as const;
/** Files per oxlint run: a command line of tens of thousands of paths would pass the OS's limit. */
const BATCH = 2000;

interface OxlintDiagnostic {
  readonly message: string;
  readonly code?: string;
  readonly severity: string;
  readonly filename: string;
  readonly labels?: readonly {
    readonly span: { offset: number; length: number; line: number; column: number };
  }[];
}

/** oxlint's bin script: the project's own install first, then one installed beside the CLI. */
function oxlintBin(cwd: string): string {
  for (const from of [path.join(cwd, 'package.json'), import.meta.filename]) {
    let manifest: string;
    try {
      manifest = createRequire(from).resolve('oxlint/package.json');
    } catch {
      continue;
    }
    const { version, bin } = createRequire(import.meta.url)(manifest) as {
      version: string;
      bin: Record<string, string>;
    };
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
      throw new UsageError(
        `--engine oxlint needs oxlint ${MINIMUM.join('.')} or later; ${version} is installed. Run npm install --save-dev oxlint@latest, or drop --engine oxlint`,
      );
    }
    return path.join(path.dirname(manifest), bin.oxlint as string);
  }
  throw new UsageError(
    '--engine oxlint needs oxlint, which is not installed here. Run npm install --save-dev oxlint (1.95 or later), or drop --engine oxlint to use ESLint',
  );
}

/** The plugin as Node loads it (oxlint cannot load TypeScript sources on every Node version). */
function pluginModule(): string {
  const manifest = createRequire(import.meta.url).resolve('@mcp-mrtr/eslint-plugin/package.json');
  const { main } = createRequire(import.meta.url)(manifest) as { main: string };
  return path.join(path.dirname(manifest), main);
}

/** 1-based line and column of a character offset, as ESLint reports them. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

async function toMessage(diagnostic: OxlintDiagnostic, file: string): Promise<Linter.LintMessage> {
  const rule = /^(.+)\((.+)\)$/.exec(diagnostic.code ?? '');
  const span = diagnostic.labels?.[0]?.span;
  const severity = diagnostic.severity === 'warning' ? 1 : 2;
  const ruleId = rule === null ? null : `${rule[1]}/${rule[2]}`;
  if (span === undefined) {
    return {
      ruleId,
      severity,
      message: diagnostic.message,
      line: 1,
      column: 1,
      ...(rule === null && { fatal: true }),
    };
  }
  // oxlint gives the start's line and column and the span's length; ESLint reports the end too.
  const end = position(await readFile(file, 'utf8'), span.offset + span.length);
  return {
    ruleId,
    severity,
    message: diagnostic.message,
    line: span.line,
    column: span.column,
    endLine: end.line,
    endColumn: end.column,
    // A diagnostic without a rule is oxlint's parse error: fatal, as ESLint's is.
    ...(rule === null && { fatal: true }),
  };
}

function result(filePath: string, messages: Linter.LintMessage[]): ESLint.LintResult {
  const count = (severity: number) => messages.filter((message) => message.severity === severity).length;
  return {
    filePath,
    messages,
    suppressedMessages: [],
    errorCount: count(2),
    fatalErrorCount: messages.filter((message) => message.fatal === true).length,
    warningCount: count(1),
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    usedDeprecatedRules: [],
  };
}

/**
 * Lints the files with every rule of the plugin in oxlint's JS-plugin host, and returns ESLint's
 * result shape, so reports, baselines and exit codes work as with ESLint. oxlint has no parser
 * services, so this is the untyped lint; it offers no suggestions and reads no ESLint config.
 * oxlint lints a file whose read fails (EIO) as an empty one, without a word, so each file is read
 * first: one that cannot be read is an error result with the reason, as the ESLint engine gives.
 */
export async function lintWithOxlint(files: readonly string[], cwd: string): Promise<ESLint.LintResult[]> {
  const bin = oxlintBin(cwd);
  const unreadable = new Map<string, string>();
  for (const file of files) {
    const reason = readError(file);
    if (reason !== undefined) unreadable.set(file, reason);
  }
  const readable = files.filter((file) => !unreadable.has(file));
  const linted =
    readable.length === 0 ? new Map<string, ESLint.LintResult>() : await lintReadable(bin, readable, cwd);
  return files.map((file) => {
    const reason = unreadable.get(file);
    return reason === undefined ? linted.get(file)! : unreadableResult(file, reason);
  });
}

/** oxlint's findings in each of the files, which can all be read. */
async function lintReadable(
  bin: string,
  files: readonly string[],
  cwd: string,
): Promise<Map<string, ESLint.LintResult>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-mrtr-oxlint-'));
  try {
    const config = path.join(dir, '.oxlintrc.json');
    const rules = Object.assign({}, ...plugin.configs.all.map((entry) => entry.rules ?? {})) as object;
    await writeFile(
      config,
      // Only our rules: oxlint's own default rules are turned off.
      JSON.stringify({ jsPlugins: [pluginModule()], categories: { correctness: 'off' }, rules }),
    );
    const byFile = new Map<string, Linter.LintMessage[]>(files.map((file) => [file, []]));
    for (let start = 0; start < files.length; start += BATCH) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        // File discovery already applied .gitignore and --ignore; the project's own oxlint configs
        // would add rules `check` does not run.
        [
          bin,
          '--config',
          config,
          '--disable-nested-config',
          '--no-ignore',
          '--format',
          'json',
          ...files.slice(start, start + BATCH),
        ],
        { cwd, maxBuffer: 512 * 1024 * 1024 },
      ).catch((error: Error & { code?: number; stdout?: string; stderr?: string }) => {
        // Exit code 1 is findings; anything else is oxlint failing.
        if (error.code === 1 && error.stdout !== undefined) return { stdout: error.stdout };
        throw new Error(`oxlint failed: ${error.stderr?.trim() || error.message}`, { cause: error });
      });
      const { diagnostics } = JSON.parse(stdout) as { diagnostics: OxlintDiagnostic[] };
      for (const diagnostic of diagnostics) {
        const file = path.resolve(cwd, diagnostic.filename);
        const messages = byFile.get(file);
        if (messages === undefined) continue;
        if (diagnostic.code !== undefined && !diagnostic.code.startsWith(`${NAMESPACE}(`)) continue;
        messages.push(await toMessage(diagnostic, file));
      }
    }
    return new Map(
      [...byFile].map(([file, messages]) => [
        file,
        result(
          file,
          messages.sort((a, b) => a.line - b.line || a.column - b.column),
        ),
      ]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
