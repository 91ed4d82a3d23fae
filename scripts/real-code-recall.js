// `npm run real-code [corpus-dir]`: re-runs `mcp-mrtr check` over local copies of the public
// repositories labelled in fixtures/real-code/labels.json and prints, per rule, the recall on sites
// labelled `must` and every finding on a site labelled `never`. The copies are never fetched here:
// point the script at a directory holding one exported tree per repository, named `owner+name`
// (the argument, or MCP_MRTR_REAL_CODE). Without copies it says so and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const { minimumRecall, repos, labels } = JSON.parse(
  readFileSync(path.join(root, 'fixtures/real-code/labels.json'), 'utf8'),
);
const PREFIX = '@mcp-mrtr/';
// Resolved from here: the checked copies have no node_modules of ours.
const TSX = import.meta.resolve('tsx');

const corpus = process.argv[2] ?? process.env.MCP_MRTR_REAL_CODE;
if (corpus === undefined || !existsSync(corpus)) {
  console.error(
    `real-code: no local corpus${corpus === undefined ? '' : ` at ${corpus}`}; skipped. Export the ` +
      'repositories listed in fixtures/real-code/labels.json (one tree per repository, named owner+name, ' +
      'at the pinned commit) and pass their parent directory as the argument or MCP_MRTR_REAL_CODE.',
  );
  process.exit(0);
}

/** `file:line:rule` for a finding or a label. */
const siteKey = (repo, file, line, rule) => `${repo}\t${file}\t${line}\t${rule}`;

/** Every finding `check` reports in one repository's copy, as site keys. */
function findingsOf(repo, directory) {
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=@mcp-mrtr/source',
      '--import',
      TSX,
      path.join(root, 'packages/cli/src/bin.ts'),
      'check',
      '--quiet',
      '--format',
      'json',
      ...repo.ignore.flatMap((pattern) => ['--ignore', pattern]),
      ...repo.paths,
    ],
    { cwd: directory, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (result.status === 2 || result.stdout.trim() === '') {
    throw new Error(`check failed in ${directory} (exit ${result.status}):\n${result.stderr}`);
  }
  const findings = new Map();
  for (const fileResult of JSON.parse(result.stdout)) {
    const file = path.relative(directory, fileResult.filePath).split(path.sep).join('/');
    for (const message of fileResult.messages) {
      if (message.ruleId?.startsWith(PREFIX) !== true) continue;
      const rule = message.ruleId.slice(PREFIX.length);
      findings.set(siteKey(repo.name, file, message.line, rule), message.message);
    }
  }
  return findings;
}

const findings = new Map();
const present = [];
for (const repo of repos) {
  const directory = path.join(corpus, repo.name);
  if (!existsSync(directory)) {
    console.error(`real-code: ${repo.name} not in ${corpus}; skipped`);
    continue;
  }
  console.error(`real-code: checking ${repo.name} @ ${repo.commit.slice(0, 12)}`);
  present.push(repo.name);
  for (const [key, message] of findingsOf(repo, directory)) findings.set(key, message);
}
if (present.length === 0) {
  console.error('real-code: none of the labelled repositories is present; skipped.');
  process.exit(0);
}

const perRule = new Map();
const ruleStats = (rule) => {
  if (!perRule.has(rule)) perRule.set(rule, { must: 0, found: 0, never: 0, falsePositives: 0, arguable: 0 });
  return perRule.get(rule);
};
const missed = [];
const falsePositives = [];
const labelled = new Set();
for (const label of labels) {
  if (!present.includes(label.repo)) continue;
  const key = siteKey(label.repo, label.file, label.line, label.rule);
  labelled.add(key);
  const stats = ruleStats(label.rule);
  const reported = findings.has(key);
  if (label.label === 'must') {
    stats.must += 1;
    if (reported) stats.found += 1;
    else missed.push(label);
  } else if (label.label === 'never') {
    stats.never += 1;
    if (reported) {
      stats.falsePositives += 1;
      falsePositives.push(label);
    }
  } else {
    stats.arguable += 1;
  }
}
const unlabelled = [...findings.keys()].filter((key) => !labelled.has(key));

const where = (label) => `${label.repo} ${label.file}:${label.line} ${label.rule} (${label.reason})`;
let must = 0;
let found = 0;
console.log('rule\tmust\tfound\trecall\tnever\tfindings on never\targuable');
for (const [rule, stats] of [...perRule].sort(([a], [b]) => a.localeCompare(b))) {
  must += stats.must;
  found += stats.found;
  const recall = stats.must === 0 ? '-' : (stats.found / stats.must).toFixed(3);
  console.log(
    `${rule}\t${stats.must}\t${stats.found}\t${recall}\t${stats.never}\t${stats.falsePositives}\t${stats.arguable}`,
  );
}
const recall = must === 0 ? 1 : found / must;
console.log(`\nrecall ${found}/${must} = ${recall.toFixed(3)} (minimum ${minimumRecall})`);
console.log(`findings on never sites: ${falsePositives.length}`);
for (const label of missed) console.log(`missed: ${where(label)}`);
for (const label of falsePositives) console.log(`false positive: ${where(label)}`);
for (const key of unlabelled)
  console.log(`unlabelled finding: ${key.split('\t').join(' ')}: ${findings.get(key)}`);
process.exit(recall >= minimumRecall && falsePositives.length === 0 ? 0 : 1);
