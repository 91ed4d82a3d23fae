// `npm run real-code:own-tests -- <corpus-dir> [--only owner+name]... [--work DIR]`: each public
// server in fixtures/real-code/own-tests.json, migrated as a user would, against its own type-check
// and its own tests. Per server, on a copy (the corpus is never written to):
//   1. install with the server's package manager, then run its type-check and tests (BEFORE);
//   2. run the built CLI, `migrate --write`, on the server's source directories;
//   3. follow the install advice migrate reports, with the packed runtime in place of the registry
//      name, then re-install with the plain install command of the package manager;
//   4. run the type-check and tests again (AFTER).
// It prints a table and writes every log, the diff and results.json under the work directory.
// Any test or type error AFTER that was not there BEFORE is a defect of the migration; a test that
// fails only AFTER is first run again alone, as a test near its timeout fails by load alone.
//
// The runtime is not published: `npm pack` of packages/runtime and of packages/core (the runtime's
// one unpublished dependency) stands in for the registry. Where the advice names
// `@mcp-mrtr/runtime@<range>`, the runtime tarball is installed instead, with the core tarball
// beside it so the package manager does not look for `@mcp-mrtr/core` on the registry. Every other
// package the advice names (an SDK upgrade) is installed from the registry as printed.
// Build first (`npm run build`): the script packs the built runtime and runs the built CLI.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * @typedef {{
 *   name: string, commit: string, packageManager: 'npm' | 'pnpm' | 'yarn',
 *   install: string, reinstall: string, typecheck: string,
 *   test: { command: string, runner: 'vitest' | 'jest', env?: Record<string, string> },
 *   migrate: string[], offline: string
 * }} Server
 */
/** @typedef {{ exit: number | null, log: string }} Step */
/**
 * @typedef {{ passed: number, failed: number, failedToLoad: string[],
 *   failures: string[], error?: string }} TestResults
 * `failures` are `<test file> > <test's full name>`, the test file relative to the server.
 */

const root = path.resolve(import.meta.dirname, '..');
const CLI = path.join(root, 'packages/cli/dist/src/bin.js');
const RUNTIME = '@mcp-mrtr/runtime';
/** Long enough for an install on a busy machine; a step that takes longer is reported as failed. */
const STEP_TIMEOUT_MS = 30 * 60 * 1000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    only: { type: 'string', multiple: true },
    work: { type: 'string', default: path.join(tmpdir(), 'mcp-mrtr-own-tests') },
  },
});
/** @type {{ servers: Server[] }} */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a .js script: JSON.parse is untyped, the @type above says what the file holds
const { servers } = JSON.parse(readFileSync(path.join(root, 'fixtures/real-code/own-tests.json'), 'utf8'));

const corpus = positionals[0] ?? process.env.MCP_MRTR_REAL_CODE?.split(path.delimiter)[0];
if (corpus === undefined || !existsSync(corpus)) {
  console.error(
    `real-code:own-tests: no local corpus${corpus === undefined ? '' : ` at ${corpus}`}; skipped. Export the ` +
      'repositories listed in fixtures/real-code/own-tests.json (one tree per repository, named owner+name, ' +
      'at the pinned commit) and pass their parent directory as the argument or MCP_MRTR_REAL_CODE.',
  );
  process.exit(0);
}
if (!existsSync(CLI)) {
  console.error(`real-code:own-tests: ${path.relative(root, CLI)} is missing; run \`npm run build\` first.`);
  process.exit(2);
}
const work = path.resolve(values.work);
mkdirSync(work, { recursive: true });

/**
 * PATH with the package manager a project pins in its `packageManager` field (pnpm or yarn) first,
 * installed with npm into the work directory, so nothing is installed globally and npm checks the
 * tarball's integrity. (Corepack would do the same, but the one shipped with Node 20 refuses the
 * registry's current signatures.) npm projects use the npm running this script.
 * @param {string} dir the server's copy @returns {string}
 */
function pathWithPackageManager(dir) {
  /** @type {{ packageManager?: string }} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the project's manifest
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const pinned = /^(pnpm|yarn)@([^+]+)/.exec(manifest.packageManager ?? '');
  if (pinned === null) return process.env.PATH ?? '';
  const spec = `${pinned[1]}@${pinned[2]}`;
  const prefix = path.join(work, 'tools', spec);
  if (!existsSync(path.join(prefix, 'node_modules', '.bin', pinned[1]))) {
    mkdirSync(prefix, { recursive: true });
    const installed = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', spec], {
      encoding: 'utf8',
    });
    if (installed.status !== 0)
      console.error(`real-code:own-tests: could not install ${spec}: ${installed.stderr}`);
  }
  return `${path.join(prefix, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`;
}

/**
 * Runs a shell command (the servers' own scripts are shell lines) and keeps its output in `log`.
 * @param {string} command @param {string} cwd @param {string} log @param {Record<string, string>} [env]
 * @returns {Step}
 */
function run(command, cwd, log, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, {
    cwd,
    shell: true,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: STEP_TIMEOUT_MS,
    env: {
      ...process.env,
      // Installs and tests run unattended: no git hooks set up by husky, no prompts, no audit.
      CI: 'true',
      HUSKY: '0',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      ...env,
    },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(
    log,
    `$ ${command}\n(cwd ${cwd}; exit ${result.status ?? result.signal}; ${seconds}s)\n\n${result.stdout}\n${result.stderr}`,
  );
  return { exit: result.status, log };
}

/** Type errors a `tsc` run printed, counted by their `error TSnnnn` lines. @param {string} log */
function typeErrors(log) {
  return (readFileSync(log, 'utf8').match(/error TS\d+:/g) ?? []).length;
}

/** The reporter options that make each runner write Jest's JSON result format to `file`. */
const JSON_REPORTER = {
  vitest: (/** @type {string} */ file) => `--reporter=default --reporter=json --outputFile.json=${file}`,
  jest: (/** @type {string} */ file) => `--json --outputFile=${file}`,
};

/**
 * Runs the tests and reads their JSON results: passed and failed tests, and the test files that
 * failed before any test ran (a module that does not load, an import that throws).
 * @param {Server} server @param {string} cwd @param {string} prefix
 * @param {Record<string, string>} env @param {string[]} [files] only these test files (both runners take paths as filters)
 * @returns {TestResults}
 */
function runTests(server, cwd, prefix, env, files = []) {
  const results = `${prefix}-tests.json`;
  rmSync(results, { force: true });
  run(
    [server.test.command, ...files, JSON_REPORTER[server.test.runner](results)].join(' '),
    cwd,
    `${prefix}-tests.log`,
    { ...env, ...server.test.env },
  );
  if (!existsSync(results)) {
    return {
      passed: 0,
      failed: 0,
      failedToLoad: [],
      failures: [],
      error: `no results; see ${prefix}-tests.log`,
    };
  }
  /** @type {{ testResults: { name: string, status: string, assertionResults: { fullName: string, status: string }[] }[] }} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the runners' JSON result file
  const report = JSON.parse(readFileSync(results, 'utf8'));
  const tests = report.testResults.flatMap((suite) =>
    suite.assertionResults.map((test) => ({
      ...test,
      fullName: `${path.relative(cwd, suite.name)} > ${test.fullName}`,
    })),
  );
  return {
    passed: tests.filter((test) => test.status === 'passed').length,
    failed: tests.filter((test) => test.status === 'failed').length,
    failedToLoad: report.testResults
      .filter((suite) => suite.status === 'failed' && suite.assertionResults.length === 0)
      .map((suite) => path.relative(cwd, suite.name)),
    failures: tests.filter((test) => test.status === 'failed').map((test) => test.fullName),
  };
}

/**
 * The files a package's `exports` map points at, for the conditions a user's resolver reads
 * (the in-repository `@mcp-mrtr/source` condition points at sources that are not shipped).
 * @param {unknown} target @returns {string[]}
 */
function exportTargets(target) {
  if (typeof target === 'string') return [path.posix.normalize(target)];
  if (target === null || typeof target !== 'object') return [];
  return Object.entries(target)
    .filter(([condition]) => condition !== '@mcp-mrtr/source')
    .flatMap(([, each]) => exportTargets(each));
}

/**
 * `npm pack` of one of our packages into `destination`; returns the tarball's path. Refuses a
 * tarball that lacks a file its `exports` names (a build not run, or only half of it: the ESM in
 * dist/ and the CommonJS in commonjs/ are built by `npm run build`).
 * @param {string} pkg @param {string} destination
 */
function pack(pkg, destination) {
  const directory = path.join(root, 'packages', pkg);
  const result = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: directory,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm pack failed in packages/${pkg}:\n${result.stderr}`);
  /** @type {{ filename: string, files: { path: string }[] }[]} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- npm pack --json
  const [packed] = JSON.parse(result.stdout);
  const shipped = new Set(packed.files.map((file) => file.path));
  /** @type {{ exports: unknown }} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the package's own manifest
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  const missing = exportTargets(manifest.exports).filter((file) => !shipped.has(file));
  if (missing.length > 0) {
    throw new Error(
      `packages/${pkg} packs without ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}, which its exports name; run \`npm run build\` first.`,
    );
  }
  return path.join(destination, packed.filename);
}

/**
 * Whether a report entry is a push question, not a helper's call site, setup, keys or a note (as
 * in real-code-rewrite.js).
 * @param {{ kind: string }} site
 */
function isPushQuestion(site) {
  return /^(elicit|sampling|roots|url)/.test(site.kind);
}

/** The command that adds packages with each package manager. */
const ADD = { npm: 'npm install', pnpm: 'pnpm add', yarn: 'yarn add', bun: 'bun add' };

/**
 * Where a package manager takes a package's replacement for every dependent, in package.json:
 * the runtime tarball's own dependency on `@mcp-mrtr/core` must come from the core tarball too.
 * npm needs none: it takes the core tarball installed beside the runtime as that dependency.
 * @typedef {{ pnpm?: { overrides?: Record<string, string> }, resolutions?: Record<string, string> }} Manifest
 * @type {Partial<Record<keyof ADD, (manifest: Manifest, core: string) => void>>}
 */
const PIN_CORE = {
  pnpm: (manifest, core) => {
    manifest.pnpm = {
      ...manifest.pnpm,
      overrides: { ...manifest.pnpm?.overrides, '@mcp-mrtr/core': `file:${core}` },
    };
  },
  yarn: (manifest, core) => {
    manifest.resolutions = { ...manifest.resolutions, '@mcp-mrtr/core': `file:${core}` };
  },
};

/**
 * The install advice of a migrate report as commands, the runtime's registry spec replaced by
 * the tarballs (and, for pnpm and yarn, `@mcp-mrtr/core` pinned to its tarball in package.json).
 * @param {{ install: { packageJson: string | null, packageManager: keyof ADD, packages: string[] }[] }} report
 * @param {{ runtime: string, core: string }} tarballs @param {string} cwd
 */
function adviceCommands(report, tarballs, cwd) {
  return report.install.map((advice) => {
    const directory = advice.packageJson === null ? cwd : path.join(cwd, path.dirname(advice.packageJson));
    const pinCore = PIN_CORE[advice.packageManager];
    const manifestFile = path.join(directory, 'package.json');
    if (pinCore !== undefined && existsSync(manifestFile)) {
      /** @type {Manifest} */
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the project's manifest
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
      pinCore(manifest, tarballs.core);
      writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    const packages = advice.packages.flatMap((spec) =>
      spec === RUNTIME || spec.startsWith(`${RUNTIME}@`)
        ? [tarballs.runtime, ...(pinCore === undefined ? [tarballs.core] : [])]
        : [`'${spec}'`],
    );
    return { cwd: directory, command: `${ADD[advice.packageManager]} ${packages.join(' ')}` };
  });
}

/**
 * The whole proof for one server; undefined when the server does not install before migration.
 * @param {Server} server @param {{ runtime: string, core: string }} tarballs
 */
function prove(server, tarballs) {
  const source = path.join(corpus, server.name);
  const dir = path.join(work, 'servers', server.name);
  const logs = path.join(work, 'logs', server.name);
  rmSync(dir, { recursive: true, force: true });
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  cpSync(source, dir, { recursive: true });
  // A repository of its own, so migrate --write sees clean files and the diff can be kept.
  run(
    'git init -q && git add -A && git -c user.name=own-tests -c user.email=own-tests@localhost commit -qm corpus',
    dir,
    path.join(logs, 'git-init.log'),
  );
  const log = (/** @type {string} */ name) => path.join(logs, name);
  const env = { PATH: pathWithPackageManager(dir) };
  console.error(`${server.name}: install`);
  const installBefore = run(server.install, dir, log('install-before.log'), env);
  // Without its dependencies, nothing after says anything about the migration.
  if (installBefore.exit !== 0) return undefined;
  console.error(`${server.name}: type-check and tests before`);
  const typecheckBefore = run(server.typecheck, dir, log('before-typecheck.log'), env);
  const testsBefore = runTests(server, dir, log('before'), env);

  console.error(`${server.name}: migrate --write ${server.migrate.join(' ')}`);
  const report = log('migrate-report.json');
  const migrate = run(
    `node ${CLI} migrate --write --report ${report} ${server.migrate.join(' ')}`,
    dir,
    log('migrate.log'),
    env,
  );
  run('git diff', dir, log('migrate.diff'));
  /** @type {{ rewritten: { kind: string }[], manual: { kind: string }[], install: { packageJson: string | null, packageManager: keyof ADD, packages: string[] }[] }} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- migrate's JSON report
  const migration = existsSync(report)
    ? JSON.parse(readFileSync(report, 'utf8'))
    : { rewritten: [], manual: [], install: [] };
  const advice = adviceCommands(migration, tarballs, dir).map((step, index) =>
    run(step.command, step.cwd, log(`install-advice-${index}.log`), env),
  );
  console.error(`${server.name}: ${server.reinstall}`);
  const reinstall = run(server.reinstall, dir, log('install-after.log'), env);
  console.error(`${server.name}: type-check and tests after`);
  const typecheckAfter = run(server.typecheck, dir, log('after-typecheck.log'), env);
  const testsAfter = runTests(server, dir, log('after'), env);

  // A test that fails only after is run again, its file alone: on a shared machine a test near
  // its timeout fails by load, and only a failure that repeats is counted as the migration's.
  const failedOnce = testsAfter.failures.filter((name) => !testsBefore.failures.includes(name));
  const rerun =
    failedOnce.length === 0
      ? undefined
      : runTests(server, dir, log('after-rerun'), env, [
          ...new Set(failedOnce.map((name) => name.split(' > ')[0])),
        ]);
  const newFailures = failedOnce.filter(
    (name) => rerun?.error !== undefined || rerun?.failures.includes(name),
  );
  const flaky = failedOnce.filter((name) => !newFailures.includes(name));
  const newLoadFailures = testsAfter.failedToLoad.filter((file) => !testsBefore.failedToLoad.includes(file));
  return {
    server: server.name,
    migrateExit: migrate.exit,
    rewritten: migration.rewritten.length,
    pushRewritten: migration.rewritten.filter(isPushQuestion).length,
    manual: migration.manual.length,
    pushManual: migration.manual.filter(isPushQuestion).length,
    installAfter: advice.every((step) => step.exit === 0) && reinstall.exit === 0,
    adviceCommands: advice.length,
    typeErrors: { before: typeErrors(typecheckBefore.log), after: typeErrors(typecheckAfter.log) },
    tests: { before: testsBefore, after: testsAfter },
    newFailures,
    flaky,
    newLoadFailures,
  };
}

const tarballs = (() => {
  const destination = path.join(work, 'packs');
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  try {
    return { runtime: pack('runtime', destination), core: pack('core', destination) };
  } catch (error) {
    console.error(`real-code:own-tests: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
})();

const chosen =
  values.only === undefined ? servers : servers.filter((server) => values.only?.includes(server.name));
const results = [];
/** Servers whose own install failed before migration: nothing is proven on them. */
const notInstalled = [];
for (const server of chosen) {
  if (!existsSync(path.join(corpus, server.name))) {
    console.error(`${server.name}: not in ${corpus}; skipped`);
    continue;
  }
  const result = prove(server, tarballs);
  if (result === undefined) notInstalled.push(server.name);
  else results.push(result);
  writeFileSync(path.join(work, 'results.json'), `${JSON.stringify({ results, notInstalled }, null, 2)}\n`);
}

/** @param {TestResults} tests */
const testCell = (tests) =>
  tests.error === undefined ? `${tests.passed}/${tests.failed}/${tests.failedToLoad.length}` : 'no results';
console.log(
  '| server | rewritten (push questions) | manual (push questions) | install after | type errors before → after | tests before: passed/failed/suites not loaded | after |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const result of results) {
  console.log(
    `| ${result.server} | ${result.rewritten} (${result.pushRewritten}) | ${result.manual} (${result.pushManual}) | ${result.installAfter ? 'ok' : 'FAILED'} | ` +
      `${result.typeErrors.before} → ${result.typeErrors.after} | ${testCell(result.tests.before)} | ${testCell(result.tests.after)} |`,
  );
}
for (const name of notInstalled) {
  console.log(
    `| ${name} | its own install failed before migration: see ${path.join(work, 'logs', name)} |||||`,
  );
}
const defects = results.filter(
  (result) =>
    !result.installAfter ||
    result.typeErrors.after > result.typeErrors.before ||
    result.newFailures.length > 0 ||
    result.newLoadFailures.length > 0 ||
    (result.tests.after.error !== undefined && result.tests.before.error === undefined),
);
for (const result of defects) {
  console.log(
    `\n${result.server}: new failures after the migration (logs in ${path.join(work, 'logs', result.server)})`,
  );
  if (!result.installAfter) console.log('  install failed');
  for (const file of result.newLoadFailures) console.log(`  suite not loaded: ${file}`);
  for (const name of result.newFailures) console.log(`  test failed: ${name}`);
  if (result.typeErrors.after > result.typeErrors.before)
    console.log(`  type errors: ${result.typeErrors.before} → ${result.typeErrors.after}`);
}
for (const result of results.filter((each) => each.flaky.length > 0)) {
  console.log(`\n${result.server}: failed after, then passed when run again (load, not the migration)`);
  for (const name of result.flaky) console.log(`  ${name}`);
}
process.exitCode = defects.length > 0 ? 1 : 0;
