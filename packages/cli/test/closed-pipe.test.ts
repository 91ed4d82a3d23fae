import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REWRITABLE_SERVER, tempProject } from './migrate-project.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(REPO, 'packages/cli/bin/mcp-mrtr.js');
const FILES = Array.from({ length: 100 }, (_, index) => `src/server-${index}.ts`);

const project = tempProject(Object.fromEntries(FILES.map((file) => [file, REWRITABLE_SERVER])));
afterAll(() => project.remove());

/** Runs the real bin with its stdout read by a consumer that closes the pipe after the first chunk, as `| head -1` does. */
function runIntoClosingReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: project.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that closes the pipe early', () => {
  it('ends migrate as a full read would, without an EPIPE crash', async () => {
    const full = await project.run(['migrate', '--no-format', 'src']);
    const { code, stderr } = await runIntoClosingReader(['migrate', '--no-format', 'src']);

    expect(full.stdout.length).toBeGreaterThan(64 * 1024);
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(full.code);
  }, 120_000);

  it('still writes every file under migrate --write', async () => {
    const { code, stderr } = await runIntoClosingReader(['migrate', '--write', '--no-format', 'src']);

    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
    for (const file of FILES) expect(readFileSync(project.file(file), 'utf8')).not.toBe(REWRITABLE_SERVER);
  }, 120_000);
});
