import { readFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { afterEach, describe, expect, it } from 'vitest';
import { tempProject, type TempProject } from './migrate-project.js';

// Issue 24, item 10: migrate formats what it changed with the project's own formatter. The temp
// project's node_modules links to the repository's, where Prettier is installed, so Prettier
// resolves from the project as it would from a real one.

// Planning a TypeScript program and running Prettier: slow on a loaded machine.
const TIMEOUT = 120_000;

// Narrower than the 80 columns migrate allows itself, so that its own layout is not Prettier's.
const PRETTIER_OPTIONS = { singleQuote: true, printWidth: 60 };

/** A server whose tool() registration grows past the print width once it becomes registerTool. */
const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'temp', version: '1.0.0' });

server.tool('archive_project', 'Archive a project.', { projectId: z.string() }, async ({ projectId }) => {
  const answer = await server.server.elicitInput({
    message: \`Archive \${projectId}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: answer.action }] };
});
`;

/** Code Prettier would lay out differently, which migrate does not change. */
const UNFORMATTED = `export function   untouched( a:number ) {\n      return a  ;\n}\n`;

let project: TempProject | undefined;
afterEach(() => {
  project?.remove();
  project = undefined;
});

function open(files: Record<string, string>): TempProject {
  project = tempProject(files, { git: true });
  return project;
}

async function formatted(text: string): Promise<boolean> {
  return prettier.check(text, { ...PRETTIER_OPTIONS, filepath: 'server.ts' });
}

describe('migrate and the project formatter', () => {
  it(
    "formats a file Prettier had formatted with the project's Prettier, in the dry run as in --write",
    async () => {
      const source = await prettier.format(SERVER, { ...PRETTIER_OPTIONS, filepath: 'server.ts' });
      const p = open({ 'src/server.ts': source, '.prettierrc': JSON.stringify(PRETTIER_OPTIONS) });

      const dryRun = await p.run(['migrate', '--quiet']);
      expect(dryRun.stderr).toBe('');
      const written = await p.run(['migrate', '--write', '--quiet']);
      expect(written.stderr).toBe('');
      const output = readFileSync(p.file('src/server.ts'), 'utf8');
      expect(output).toContain('mrtr.registerTool(');
      expect(await formatted(output)).toBe(true);
      for (const line of output.split('\n').filter((line) => line.includes('registerTool')))
        expect(dryRun.stdout).toContain(`+${line}\n`);
    },
    TIMEOUT,
  );

  it(
    'formats only the lines migrate changed in a file Prettier had not formatted',
    async () => {
      const source = `${await prettier.format(SERVER, { ...PRETTIER_OPTIONS, filepath: 'server.ts' })}\n${UNFORMATTED}`;
      const p = open({ 'src/server.ts': source, '.prettierrc': JSON.stringify(PRETTIER_OPTIONS) });

      const written = await p.run(['migrate', '--write', '--quiet']);
      expect(written.stderr).toBe('');
      const output = readFileSync(p.file('src/server.ts'), 'utf8');
      expect(output).toContain(UNFORMATTED);
      expect(await formatted(output.replace(`\n${UNFORMATTED}`, ''))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "--no-format keeps migrate's own layout, which Prettier would lay out differently",
    async () => {
      const source = await prettier.format(SERVER, { ...PRETTIER_OPTIONS, filepath: 'server.ts' });
      const p = open({ 'src/server.ts': source, '.prettierrc': JSON.stringify(PRETTIER_OPTIONS) });

      const written = await p.run(['migrate', '--write', '--quiet', '--no-format']);
      expect(written.stderr).toBe('');
      const output = readFileSync(p.file('src/server.ts'), 'utf8');
      expect(output).toContain('mrtr.registerTool(');
      expect(await formatted(output)).toBe(false);
      p.git('checkout', '--', 'src/server.ts');
      await p.run(['migrate', '--write', '--quiet']);
      const formattedOutput = readFileSync(p.file('src/server.ts'), 'utf8');
      expect(await formatted(formattedOutput)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "keeps migrate's own layout and says so in one stderr line when the formatter's config is broken",
    async () => {
      const p = open({ 'src/server.ts': SERVER, '.prettierrc.json': '{ "singleQuote": ' });

      const broken = await p.run(['migrate', '--quiet']);
      const plain = await p.run(['migrate', '--quiet', '--no-format']);
      expect(broken.stderr).toMatch(
        /^mcp-mrtr migrate: src\/server\.ts: Prettier failed \(.+\), so the file keeps migrate's own layout\n$/,
      );
      expect(broken.code).toBe(plain.code);
      expect(broken.stdout).toBe(plain.stdout);
      expect(broken.stdout).toContain('+mrtr.registerTool(');
    },
    TIMEOUT,
  );
});
