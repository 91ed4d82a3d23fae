import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CASES_DIR } from './fixture-cases.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const JSCODESHIFT = path.join(REPO, 'node_modules/jscodeshift/bin/jscodeshift.js');
const MODULES = path.join(REPO, 'packages/codemod/jscodeshift');

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A project holding copies of fixture cases' before/ files, with the repository's node_modules. */
function project(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-jscodeshift-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: '@mcp-mrtr/fixture-codemod', type: 'module' }),
  );
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2023', strict: true, types: ['node'] },
    }),
  );
  for (const [name, fixture] of Object.entries(files))
    copyFileSync(path.join(CASES_DIR, fixture), path.join(dir, name));
  return dir;
}

function jscodeshift(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [JSCODESHIFT, '--extensions=ts', ...args], {
    cwd,
    encoding: 'utf8',
  });
  // CI may force colour on; the assertions are about the words, not the styling.
  return { status: result.status, output: stripVTControlCharacters(result.stdout + result.stderr) };
}

describe('the jscodeshift transform modules', () => {
  it.each([[[]], [['--no-babel']]])(
    'rewrite files like the engine when run by the real jscodeshift CLI %j',
    (flags) => {
      const cwd = project({
        'server.ts': 'v1-send-logging-message/before/server.ts',
        'connect.ts': 'completion-notifier/before/server.ts',
      });
      const { status, output } = jscodeshift(cwd, [
        ...flags,
        '-t',
        path.join(MODULES, 'all.cjs'),
        'server.ts',
        'connect.ts',
      ]);
      expect(status).toBe(0);
      expect(output).toContain('0 errors');
      expect(output).toContain('2 ok');
      expect(output).toMatch(
        /REP connect\.ts 14:28 no-elicitation-complete-notification — Remove this completion notifier/,
      );
      expect(readFileSync(path.join(cwd, 'server.ts'), 'utf8')).toBe(
        readFileSync(path.join(CASES_DIR, 'v1-send-logging-message/after/server.ts'), 'utf8'),
      );
      expect(readFileSync(path.join(cwd, 'connect.ts'), 'utf8')).toBe(
        readFileSync(path.join(CASES_DIR, 'completion-notifier/after/server.ts'), 'utf8'),
      );
    },
  );

  it('run one transform per module, take --logging, and leave files alone with --dry', () => {
    const cwd = project({ 'server.ts': 'otel-logging/before/server.ts' });
    const dry = jscodeshift(cwd, [
      '--dry',
      '--print',
      '--logging=otel',
      '-t',
      path.join(MODULES, 'logging.cjs'),
      'server.ts',
    ]);
    expect(dry.output).toContain(readFileSync(path.join(CASES_DIR, 'otel-logging/after/server.ts'), 'utf8'));
    expect(readFileSync(path.join(cwd, 'server.ts'), 'utf8')).toBe(
      readFileSync(path.join(CASES_DIR, 'otel-logging/before/server.ts'), 'utf8'),
    );

    const other = jscodeshift(cwd, ['-t', path.join(MODULES, 'elicitation-complete.cjs'), 'server.ts']);
    expect(other.output).toContain('1 unmodified');
  });

  it('seal requestState with the request-state module, reporting the keys the deployment must provide', () => {
    const cwd = project({ 'server.ts': 'request-state-v1-low-level/before/server.ts' });
    const { status, output } = jscodeshift(cwd, ['-t', path.join(MODULES, 'request-state.cjs'), 'server.ts']);
    expect(status).toBe(0);
    expect(output).toContain('1 ok');
    expect(output).toMatch(
      /REP server\.ts 10:1 require-sealed-request-state — Give every instance .*MCP_MRTR_STATE_KEYS/,
    );
    expect(readFileSync(path.join(cwd, 'server.ts'), 'utf8')).toBe(
      readFileSync(path.join(CASES_DIR, 'request-state-v1-low-level/after/server.ts'), 'utf8'),
    );
  });

  it('count a file the engine cannot parse as an error and leave it as it was', () => {
    const cwd = project({});
    writeFileSync(path.join(cwd, 'broken.ts'), 'server.sendLoggingMessage({ level: "info" ');
    const { output } = jscodeshift(cwd, ['-t', path.join(MODULES, 'all.cjs'), 'broken.ts']);
    expect(output).toContain('1 errors');
    expect(output).toMatch(/syntax error at 1:\d+/);
    expect(readFileSync(path.join(cwd, 'broken.ts'), 'utf8')).toBe(
      'server.sendLoggingMessage({ level: "info" ',
    );
  });
});
