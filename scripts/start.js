// `npm start`: run mcp-mrtr on the bundled sample server. Findings (exit 1) are what the demo is
// for; only a usage error or a crash (exit 2) makes it fail.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'packages/cli/bin/mcp-mrtr.js');
const target = 'fixtures/legacy-server';

for (const args of [
  ['check', target],
  ['migrate', target],
]) {
  process.stdout.write(`\n$ mcp-mrtr ${args.join(' ')}\n`);
  const { status, error } = spawnSync(process.execPath, [bin, ...args], { cwd: root, stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0 && status !== 1) process.exit(status ?? 2);
}
