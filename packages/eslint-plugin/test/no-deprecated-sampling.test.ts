import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-deprecated-sampling.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V1_TYPES, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const params = `{ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 }`;

ruleTester.run('no-deprecated-sampling', rule, {
  valid: [
    `class Llm { createMessage(x: unknown) { return x; } }\nnew Llm().createMessage(${params});`,
    // createMessage is a common name: without an SDK receiver it is somebody else's.
    `${V1}import Anthropic from '@anthropic-ai/sdk';\nconst client = new Anthropic();\nawait client.messages.createMessage(${params});`,
    // The project's own method called through `this` is not the SDK's, whatever its name.
    `${V1}export class Builder {\n  async requestSampling(text: string) { return text; }\n  async createMessage(text: string) { return text; }\n  run() { return [this.requestSampling('x'), this.createMessage('y')]; }\n}`,
    // An argument only MCP builds is evidence only in a file that imports the SDK.
    `declare const llm: any;\nawait llm.createMessage({ messages: [], maxTokens: 10, modelPreferences: {} });`,
    `${V1}function summarize(api: { createMessage(p: unknown): void }) { api.createMessage({}); }`,
    // includeContext 'none' is the default and fine; strings mentioning the values are not settings.
    `${V1}export const p = { ...${params}, includeContext: 'none' };`,
    `${V1}const note = "includeContext: 'thisServer' is deprecated";`,
    `const options = { includeContext: 'thisServer' };`,
    // A client answering sampling input requests is allowed.
    `${V1_TYPES}import { Client, } from '@modelcontextprotocol/sdk/client/index.js';\nimport { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }));`,
    // Elicitation input requests and client capabilities that are not deprecated.
    `${V2}export const r = inputRequired({ inputRequests: { a: inputRequired.elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }) } });`,
    `import { Client } from '@modelcontextprotocol/client';\nnew Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {} } } });`,
    // A server has no sampling capability to declare; a capabilities object of some other library.
    `${V1}new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });`,
    `const config = { capabilities: { sampling: {} } };`,
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { s: inputRequired.createMessage(${params}) } });`,
      options: [{ inputRequests: false }],
    },
    `${V1}declare const server: Server;\nawait server.request({ method: 'roots/list' }, {} as never);`,
    `${V1}// server.server.createMessage(${params})\nexport {};`,
    // createMessage keeps needing an SDK receiver: the name is common, and so are its params.
    `declare const handler: { getServerForSession(id: string): any };\nawait handler.getServerForSession('s').createMessage(${params});`,
  ],
  invalid: [
    {
      // An unknown receiver in a file that imports the SDK is presumed the SDK's, as migrate presumes it.
      code: `${V1}declare const llm: any;\nawait llm.createMessage(${params});`,
      errors: [{ messageId: 'call' }],
    },
    {
      // A receiver cast to any says nothing of what it is, even when it was built by the SDK.
      code: `${V1}const server = new McpServer({ name: 's', version: '1' });\nexport const draft = () => (server as any).createMessage(${params});`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      // A request built in a variable before the send, typed or not.
      code: `import { CreateMessageResultSchema, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';\nimport type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport async function poem(server: McpServer) {\n  const request: CreateMessageRequest = { method: 'sampling/createMessage', params: ${params} };\n  const untyped = { method: 'sampling/createMessage', params: ${params} };\n  await server.server.request(untyped, CreateMessageResultSchema);\n  return server.server.request(request, CreateMessageResultSchema);\n}`,
      errors: [
        { messageId: 'send', line: 6 },
        { messageId: 'send', line: 7 },
      ],
    },
    {
      // SDK v2's builder re-exported by a framework is still SDK v2's builder.
      code: `import { inputRequired } from 'mcp-use';\nexport const r = inputRequired({ inputRequests: { s: inputRequired.createMessage(${params}) } });`,
      errors: [{ messageId: 'inputRequest' }],
    },
    {
      // A server looked up per session in another module: modelPreferences is MCP's alone.
      code: `import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';\nimport { registry } from './registry.js';\nexport async function sample(id: string, request: CreateMessageRequest) {\n  const server = registry.serverFor(id);\n  const params = { messages: request.params.messages, maxTokens: 100, modelPreferences: request.params.modelPreferences };\n  return server.createMessage(params);\n}`,
      errors: [{ messageId: 'call', line: 6 }],
    },
    {
      code: `${V1}export const ask = (host: any) => host.createMessage({ ...${params}, includeContext: 'none' });`,
      errors: [{ messageId: 'call', line: 3 }],
    },
    {
      // A private field typed with the SDK class.
      code: `${V1}export class Host {\n  #server: Server;\n  constructor(server: Server) { this.#server = server; }\n  sample() { return this.#server.createMessage(${params}); }\n}`,
      errors: [{ messageId: 'call', line: 6 }],
    },
    {
      code: `import { McpAgent } from 'agents/mcp';\nexport class A extends McpAgent {}\nexport function ask(agent: A) {\n  return agent.server.server.createMessage({ messages: [], maxTokens: 100 });\n}`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      // Built in one function, typed with an imported type only, sent in another.
      code: `import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';\nfunction buildRequest(): CreateMessageRequest {\n  return { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } };\n}\nexport async function send(extra: { sendRequest(r: unknown, s: unknown): Promise<unknown> }) {\n  const request = buildRequest();\n  return extra.sendRequest(request, {});\n}`,
      errors: [{ messageId: 'send', line: 7 }],
    },
    {
      // The same without any type: the object the builder returns carries the method.
      code: `const build = () => ({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } });\nexport async function send(sendRequest: (r: unknown) => Promise<unknown>) {\n  return sendRequest(build());\n}`,
      errors: [{ messageId: 'send', line: 3 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nawait mcp.server.createMessage(${params});`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}export async function classify(server: Server) { return server.createMessage(${params}); }`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.requestSampling(${params});`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}${V1_TYPES}export const tool = async (_a: unknown, extra: any) => extra.sendRequest({ method: 'sampling/createMessage', params: ${params} }, CreateMessageResultSchema);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}${V1_TYPES}declare const server: Server;\ndeclare const request: never;\nawait server.request(request, CreateMessageResultSchema);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.send({ method: 'sampling/createMessage', params: ${params} });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nawait mcp.server.createMessage({ ...${params}, includeContext: 'thisServer' });`,
      errors: [
        { messageId: 'call', line: 4 },
        {
          messageId: 'includeContext',
          line: 4,
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'includeContext' },
              output: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nawait mcp.server.createMessage({ ...${params} });`,
            },
          ],
        },
      ],
    },
    {
      code: `${V2}export const s = inputRequired.createMessage({ includeContext: 'allServers', ...${params} });`,
      errors: [
        { messageId: 'inputRequest' },
        {
          messageId: 'includeContext',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'includeContext' },
              output: `${V2}export const s = inputRequired.createMessage({ ...${params} });`,
            },
          ],
        },
      ],
    },
    {
      code: `const request = { messages: [], maxTokens: 5, includeContext: 'allServers' as const };`,
      errors: [
        {
          messageId: 'includeContext',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'includeContext' },
              output: `const request = { messages: [], maxTokens: 5 };`,
            },
          ],
        },
      ],
    },
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { s: inputRequired.createMessage(${params}) } });`,
      errors: [
        {
          messageId: 'inputRequest',
          data: {
            method: 'sampling/createMessage',
            guidance:
              "Plan to call an LLM provider's API instead; sampling input requests are deprecated though still valid.",
          },
        },
      ],
    },
    {
      code: `export const result = { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: ${params} } } };`,
      errors: [{ messageId: 'inputRequest' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client({ name: 'c', version: '1' }, { capabilities: { sampling: {}, elicitation: {} } });`,
      errors: [
        {
          messageId: 'capability',
          data: {
            capability: 'sampling',
            side: 'client',
            guidance: 'Stop declaring sampling; servers should call an LLM provider themselves.',
          },
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'sampling' },
              output: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client({ name: 'c', version: '1' }, { capabilities: { elicitation: {} } });`,
            },
          ],
        },
      ],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/client';\nconst capabilities = { elicitation: {}, sampling: { context: {} } };\nnew Client({ name: 'c', version: '1' }, { capabilities });`,
      errors: [
        {
          messageId: 'capability',
          line: 2,
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'sampling' },
              output: `import { Client } from '@modelcontextprotocol/client';\nconst capabilities = { elicitation: {} };\nnew Client({ name: 'c', version: '1' }, { capabilities });`,
            },
          ],
        },
      ],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\ndeclare const client: Client;\nclient.registerCapabilities({ sampling: {} });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'sampling' },
              output: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\ndeclare const client: Client;\nclient.registerCapabilities({});`,
            },
          ],
        },
      ],
    },
    {
      code: `${V1}export async function triage(server: Server) {\n  const { content } = await server.createMessage(${params});\n  return content;\n}`,
      filename: 'triage.mts',
      errors: [{ messageId: 'call', line: 4 }],
    },
  ],
});

typedRuleTester.run('no-deprecated-sampling (type-aware)', rule, {
  valid: [
    {
      code: `class Llm { createMessage(x: unknown) { return x; } }\nexport const llm = { inner: new Llm() };\nllm.inner.createMessage({});`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V1}class Holder { constructor(readonly mcp: McpServer) {} }\nexport const run = (h: Holder) => h.mcp.server.createMessage(${params});`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}declare const mcp: McpServer;\nconst { createMessage } = mcp.server;\nexport const run = () => createMessage.call(mcp.server, ${params});`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call' }],
    },
  ],
});
