import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { formatMarkdownReport, type MigrationReport } from '@mcp-mrtr/codemod';
import { MANUAL_CLIENT, REWRITABLE_SERVER, tempProject, type TempProject } from './migrate-project.js';

const BIN = path.resolve(import.meta.dirname, '../bin/mcp-mrtr.js');

let project: TempProject | undefined;
const open = (...args: Parameters<typeof tempProject>) => (project = tempProject(...args));
afterEach(() => {
  project?.remove();
  project = undefined;
});

describe('mcp-mrtr migrate', () => {
  it('dry-runs by default: the diff on stdout, nothing written, exit 0 when nothing is left by hand', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    const { code, stdout, stderr } = await p.run(['migrate']);
    expect(code).toBe(0);
    expect(stdout).toContain('--- a/src/server.ts\n+++ b/src/server.ts\n');
    expect(stdout).toContain("+    logToStderr({ level: 'info', data: 'ping' });");
    expect(stdout).not.toContain('\u001b[');
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(REWRITABLE_SERVER);
    expect(stderr).toContain('mcp-mrtr migrate: 1 file,');
    expect(stderr).toMatch(/sites rewritten\s+2/);
  });

  it('colours the diff when FORCE_COLOR asks for it', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    expect((await p.run(['migrate', '--quiet'], { FORCE_COLOR: '1' })).stdout).toContain('\u001b[32m+');
  });

  it('exits 1 when manual work remains, lists it, and marks it in the diff', async () => {
    const p = open({ 'src/client.ts': MANUAL_CLIENT });
    const { code, stdout } = await p.run(['migrate', '--quiet']);
    expect(code).toBe(1);
    expect(stdout).toContain('+  // mcp-mrtr: no-deprecated-logging — Stop setting a protocol log level');
    expect(stdout).toMatch(/Manual work \(1 site, .*\):\n {2}src\/client\.ts:4:9 {2}no-deprecated-logging\n/);
    expect(stdout).toContain('docs/rules/no-deprecated-logging.md');
  });

  it('says so when there is nothing to migrate', async () => {
    const p = open({ 'src/plain.ts': 'export const answer = 42;\n' });
    const { code, stdout } = await p.run(['migrate', '--quiet']);
    expect(code).toBe(0);
    expect(stdout).toBe('Nothing to migrate.\n');
  });

  it('--check exits 1 while anything would change and 0 once migrated; --write writes, and a rerun changes nothing', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER }, { git: true });
    expect((await p.run(['migrate', '--check', '--quiet'])).code).toBe(1);
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(REWRITABLE_SERVER);

    const written = await p.run(['migrate', '--write', '--quiet']);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('migrated src/server.ts\n');
    const migrated = readFileSync(p.file('src/server.ts'), 'utf8');
    expect(migrated).toContain("import { logToStderr } from '@mcp-mrtr/runtime/logger';");

    p.git('commit', '--quiet', '-am', 'migrate');
    const check = await p.run(['migrate', '--check', '--quiet']);
    expect(check).toMatchObject({ code: 0, stdout: 'Nothing to migrate.\n' });
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(migrated);
  });

  it('--write refuses files with uncommitted changes (exit 2, nothing written) unless --force', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER }, { git: true });
    const edited = `${REWRITABLE_SERVER}// work in progress\n`;
    p.write('src/server.ts', edited);
    const refused = await p.run(['migrate', '--write', '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'mcp-mrtr: refusing to write: src/server.ts has uncommitted changes; commit or stash them first, or pass --force\n',
    );
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(edited);

    expect((await p.run(['migrate', '--write', '--force', '--quiet'])).code).toBe(0);
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toContain('logToStderr(');
  });

  it('treats an untracked file as uncommitted', async () => {
    const p = open({ 'src/other.ts': 'export {};\n' }, { git: true });
    p.write('src/server.ts', REWRITABLE_SERVER);
    expect((await p.run(['migrate', '--write', '--quiet'])).code).toBe(2);
  });

  it('writes outside git, saying that nothing can undo it', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    const { code, stderr } = await p.run(['migrate', '--write']);
    expect(code).toBe(0);
    expect(stderr).toContain('not in a git work tree');
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toContain('logToStderr(');
  });

  it('--write removes the temporary files a killed --write left, and says so; those of a running one stay', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    // What SIGKILL during writing leaves: a staged file named for a process that no longer runs.
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const stray = `src/.server.ts.mcp-mrtr-${ended}-0123456789ab.tmp`;
    // Another run still writing (its process, our parent, is alive) must keep its files.
    const running = `src/.server.ts.mcp-mrtr-${process.ppid}-0123456789ab.tmp`;
    p.write(stray, 'half of the new text');
    p.write(running, 'the new text');
    const { code, stderr } = await p.run(['migrate', '--write', '--quiet']);
    expect(code).toBe(0);
    expect(existsSync(p.file(stray))).toBe(false);
    expect(existsSync(p.file(running))).toBe(true);
    expect(stderr).toBe(
      `mcp-mrtr migrate: removed 1 temporary file that an interrupted --write left: ${stray}\n`,
    );
    expect(readdirSync(p.file('src')).sort()).toEqual([path.basename(running), 'server.ts']);
  });

  it('reports a file with a syntax error, leaves it untouched and still migrates the others (exit 1)', async () => {
    const broken = 'export function broken( {\n';
    const p = open({
      'src/server.ts': REWRITABLE_SERVER,
      'src/broken.ts': `${broken}// sendLoggingMessage\n`,
    });
    const { code, stdout } = await p.run(['migrate', '--write', '--quiet']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/failed src\/broken\.ts: syntax error at 3:1: '}' expected; fix it and run again/);
    expect(readFileSync(p.file('src/broken.ts'), 'utf8')).toBe(`${broken}// sendLoggingMessage\n`);
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toContain('logToStderr(');
  });

  it('migrates a file with a NUL character in its text, and skips a file whose bytes are not UTF-8', async () => {
    const joined = `${REWRITABLE_SERVER}export const joined = ['a', 'b'].join('\0');\n`;
    const p = open({ 'src/joined.ts': joined });
    // An MPEG transport stream is a .ts file too: sync bytes, NULs and bytes UTF-8 does not allow.
    const video = Buffer.concat([
      Buffer.from([0x47, 0x40, 0x00, 0x10, 0xff, 0xc0]),
      Buffer.from(' sendLoggingMessage'),
    ]);
    writeFileSync(p.file('src/video.ts'), video);
    const { stdout } = await p.run(['migrate', '--write', '--quiet']);
    expect(stdout).toContain('skipped src/video.ts: not UTF-8 text');
    expect(readFileSync(p.file('src/video.ts'))).toEqual(video);
    const written = readFileSync(p.file('src/joined.ts'), 'utf8');
    expect(written).toContain('logToStderr(');
    expect(written).toContain("join('\0')");
  });

  it('leaves a read-only file untouched and reports it, writing the others (exit 1)', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER, 'src/locked.ts': REWRITABLE_SERVER });
    chmodSync(p.file('src/locked.ts'), 0o444);
    const { code, stdout } = await p.run(['migrate', '--write', '--quiet']);
    expect(code).toBe(1);
    expect(stdout).toContain('failed src/locked.ts: the file is read-only; make it writable and run again');
    expect(readFileSync(p.file('src/locked.ts'), 'utf8')).toBe(REWRITABLE_SERVER);
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toContain('logToStderr(');
  });

  it('--report writes JSON or Markdown by extension', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER, 'src/client.ts': MANUAL_CLIENT });
    expect((await p.run(['migrate', '--quiet', '--report', 'report.json'])).code).toBe(1);
    const report = JSON.parse(readFileSync(p.file('report.json'), 'utf8')) as MigrationReport;
    expect(report.mode).toBe('dry-run');
    expect(report.summary).toMatchObject({
      files: 2,
      candidates: 2,
      changed: 2,
      rewritten: 2,
      manual: 1,
      failed: 0,
    });
    expect(report.manual).toEqual([
      {
        file: 'src/client.ts',
        line: 4,
        column: 9,
        category: 'logging',
        ruleId: 'no-deprecated-logging',
        transform: 'logging',
        kind: 'client-set-level',
        todo: 'Stop setting a protocol log level; servers log to stderr or OpenTelemetry.',
        reason: 'what should replace a client-chosen log level depends on the application',
        docs: 'https://github.com/mcp-mrtr/mcp-mrtr/blob/main/docs/rules/no-deprecated-logging.md',
      },
    ]);

    await p.run(['migrate', '--quiet', '--report', 'report.md']);
    const markdown = readFileSync(p.file('report.md'), 'utf8');
    expect(markdown).toContain('# mcp-mrtr migrate (dry run)');
    expect(markdown).not.toContain('syntax alone');
    expect(markdown).toContain(
      '| src/client.ts:4 | [no-deprecated-logging](https://github.com/mcp-mrtr/mcp-mrtr/blob/main/docs/rules/no-deprecated-logging.md) |',
    );
  });

  it('lists a runtime dependency the project does not declare as work left (exit 1)', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    p.write('package.json', JSON.stringify({ name: 'temp', type: 'module' }));
    const { code, stdout } = await p.run(['migrate', '--quiet']);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'Dependencies to add:\n  @mcp-mrtr/runtime to package.json (imported by src/server.ts)\n',
    );
    expect(stdout).toMatch(
      /To install:\n {2}npm install '@mcp-mrtr\/runtime@\^\d+\.\d+\.\d+' \(beside package\.json\) {2}npm: no lock file\n/,
    );
  });

  it('says to upgrade the SDK, and why, when the runtime cannot run on the one installed (exit 1)', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER }, { installed: false });
    p.write(
      'package.json',
      JSON.stringify({
        name: 'temp',
        type: 'module',
        dependencies: { '@mcp-mrtr/runtime': '0.1.0', '@modelcontextprotocol/sdk': '1.0.0' },
      }),
    );
    p.write('node_modules/@modelcontextprotocol/sdk/package.json', JSON.stringify({ version: '1.0.0' }));
    p.write('yarn.lock', '');
    const { code, stdout } = await p.run(['migrate', '--quiet', '--allow-unresolved']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /To install:\n {2}yarn add '@modelcontextprotocol\/sdk@[^']+' \(beside package\.json\) {2}yarn: yarn\.lock\n {4}@modelcontextprotocol\/sdk to \S+: @mcp-mrtr\/runtime needs @modelcontextprotocol\/sdk \S+ \(its peer range\); 1\.0\.0 is installed\n/,
    );
  });

  it('--logging otel rewrites to the OpenTelemetry logs API', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    const { stdout } = await p.run(['migrate', '--quiet', '--logging', 'otel']);
    expect(stdout).toContain(
      "+    logs.getLogger('temp').emit(toOtelLogRecord({ level: 'info', data: 'ping' }));",
    );
    expect(stdout).toContain("+import { logs } from '@opentelemetry/api-logs';");
  });

  it('--transform runs only the named transforms', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER, 'src/client.ts': MANUAL_CLIENT });
    const { code, stdout, stderr } = await p.run(['migrate', '--transform', 'elicitation-complete']);
    expect(code).toBe(0);
    expect(stdout).toBe('Nothing to migrate.\n');
    expect(stderr).toContain('transforms: elicitation-complete');
  });

  it('skips named files that directory discovery would skip, with one line on stderr, and migrates the rest', async () => {
    const p = open({
      'src/server.ts': REWRITABLE_SERVER,
      'src/env.d.ts': 'declare const VERSION: string;\n',
    });
    const { code, stdout, stderr } = await p.run(['migrate', 'src/env.d.ts', 'src/server.ts']);
    expect(code).toBe(0);
    expect(stdout).toContain('+++ b/src/server.ts');
    expect(stderr).toContain(
      'mcp-mrtr migrate: skipped 1 of the files named, as directory discovery would: 1 is a declaration file\n',
    );
  });

  it.each([['migrate'], ['check']])(
    '%s skips a FIFO named on the command line, with one line on stderr, instead of waiting on it',
    (command) => {
      const p = open({ 'src/server.ts': REWRITABLE_SERVER });
      execFileSync('mkfifo', [p.file('src/pipe.ts')]);
      // The built CLI in a child process: reading a FIFO blocks the whole thread, so a regression
      // must end in this timeout, not in a test run that never finishes.
      const child = spawnSync(process.execPath, [BIN, command, 'src/pipe.ts', 'src/server.ts'], {
        cwd: p.dir,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(child.signal).toBeNull();
      expect(child.stderr).toContain(
        `mcp-mrtr ${command}: skipped 1 of the files named, as directory discovery would: 1 is not a regular file (a FIFO, socket or device)\n`,
      );
      expect(child.stderr).toContain(`mcp-mrtr ${command}: 1 file,`);
    },
    180_000,
  );

  it.each([
    ['migrate', ['migrate', '--quiet']],
    ['check', ['check', '--type-aware', '--quiet']],
  ])('%s names a tsconfig.json that does not parse, with its first error', async (command, args) => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    // TypeScript reads past the doubled comma and keeps what it can: nothing else would say so.
    p.write(
      'tsconfig.json',
      '{\n  "compilerOptions": {\n    "strict": true,,\n    "types": ["node"]\n  }\n}\n',
    );
    const { stderr } = await p.run(args);
    expect(stderr).toBe(
      `mcp-mrtr ${command}: tsconfig.json does not parse (3:20 Property assignment expected); TypeScript goes on with what it could read of it\n`,
    );
  });

  describe('in a checkout whose dependencies are not installed', () => {
    const notInstalled = () => open({ 'src/server.ts': REWRITABLE_SERVER }, { installed: false });
    const preflight =
      'mcp-mrtr migrate: @modelcontextprotocol/sdk (imported by src/server.ts) does not resolve from src; run npm install first\n';

    it('says first which SDK package does not resolve, and from where; a dry run goes on', async () => {
      const p = notInstalled();
      const { stdout, stderr } = await p.run(['migrate']);
      expect(stderr.startsWith(preflight)).toBe(true);
      expect(stderr.split('does not resolve')).toHaveLength(2);
      expect(stdout).toContain('is unknown (any)');
    });

    it.each([['--check'], ['--write']])(
      '%s exits 2 without --allow-unresolved, writing nothing',
      async (flag) => {
        const p = notInstalled();
        const { code, stdout, stderr } = await p.run(['migrate', flag]);
        expect(code).toBe(2);
        expect(stderr).toContain(preflight);
        expect(stderr).toContain(`${flag} stops here`);
        expect(stdout).toBe('');
        expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(REWRITABLE_SERVER);
      },
    );

    it('--allow-unresolved rewrites receivers built by an SDK class and lists them', async () => {
      const p = notInstalled();
      const { code, stdout } = await p.run([
        'migrate',
        '--allow-unresolved',
        '--check',
        '--report',
        'r.json',
      ]);
      expect(code).toBe(1);
      expect(stdout).toContain('+    logToStderr(');
      expect(stdout).toMatch(
        /Taken to be the MCP SDK from syntax alone.*\n {2}src\/server\.ts:6:\d+ {2}send-logging-message/,
      );
      const report = JSON.parse(readFileSync(p.file('r.json'), 'utf8')) as MigrationReport;
      expect(report.rewritten.map((site) => [site.kind, site.evidence])).toEqual([
        ['send-logging-message', 'syntax'],
      ]);
      // The Markdown form of the same report lists them too.
      expect(formatMarkdownReport(report)).toMatch(
        /## Taken to be the MCP SDK from syntax alone\n[\s\S]*\| src\/server\.ts:6 \| no-deprecated-logging \| send-logging-message \| rewritten \|/,
      );
    });
  });

  describe('on a server whose SDK is not installed, with --allow-unresolved --write', () => {
    // SDK v2 tools registered on a server created in another file and on a parameter typed McpServer.
    const fixture = new URL('../../../fixtures/codemod/cases/mrtr-v2-server-elsewhere/', import.meta.url);
    const sources = (side: 'before' | 'after') =>
      Object.fromEntries(
        readdirSync(new URL(`${side}/`, fixture))
          .filter((name) => name.endsWith('.ts'))
          .map((name) => [name, readFileSync(new URL(`${side}/${name}`, fixture), 'utf8')]),
      );

    it('rewrites the handlers as with the SDK installed, lists them as syntax evidence, and writes files that parse', async () => {
      const before = sources('before');
      const p = open(
        Object.fromEntries(Object.entries(before).map(([name, text]) => [`src/${name}`, text])),
        { installed: false },
      );
      const { code, stdout, stderr } = await p.run([
        'migrate',
        '--allow-unresolved',
        '--write',
        '--transform',
        'mrtr-handlers',
        '--report',
        'r.json',
      ]);
      expect(stderr).toContain(
        '@modelcontextprotocol/server (imported by src/register.ts and 1 more file) does not resolve',
      );
      // Manual work remains: the requestState keys and the server options markers.
      expect(code).toBe(1);
      expect(stdout).toContain('migrated src/register.ts\nmigrated src/server.ts\nmigrated src/tools.ts\n');
      for (const [name, text] of Object.entries(sources('after'))) {
        const written = readFileSync(p.file(`src/${name}`), 'utf8');
        expect(written, name).toBe(text);
        const { diagnostics } = ts.transpileModule(written, { fileName: name, reportDiagnostics: true });
        expect(diagnostics, name).toEqual([]);
      }
      const report = JSON.parse(readFileSync(p.file('r.json'), 'utf8')) as MigrationReport;
      expect(report.rewritten.map((site) => [site.file, site.kind, site.evidence])).toEqual([
        ['src/register.ts', 'elicit-form-explicit', 'syntax'],
        ['src/server.ts', 'shared-adapter', 'syntax'],
        ['src/tools.ts', 'elicit-form-explicit', 'syntax'],
      ]);
      expect(stdout).toContain('Taken to be the MCP SDK from syntax alone');
    });
  });

  it('--depth bounds how many helper calls below a handler a question may sit', async () => {
    const chain = readFileSync(
      new URL('../../../fixtures/codemod/cases/mrtr-v1-helper-chain/before/server.ts', import.meta.url),
      'utf8',
    );
    const p = open({ 'src/server.ts': chain });
    const deep = await p.run(['migrate', '--quiet']);
    expect(deep.stdout).toContain('+async function askReason(round: Round, what: string)');
    expect(deep.stdout).not.toMatch(/no-push-elicitation/);

    const shallow = await p.run(['migrate', '--quiet', '--depth', '1']);
    expect(shallow.code).toBe(1);
    expect(shallow.stdout).toContain(
      'it runs in askReason(), 3 helper calls below its handler, deeper than --depth 1 follows',
    );
    expect(shallow.stdout).toContain(
      'it runs in confirmWithReason(), 2 helper calls below its handler, deeper than --depth 1 follows',
    );
    expect(shallow.stdout).not.toContain('+async function askReason(round');
  });

  it('--quiet prints nothing on stderr', async () => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    expect((await p.run(['migrate', '--quiet'])).stderr).toBe('');
  });

  it.each([
    [['--write', '--check'], /--write and --check exclude each other/],
    [['--force'], /--force only applies with --write: a dry run writes nothing/],
    [['--check', '--force'], /--force only applies with --write/],
    [['--report', 'report.txt'], /--report report\.txt: the file name must end in \.json or \.md/],
    [
      ['--transform', 'nope'],
      /--transform: unknown transform nope; available: logging, deprecated-declarations, request-state, elicitation-complete/,
    ],
    [['--logging', 'syslog'], /argument 'syslog' is invalid/],
  ])('exits 2 for %j, with the reason on stderr and nothing on stdout', async (args, reason) => {
    const p = open({ 'src/server.ts': REWRITABLE_SERVER });
    const { code, stdout, stderr } = await p.run(['migrate', ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(reason);
    expect(stdout).toBe('');
    expect(readFileSync(p.file('src/server.ts'), 'utf8')).toBe(REWRITABLE_SERVER);
  });
});
