// What loading the plugin costs (issue #27, goal ≤ 150 ms): `import()` of the built plugin against
// `import()` of typescript-eslint's plugin, each in a fresh Node process, alternating, and the
// median CPU time (user + system, steadier than wall time on a shared machine) and wall time of
// `PLUGIN_LOAD_ROUNDS` imports each (11 by default). Every editor start and every pre-commit run on
// a few files pays this before linting anything.
import { spawnSync } from 'node:child_process';
import { median } from './median.js';

const ROUNDS = Number(process.env.PLUGIN_LOAD_ROUNDS ?? 11);
const GOAL_MS = 150;

const SUBJECTS = {
  '@mcp-mrtr/eslint-plugin': '@mcp-mrtr/eslint-plugin',
  "typescript-eslint's plugin": '@typescript-eslint/eslint-plugin',
} as const;
type Subject = keyof typeof SUBJECTS;

/** Run in the child: the module is imported by specifier, as ESLint imports a plugin from a config. */
const CHILD = `
const cpu = process.cpuUsage();
const start = performance.now();
await import(process.argv[1]);
const wallMs = performance.now() - start;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, wallMs }));
`;

interface Measurement {
  readonly cpuMs: number;
  readonly wallMs: number;
}

function measure(specifier: string): Measurement {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, specifier], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`importing ${specifier} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout) as Measurement;
}

const subjects = Object.keys(SUBJECTS) as Subject[];
const runs = new Map<Subject, Measurement[]>(subjects.map((subject) => [subject, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Alternating the order spreads the machine's drift over both.
  const order = round % 2 === 0 ? subjects : [...subjects].reverse();
  for (const subject of order) runs.get(subject)?.push(measure(SUBJECTS[subject]));
}

const ours = runs.get('@mcp-mrtr/eslint-plugin') ?? [];
const theirs = runs.get("typescript-eslint's plugin") ?? [];
const cpu = (list: readonly Measurement[]) => median(list.map((run) => run.cpuMs));
const wall = (list: readonly Measurement[]) => median(list.map((run) => run.wallMs));
console.log(`import() in a fresh process, median of ${ROUNDS}:`);
console.log('| plugin | CPU | wall |');
console.log('| --- | --- | --- |');
for (const subject of subjects) {
  const list = runs.get(subject) ?? [];
  console.log(`| ${subject} | ${cpu(list).toFixed(0)} ms | ${wall(list).toFixed(0)} ms |`);
}
console.log(
  `ours / typescript-eslint's: ${(cpu(ours) / cpu(theirs)).toFixed(2)}× CPU, ` +
    `${(wall(ours) / wall(theirs)).toFixed(2)}× wall; goal ≤ ${GOAL_MS} ms: ` +
    (cpu(ours) <= GOAL_MS ? 'met' : 'missed'),
);
