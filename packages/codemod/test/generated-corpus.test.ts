import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualSites, planMigration, type MigrationResult } from '@mcp-mrtr/codemod';

// A crash-free run over a generated corpus: every shape the transforms look for, in every
// statement context, file kind and code style, mixed at random (seeded, so failures reproduce).

const REPO = path.resolve(import.meta.dirname, '../../..');
const SEED = 20260728;
const FILES = 80;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SENDS = [
  "await server.sendLoggingMessage({ level: 'info', data: 'a' });",
  "await server.sendLoggingMessage({ level: 'info', logger: 'x', data: { n: 1 } }, extra.sessionId);",
  "void server.sendLoggingMessage({ level: 'debug', data: 'b' });",
  "server.sendLoggingMessage({ level: 'debug', data: 'c' }).catch(() => undefined);",
  "const sent = server.sendLoggingMessage({ level: 'debug', data: 'd' }); await sent;",
  "await Promise.all([server.sendLoggingMessage({ level: 'info', data: 'e' })]);",
  "if (extra.sessionId) await server.sendLoggingMessage({ level: 'notice', data: 'f' });",
  "await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'g' } });",
  "await extra.sendNotification({\n      method: 'notifications/message', // why\n      params: { level: 'info', data: 'h' },\n    });",
  "await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });",
  "await server.server.notification({ method: 'notifications/message', params: { level: 'warning', data: 'i' } }, { relatedRequestId: extra.requestId });",
  "await server.server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: 'x' } });",
  "const notify = server.server.createElicitationCompletionNotifier('id'); await notify();",
  "await server.server.createMessage({ messages: [], maxTokens: 1, includeContext: 'thisServer' });",
  "await server.server.createMessage({ messages: [], maxTokens: 1, includeContext: extra.sessionId ? 'allServers' : 'none' });",
];

// Round trips carried in _meta (the generated tools have no arguments): two the request-state
// transform seals and opens, two it must leave for manual work.
const STATES = [
  "const token = extra._meta?.requestState as string | undefined;\n    if (token) return { content: [{ type: 'text', text: String(JSON.parse(token).n) }] };\n    if (extra.sessionId) return { content: [], resultType: 'input_required', inputRequests: {}, requestState: JSON.stringify({ n: 1 }) };",
  "const raw = extra._meta?.requestState as string | undefined;\n    if (raw !== undefined) return { content: [{ type: 'text', text: String(JSON.parse(Buffer.from(raw, 'base64').toString('utf8')).n) }] };\n    if (extra.sessionId) return { content: [], resultType: 'input_required', inputRequests: {}, requestState: Buffer.from(JSON.stringify({ n: 2 })).toString('base64') };",
  "if (extra.sessionId) return { content: [], resultType: 'input_required', inputRequests: {}, requestState: `step:${extra.requestId}` };",
  "console.error(extra._meta?.requestState);\n    if (extra._meta?.requestState) return { content: [{ type: 'text', text: JSON.parse(String(extra._meta.requestState)) }] };\n    if (extra.sessionId) return { content: [], resultType: 'input_required', inputRequests: {}, requestState: JSON.stringify({}) };",
];

const MODULE_LEVEL = [
  'server.server.setRequestHandler(SetLevelRequestSchema, () => ({}));',
  'server.server.setRequestHandler(SetLevelRequestSchema, (request) => { console.error(request.params.level); return {}; });',
  'server.server.setRequestHandler(SetLevelRequestSchema, async () => { await Promise.resolve(); return {}; });',
];

const CLIENTS = [
  "const client = new Client({ name: 'c', version: '1' }, { capabilities: { roots: { listChanged: true }, sampling: {} } });\n  await client.close();",
  "const client = new Client({ name: 'c', version: '1' }, { capabilities: { sampling: {} } });\n  client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }));\n  await client.close();",
  "const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });\n  client.registerCapabilities({ roots: {} });\n  await client.setLoggingLevel('error');",
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function generateFile(next: () => number, index: number): { name: string; text: string } {
  const extension = pick(next, ['ts', 'ts', 'ts', 'tsx', 'mts', 'cts']);
  const sends = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(next, SENDS));
  const capability = next() < 0.6 ? ', logging: {}' : '';
  let text = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export function create${index}(): McpServer {
  const server = new McpServer({ name: 'g${index}', version: '1.0.0' }, { capabilities: { tools: {}${capability} } });
  ${next() < 0.4 ? pick(next, MODULE_LEVEL) : ''}
  server.registerTool('t${index}', { description: 'generated' }, async (extra) => {
    ${sends.join('\n    ')}
    ${next() < 0.4 ? pick(next, STATES) : ''}
    return { content: [] };
  });
  return server;
}

export async function client${index}(): Promise<void> {
  ${pick(next, CLIENTS)}
}
${extension === 'tsx' ? `\nexport const view${index} = <div title="log">{'sendLoggingMessage'}</div>;\n` : ''}`;
  if (next() < 0.3) text = text.replaceAll("'", '"');
  if (next() < 0.3) text = text.replace(/;$/gm, '');
  if (next() < 0.3) text = text.replace(/^( {2})+/gm, (indent) => '\t'.repeat(indent.length / 2));
  if (next() < 0.2) text = text.replaceAll('\n', '\r\n');
  if (next() < 0.1) text = `\uFEFF${text}`;
  return { name: `src/f${index}.${extension}`, text };
}

let dir: string;
let sources: Map<string, string>;
let first: MigrationResult;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-corpus-'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'corpus', type: 'module' }));
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2023', strict: false, jsx: 'react-jsx', types: [] },
    }),
  );
  const next = random(SEED);
  sources = new Map(
    Array.from({ length: FILES }, (_, index) => generateFile(next, index)).map(({ name, text }) => [
      path.join(dir, name),
      text,
    ]),
  );
  first = await planMigration({ files: [...sources.keys()], cwd: dir, sources });
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
