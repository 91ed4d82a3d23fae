import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A generated project for crash-hunting and benchmarks: mostly ordinary TypeScript (including
 * look-alikes: methods named `createMessage`, `listRoots`, `log`, `request` on the project's own
 * classes), plus MCP servers and clients old and new. Every old-style site it plants is counted,
 * so a run over it checks precision and recall at once.
 */
export interface Corpus {
  readonly files: readonly string[];
  /** Planted findings per rule name. */
  readonly expected: Readonly<Record<string, number>>;
}

type Kind = 'plain' | 'legacy-v1' | 'legacy-v2' | 'mrtr-v2' | 'mrtr-runtime' | 'mrtr-mistakes' | 'client';

/** A small deterministic PRNG, so every corpus of a given size is the same. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function plain(i: number, imports: string): string {
  return `${imports}
export interface Options${i} { readonly retries: number; readonly label: string }

export class Service${i} {
  private readonly cache = new Map<string, number>();
  constructor(private readonly options: Options${i}) {}

  createMessage(text: string): { text: string; at: number } {
    return { text: \`\${this.options.label}: \${text}\`, at: Date.now() };
  }

  listRoots(): string[] {
    return [...this.cache.keys()].filter((key) => key.startsWith('/'));
  }

  log(level: string, data: unknown): void {
    if (level === 'debug' && this.options.retries > ${i % 5}) return;
    console.error(level, data);
  }

  async request(url: string): Promise<number> {
    const hit = this.cache.get(url);
    if (hit !== undefined) return hit;
    const value = url.length * ${i + 1};
    this.cache.set(url, value);
    return value;
  }
}

export function run${i}(input: readonly string[]): number {
  const service = new Service${i}({ retries: ${i % 7}, label: 'job-${i}' });
  service.log('info', service.createMessage(input.join(',')));
  const state = { requestState: JSON.stringify({ step: ${i} }) };
  return input.reduce((sum, item) => sum + item.length, service.listRoots().length + state.requestState.length);
}
`;
}

function legacyV1(i: number, imports: string): string {
  return `${imports}import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export function createServer${i}(): McpServer {
  const server = new McpServer({ name: 'legacy-${i}', version: '1.0.${i}' }, { capabilities: { logging: {} } });

  server.registerTool('confirm_${i}', { inputSchema: { id: z.string() } }, async ({ id }, extra) => {
    const answer = await server.server.elicitInput({
      message: \`Delete \${id}?\`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
    });
    const branch = await extra.sendRequest(
      { method: 'elicitation/create', params: { message: 'Branch?', requestedSchema: { type: 'object', properties: {} } } },
      ElicitResultSchema,
    );
    const summary = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: id } }],
      includeContext: 'thisServer',
      maxTokens: 50,
    });
    const { roots } = await server.server.listRoots();
    await server.sendLoggingMessage({ level: 'info', data: roots.length });
    return { content: [{ type: 'text', text: \`\${answer.action} \${branch.action} \${summary.model}\` }] };
  });
  return server;
}
`;
}

function legacyV2(i: number, imports: string): string {
  return `${imports}import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

export function createBoard${i}(): McpServer {
  const server = new McpServer({ name: 'board-${i}', version: '2.0.${i}' });
  server.registerTool('book_${i}', { inputSchema: z.object({ room: z.string() }) }, async ({ room }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: \`When do you need \${room}?\`,
      requestedSchema: { type: 'object', properties: { apiKey: { type: 'string' }, date: { type: 'string', format: 'date' } } },
    });
    await ctx.mcpReq.log('info', { room, action: answer.action });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;
}

function mrtrV2(i: number, imports: string): string {
  return `${imports}import { McpServer, createRequestStateCodec, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { z } from 'zod';

const codec = createRequestStateCodec<{ step: number }>({ key: 'k'.repeat(32) });

export function createModern${i}(): McpServer {
  const server = new McpServer({ name: 'modern-${i}', version: '3.0.${i}' });
  server.registerTool('deploy_${i}', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (answer.kind === 'missing') {
      // SDK v2 answers a client without the capability with -32021: degrade instead.
      if (!ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation)
        return { content: [{ type: 'text', text: 'confirmation needs a client that can ask' }] };
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: \`Deploy to \${env}?\`,
            requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' }, tokenizer: { type: 'string' } } },
          }),
        },
        requestState: await codec.mint({ step: 1 }),
      });
    }
    console.error('deploying', env);
    return { content: [{ type: 'text', text: answer.kind }] };
  });
  return server;
}
`;
}

/** Handlers on the runtime written as the guide says: two rounds, URL mode, sealed state, a client loop. */
function mrtrRuntime(i: number, imports: string): string {
  return `${imports}import { elicitForm, elicitUrl, type ToolHandler } from '@mcp-mrtr/runtime';
import { callWithInput, type InputHandlers } from '@mcp-mrtr/runtime/client';

declare const accounts: { isLinked(user: string): Promise<boolean>; startDeploy(env: string): Promise<string> };
const askEnv = elicitForm({
  message: 'Deploy service-${i} to which environment?',
  requestedSchema: { type: 'object', properties: { env: { type: 'string', enum: ['staging', 'production'] } }, required: ['env'] },
});
const link = elicitUrl({ message: 'Link your deploy account.', url: 'https://mcp.example.com/link?ticket=t-${i}' });

export const deploy${i}: ToolHandler<Record<string, never>, { env: string }> = async (_args, round) => {
  if (round.state === undefined) {
    const env = round.elicitation('env', askEnv);
    if (!env) return round.inputRequired({ inputRequests: { env: askEnv } });
    if (env.action !== 'accept') return { content: [{ type: 'text', text: 'Cancelled.' }] };
    return round.inputRequired({ inputRequests: { link }, state: { env: env.content.env } });
  }
  const answer = round.urlElicitation('link');
  if (!answer || !round.supports(link)) return round.inputRequired({ inputRequests: { link }, state: round.state });
  if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Not linked.' }] };
  if (!(await accounts.isLinked(round.principal))) return round.inputRequired({ inputRequests: { link }, state: round.state });
  const id = await accounts.startDeploy(round.state.env);
  return { content: [{ type: 'text', text: \`Deployment \${id} started.\` }] };
};

export function run${i}(send: Parameters<typeof callWithInput>[0], handlers: InputHandlers) {
  return callWithInput(send, { name: 'deploy_${i}', arguments: {} }, { handlers, maxRounds: 5 });
}
`;
}

/** A hand-written server and client with one mistake for each recommended MRTR rule. */
function mrtrMistakes(i: number, imports: string): string {
  return `${imports}declare function seal(value: object): string;
declare const transport: { send(message: object): Promise<{ requestState?: string }> };
declare const client: { request(method: 'tools/call', params: object): Promise<{ requestState?: string }> };
type Params = { inputResponses?: Record<string, unknown>; _meta?: { caps?: { elicitation?: object } } };
const pick = { type: 'object', properties: { team: { type: 'string' } } };

export function handle${i}(method: string, params: Params, apiKey: string) {
  if (!params._meta?.caps?.elicitation) return { resultType: 'complete', content: [] };
  switch (method) {
    case 'tools/list':
      return { resultType: 'input_required', inputRequests: { team: { method: 'elicitation/create', params: { message: 'Team?', requestedSchema: pick } } } };
    case 'tools/call':
      return {
        resultType: 'input_required',
        inputRequests: {
          where: {
            method: 'elicitation/create',
            params: { message: 'Where?', requestedSchema: { type: 'object', properties: { at: { type: 'object' } } } },
          },
          login: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', url: 'http://auth.example.com/${i}' } },
        },
        requestState: seal({ step: ${i}, apiKey }),
      };
    default:
      return { resultType: 'input-required', requestState: seal({ step: 0 }) };
  }
}

export async function retry${i}() {
  const result = await client.request('tools/call', { name: 't' });
  const state = JSON.parse(result.requestState ?? '{}') as object;
  const first = await transport.send({ jsonrpc: '2.0', id: ${i}, method: 'tools/call', params: { name: 't', state } });
  await transport.send({ jsonrpc: '2.0', id: ${i}, method: 'tools/call', params: { name: 't', requestState: first.requestState } });
  return (message: { method: string }) => message.method === 'notifications/elicitation/complete';
}
`;
}

function client(i: number, imports: string): string {
  return `${imports}import { Client } from '@modelcontextprotocol/client';

export function createClient${i}(): Client {
  const client = new Client({ name: 'desk-${i}', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
  client.setNotificationHandler('notifications/elicitation/complete', () => {});
  return client;
}
`;
}

const WRITERS: Record<Kind, (i: number, imports: string) => string> = {
  plain,
  'legacy-v1': legacyV1,
  'legacy-v2': legacyV2,
  'mrtr-v2': mrtrV2,
  'mrtr-runtime': mrtrRuntime,
  'mrtr-mistakes': mrtrMistakes,
  client,
};

/** Findings each kind plants, per rule. */
const PLANTED: Record<Kind, Readonly<Record<string, number>>> = {
  plain: {},
  'legacy-v1': {
    'no-deprecated-logging': 2,
    'no-push-elicitation': 2,
    'no-deprecated-sampling': 2,
    'no-deprecated-roots': 1,
  },
  'legacy-v2': { 'no-push-elicitation': 1, 'no-deprecated-logging': 1, 'no-sensitive-form-fields': 1 },
  'mrtr-v2': {},
  'mrtr-runtime': {},
  'mrtr-mistakes': {
    'no-input-required-outside-eligible-methods': 1,
    'valid-elicitation-schema': 1,
    'valid-url-elicitation': 1,
    'require-client-capability-check': 1,
    'no-secrets-in-request-state': 1,
    'valid-input-required-result': 1,
    'no-request-state-inspection': 1,
    'no-reused-retry-id': 1,
    'no-wait-for-elicitation-complete': 1,
  },
  client: { 'no-deprecated-sampling': 1, 'no-elicitation-complete-notification': 1 },
};

function kindOf(roll: number): Kind {
  if (roll < 0.6) return 'plain';
  if (roll < 0.72) return 'legacy-v1';
  if (roll < 0.8) return 'legacy-v2';
  if (roll < 0.87) return 'mrtr-v2';
  if (roll < 0.92) return 'mrtr-runtime';
  if (roll < 0.96) return 'mrtr-mistakes';
  return 'client';
}

/** Writes `count` files (plus a tsconfig.json) under `dir` and returns them with the planted counts. */
export function writeCorpus(dir: string, count: number, seed = 42): Corpus {
  const next = random(seed);
  const files: string[] = [];
  const expected: Record<string, number> = {};
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: [],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          allowJs: true,
          jsx: 'preserve',
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'corpus', private: true, type: 'module' }),
  );
  for (let i = 0; i < count; i++) {
    const kind = kindOf(next());
    // Three imports of earlier files, as real projects have, so the type checker has a graph to build.
    const imports = Array.from({ length: Math.min(i, 3) }, () => Math.floor(next() * i))
      .filter((target, k, all) => all.indexOf(target) === k && files[target]?.endsWith('.ts') === true)
      .map(
        (target) =>
          `import type * as m${target} from './f${target}.js';\nexport type T${i}_${target} = typeof m${target};\n`,
      )
      .join('');
    const extension = kind === 'plain' && i % 10 === 9 ? '.mts' : '.ts';
    const file = path.join(dir, 'src', `f${i}${extension}`);
    writeFileSync(file, WRITERS[kind](i, imports));
    files.push(file);
    for (const [rule, n] of Object.entries(PLANTED[kind])) expected[rule] = (expected[rule] ?? 0) + n;
  }
  return { files, expected };
}
