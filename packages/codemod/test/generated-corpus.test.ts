import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration, type MigrationResult } from '@mcp-mrtr/codemod';
import { writeCodemodCorpus } from '@mcp-mrtr/generated-corpus';

// A crash-free run over the generated codemod corpus: every shape the transforms look for, in every
// statement context, file kind and code style, mixed at random (seeded, so failures reproduce).

const REPO = path.resolve(import.meta.dirname, '../../..');
const SEED = 20260728;
const FILES = 80;

let dir: string;
let sources: Map<string, string>;
let first: MigrationResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-corpus-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const corpus = writeCodemodCorpus(dir, FILES, SEED);
  sources = new Map(corpus.sources);
  first = await planMigration({ files: corpus.files, cwd: dir, sources });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`a generated corpus of ${FILES} files (seed ${SEED})`, () => {
  it('migrates without a single failed file and rewrites as well as marks', () => {
    expect(
      first.files.filter((file) => file.status === 'failed').map((file) => `${file.file}: ${file.reason}`),
    ).toEqual([]);
    const sites = first.files.flatMap((file) => file.sites);
    expect(sites.filter((site) => site.rewrite !== undefined).length).toBeGreaterThan(50);
    expect(manualSites(first).length).toBeGreaterThan(50);
    // Some sends stay manual (their promise is used), so no logging capability may go anywhere.
    expect(sites.filter((site) => site.kind === 'capability' && site.rewrite !== undefined)).toEqual([]);
    expect(sites.filter((site) => site.kind === 'capability').length).toBeGreaterThan(20);
    const state = sites.filter((site) => site.kind === 'plaintext-read' || site.kind === 'plaintext-write');
    expect(state.filter((site) => site.rewrite !== undefined).length).toBeGreaterThan(5);
    expect(state.filter((site) => site.rewrite === undefined).length).toBeGreaterThan(5);
  });

  it('adds imports the way each file imports: ESM syntax in modules, require in CommonJS', () => {
    for (const file of first.files) {
      if (file.output === undefined || !/^\s*logToStderr\(/m.test(file.output)) continue;
      expect(file.output, file.file).toMatch(
        /^import \{ logToStderr \} from ['"]@mcp-mrtr\/runtime\/logger['"]/m,
      );
    }
    for (const file of first.files) {
      if (file.output === undefined || !file.output.includes('new RequestStateSealer(')) continue;
      expect(file.output, file.file).toMatch(
        /^import \{[^}]*\bKeyring, (?:MrtrRuntime, )?RequestStateSealer, principalFromAuth \} from ['"]@mcp-mrtr\/runtime['"]/m,
      );
    }
    for (const file of first.files) {
      if (file.output === undefined || !file.output.includes('new SdkV1Adapter(')) continue;
      expect(file.output, file.file).toMatch(
        /^import \{ SdkV1Adapter \} from ['"]@mcp-mrtr\/runtime\/sdk-v1['"]/m,
      );
    }
  });

  it('keeps each file’s line endings and byte order mark', () => {
    for (const file of first.files) {
      if (file.output === undefined) continue;
      const source = sources.get(file.file)!;
      expect(file.output.startsWith('\uFEFF'), file.file).toBe(source.startsWith('\uFEFF'));
      expect(/[^\r]\n/.test(file.output), file.file).toBe(/[^\r]\n/.test(source));
    }
  });

  it('is idempotent: a second run over the output changes nothing and reports the same manual work', async () => {
    const outputs = new Map(first.files.map((file) => [file.file, file.output ?? sources.get(file.file)!]));
    const second = await planMigration({ files: [...outputs.keys()], cwd: dir, sources: outputs });
    expect(second.files.filter((file) => file.status !== 'unchanged').map((file) => file.file)).toEqual([]);
    expect(manualSites(second).length).toBe(manualSites(first).length);
  });
});

describe('every sample server', () => {
  it.each(['fixtures/legacy-server', 'fixtures/legacy-server-v2'])(
    'migrates %s without a failed file, rewriting and marking',
    async (fixture) => {
      const root = path.join(REPO, fixture);
      const files = readdirSync(root, { recursive: true, withFileTypes: true })
        .filter(
          (entry) =>
            entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('node_modules'),
        )
        .map((entry) => path.join(entry.parentPath, entry.name));
      const result = await planMigration({ files, cwd: root });
      expect(result.files.filter((file) => file.status === 'failed')).toEqual([]);
      expect(result.files.some((file) => file.status === 'changed')).toBe(true);
      expect(result.files.flatMap((file) => file.sites).some((site) => site.rewrite !== undefined)).toBe(
        true,
      );
    },
  );
});
