import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReport, formatMarkdownReport, type MigrationResult } from '@mcp-mrtr/codemod';
import { minVersion, satisfies } from '../src/report/version-range.js';

// What `migrate` says to install (issue 24 item 6): the runtime with the command of the
// project's package manager, and an SDK upgrade only when the runtime's peer range rules out the
// SDK the project has. The runtime's package.json gives the ranges, copied into the codemod when
// it is built (scripts/runtime-release.js), since a published CLI has no runtime beside it.

const REPO = path.resolve(import.meta.dirname, '../../..');

const RUNTIME_MANIFEST = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../runtime/package.json'), 'utf8'),
) as { version: string; peerDependencies: Record<string, string> };
const SDK_RANGE = RUNTIME_MANIFEST.peerDependencies['@modelcontextprotocol/sdk']!;
const RUNTIME_SPEC = `@mcp-mrtr/runtime@^${RUNTIME_MANIFEST.version}`;

let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A project tree in a temporary directory: relative path → file text. */
function project(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-install-'));
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), text);
  }
  return root;
}

/** A run whose rewritten `server.ts` under `dir` imports the runtime its package.json lacks. */
function runIn(dir: string): MigrationResult {
  const file = path.join(dir, 'src', 'server.ts');
  return {
    files: [],
    nonCandidates: 0,
    candidates: 1,
    projects: [],
    transforms: ['mrtr-handlers'],
    missingDependencies: [
      { name: '@mcp-mrtr/runtime', packageJson: path.join(dir, 'package.json'), files: [file] },
    ],
  };
}

const manifest = (dependencies: Record<string, string>) => JSON.stringify({ name: 'server', dependencies });

describe('install advice', () => {
  it('presumes npm without a lock file, and pins the runtime to its own version', () => {
    const dir = project({ 'package.json': manifest({}) });
    const report = buildReport(runIn(dir), 'dry-run', dir);
    expect(report.install).toEqual([
      {
        packageJson: 'package.json',
        packageManager: 'npm',
        lockFile: null,
        packages: [RUNTIME_SPEC],
        upgrades: [],
        command: `npm install '${RUNTIME_SPEC}'`,
      },
    ]);
  });

  it.each([
    ['pnpm-lock.yaml', 'pnpm add'],
    ['yarn.lock', 'yarn add'],
    ['bun.lock', 'bun add'],
    ['package-lock.json', 'npm install'],
  ])('reads the package manager from %s at the workspace root', (lockFile, add) => {
    const dir = project({ [lockFile]: '', 'packages/server/package.json': manifest({}) });
    const report = buildReport(runIn(path.join(dir, 'packages/server')), 'dry-run', dir);
    expect(report.install).toMatchObject([
      { packageJson: 'packages/server/package.json', lockFile, command: `${add} '${RUNTIME_SPEC}'` },
    ]);
  });

  it('asks for no SDK upgrade when the installed SDK fits the peer range', () => {
    const dir = project({
      'package.json': manifest({ '@modelcontextprotocol/sdk': '^1.0.0' }),
      'node_modules/@modelcontextprotocol/sdk/package.json': JSON.stringify({
        version: minVersion(SDK_RANGE),
      }),
    });
    expect(buildReport(runIn(dir), 'dry-run', dir).install[0]?.upgrades).toEqual([]);
  });

  it('asks for the SDK upgrade, with the reason, when the installed SDK is below the peer range', () => {
    const dir = project({
      'package.json': manifest({ '@modelcontextprotocol/sdk': '1.0.0' }),
      'node_modules/@modelcontextprotocol/sdk/package.json': JSON.stringify({ version: '1.0.0' }),
    });
    const [advice] = buildReport(runIn(dir), 'dry-run', dir).install;
    expect(advice?.upgrades).toEqual([
      {
        name: '@modelcontextprotocol/sdk',
        range: SDK_RANGE,
        reason: `@mcp-mrtr/runtime needs @modelcontextprotocol/sdk ${SDK_RANGE} (its peer range); 1.0.0 is installed`,
      },
    ]);
    expect(advice?.command).toBe(`npm install '${RUNTIME_SPEC}' '@modelcontextprotocol/sdk@${SDK_RANGE}'`);
  });

  it('judges by the lowest declared version when the SDK is not installed', () => {
    const dir = project({ 'package.json': manifest({ '@modelcontextprotocol/sdk': '^1.0.0' }) });
    expect(buildReport(runIn(dir), 'dry-run', dir).install[0]?.upgrades).toEqual([
      {
        name: '@modelcontextprotocol/sdk',
        range: SDK_RANGE,
        reason: `@mcp-mrtr/runtime needs @modelcontextprotocol/sdk ${SDK_RANGE} (its peer range); package.json allows ^1.0.0, down to 1.0.0`,
      },
    ]);
  });

  it('names the runtime release and its peer ranges with no runtime installed beside the codemod', () => {
    const dir = project({
      'project/package.json': manifest({ '@modelcontextprotocol/sdk': '1.0.0' }),
      'project/node_modules/@modelcontextprotocol/sdk/package.json': JSON.stringify({ version: '1.0.0' }),
      'advise.mjs': `import path from 'node:path';
import { buildReport } from '@mcp-mrtr/codemod';
const dir = path.resolve('project');
const file = path.join(dir, 'src', 'server.ts');
const result = {
  files: [], nonCandidates: 0, candidates: 1, projects: [], transforms: ['mrtr-handlers'],
  missingDependencies: [{ name: '@mcp-mrtr/runtime', packageJson: path.join(dir, 'package.json'), files: [file] }],
};
process.stdout.write(JSON.stringify(buildReport(result, 'dry-run', dir).install));
`,
    });
    // The codemod as a published CLI installs it: every package of this repository's
    // node_modules but the runtime, linked in place and resolved from where the links are.
    const modules = path.join(dir, 'node_modules');
    mkdirSync(path.join(modules, '@mcp-mrtr'), { recursive: true });
    for (const entry of readdirSync(path.join(REPO, 'node_modules'))) {
      if (entry !== '@mcp-mrtr')
        symlinkSync(path.join(REPO, 'node_modules', entry), path.join(modules, entry));
    }
    for (const entry of readdirSync(path.join(REPO, 'node_modules/@mcp-mrtr'))) {
      if (entry === 'runtime') continue;
      const target = realpathSync(path.join(REPO, 'node_modules/@mcp-mrtr', entry));
      symlinkSync(target, path.join(modules, '@mcp-mrtr', entry));
    }
    const stdout = execFileSync(
      process.execPath,
      ['--preserve-symlinks', '--conditions=@mcp-mrtr/source', '--import', 'tsx', 'advise.mjs'],
      { cwd: dir, encoding: 'utf8' },
    );
    const [advice] = JSON.parse(stdout) as { command: string }[];
    expect(advice?.command).toBe(`npm install '${RUNTIME_SPEC}' '@modelcontextprotocol/sdk@${SDK_RANGE}'`);
  }, 60_000);

  it('carries the runtime release its package.json gives', () => {
    // Exits 1, naming the module, when the module and the manifest differ.
    execFileSync(process.execPath, [path.join(REPO, 'scripts/runtime-release.js'), '--check'], {
      encoding: 'utf8',
    });
  });

  it('says so in the Markdown report', () => {
    const dir = project({ 'pnpm-lock.yaml': '', 'package.json': manifest({}) });
    const markdown = formatMarkdownReport(buildReport(runIn(dir), 'dry-run', dir));
    expect(markdown).toContain(
      `## To install\n\nRun beside package.json (pnpm, from pnpm-lock.yaml):\n\n\`\`\`sh\npnpm add '${RUNTIME_SPEC}'\n\`\`\``,
    );
  });
});

describe('version ranges', () => {
  it.each([
    ['1.15.0', '^1.17.0', false],
    ['1.17.0', '^1.17.0', true],
    ['2.0.0', '^1.17.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.9.0', '>=1.2.0 <2', true],
    ['2.1.0', '^1.0.0 || ^2.0.0', true],
    ['1.4.0', '1.x', true],
    ['1.4.0', '1.2.0 - 1.3.9', false],
    ['1.4.0', '*', true],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('reads the lowest version a declared range allows, and nothing from what it cannot read', () => {
    expect(minVersion('^1.15.0')).toBe('1.15.0');
    expect(minVersion('~1.29')).toBe('1.29.0');
    expect(minVersion('>1.2.3')).toBe('1.2.4');
    expect(minVersion('^2 || ^1.10')).toBe('1.10.0');
    expect(minVersion('latest')).toBeUndefined();
    expect(minVersion('workspace:*')).toBeUndefined();
  });
});
