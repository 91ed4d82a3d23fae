import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planMigration } from '@mcp-mrtr/codemod';
import { CASES_DIR } from './fixture-cases.js';

// Planning a TypeScript program: slow on a loaded machine.
const TIMEOUT = 120_000;

// Issue 24, item 1: "use the checker's types, and syntax where types do not resolve". In the golden
// case mrtr-partial-types one module imports its billing API from a tsconfig `paths` entry that
// does not resolve (everything from it is `any`), its twin from a typed project file. The two
// handlers must come out the same: types may make a rewrite better informed, never less safe.

const CASE = path.join(CASES_DIR, 'mrtr-partial-types');
const TWINS = ['typed-tools.ts', 'untyped-tools.ts'] as const;

/** A twin's text with what tells them apart (the import, the function's name) made equal. */
function normalised(side: 'before' | 'after', file: string): string {
  return readFileSync(path.join(CASE, side, file), 'utf8')
    .replace(/^import \{ [^}]+ \} from '(?:#billing|\.\/billing\.js)';\n/m, '')
    .replace(/register(Typed|Untyped)Tools/, 'registerTools');
}

describe('a project where one dependency does not resolve', () => {
  it('differs in its twins only by the import and the name', () => {
    expect(normalised('before', TWINS[1])).toBe(normalised('before', TWINS[0]));
  });

  it('rewrites the handler on any types exactly as its fully typed twin', () => {
    expect(normalised('after', TWINS[1])).toBe(normalised('after', TWINS[0]));
  });

  it(
    'notes the same effects in both, and says once for the project how its receivers were decided',
    async () => {
      const result = await planMigration({
        files: [...TWINS, 'platform-tools.ts'].map((file) => path.join(CASE, 'before', file)),
        cwd: CASE,
      });
      const notesOf = (file: string) =>
        result.files
          .filter((outcome) => path.basename(outcome.file) === file)
          .flatMap((outcome) => outcome.sites)
          .flatMap((site) => site.notes ?? []);
      expect(notesOf(TWINS[0])).toEqual([
        'const account = await openAccount(id); (line 7) re-runs each round: check it has no effect',
        // Only handed to refundLast(): untyped, it may still be a client, which a journal would refuse.
        'const account = await openAccount(id); (line 20) re-runs each round: check it has no effect',
      ]);
      expect(notesOf(TWINS[1])).toEqual(notesOf(TWINS[0]));
      expect(result.projects.map((project) => project.notes)).toEqual([
        [
          '4 of 12 receivers resolve to any (a package they come from is not installed or not found) and were decided from syntax, the others from their types; 4 of them showed nothing: what depended on them was left by hand',
        ],
      ]);
    },
    TIMEOUT,
  );
});

describe('what the effect classification reads from an any', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-partial-types-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(path.resolve(CASES_DIR, '../../../node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'p', type: 'module' }));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true } }),
  );
  const server = path.join(dir, 'server.ts');
  writeFileSync(
    server,
    `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { RemoteSession } from 'sessions-kit';

// What the project sees of a session: the members its package declares are out of sight.
interface Session extends RemoteSession {
  readonly id: string;
}
declare function openSession(): Promise<Session>;

export function register(server: McpServer): void {
  server.registerTool('send', { inputSchema: { lines: z.array(z.string()) } }, async ({ lines }) => {
    const text = lines.join('\\n');
    const session = await openSession();
    const answer = await server.server.elicitInput({
      message: \`Send to \${session.id}: \${text}?\`,
      requestedSchema: { type: 'object', properties: { send: { type: 'boolean' } } },
    });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`,
  );

  it(
    'takes an object whose interface extends an any for live, not for data to journal',
    async () => {
      const result = await planMigration({ files: [server], cwd: dir, transforms: ['mrtr-handlers'] });
      const output = result.files[0]?.output ?? '';
      // Pure code stays as it is.
      expect(output).toContain("const text = lines.join('\\n');");
      // The session's interface may have methods its package declares: not journaled, re-run.
      expect(output).toContain('const session = await openSession();');
      expect(result.files[0]?.sites.flatMap((site) => site.notes ?? [])).toEqual([
        'const session = await openSession(); (line 14) re-runs each round: check it has no effect',
      ]);
    },
    TIMEOUT,
  );
});
