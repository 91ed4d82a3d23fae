import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualSites, planMigration, type MigrationResult } from '@mcp-mrtr/codemod';
import { fixtureCases, type FixtureCase } from './fixture-cases.js';

// UPDATE_CODEMOD_FIXTURES=1 writes the engine's output to after/ for review instead of comparing.
const update = process.env.UPDATE_CODEMOD_FIXTURES === '1';

async function migrate(fixture: FixtureCase, side: 'before' | 'after'): Promise<MigrationResult> {
  return planMigration({
    files: fixture.files.map((file) => path.join(fixture.dir, side, file)),
    cwd: fixture.dir,
    ...(fixture.spec.logging === undefined ? {} : { logging: fixture.spec.logging }),
    ...(fixture.spec.handlers === undefined ? {} : { handlers: fixture.spec.handlers }),
  });
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
