import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INSTALL_REDIS, REQUIRE_REDIS } from './fixtures/redis.js';

const vitestCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
const probeConfig = path.join(import.meta.dirname, 'fixtures/redis-probe/vitest.config.ts');

// A PATH with node and nothing else: redis-server is absent whatever this machine has installed.
const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-no-redis-'));
const bin = path.join(scratch, 'bin');
mkdirSync(bin);
symlinkSync(process.execPath, path.join(bin, 'node'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface ProbeRun {
  readonly status: number | null;
  readonly stderr: string;
  readonly report: {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numFailedTestSuites: number;
  };
  /** vitest's own summary. */
  readonly stdout: string;
}

/** Runs the probe's Redis-backed test in its own vitest, with `extraEnv` and no redis-server on PATH. */
async function runProbe(name: string, extraEnv: NodeJS.ProcessEnv): Promise<ProbeRun> {
  const outputFile = path.join(scratch, `${name}.json`);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin, ...extraEnv };
  if (extraEnv[REQUIRE_REDIS] === undefined) delete env[REQUIRE_REDIS];
  const child = spawn(
    process.execPath,
    [
      vitestCli,
      'run',
      '--config',
      probeConfig,
      '--reporter=json',
      '--reporter=default',
      `--outputFile=${outputFile}`,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [status] = (await once(child, 'close')) as [number | null];
  const reportText = readFileSync(outputFile, 'utf8');
  return { status, stdout, stderr, report: JSON.parse(reportText) as ProbeRun['report'] };
}

describe('the Redis helper without redis-server on PATH', () => {
  it('skips the Redis-backed tests and says once what to install', { timeout: 120_000 }, async () => {
    const run = await runProbe('skip', {});
    expect(run.report).toMatchObject({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 1 });
    expect(run.status).toBe(0);
    expect(run.stderr.split(INSTALL_REDIS)).toHaveLength(2);
    expect(INSTALL_REDIS).toContain('apt-get install redis-server');
    expect(INSTALL_REDIS).toContain('brew install redis');
  });

  it(
    `fails the Redis-backed tests under ${REQUIRE_REDIS}=1, as .ci/run sets it`,
    { timeout: 120_000 },
    async () => {
      const run = await runProbe('require', { [REQUIRE_REDIS]: '1' });
      expect(run.report.numPassedTests).toBe(0);
      expect(run.report.numFailedTestSuites).toBeGreaterThan(0);
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toContain('cannot start redis-server');
      expect(run.stdout + run.stderr).toContain('apt-get install redis-server');
      expect(run.stderr).not.toContain(INSTALL_REDIS);
    },
  );
});
