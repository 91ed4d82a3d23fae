import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main, type CliIo } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

/** A server whose only old-style code the codemod rewrites completely. */
export const REWRITABLE_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'temp', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('ping', { description: 'Ping' }, async () => {
    await server.sendLoggingMessage({ level: 'info', data: 'ping' });
    return { content: [] };
  });
  return server;
}
`;

/** A client the codemod can only mark. */
export const MANUAL_CLIENT = `import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export async function quiet(client: Client): Promise<void> {
  await client.setLoggingLevel('error');
}
`;

export interface TempProject {
  readonly dir: string;
  file(relative: string): string;
  write(relative: string, text: string): void;
  git(...args: string[]): string;
  run(
    args: string[],
    env?: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  remove(): void;
}

/**
 * A small project in a temporary directory, its node_modules linked to the repository's so the
 * SDK's types resolve (unless `installed: false`, a checkout before `npm install`), optionally
 * under git with everything committed.
 */
export function tempProject(
  files: Record<string, string>,
  options: { git?: boolean; installed?: boolean } = {},
): TempProject {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-migrate-'));
  if (options.installed !== false)
    symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
  };
  write(
    'package.json',
    JSON.stringify({ name: 'temp', type: 'module', dependencies: { '@mcp-mrtr/runtime': '0.1.0' } }),
  );
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2023',
        strict: true,
        types: ['node'],
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  );
  for (const [relative, text] of Object.entries(files)) write(relative, text);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  if (options.git === true) {
    write('.gitignore', 'node_modules\n');
    git('init', '--quiet');
    git('add', '.');
    git('commit', '--quiet', '-m', 'initial');
  }
  return {
    dir,
    file: (relative) => path.join(dir, relative),
    write,
    git,
    run: async (args, env = {}) => {
      let stdout = '';
      let stderr = '';
      const io: CliIo = {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        cwd: dir,
        env,
      };
      const code = await main(args, io);
      return { code, stdout, stderr };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
