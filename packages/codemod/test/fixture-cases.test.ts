import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findUnresolvedSdkPackages,
  manualSites,
  planMigration,
  type MigrationResult,
} from '@mcp-mrtr/codemod';
import { CASES_DIR, fixtureCases, type FixtureCase } from './fixture-cases.js';

// UPDATE_CODEMOD_FIXTURES=1 writes the engine's output to after/ for review instead of comparing.
const update = process.env.UPDATE_CODEMOD_FIXTURES === '1';

async function migrate(
  fixture: FixtureCase,
  side: 'before' | 'after',
  allowUnresolved = false,
): Promise<MigrationResult> {
  return planMigration({
    files: fixture.files.map((file) => path.join(fixture.dir, side, file)),
    cwd: fixture.dir,
    allowUnresolved,
    ...(fixture.spec.logging === undefined ? {} : { logging: fixture.spec.logging }),
    ...(fixture.spec.handlers === undefined ? {} : { handlers: fixture.spec.handlers }),
  });
}

const REPO = path.resolve(CASES_DIR, '../../..');
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/**
 * The case copied under the system's temporary directory, where no node_modules is reachable (a
 * checkout before `npm install`), with the tsconfig files its own extends and the package.json of
 * the package it belongs to (what it publishes), at the same relative places.
 */
function copyWithoutSdk(fixture: FixtureCase): FixtureCase {
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-no-sdk-'));
  copies.push(root);
  for (const config of [
    'tsconfig.base.json',
    'fixtures/codemod/tsconfig.json',
    'fixtures/codemod/package.json',
  ])
    cpSync(path.join(REPO, config), path.join(root, config));
  const dir = path.join(root, path.relative(REPO, fixture.dir));
  cpSync(fixture.dir, dir, { recursive: true });
  return { ...fixture, dir };
}

function describeManual(result: MigrationResult, fixture: FixtureCase): string[] {
  return manualSites(result).map(
    (site) => `${path.relative(fixture.dir, site.file)}:${site.line} ${site.ruleId}`,
  );
}

describe.each(fixtureCases())('codemod fixture $name', (fixture) => {
  it(`${fixture.spec.description}: output equals after/, re-parses, and reports the expected manual sites`, async () => {
    const result = await migrate(fixture, 'before');
    const failed = result.files
      .filter((file) => file.status === 'failed')
      .map((file) => path.relative(fixture.dir, file.file));
    expect(failed).toEqual(fixture.spec.failed ?? []);
    for (const outcome of result.files) {
      const relative = path.relative(path.join(fixture.dir, 'before'), outcome.file);
      const actual = outcome.output ?? readFileSync(outcome.file, 'utf8');
      const expectedFile = path.join(fixture.dir, 'after', relative);
      if (update) {
        mkdirSync(path.dirname(expectedFile), { recursive: true });
        writeFileSync(expectedFile, actual);
        continue;
      }
      expect(actual, relative).toBe(readFileSync(expectedFile, 'utf8'));
    }
    expect(describeManual(result, fixture)).toEqual(fixture.spec.manual);
  });

  it.skipIf(update)('changes nothing on a second run and keeps reporting the same manual work', async () => {
    const result = await migrate(fixture, 'after');
    expect(result.files.filter((file) => file.status !== 'unchanged').map((file) => file.file)).toEqual([]);
    expect(manualSites(result).length).toBe(fixture.spec.manual.length);
  });
});

describe.each(fixtureCases().filter((fixture) => fixture.spec.sameWithoutSdk === true))(
  'codemod fixture $name without the SDK installed',
  (fixture) => {
    const bare = copyWithoutSdk(fixture);

    it('--allow-unresolved gives the same output and manual sites from syntax alone', async () => {
      const files = bare.files.map((file) => path.join(bare.dir, 'before', file));
      expect(findUnresolvedSdkPackages(files).length).toBeGreaterThan(0);
      const result = await migrate(bare, 'before', true);
      expect(result.files.filter((file) => file.status === 'failed').map((file) => file.reason)).toEqual([]);
      for (const outcome of result.files) {
        const relative = path.relative(path.join(bare.dir, 'before'), outcome.file);
        const actual = outcome.output ?? readFileSync(outcome.file, 'utf8');
        expect(actual, relative).toBe(readFileSync(path.join(fixture.dir, 'after', relative), 'utf8'));
      }
      expect(describeManual(result, bare)).toEqual(fixture.spec.manual);
    });

    it('changes nothing on a second run without the SDK', async () => {
      const result = await migrate(bare, 'after', true);
      expect(result.files.filter((file) => file.status !== 'unchanged').map((file) => file.file)).toEqual([]);
      expect(manualSites(result).length).toBe(fixture.spec.manual.length);
    });
  },
);
