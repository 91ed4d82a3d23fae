// `npm run real-code:rewrite [corpus-dir...]`: runs `mcp-mrtr migrate --transform mrtr-handlers` (a dry
// run, nothing written) over local copies of the public repositories in
// fixtures/real-code/rewrite-labels.json and prints, per repository and for the tuning and held-out
// sets apart, how many push questions labelled `eligible` were rewritten, which stayed manual and
// why, which were not seen at all, and any site labelled `not-eligible` that was rewritten (a defect).
// It also runs `mcp-mrtr check` over the same paths and lists, per repository, the push sites only one
// of `check` and `migrate` reports (their parity; a site seen by one alone fails the run too).
// Both run as a user runs them, on the repository's paths with no `--ignore`: a helper's callers in
// the project's tests are seen and updated as they would be. A repository's `ignore` patterns (its
// tests) only keep the sites reported in those files out of the parity check and the unlabelled list.
// It reads the built CLI (`npm run build` first). The copies are never fetched here; see
// fixtures/real-code/README.md. With `--with-sdk DIR`, it runs a second time on copies under DIR
// whose parent holds a node_modules with the MCP SDK, so receivers resolve through the types
// (several directories, joined like PATH).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

// A repository once held out and measured keeps `heldOutUntil` (the stop at which its one held-out
// figure was taken) after it joins the tuning set, so its later figures are not read as unseen code.
/** @typedef {{ name: string, commit: string, paths: string[], ignore: string[], heldOut: boolean, heldOutUntil?: string }} Repo */
/** @typedef {{ repo: string, file: string, line: number, label: 'eligible' | 'not-eligible', reason: string }} SiteLabel */
/** @typedef {{ repos: Repo[], sites: SiteLabel[] }} LabelsFile */
/** @typedef {{ file: string, line: number, kind: string, reason?: string }} ReportSite */
/** @typedef {{ rewritten: ReportSite[], manual: ReportSite[] }} Report */
/** @typedef {{ outcome: 'rewritten' | 'manual' | 'unseen', kind?: string, reason?: string }} Outcome */
/** @typedef {{ line: number, ruleId: string | null, messageId?: string, message: string }} LintMessage */
/** @typedef {{ filePath: string, messages: LintMessage[] }} LintResult */

const root = path.resolve(import.meta.dirname, '..');
const CLI = path.join(root, 'packages/cli/dist/src/bin.js');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'with-sdk': { type: 'string' } },
});
/** @type {LabelsFile} */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a .js script: JSON.parse is untyped, the @type above says what the file holds
const { repos, sites } = JSON.parse(
  readFileSync(path.join(root, 'fixtures/real-code/rewrite-labels.json'), 'utf8'),
);

// Several directories may hold the copies (the held-out ones apart from those tuned on); the first
// that has a repository is used.
const corpora =
  positionals.length > 0 ? positionals : (process.env.MCP_MRTR_REAL_CODE?.split(path.delimiter) ?? []);
if (!corpora.some((directory) => existsSync(directory))) {
  console.error(
    `real-code:rewrite: no local corpus${corpora.length === 0 ? '' : ` at ${corpora.join(', ')}`}; skipped. Export the ` +
      'repositories listed in fixtures/real-code/rewrite-labels.json (one tree per repository, named ' +
      'owner+name, at the pinned commit) and pass their parent directory as the argument or MCP_MRTR_REAL_CODE.',
  );
  process.exit(0);
}
if (!existsSync(CLI)) {
  console.error(`real-code:rewrite: ${path.relative(root, CLI)} is missing; run \`npm run build\` first.`);
  process.exit(2);
}

/**
 * The push-question sites a dry run of `mrtr-handlers` reports in one copy, by `file:line`.
 * Report entries that are not push questions (state keys, adapters, notes) carry no question kind.
 * @param {Repo} repo @param {string} directory @returns {Map<string, Outcome>}
 */
function outcomesOf(repo, directory) {
  const parsed = /** @type {Report} */ (
    runCli(repo, directory, 'migrate', ['--transform', 'mrtr-handlers', '--allow-unresolved'], '--report')
  );
  const ignored = ignoredBy(repo);
  /** @type {Map<string, Outcome>} */
  const outcomes = new Map();
  for (const site of parsed.rewritten)
    if (!ignored(site.file))
      outcomes.set(`${site.file}:${site.line}`, { outcome: 'rewritten', kind: site.kind });
  for (const site of parsed.manual) {
    if (ignored(site.file)) continue;
    const key = `${site.file}:${site.line}`;
    if (!outcomes.has(key)) outcomes.set(key, { outcome: 'manual', kind: site.kind, reason: site.reason });
  }
  return outcomes;
}

/**
 * Whether a file (relative to the copy) matches the repository's `ignore` patterns, the globs of
 * the labels (`**` any number of directories, `*` any part of a name): its sites are not among
 * those labelled or compared.
 * @param {Repo} repo @returns {(file: string) => boolean}
 */
function ignoredBy(repo) {
  const patterns = repo.ignore.map(
    (glob) =>
      new RegExp(
        `^${glob
          .split(/(\*\*\/|\/\*\*|\*)/)
          .map((part) =>
            part === '**/'
              ? '(?:.*/)?'
              : part === '/**'
                ? '(?:/.*)?'
                : part === '*'
                  ? '[^/]*'
                  : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('')}$`,
      ),
  );
  return (file) => patterns.some((pattern) => pattern.test(file));
}

/**
 * Runs the built CLI's `command` over the repository's paths in one copy, with `outputFlag` naming
 * a scratch file for its JSON, and returns what it wrote there (exit 2 or no file fails the run).
 * @param {Repo} repo @param {string} directory @param {string} command @param {string[]} flags
 * @param {string} outputFlag @returns {unknown}
 */
function runCli(repo, directory, command, flags, outputFlag) {
  const scratch = mkdtempSync(path.join(tmpdir(), `mcp-mrtr-${command}-`));
  const output = path.join(scratch, `${command}.json`);
  try {
    const result = spawnSync(
      process.execPath,
      [CLI, command, '--quiet', ...flags, outputFlag, output, ...repo.paths],
      { cwd: directory, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    if (result.status === 2 || !existsSync(output)) {
      throw new Error(`${command} failed in ${directory} (exit ${result.status}):\n${result.stderr}`);
    }
    return JSON.parse(readFileSync(output, 'utf8'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The catalog rules whose `call`, `send` and `legacyError` findings are push questions. */
const PUSH_RULES = new Set([
  '@mcp-mrtr/no-push-elicitation',
  '@mcp-mrtr/no-deprecated-sampling',
  '@mcp-mrtr/no-deprecated-roots',
]);

/**
 * Whether a `check` finding is a push question, the sites `migrate` lists: a call or send of
 * elicitation, sampling or `roots/list` (not a roots notification), or a thrown
 * `UrlElicitationRequiredError`. @param {LintMessage} message
 */
function isPushFinding(message) {
  if (message.ruleId === null || !PUSH_RULES.has(message.ruleId)) return false;
  if (message.messageId === 'legacyError') return true;
  if (message.messageId !== 'call' && message.messageId !== 'send') return false;
  return message.ruleId !== '@mcp-mrtr/no-deprecated-roots' || /\broots\/list\b/.test(message.message);
}

/**
 * The push sites `check` reports in one copy over the repository's paths, by `file:line`.
 * @param {Repo} repo @param {string} directory @returns {Map<string, string>}
 */
function checkSitesOf(repo, directory) {
  const results = /** @type {LintResult[]} */ (
    runCli(repo, directory, 'check', ['--format', 'json'], '--output')
  );
  const ignored = ignoredBy(repo);
  /** @type {Map<string, string>} */
  const found = new Map();
  for (const { filePath, messages } of results) {
    const file = path.relative(directory, filePath).split(path.sep).join('/');
    if (ignored(file)) continue;
    for (const message of messages) {
      if (isPushFinding(message))
        found.set(
          `${file}:${message.line}`,
          `${message.ruleId?.replace('@mcp-mrtr/', '')} ${message.messageId}`,
        );
    }
  }
  return found;
}

/** @param {number} part @param {number} whole */
const percent = (part, whole) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`);

/** The copy of a repository in the first of `bases` that has one. @param {string[]} bases @param {string} name */
const copyOf = (bases, name) =>
  bases.map((base) => path.join(base, name)).find((directory) => existsSync(directory));

/**
 * One pass over the corpus in `bases`: per-repository rows, totals per set, the manual reasons and
 * the defects. Returns whether no not-eligible site was rewritten.
 * @param {string[]} bases @param {string} title
 */
function measure(bases, title) {
  console.log(`\n## ${title}\n`);
  console.log('repository\tset\teligible\trewritten\tmanual\tunseen\trate\tonly-check\tonly-migrate');
  /** @type {Record<'tuning' | 'held-out', { eligible: number, rewritten: number }>} */
  const totals = { tuning: { eligible: 0, rewritten: 0 }, 'held-out': { eligible: 0, rewritten: 0 } };
  /** @type {Map<string, number>} */
  const manualReasons = new Map();
  /** @type {string[]} */
  const defects = [];
  /** @type {string[]} */
  const unlabelled = [];
  /** @type {string[]} */
  const disagreements = [];
  for (const repo of repos) {
    const directory = copyOf(bases, repo.name);
    if (directory === undefined) {
      console.error(`real-code:rewrite: ${repo.name} not in ${bases.join(', ')}; skipped`);
      continue;
    }
    console.error(`real-code:rewrite: migrating ${repo.name} @ ${repo.commit.slice(0, 12)} (dry run)`);
    const outcomes = outcomesOf(repo, directory);
    const labels = sites.filter((site) => site.repo === repo.name);
    const labelled = new Set(labels.map((site) => `${site.file}:${site.line}`));
    let eligible = 0;
    let rewritten = 0;
    let manual = 0;
    let unseen = 0;
    for (const site of labels) {
      const outcome = outcomes.get(`${site.file}:${site.line}`) ?? { outcome: 'unseen' };
      if (site.label === 'not-eligible') {
        if (outcome.outcome === 'rewritten')
          defects.push(`${repo.name} ${site.file}:${site.line} (${site.reason})`);
        continue;
      }
      eligible += 1;
      if (outcome.outcome === 'rewritten') rewritten += 1;
      else if (outcome.outcome === 'manual') {
        manual += 1;
        const reason = outcome.reason ?? outcome.kind ?? 'unknown';
        manualReasons.set(reason, (manualReasons.get(reason) ?? 0) + 1);
      } else unseen += 1;
    }
    for (const [key, outcome] of outcomes) {
      if (!labelled.has(key) && outcome.kind !== undefined && isQuestionKind(outcome.kind)) {
        unlabelled.push(`${repo.name} ${key} ${outcome.outcome} ${outcome.kind}`);
      }
    }
    console.error(`real-code:rewrite: checking ${repo.name}`);
    const checked = checkSitesOf(repo, directory);
    let onlyCheck = 0;
    let onlyMigrate = 0;
    for (const [key, finding] of checked) {
      const kind = outcomes.get(key)?.kind;
      if (kind === undefined || !isPushKind(kind)) {
        onlyCheck += 1;
        disagreements.push(`only check reports ${repo.name} ${key} (${finding})`);
      }
    }
    for (const [key, outcome] of outcomes) {
      if (outcome.kind !== undefined && isPushKind(outcome.kind) && !checked.has(key)) {
        onlyMigrate += 1;
        disagreements.push(`only migrate reports ${repo.name} ${key} (${outcome.outcome} ${outcome.kind})`);
      }
    }
    const set = repo.heldOut ? 'held-out' : 'tuning';
    totals[set].eligible += eligible;
    totals[set].rewritten += rewritten;
    console.log(
      `${repo.name}\t${set}\t${eligible}\t${rewritten}\t${manual}\t${unseen}\t${percent(rewritten, eligible)}\t${onlyCheck}\t${onlyMigrate}`,
    );
  }
  for (const [set, total] of Object.entries(totals)) {
    console.log(
      `\n${set}: ${total.rewritten}/${total.eligible} eligible push questions rewritten (${percent(total.rewritten, total.eligible)})`,
    );
  }
  if (manualReasons.size > 0) console.log('\nmanual, by reason:');
  for (const [reason, count] of [...manualReasons].sort((a, b) => b[1] - a[1]))
    console.log(`  ${count}\t${reason}`);
  for (const defect of defects) console.log(`DEFECT, a not-eligible site was rewritten: ${defect}`);
  for (const site of unlabelled) console.log(`unlabelled site: ${site}`);
  console.log(`\nparity: ${disagreements.length} push sites seen by only one of check and migrate`);
  for (const disagreement of disagreements) console.log(`PARITY, ${disagreement}`);
  return defects.length === 0 && disagreements.length === 0;
}

/** Report kinds that stand for a push question (not setup, keys or notes). */
function isQuestionKind(/** @type {string} */ kind) {
  return /^(elicit|sampling|roots|url)/.test(kind);
}

/** Report kinds of a push: a question, not a deprecated but valid input request built in a result. */
function isPushKind(/** @type {string} */ kind) {
  return isQuestionKind(kind) && !kind.endsWith('-input-request');
}

let clean = measure(corpora, `Without dependencies: ${corpora.join(', ')}`);
const withSdk = values['with-sdk']?.split(path.delimiter);
if (withSdk !== undefined) clean = measure(withSdk, `MCP SDK resolvable: ${withSdk.join(', ')}`) && clean;
process.exit(clean ? 0 : 1);
