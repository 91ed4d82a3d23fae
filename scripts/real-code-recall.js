// `npm run real-code [corpus-dir]`: re-runs `mcp-mrtr check` over local copies of the public
// repositories labelled in fixtures/real-code/labels.json and prints, per rule, the recall on sites
// labelled `must` and every finding on a site labelled `never`. The copies are never fetched here:
// point the script at a directory holding one exported tree per repository, named `owner+name`
// (the argument, or MCP_MRTR_REAL_CODE). Without copies it says so and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** @typedef {{ name: string, url: string, commit: string, paths: string[], ignore: string[] }} Repo */
/** @typedef {{ repo: string, file: string, line: number, rule: string, label: string, reason: string }} Label */
/** @typedef {{ must: number, found: number, never: number, falsePositives: number, arguable: number }} RuleStats */
/** @typedef {{ minimumRecall: number, repos: Repo[], labels: Label[] }} LabelsFile */
/** @typedef {{ filePath: string, messages: { ruleId: string | null, line: number, message: string }[] }} FileResult */

const root = path.resolve(import.meta.dirname, '..');
const labelsFile = path.join(root, 'fixtures/real-code/labels.json');
const text = readFileSync(labelsFile, 'utf8');
/** @type {LabelsFile} */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a .js script: JSON.parse is untyped, the @type above says what the file holds
const labelsData = JSON.parse(text);
const { minimumRecall, repos, labels } = labelsData;
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

/**
 * `repo file line rule` for a finding or a label.
 * @param {string} repo @param {string} file @param {number} line @param {string} rule
 */
const siteKey = (repo, file, line, rule) => `${repo}\t${file}\t${line}\t${rule}`;

/**
 * Every finding `check` reports in one repository's copy: site key to message.
 * @param {Repo} repo @param {string} directory @returns {Map<string, string>}
 */
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
  /** @type {Map<string, string>} */
  const findings = new Map();
  for (const fileResult of /** @type {FileResult[]} */ (JSON.parse(result.stdout))) {
    const file = path.relative(directory, fileResult.filePath).split(path.sep).join('/');
    for (const message of fileResult.messages) {
      if (message.ruleId?.startsWith(PREFIX) !== true) continue;
      const rule = message.ruleId.slice(PREFIX.length);
      findings.set(siteKey(repo.name, file, message.line, rule), message.message);
    }
  }
  return findings;
}

/** @type {Map<string, string>} */
const findings = new Map();
/** @type {string[]} */
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

/** @type {Map<string, RuleStats>} */
const perRule = new Map();
/** @param {string} rule @returns {RuleStats} */
const ruleStats = (rule) => {
  let stats = perRule.get(rule);
  if (stats === undefined) {
    stats = { must: 0, found: 0, never: 0, falsePositives: 0, arguable: 0 };
    perRule.set(rule, stats);
  }
  return stats;
};
/** @type {Label[]} */
const missed = [];
/** @type {Label[]} */
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

/** @param {Label} label */
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
