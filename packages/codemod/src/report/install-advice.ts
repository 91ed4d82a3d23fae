import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { MigrationResult } from '../engine/migration-result.js';
import { RUNTIME_RELEASE } from './runtime-release.js';
import { minVersion, satisfies } from './version-range.js';

// What to install after a migration, per package.json: the packages the rewritten code imports
// that it does not declare, as one command of the project's package manager, and an SDK upgrade
// only where the runtime's peer range rules out the SDK the project has installed, or, when nothing
// is installed, the lowest one it declares. The runtime is the one the project has installed, else
// the release this codemod writes code for (runtime-release.ts, copied from the runtime's
// package.json at build time: a published CLI has no runtime of its own to read).

export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** Lock files by package manager, in the order they are looked for in each directory. */
const LOCK_FILES: readonly (readonly [string, PackageManager])[] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const ADD_COMMAND: Readonly<Record<PackageManager, string>> = {
  npm: 'npm install',
  pnpm: 'pnpm add',
  yarn: 'yarn add',
  bun: 'bun add',
};

/** An SDK the runtime's peer range rules out, and the range to move to. */
export interface SdkUpgrade {
  readonly name: string;
  /** The runtime's peer range for it. */
  readonly range: string;
  readonly reason: string;
}

/** What to run in one package's directory. */
export interface InstallAdvice {
  /** The package.json, or undefined when the rewritten files have none. */
  readonly packageJson: string | undefined;
  readonly packageManager: PackageManager;
  /** Which lock file showed the package manager; undefined when none did and npm is presumed. */
  readonly lockFile: string | undefined;
  /** Package specs to add, with a range where one is known (`@mcp-mrtr/runtime@^0.1.0`). */
  readonly packages: readonly string[];
  readonly upgrades: readonly SdkUpgrade[];
  /** The command, run in the package.json's directory. */
  readonly command: string;
}

interface Manifest {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

function ancestors(dir: string): string[] {
  const found = [dir];
  for (let current = dir; path.dirname(current) !== current; current = path.dirname(current))
    found.push(path.dirname(current));
  return found;
}

/** The nearest lock file at or above `dir` (a workspace's lock file sits at its root). */
export function detectPackageManager(dir: string): { manager: PackageManager; lockFile?: string } {
  for (const each of ancestors(dir)) {
    for (const [name, manager] of LOCK_FILES) {
      const lockFile = path.join(each, name);
      if (existsSync(lockFile)) return { manager, lockFile };
    }
  }
  return { manager: 'npm' };
}

/** The package.json of a package installed where `dir` resolves it, as Node looks it up. */
function installedManifest(dir: string, name: string): Manifest | undefined {
  for (const each of ancestors(dir)) {
    const manifest = path.join(each, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return readManifest(manifest);
  }
  return undefined;
}

/** The runtime the project already has, else the release this codemod writes code for. */
function runtimeManifest(dir: string | undefined): Manifest {
  return (dir === undefined ? undefined : installedManifest(dir, RUNTIME_PACKAGE)) ?? RUNTIME_RELEASE;
}

function declaredRange(manifest: Manifest, name: string): string | undefined {
  return (
    manifest.dependencies?.[name] ??
    manifest.devDependencies?.[name] ??
    manifest.optionalDependencies?.[name] ??
    manifest.peerDependencies?.[name]
  );
}

/** The SDKs the project declares that the runtime's peer range rules out. */
function sdkUpgrades(dir: string, project: Manifest, runtime: Manifest): SdkUpgrade[] {
  const upgrades: SdkUpgrade[] = [];
  for (const [name, range] of Object.entries(runtime.peerDependencies ?? {})) {
    const declared = declaredRange(project, name);
    if (declared === undefined) continue;
    const installed = installedManifest(dir, name)?.version;
    const version = installed ?? minVersion(declared);
    const fits = version === undefined ? undefined : satisfies(version, range);
    if (fits === true) continue;
    const has =
      installed !== undefined
        ? `${installed} is installed`
        : version !== undefined
          ? `package.json allows ${declared}, down to ${version}`
          : `package.json asks for ${declared}, which the codemod cannot compare`;
    upgrades.push({
      name,
      range,
      reason:
        fits === undefined
          ? `${RUNTIME_PACKAGE} needs ${name} ${range}; ${has}: check that it fits`
          : `${RUNTIME_PACKAGE} needs ${name} ${range} (its peer range); ${has}`,
    });
  }
  return upgrades;
}

/** Quotes a spec for a POSIX shell when it holds a character the shell would read. */
function shellWord(word: string): string {
  return /^[\w@./:=+-]+$/.test(word) ? word : `'${word}'`;
}

/** The install advice of a run, one entry per package.json of the files whose new code needs packages. */
export function installAdvice(result: MigrationResult): InstallAdvice[] {
  const packageJsons = new Map<string | undefined, Set<string>>();
  for (const dependency of result.missingDependencies) {
    const names = packageJsons.get(dependency.packageJson) ?? new Set();
    packageJsons.set(dependency.packageJson, names.add(dependency.name));
  }
  // Packages that declare the runtime already may still need the SDK upgraded.
  const nearest = new Map(result.missingDependencies.flatMap((d) => d.files.map((f) => [f, d.packageJson])));
  for (const file of result.files) {
    if (file.status !== 'changed' || nearest.has(file.file)) continue;
    if (!file.sites.some((site) => site.rewrite?.packages.includes(RUNTIME_PACKAGE))) continue;
    const manifest = ancestors(path.dirname(file.file))
      .map((dir) => path.join(dir, 'package.json'))
      .find((candidate) => existsSync(candidate));
    if (!packageJsons.has(manifest)) packageJsons.set(manifest, new Set());
  }
  const advice: InstallAdvice[] = [];
  for (const [packageJson, names] of packageJsons) {
    const dir = packageJson === undefined ? undefined : path.dirname(packageJson);
    const runtime = runtimeManifest(dir);
    const project = packageJson === undefined ? undefined : readManifest(packageJson);
    const upgrades = dir === undefined || project === undefined ? [] : sdkUpgrades(dir, project, runtime);
    const packages = [
      ...[...names]
        .sort()
        .map((name) =>
          name === RUNTIME_PACKAGE && runtime.version !== undefined ? `${name}@^${runtime.version}` : name,
        ),
      ...upgrades.map((upgrade) => `${upgrade.name}@${upgrade.range}`),
    ];
    if (packages.length === 0) continue;
    const { manager, lockFile } =
      dir === undefined ? { manager: 'npm' as const, lockFile: undefined } : detectPackageManager(dir);
    advice.push({
      packageJson,
      packageManager: manager,
      lockFile,
      packages,
      upgrades,
      command: `${ADD_COMMAND[manager]} ${packages.map(shellWord).join(' ')}`,
    });
  }
  return advice;
}
