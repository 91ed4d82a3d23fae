// `npm run bench [name...]`: run every bench/<name>.bench.ts (or the named ones) one after another,
// so no two benchmarks compete for the machine. Each prints its own ratios against a baseline
// measured in the same run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const benchDir = path.join(root, 'bench');
const available = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ') || '(none)'}`);
  process.exit(2);
}

let failed = false;
for (const name of wanted.length > 0 ? wanted : available) {
  process.stdout.write(`\n## ${name}\n\n`);
  const { status } = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(benchDir, `${name}.bench.ts`)],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
