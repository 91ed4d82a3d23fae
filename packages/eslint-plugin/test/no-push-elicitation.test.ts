import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-push-elicitation.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V1_TYPES, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const AGENT = `import { McpAgent } from 'agents/mcp';\n`;
const form = `{ message: 'Delete?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }`;

ruleTester.run('no-push-elicitation', rule, {
  valid: [
    // Same-named methods on things that are not the SDK.
    `class Wizard { elicitInput(x: unknown) { return x; } }\nnew Wizard().elicitInput({});`,
    `${V1}class Wizard { elicitInput(x: unknown) { return x; } }\nconst w = new Wizard();\nw.elicitInput(${form});`,
    `${V1}function ask(form: { elicitInput(x: unknown): void }) { form.elicitInput({}); }`,
    // Without an SDK import an unknown receiver is not trusted with other params.
    `declare const x: any;\nx.elicitInput({ question: 'Delete?' });`,
    // Client-side handlers for elicitation are how MRTR input gets answered.
    `${V1_TYPES}import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));`,
    `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setRequestHandler('elicitation/create', async () => ({ action: 'cancel' }));`,
    // MRTR: the method string inside a returned inputRequests entry, and the v2 builders.
    `${V2}export function handler() { return { resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create', params: ${form} } } }; }`,
    `${V2}export const result = inputRequired({ inputRequests: { ok: inputRequired.elicit(${form}) } });`,
    `${V2}export const url = inputRequired.elicitUrl({ message: 'Connect', url: 'https://example.com/connect' });`,
    // Strings, comments and templates only mention the method.
    `${V1}// await server.server.elicitInput(...)\nconst doc = 'server.server.elicitInput() sends elicitation/create';\nconst t = \`\${doc} elicitation/create\`;`,
    `${V1}console.log({ method: 'elicitation/create' });`,
    // A generic send of a current method.
    `${V1}declare const server: Server;\nawait server.request({ method: 'ping' }, {} as never);`,
    `${V1}declare const extra: { sendRequest: Function };\nawait extra.sendRequest({ method: 'tools/list' }, {} as never);`,
    // The error class used for a check, not thrown.
    `import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';\nexport const isUrl = (e: unknown) => e instanceof UrlElicitationRequiredError;`,
    // A local class that happens to share the SDK error's name.
    `class UrlElicitationRequiredError extends Error {}\nthrow new UrlElicitationRequiredError('x');`,
    // Framework files: other calls on the framework's objects, and same-named calls without SDK params.
    `${AGENT}export class A extends McpAgent { async go() { await this.server.server.close(); } }`,
    `declare const form: any;\nform.elicitInput({ prompt: 'Name?' });`,
    `declare function elicitInput(message: string): Promise<string>;\nawait elicitInput('Name?');`,
    // A receiver whose class is written in this file: its elicitInput is that code, read here.
    `class Wizard { elicitInput(x: unknown) { return x; } }\nconst w = new Wizard();\nw.elicitInput(${form});`,
    `function ask(form: { elicitInput(x: unknown): void }) { form.elicitInput(${form}); }`,
    `interface Form { elicitInput(input: { prompt: string }): Promise<string> }\nexport const ask = (form: Form) => form.elicitInput(${form});`,
    // A generic send of a method a client sends, or of a current method, whoever sends it.
    `export async function run(sendRequest: (r: object) => Promise<unknown>) {\n  return sendRequest({ method: 'tools/call', params: { name: 't' } });\n}`,
    `export async function run({ request }: { request: (r: object) => Promise<unknown> }) {\n  return request({ method: 'ping' });\n}`,
    // A project's own method of that name read as a value, and other members invoked through .call.
    `${V1}class Wizard { elicitInput(x: unknown) { return x; } }\nconst w = new Wizard();\nconst elicit = w.elicitInput;\nelicit.call(w, ${form});`,
    `${V1}declare const server: Server;\nconst close = server.close;\nclose.call(server);`,
    // Bound into a const that nothing calls: the alias is reported where it is called, if ever.
    `${V1}declare const server: Server;\nexport const ask = server.elicitInput.bind(server);`,
  ],
  invalid: [
    {
      // sendRequest destructured from the handler's extra, in the parameter list or the body.
      code: `${V1}${V1_TYPES}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('book', {}, async (_args, { sendRequest }) => sendRequest({ method: 'elicitation/create', params: { message: 'Book?', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema));\nserver.registerTool('cancel', {}, async (_args, extra) => {\n  const { sendRequest } = extra;\n  return sendRequest({ method: 'elicitation/create', params: { message: 'Cancel?', requestedSchema: { type: 'object', properties: {} } } }, ElicitResultSchema);\n});`,
      errors: [
        { messageId: 'send', line: 5 },
        { messageId: 'send', line: 8 },
      ],
    },
    {
      // The SDK's push member read as a value and invoked through .call/.apply, or bound first.
      code: `${V1}export async function ask(server: Server) {\n  const elicit = (server as unknown as Record<string, unknown>)?.elicitInput;\n  await (elicit as (p: object) => Promise<unknown>).call(server, ${form});\n  await server.elicitInput.apply(server, [${form}]);\n  const bound = server.elicitInput.bind(server);\n  return bound(${form});\n}`,
      errors: [
        {
          messageId: 'call',
          line: 5,
          data: { callee: 'elicit.call', method: 'elicitation/create', guidance: expectGuidance() },
        },
        { messageId: 'call', line: 6 },
        { messageId: 'call', line: 8 },
      ],
    },
    {
      // Bound and passed on: where it asks cannot be followed, so the bind is the site.
      code: `${V1}export function askerFor(server: Server) {\n  return server.elicitInput.bind(server);\n}\nexport const run = (server: Server) => askerFor(server)(${form});`,
      errors: [
        {
          messageId: 'call',
          line: 4,
          data: {
            callee: 'server.elicitInput.bind',
            method: 'elicitation/create',
            guidance: expectGuidance(),
          },
        },
      ],
    },
    {
      // A server assigned later to a module-level variable, or exposed by a module-level object.
      code: `${V1}let server: McpServer;\nconst app = { mcp: undefined as unknown as McpServer };\nexport function start() {\n  server = new McpServer({ name: 's', version: '1' });\n  app.mcp = server;\n}\nexport const ask = () => server.server.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });\nexport const askAgain = () => app.mcp.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });`,
      errors: [
        { messageId: 'call', line: 9 },
        { messageId: 'call', line: 10 },
      ],
    },
    {
      code: `${V1}const server = new McpServer({ name: 's', version: '1' });\nexport const ask = () => (server as any).server.elicitInput({ message: 'Go?', requestedSchema: { type: 'object', properties: {} } });`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      // `.server.server` is the McpServer-to-Server idiom, in a file that imports only the framework.
      code: `${AGENT}export class A extends McpAgent {}\nexport async function go(agent: A) {\n  return agent.server.server.elicitInput(${form});\n}`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `import type { ToolContext } from './context.js';\nexport async function run(ctx: ToolContext) {\n  return ctx.elicitInput({ message: 'Pick a plan', requestedSchema: { type: 'object', properties: {} } });\n}`,
      errors: [{ messageId: 'call', line: 3 }],
    },
    {
      code: `import type { Ctx } from './ctx.js';\nimport { z } from 'zod';\nexport const run = (ctx: Ctx) => ctx.elicitInput({ message: 'Pick', schema: z.object({ plan: z.string() }) });`,
      errors: [{ messageId: 'call', line: 3 }],
    },
    // A type written in the file that gives elicitInput the SDK's argument describes the SDK object
    // a caller passes in (typed structurally, for tests), whatever module the file imports.
    {
      code: `type Asker = {\n  elicitInput(input: { message: string; requestedSchema: object }): Promise<{ action: string }>;\n};\nexport const confirm = (server: Asker) => server.elicitInput(${form});`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `interface Asker { elicitInput: (input: { message: string; url?: string }) => Promise<unknown> }\nexport function confirm(server: Asker) {\n  return server.elicitInput(${form});\n}`,
      errors: [{ messageId: 'call', line: 3 }],
    },
    {
      code: `export function confirm(server: { elicitInput(p: { message: string; requestedSchema: object }): Promise<unknown> }) {\n  return server.elicitInput(${form});\n}`,
      errors: [{ messageId: 'call', line: 2 }],
    },
    {
      code: `export async function ask(sendRequest: (r: object, s: object) => Promise<unknown>) {\n  return sendRequest({ method: 'elicitation/create', params: ${form} }, {});\n}`,
      errors: [{ messageId: 'send', line: 2 }],
    },
    {
      code: `export async function ask({ sendRequest }: { sendRequest: (r: object) => Promise<unknown> }) {\n  return sendRequest({ method: 'elicitation/create', params: ${form} });\n}`,
      errors: [{ messageId: 'send', line: 2 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nawait mcp.server.elicitInput(${form});`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}const server = new Server({ name: 's', version: '1' }, { capabilities: {} });\nawait server.elicitInput(${form});`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}export async function ask(server: Server) { return server.elicitInput(${form}); }`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}class Tools { constructor(private readonly mcp: McpServer) {}\n  run() { return this.mcp.server.elicitInput(${form}); } }`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V2}export const tool = async (_args: unknown, ctx: any) => ctx.mcpReq.elicitInput(${form});`,
      errors: [{ messageId: 'call' }],
    },
    {
      // An untyped helper parameter still counts in a file that imports the SDK: the name is the SDK's.
      code: `${V1}export async function ask(s: any) { return s.elicitInput(${form}); }`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}${V1_TYPES}export const tool = async (_a: unknown, extra: any) => extra.sendRequest({ method: 'elicitation/create', params: ${form} }, ElicitResultSchema);`,
      errors: [
        {
          messageId: 'send',
          data: { callee: 'extra.sendRequest', method: 'elicitation/create', guidance: expectGuidance() },
        },
      ],
    },
    {
      code: `${V1_TYPES}export const tool = async (_a: unknown, { sendRequest }: any) => sendRequest({ method: 'elicitation/create', params: ${form} }, ElicitResultSchema);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\nconst request = { method: 'elicitation/create', params: ${form} } as const;\nawait server.request(request, ElicitResultSchema);`,
      errors: [{ messageId: 'send', line: 6 }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\ndeclare const params: ElicitRequest['params'];\nconst request: ElicitRequest = { method: 'elicitation/create', params };\nawait server.request(request, {} as never);`,
      errors: [{ messageId: 'send', line: 7 }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\ndeclare const payload: unknown;\nawait server.request(payload as ElicitRequest, {} as never);`,
      errors: [{ messageId: 'send' }],
    },
    {
      // The result schema alone says what is being sent.
      code: `${V1}${V1_TYPES}declare const server: Server;\ndeclare const request: never;\nawait server.request(request, ElicitResultSchema);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\nawait server.request(ElicitRequestSchema.parse({ method: 'elicitation/create', params: {} }), {} as never);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.send({ method: 'elicitation/create', params: ${form} });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';\nthrow new UrlElicitationRequiredError([{ mode: 'url', elicitationId: 'e', url: 'https://x', message: 'm' }]);`,
      errors: [{ messageId: 'legacyError', line: 2 }],
    },
    {
      code: `import * as types from '@modelcontextprotocol/sdk/types.js';\nthrow new types.UrlElicitationRequiredError([]);`,
      errors: [{ messageId: 'legacyError' }],
    },
    {
      code: `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nconst mcp = new McpServer({ name: 's', version: '1' });\nmcp.server.elicitInput(${form});`,
      filename: 'server.cjs',
      errors: [{ messageId: 'call', line: 3 }],
    },
    {
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst mcp = new McpServer({ name: 's', version: '1' });\nexport const View = () => <button onClick={() => mcp.server.elicitInput(${form})} />;`,
      filename: 'view.jsx',
      errors: [{ messageId: 'call', line: 3 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nconst ask = mcp.server.elicitInput;\nawait ask(${form});`,
      errors: [{ messageId: 'call', line: 5 }],
    },
  ],
});

function expectGuidance(): string {
  return 'Return an input_required result with this request in inputRequests and read the answer from inputResponses when the client retries.';
}

typedRuleTester.run('no-push-elicitation (type-aware)', rule, {
  valid: [
    {
      code: `${V1}class Wizard { server = { elicitInput: (x: unknown) => x }; }\nnew Wizard().server.elicitInput({});`,
      filename: TYPED_FILE,
    },
    {
      code: `import { Prompter } from './prompter.js';\ndeclare const p: { elicitInput(x: unknown): Promise<void> };\nawait p.elicitInput({});\nexport type { Prompter };`,
      filename: TYPED_FILE,
    },
    {
      code: `${V2}export const tool = () => inputRequired({ inputRequests: { ok: inputRequired.elicit(${form}) } });`,
      filename: TYPED_FILE,
    },
    {
      code: `${V1}class Mine { request(_r: unknown, _s: unknown) {} }\nnew Mine().request({ method: 'elicitation/create' }, null);`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      // An alias of the method: only the checker knows where it came from.
      code: `${V1}declare const mcp: McpServer;\nconst { server } = mcp;\nconst ask = server.elicitInput.bind(server);\nexport const run = () => ask(${form});`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call', line: 6 }],
    },
    {
      code: `${V1}class Tools { private readonly holder: { mcp: McpServer };\n  constructor(mcp: McpServer) { this.holder = { mcp }; }\n  run() { return this.holder.mcp.server.elicitInput(${form}); } }`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call', line: 5 }],
    },
    {
      code: `${V1_TYPES}import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';\nimport type { ServerRequest, ServerNotification } from '@modelcontextprotocol/sdk/types.js';\ntype Send = RequestHandlerExtra<ServerRequest, ServerNotification>['sendRequest'];\nexport const ask = (send: Send) => send({ method: 'elicitation/create', params: ${form} }, ElicitResultSchema);`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'send', line: 5 }],
    },
    {
      code: `import type { ServerContext } from '@modelcontextprotocol/server';\nexport const tool = async (ctx: ServerContext) => { const req = ctx.mcpReq; return req.elicitInput(${form}); };`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\nfunction build(): ElicitRequest { return { method: 'elicitation/create', params: ${form} }; }\nawait server.request(build(), ElicitResultSchema);`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'send' }],
    },
  ],
});
