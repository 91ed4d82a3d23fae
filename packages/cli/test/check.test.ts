import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { ESLint } from 'eslint';
import type { Log } from 'sarif';
import { afterAll, describe, expect, it } from 'vitest';
import { rules as pluginRules } from '@mcp-mrtr/eslint-plugin';
import { main, type CliIo } from '../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
/** `check` runs every rule the plugin registers. */
const RULE_COUNT = Object.keys(pluginRules).length;
const require = createRequire(import.meta.url);
const BIN = path.join(REPO, 'packages/cli/bin/mcp-mrtr.js');

async function run(args: string[], cwd = REPO) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    env: {},
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** The official SARIF 2.1.0 schema as published on npm (draft-04, hence ajv-draft-04). */
function sarifValidator() {
  const schema = JSON.parse(
    readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'),
  ) as object;
  // The schema's language-tag pattern is not valid under the `u` flag.
  // Both are CommonJS packages whose typings describe the ESM default through `.default`.
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
  ajvFormats.default(ajv);
  return ajv.compile(schema);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const PUSH = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} } });
export const ask = () => server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
`;

/** Where each README shape of the sample server is found: `file:line rule`. */
const LEGACY_SERVER_FINDINGS = [
  'src/admin-server.ts:41 no-deprecated-logging',
  'src/admin-server.ts:74 no-push-elicitation',
  'src/admin-server.ts:98 no-deprecated-logging',
  'src/admin-server.ts:107 no-push-elicitation',
  'src/admin-server.ts:129 no-deprecated-logging',
  'src/admin-server.ts:143 require-sealed-request-state',
  'src/admin-server.ts:151 require-client-capability-check',
  'src/admin-server.ts:164 require-sealed-request-state',
  'src/ops-server.ts:55 no-deprecated-logging',
  'src/ops-server.ts:64 no-deprecated-roots',
  'src/ops-server.ts:71 no-deprecated-roots',
  'src/ops-server.ts:73 no-deprecated-logging',
  'src/ops-server.ts:81 no-deprecated-logging',
  'src/ops-server.ts:96 no-push-elicitation',
  'src/ops-server.ts:119 no-deprecated-logging',
  'src/ops-server.ts:138 no-push-elicitation',
  'src/ops-server.ts:162 no-push-elicitation',
  'src/ops-server.ts:176 no-push-elicitation',
  'src/ops-server.ts:193 no-push-elicitation',
  'src/ops-server.ts:242 no-elicitation-complete-notification',
  'src/ops-server.ts:245 no-push-elicitation',
  'src/ops-server.ts:268 no-push-elicitation',
  'src/ops-server.ts:275 no-sensitive-form-fields',
  'src/ops-server.ts:311 no-deprecated-sampling',
  'src/ops-server.ts:320 no-deprecated-sampling',
  'src/ops-server.ts:349 no-deprecated-logging',
  'src/ops-server.ts:365 no-deprecated-roots',
  'src/triage.ts:13 no-deprecated-sampling',
];

function findings(results: ESLint.LintResult[], root: string): string[] {
  return results.flatMap((result) =>
    result.messages.map(
      (message) =>
        `${path.relative(root, result.filePath)}:${message.line} ${String(message.ruleId).replace('@mcp-mrtr/', '')}`,
    ),
  );
}

describe('mcp-mrtr check', () => {
  it('finds every old-style shape of the sample server, in ESLint JSON', async () => {
    const root = path.join(REPO, 'fixtures/legacy-server');
    const { code, stdout, stderr } = await run(['check', '--format', 'json', 'fixtures/legacy-server/src']);
    expect(code).toBe(1);
    expect(findings(JSON.parse(stdout) as ESLint.LintResult[], root)).toEqual(LEGACY_SERVER_FINDINGS);
    expect(stderr).toContain(`mcp-mrtr check: 7 files, ${RULE_COUNT} rules`);
    expect(stderr).toContain('28 errors and 0 warnings in 3 files');
  });

  it('finds the same with --type-aware against the fixture tsconfig', async () => {
    const root = path.join(REPO, 'fixtures/legacy-server');
    const { code, stdout } = await run(['check', '--type-aware', '-f', 'json', 'src'], root);
    expect(code).toBe(1);
    expect(findings(JSON.parse(stdout) as ESLint.LintResult[], root)).toEqual(LEGACY_SERVER_FINDINGS);
    // A typed program for the whole fixture: about 20 s here alone, past 30 s on a loaded machine.
  }, 120_000);

  it('finds the SDK v2 push APIs of the second sample server', async () => {
    const root = path.join(REPO, 'fixtures/legacy-server-v2');
    const { stdout } = await run(['check', '-f', 'json', 'src/server.ts'], root);
    expect(findings(JSON.parse(stdout) as ESLint.LintResult[], root)).toEqual([
      'src/server.ts:14 no-deprecated-logging',
      'src/server.ts:23 no-push-elicitation',
      'src/server.ts:41 no-deprecated-logging',
      'src/server.ts:53 no-deprecated-sampling',
      'src/server.ts:70 no-deprecated-logging',
      'src/server.ts:82 no-push-elicitation',
    ]);
  });

  it('prints stylish results on stdout and progress on stderr', async () => {
    const { code, stdout, stderr } = await run(['check', 'fixtures/legacy-server/src/triage.ts']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/triage\.ts\n\s+13:26\s+error\s+server\.createMessage\(\) sends/);
    expect(stdout).toContain('@mcp-mrtr/no-deprecated-sampling');
    expect(stdout).toMatch(
      /What to do instead, rule by rule:\n {2}@mcp-mrtr\/no-deprecated-sampling {2}https:\/\/\S+\/docs\/rules\/no-deprecated-sampling\.md\n$/,
    );
    expect(stderr).toMatch(new RegExp(`^mcp-mrtr check: 1 file, ${RULE_COUNT} rules\n`));
    expect(stderr).not.toContain('createMessage');
  });

  it('works in a repository with no ESLint setup, and ignores a broken one', async () => {
    const bare = project('bare', { 'server.ts': PUSH });
    const broken = project('broken', {
      'server.mts': PUSH,
      'eslint.config.js': "throw new Error('the target config must never be loaded');\n",
    });
    for (const dir of [bare, broken]) {
      const { code, stdout, stderr } = await run(['check', '-f', 'json', '.'], dir);
      expect(stderr).not.toContain('must never be loaded');
      expect(code).toBe(1);
      const rules = (JSON.parse(stdout) as ESLint.LintResult[]).flatMap((r) =>
        r.messages.map((m) => m.ruleId),
      );
      expect(rules.sort()).toEqual(['@mcp-mrtr/no-deprecated-logging', '@mcp-mrtr/no-push-elicitation']);
    }
  });

  it("ignores inline comments about the project's other rules, and still honours and checks its own", async () => {
    const dir = project('directives', {
      'other-rules.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
/* eslint-disable @typescript-eslint/no-unused-vars */
/* eslint no-console: "error", @typescript-eslint/no-explicit-any: "off" */
// eslint-disable-next-line react-hooks/exhaustive-deps, @typescript-eslint/no-explicit-any
export const server: any = new McpServer({ name: 'a', version: '1' });
console.log('started');
// eslint-disable-next-line no-console
console.log('again');
`,
      'own-rule.ts': PUSH.replace(
        'const server',
        '// eslint-disable-next-line @mcp-mrtr/no-deprecated-logging\nconst server',
      ),
      'misspelled.ts': '// eslint-disable-next-line @mcp-mrtr/no-push-elicitations\nexport const x = 1;\n',
    });
    const { code, stdout } = await run(['check', '-f', 'json', '.'], dir);
    const results = JSON.parse(stdout) as ESLint.LintResult[];
    const byFile = (name: string) => results.find((result) => path.basename(result.filePath) === name);
    // No "Definition for rule … was not found", no no-console finding, no unused-directive warning.
    expect(byFile('other-rules.ts')?.messages).toEqual([]);
    expect(byFile('other-rules.ts')?.errorCount).toBe(0);
    expect(byFile('own-rule.ts')?.messages.map((m) => m.ruleId)).toEqual(['@mcp-mrtr/no-push-elicitation']);
    expect(byFile('own-rule.ts')?.suppressedMessages.map((m) => m.ruleId)).toEqual([
      '@mcp-mrtr/no-deprecated-logging',
    ]);
    expect(byFile('misspelled.ts')?.messages.map((m) => m.message)).toEqual([
      "Definition for rule '@mcp-mrtr/no-push-elicitations' was not found.",
    ]);
    expect(code).toBe(1);
  });

  it('checks every JavaScript and TypeScript extension, ESM and CommonJS', async () => {
    const cjs = `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nconst server = new McpServer({ name: 's', version: '1' });\nmodule.exports = () => server.server.listRoots();\n`;
    const dir = project('extensions', {
      'a.ts': PUSH,
      'b.tsx': `${PUSH}export const View = () => <button onClick={ask} />;\n`,
      'c.mts': PUSH,
      'd.cts': PUSH,
      'e.js': PUSH,
      'f.jsx': `${PUSH}export const View = () => <button onClick={ask} />;\n`,
      'g.mjs': PUSH,
      'h.cjs': cjs,
    });
    const { stdout } = await run(['check', '-f', 'json', '.'], dir);
    const results = JSON.parse(stdout) as ESLint.LintResult[];
    expect(results.map((r) => path.basename(r.filePath))).toEqual([
      'a.ts',
      'b.tsx',
      'c.mts',
      'd.cts',
      'e.js',
      'f.jsx',
      'g.mjs',
      'h.cjs',
    ]);
    for (const result of results) {
      expect(
        result.messages.filter((m) => m.fatal),
        result.filePath,
      ).toEqual([]);
      expect(result.errorCount, result.filePath).toBeGreaterThan(0);
    }
  });

  it('exits 0 with nothing on stdout but an empty report when there are no findings', async () => {
    const dir = project('clean', { 'index.ts': `export const answer = 42;\n` });
    const stylish = await run(['check', '.'], dir);
    expect(stylish.code).toBe(0);
    expect(stylish.stdout).toBe('');
    expect(stylish.stderr).toContain('no problems in 1 file');
    const markdown = await run(['check', '-f', 'markdown', '.'], dir);
    expect(markdown.stdout).toBe('## mcp-mrtr check\n\nNo problems found in 1 file.\n');
  });

  it('skips named files that directory discovery would skip, with one line on stderr, and checks the rest', async () => {
    const dir = project('shell-glob', {
      'src/server.ts': PUSH,
      'src/env.d.ts': 'declare const VERSION: string;\n',
      'src/generated.ts': PUSH,
      '.gitignore': 'src/generated.ts\n',
      'node_modules/sdk/index.ts': PUSH,
    });
    // What the shell hands over for `check src/*.ts node_modules/sdk/index.ts`.
    const named = ['src/env.d.ts', 'src/generated.ts', 'src/server.ts', 'node_modules/sdk/index.ts'];
    const { code, stdout, stderr } = await run(['check', '-f', 'json', ...named], dir);
    expect(code).toBe(1);
    expect(
      (JSON.parse(stdout) as ESLint.LintResult[]).map((result) => path.relative(dir, result.filePath)),
    ).toEqual([path.join('src', 'server.ts')]);
    const skipLines = stderr.split('\n').filter((line) => line.includes('skipped'));
    expect(skipLines).toEqual([
      'mcp-mrtr check: skipped 3 of the files named, as directory discovery would: 1 is a declaration file, 1 is ignored by .gitignore, 1 is under node_modules or build output',
    ]);
  });

  it('leaves out bundles larger than 1 MiB and names them on stderr', async () => {
    // A committed bundle: one line of minified code with an old-style call in it.
    const bundle = `${PUSH.replaceAll('\n', ';')}${';var a=1'.repeat(150_000)}\n`;
    const dir = project('bundles', {
      'src/server.ts': PUSH,
      'scripts/run.js': bundle,
      '.yarn/releases/yarn.cjs': PUSH,
    });
    const { code, stdout, stderr } = await run(['check', '-f', 'json', '.'], dir);
    expect(code).toBe(1);
    expect(
      (JSON.parse(stdout) as ESLint.LintResult[]).map((result) => path.relative(dir, result.filePath)),
    ).toEqual([path.join('src', 'server.ts')]);
    expect(stderr).toContain(
      `mcp-mrtr check: left out 1 file larger than 1 MiB, taken for bundled or generated code: ${path.join('scripts', 'run.js')}\n`,
    );
  });

  it('reports a file it cannot parse and still checks the others', async () => {
    const dir = project('syntax', { 'bad.ts': 'export const = ;\n', 'good.ts': PUSH });
    const { code, stdout } = await run(['check', '-f', 'json', '.'], dir);
    expect(code).toBe(1);
    const [bad, good] = JSON.parse(stdout) as ESLint.LintResult[];
    expect(bad?.messages[0]).toMatchObject({ fatal: true, line: 1, severity: 2 });
    expect(good?.errorCount).toBe(2);
  });

  it.runIf(process.platform === 'linux')(
    'reports a file it cannot read as an error with its path, and still checks the others',
    async () => {
      const dir = project('unreadable', { 'src/server.ts': PUSH });
      // A regular file whose every read fails, for root too: /proc/self/mem of the reading
      // process has nothing mapped at offset 0, so read() returns EIO.
      symlinkSync('/proc/self/mem', path.join(dir, 'src/mem.ts'));
      const { code, stdout, stderr } = await run(['check', '-f', 'json', 'src/mem.ts', 'src/server.ts'], dir);
      expect(stderr).not.toContain('internal error');
      expect(code).toBe(1);
      const results = JSON.parse(stdout) as ESLint.LintResult[];
      expect(results.map((result) => path.relative(dir, result.filePath))).toEqual([
        path.join('src', 'mem.ts'),
        path.join('src', 'server.ts'),
      ]);
      expect(results[0]?.messages).toEqual([
        expect.objectContaining({
          fatal: true,
          severity: 2,
          message: 'could not read the file: EIO: i/o error, read',
        }),
      ]);
      expect(results[1]?.errorCount).toBe(2);
    },
  );

  it('is a usage error when a directory named on the command line cannot be read', () => {
    const dir = project('unlistable', { 'src/server.ts': PUSH, 'locked/a.ts': PUSH });
    chmodSync(path.join(dir, 'locked'), 0o000);
    try {
      // Root reads any directory; without the two capabilities that let it, the mode holds for
      // root as for anyone. The built CLI runs in a child process that has dropped them.
      const unprivileged =
        process.getuid?.() === 0
          ? (['setpriv', ['--bounding-set', '-dac_override,-dac_read_search', process.execPath]] as const)
          : ([process.execPath, []] as const);
      const child = spawnSync(unprivileged[0], [...unprivileged[1], BIN, 'check', 'src', 'locked'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(child.status).toBe(2);
      expect(child.stdout).toBe('');
      expect(child.stderr).toMatch(
        /^mcp-mrtr: locked: cannot read this directory \(EACCES: permission denied/m,
      );
    } finally {
      chmodSync(path.join(dir, 'locked'), 0o755);
    }
  }, 120_000);

  it('leaves out binary files with a source name, names them on stderr, and still reports parse errors', async () => {
    const dir = project('binary', { 'src/server.ts': PUSH, 'src/bad.ts': 'export const = ;\n' });
    // The start of an MPEG transport stream segment, as HLS writes them: `.ts`, and not UTF-8.
    const segment = Buffer.alloc(188 * 4, 0xff);
    for (let packet = 0; packet < 4; packet++)
      segment.set([0x47, 0x40, 0x11, 0x10, 0x00, 0x42, 0xf0], packet * 188);
    mkdirSync(path.join(dir, 'media'));
    writeFileSync(path.join(dir, 'media/segment0.ts'), segment);

    const { code, stdout, stderr } = await run(['check', '-f', 'json', '.'], dir);
    expect(code).toBe(1);
    const results = JSON.parse(stdout) as ESLint.LintResult[];
    expect(results.map((result) => path.relative(dir, result.filePath))).toEqual([
      path.join('src', 'bad.ts'),
      path.join('src', 'server.ts'),
    ]);
    expect(results[0]?.messages[0]).toMatchObject({ fatal: true, severity: 2 });
    expect(stderr).toContain(
      `mcp-mrtr check: left out 1 file that is not UTF-8 text, taken for binary data: ${path.join('media', 'segment0.ts')}\n`,
    );

    // Named alone, it is no finding: the run passes.
    const alone = await run(['check', '-f', 'json', 'media/segment0.ts'], dir);
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout)).toEqual([]);
  });

  it('lowers deprecated-but-valid input requests to warnings, which do not fail the run', async () => {
    const dir = project('warnings', {
      'tool.ts': `import { inputRequired } from '@modelcontextprotocol/server';\nexport const r = inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });\n`,
    });
    const { code, stdout } = await run(['check', '-f', 'json', '.'], dir);
    expect(code).toBe(0);
    const [result] = JSON.parse(stdout) as ESLint.LintResult[];
    expect(result).toMatchObject({ errorCount: 0, warningCount: 1 });
    expect(result?.messages[0]).toMatchObject({
      ruleId: '@mcp-mrtr/no-deprecated-roots',
      messageId: 'inputRequest',
      severity: 1,
    });
  });

  it('type-aware: checks files outside any tsconfig without types and says so', async () => {
    const dir = project('typed', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/in.ts': PUSH,
      'scripts/out.ts': PUSH,
    });
    const { code, stdout, stderr } = await run(['check', '--type-aware', '-f', 'json', '.'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain('1 file is in no tsconfig.json; checked without type information');
    const results = JSON.parse(stdout) as ESLint.LintResult[];
    expect(results.map((r) => [path.relative(dir, r.filePath), r.errorCount, r.fatalErrorCount])).toEqual([
      ['scripts/out.ts', 2, 0],
      ['src/in.ts', 2, 0],
    ]);
  });

  describe('SARIF', () => {
    const validate = sarifValidator();

    it('validates against the SARIF 2.1.0 schema, with relative URIs, rule help and fingerprints', async () => {
      const { code, stdout } = await run(['check', '--format', 'sarif', 'fixtures/legacy-server']);
      expect(code).toBe(1);
      const log = JSON.parse(stdout) as Log;
      expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);

      const sarifRun = log.runs[0];
      expect(sarifRun?.originalUriBaseIds?.SRCROOT?.uri).toBe(`file://${REPO}/`);
      const rules = sarifRun?.tool.driver.rules ?? [];
      expect(rules.map((rule) => rule.name)).toHaveLength(RULE_COUNT);
      for (const rule of rules) {
        expect(rule.helpUri).toMatch(new RegExp(`/docs/rules/${rule.name}\\.md$`));
        expect(rule.help?.markdown).toContain(rule.helpUri);
      }
      const results = sarifRun?.results ?? [];
      expect(results.length).toBeGreaterThanOrEqual(LEGACY_SERVER_FINDINGS.length);
      for (const result of results) {
        const location = result.locations?.[0]?.physicalLocation;
        expect(location?.artifactLocation?.uriBaseId).toBe('SRCROOT');
        expect(location?.artifactLocation?.uri).toMatch(/^fixtures\/legacy-server\/(src|test)\/[\w-]+\.ts$/);
        expect(rules[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
        expect(result.partialFingerprints?.primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:\d+$/);
      }
      const fingerprints = results.map((result) => result.partialFingerprints?.['mcpMrtr/v1']);
      expect(new Set(fingerprints).size).toBe(results.length);
    });

    it('keeps fingerprints when unrelated lines move, and marks warnings and parse errors', async () => {
      const dir = project('sarif', {
        'server.ts': PUSH,
        'roots.ts': `import { inputRequired } from '@modelcontextprotocol/server';\nexport const r = inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });\n`,
        'broken.ts': 'export const = ;\n',
      });
      const first = JSON.parse((await run(['check', '-f', 'sarif', '.'], dir)).stdout) as Log;
      writeFileSync(path.join(dir, 'server.ts'), `// a new first line\n\n${PUSH}`);
      const second = JSON.parse((await run(['check', '-f', 'sarif', '.'], dir)).stdout) as Log;
      expect(validate(second), JSON.stringify(validate.errors)).toBe(true);

      const prints = (log: Log) => log.runs[0]?.results?.map((r) => [r.ruleId, r.partialFingerprints]) ?? [];
      expect(prints(second)).toEqual(prints(first));
      const lines = (log: Log) =>
        log.runs[0]?.results?.map((r) => r.locations?.[0]?.physicalLocation?.region?.startLine) ?? [];
      expect(lines(second)).not.toEqual(lines(first));

      const levels = second.runs[0]?.results?.map(
        (r) => `${r.locations?.[0]?.physicalLocation?.artifactLocation?.uri} ${r.level}`,
      );
      expect(levels).toContain('roots.ts warning');
      expect(levels).toContain('server.ts error');
      const notifications = second.runs[0]?.invocations?.[0]?.toolExecutionNotifications ?? [];
      expect(notifications).toHaveLength(1);
      expect(notifications[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('broken.ts');
    });
  });

  it('writes a Markdown summary with a per-rule table and links to the docs', async () => {
    const { stdout } = await run(['check', '-f', 'markdown', 'fixtures/legacy-server/src/triage.ts']);
    expect(stdout).toContain('**1 problem** (1 error, 0 warnings) in 1 of 1 file.');
    expect(stdout).toMatch(
      /\| \[no-deprecated-sampling\]\(https:\/\/[^)]+\/docs\/rules\/no-deprecated-sampling\.md\) \| 1 \| 0 \|/,
    );
    expect(stdout).toContain('### `fixtures/legacy-server/src/triage.ts`');
    expect(stdout).toMatch(/\| 13:26 \| error \| \[no-deprecated-sampling\]/);
  });

  it('writes --output atomically and leaves stdout empty', async () => {
    const dir = project('output', { 'server.ts': PUSH, 'reports/.keep': '' });
    const { code, stdout, stderr } = await run(
      ['check', '-f', 'sarif', '-o', 'reports/check.sarif', '.'],
      dir,
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('wrote the sarif report to reports/check.sarif');
    expect((JSON.parse(readFileSync(path.join(dir, 'reports/check.sarif'), 'utf8')) as Log).version).toBe(
      '2.1.0',
    );
    expect(readFileSync(path.join(dir, 'reports/.keep'), 'utf8')).toBe('');
  });

  it.each([
    [
      ['check', '-o', 'no/such/dir/report.json', 'fixtures/legacy-server/src/triage.ts'],
      /directory .*no\/such\/dir does not exist/,
    ],
    [
      ['check', '--format', 'xml', '.'],
      /argument 'xml' is invalid. Allowed choices are stylish, json, sarif, markdown, github/,
    ],
  ])('exits 2 for %j', async (args, reason) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(reason);
  });

  it('copes with a directory whose files are all ignored', async () => {
    const dir = project('ignored', { 'a.ts': PUSH });
    cpSync(path.join(dir, 'a.ts'), path.join(dir, 'b.ts'));
    const { code, stdout } = await run(['check', '--ignore', '*.ts', '-f', 'json', '.'], dir);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
