import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-deprecated-logging.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V1_TYPES, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const serverInfo = `{ name: 's', version: '1' }`;

const FRAMEWORK = `import { McpAgent } from 'agents/mcp';\n`;

ruleTester.run('no-deprecated-logging', rule, {
  valid: [
    `console.log('info'); console.error('x');`,
    `${V1}const logger = { log: (..._a: unknown[]) => {} };\nlogger.log('info', 'x');`,
    `${V2}export const tool = async (_a: unknown, ctx: any) => { console.error('done', ctx.mcpReq.id); };`,
    `class Audit { sendLoggingMessage(_m: unknown) {} }\nnew Audit().sendLoggingMessage({});`,
    `${V1}class Audit { sendLoggingMessage(_m: unknown) {} }\nconst audit = new Audit();\naudit.sendLoggingMessage({ level: 'info', data: 'x' });`,
    `declare const transport: any;\ntransport.sendLoggingMessage({});`,
    `${V1}new McpServer(${serverInfo}, { capabilities: { tools: {} } });`,
    `const winston = { capabilities: { logging: {} } };`,
    // Progress notifications are not deprecated.
    `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });`,
    `${V1}declare const extra: any;\nawait extra.sendNotification({ method: 'notifications/progress', params: {} });`,
    // A client receiving log messages is not reported by this rule.
    `${V1_TYPES}import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nconst client = new Client(${serverInfo});\nclient.setNotificationHandler(LoggingMessageNotificationSchema, () => {});`,
    `${V1}const text = "server.sendLoggingMessage({ level: 'info' }) and notifications/message";`,
    `${V1}// await ctx.mcpReq.log('info', 'x')\nexport {};`,
    `${V1}function log(level: string, data: unknown) { console.error(level, data); }\nlog('info', 'x');`,
    `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client(${serverInfo}, { capabilities: { logging: {} } as never });`,
    // A framework's own logger options are not the logging capability.
    `import { McpModule } from '@rekog/mcp-nest';\nexport const m = McpModule.forRoot({ name: 'x', version: '1', logging: { enabled: true, level: 'verbose' } });`,
    `import { MCPServer } from 'mcp-use/server';\nexport const server = new MCPServer({ name: 'x', version: '1', logging: { level: 'debug' } });`,
    // Capabilities of something else: no MCP import and no server info around them.
    `export const lsp = { capabilities: { logging: {} } };`,
    // Handlers registered with a schema built on the spot, for methods that are not deprecated.
    `import { z } from 'zod';\ndeclare const server: any;\nserver.setRequestHandler(z.object({ method: z.literal('tools/list') }).passthrough(), async () => ({ tools: [] }));`,
    `import { z } from 'zod';\ndeclare const server: any;\nserver.setRequestHandler(z.object({ kind: z.literal('logging/setLevel') }), async () => ({}));`,
  ],
  invalid: [
    {
      code: `${FRAMEWORK}export class A extends McpAgent {}\nexport function log(agent: A) {\n  void agent.server.server.sendLoggingMessage({ level: 'info', data: 'x' });\n}`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `import { z } from 'zod';\ndeclare const server: any;\nserver.setRequestHandler(z.object({ method: z.literal('logging/setLevel') }).passthrough(), async () => ({}));`,
      errors: [{ messageId: 'handler', line: 3 }],
    },
    {
      code: `import { McpModule } from '@rekog/mcp-nest';\nexport const m = McpModule.forRoot({ name: 'x', version: '1', capabilities: { logging: {} } });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `import { McpModule } from '@rekog/mcp-nest';\nexport const m = McpModule.forRoot({ name: 'x', version: '1', capabilities: {} });`,
            },
          ],
        },
      ],
    },
    {
      code: `import { FastMCP } from 'fastmcp';\nexport const server = new FastMCP({ name: 'x', version: '1.0.0', capabilities: { logging: {} } } as never);`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `import { FastMCP } from 'fastmcp';\nexport const server = new FastMCP({ name: 'x', version: '1.0.0', capabilities: {} } as never);`,
            },
          ],
        },
      ],
    },
    {
      // A server info that carries capabilities, in a file with no import at all.
      code: `export const serverInfo = { name: 'x', version: '1.0.0', capabilities: { logging: {} } };`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `export const serverInfo = { name: 'x', version: '1.0.0', capabilities: {} };`,
            },
          ],
        },
      ],
    },
    {
      code: `export function notify(sendNotification: (n: object) => Promise<void>) {\n  return sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'x' } });\n}`,
      errors: [{ messageId: 'send', line: 2 }],
    },
    {
      code: `${V1}const server = new McpServer(${serverInfo});\nawait server.sendLoggingMessage({ level: 'info', data: 'x' });`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}const mcp = new McpServer(${serverInfo});\nawait mcp.server.sendLoggingMessage({ level: 'info', data: 'x' });`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => { await ctx.mcpReq.log('info', 'x'); };`,
      errors: [
        {
          messageId: 'call',
          data: {
            callee: 'ctx.mcpReq.log',
            method: 'notifications/message',
            guidance: 'Write the log record to stderr (stdio servers) or emit it through OpenTelemetry.',
          },
        },
      ],
    },
    {
      code: `${V1}export const tool = async (_a: unknown, extra: any) => extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'x' } });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}declare const server: Server;\nawait server.notification({ method: 'notifications/message', params: { level: 'info', data: 1 } });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 1 } });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}new McpServer(${serverInfo}, { capabilities: { logging: {} }, instructions: 'x' });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `${V1}new McpServer(${serverInfo}, { capabilities: {}, instructions: 'x' });`,
            },
          ],
        },
      ],
    },
    {
      code: `${V1}new Server(${serverInfo}, { capabilities: { tools: {}, logging: {} } });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `${V1}new Server(${serverInfo}, { capabilities: { tools: {} } });`,
            },
          ],
        },
      ],
    },
    {
      code: `${V1}const mcp = new McpServer(${serverInfo});\nmcp.server.registerCapabilities({ logging: {} });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `${V1}const mcp = new McpServer(${serverInfo});\nmcp.server.registerCapabilities({});`,
            },
          ],
        },
      ],
    },
    {
      code: `${V1}const options: { capabilities: Record<string, object> } = { capabilities: {} };\noptions.capabilities.logging = {};\nnew Server(${serverInfo}, options);`,
      errors: [{ messageId: 'capability', line: 4 }],
    },
    {
      code: `${V1}${V1_TYPES}const mcp = new McpServer(${serverInfo});\nmcp.server.setRequestHandler(SetLevelRequestSchema, async () => ({}));`,
      errors: [{ messageId: 'handler' }],
    },
    {
      code: `${V2}const server = new McpServer(${serverInfo});\nserver.server.setRequestHandler('logging/setLevel', async () => ({}));`,
      errors: [{ messageId: 'handler' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client(${serverInfo});\nawait client.setLoggingLevel('debug');`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nconst server = new McpServer({ name: 's', version: '1' }, { capabilities: { logging: {} } });\nserver.sendLoggingMessage({ level: 'info', data: 'x' });`,
      filename: 'server.cjs',
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'logging' },
              output: `const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nconst server = new McpServer({ name: 's', version: '1' }, { capabilities: {} });\nserver.sendLoggingMessage({ level: 'info', data: 'x' });`,
            },
          ],
        },
        { messageId: 'call', line: 3 },
      ],
    },
    {
      code: `${V1}export async function audit(server: McpServer, sessionId?: string) {\n  await server.sendLoggingMessage({ level: 'warning', data: 'x' }, sessionId);\n}`,
      filename: 'audit.js',
      errors: [{ messageId: 'call', line: 4 }],
    },
  ],
});

typedRuleTester.run('no-deprecated-logging (type-aware)', rule, {
  valid: [
    {
      code: `const logger = { mcpReq: { log: (..._a: unknown[]) => {} } };\nlogger.mcpReq.log('info', 'x');`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `import type { ServerContext } from '@modelcontextprotocol/server';\nexport function helper(request: ServerContext['mcpReq']) { return request.log('info', 'x'); }`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call' }],
    },
  ],
});
