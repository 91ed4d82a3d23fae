import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-elicitation-complete-notification.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V1_TYPES, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

ruleTester.run('no-elicitation-complete-notification', rule, {
  valid: [
    `class Flow { createElicitationCompletionNotifier(_id: string) { return () => {}; } }\nnew Flow().createElicitationCompletionNotifier('x');`,
    `${V1}class Flow { createElicitationCompletionNotifier(_id: string) { return () => {}; } }\nconst flow = new Flow();\nflow.createElicitationCompletionNotifier('x');`,
    `declare const thing: any;\nthing.createElicitationCompletionNotifier('x');`,
    `${V1}const note = 'notifications/elicitation/complete was removed';`,
    `${V1}// mcp.server.createElicitationCompletionNotifier(id)\nexport {};`,
    `${V1}declare const server: Server;\nawait server.notification({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });`,
    `${V2}export const url = inputRequired.elicitUrl({ message: 'Connect', url: 'https://example.com/connect' });`,
    `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });`,
    `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setNotificationHandler('notifications/tools/list_changed', () => {});`,
    `${V1}function notify(method: string) { return method; }\nnotify('notifications/elicitation/complete');`,
    `export const result = { resultType: 'input_required', inputRequests: { link: { method: 'elicitation/create', params: { mode: 'url', url: 'https://x', message: 'm' } } } };`,
    `${V1}declare const extra: any;\nawait extra.sendNotification({ method: 'notifications/cancelled', params: {} });`,
    `const listener = { setNotificationHandler(_m: string, _h: () => void) {} };\nlistener.setNotificationHandler('notifications/elicitation/complete', () => {});`,
    `${V1}declare const emitter: { on(e: string, f: () => void): void };\nemitter.on('notifications/elicitation/complete', () => {});`,
    `${V1}export const methods = ['notifications/elicitation/complete'];`,
  ],
  invalid: [
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nconst done = mcp.server.createElicitationCompletionNotifier('e-1');\nawait done();`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}export const notifier = (server: Server, id: string) => server.createElicitationCompletionNotifier(id);`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}declare const server: Server;\nawait server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: 'e' } });`,
      errors: [
        {
          messageId: 'send',
          data: {
            callee: 'server.notification',
            method: 'notifications/elicitation/complete',
            guidance:
              'Remove the notification; on the retry, decide from server-side state whether the URL-mode step completed.',
          },
        },
      ],
    },
    {
      code: `${V1}export const tool = async (_a: unknown, extra: any) => extra.sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId: 'e' } });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.notify({ method: 'notifications/elicitation/complete', params: { elicitationId: 'e' } });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1_TYPES}import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setNotificationHandler(ElicitationCompleteNotificationSchema, () => {});`,
      errors: [{ messageId: 'handler' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setNotificationHandler('notifications/elicitation/complete', () => {});`,
      errors: [{ messageId: 'handler' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/client';\nconst COMPLETE = 'notifications/elicitation/complete';\nexport function wait(client: Client) { client.setNotificationHandler(COMPLETE, () => {}); }`,
      errors: [{ messageId: 'handler', line: 3 }],
    },
    {
      code: `${V1}declare const server: Server;\nconst note = { method: 'notifications/elicitation/complete', params: { elicitationId: 'e' } } as const;\nawait server.notification(note);`,
      errors: [{ messageId: 'send', line: 5 }],
    },
    {
      code: `${V1}import type { ElicitationCompleteNotification } from '@modelcontextprotocol/sdk/types.js';\ndeclare const server: Server;\ndeclare const note: ElicitationCompleteNotification;\nawait server.notification(note);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}declare const server: Server;\nawait server.notification({ method: 'notifications/elicitation/complete', params: {} } as never);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');\nconst server = new Server({ name: 's', version: '1' });\nserver.createElicitationCompletionNotifier('e');`,
      filename: 'notify.cjs',
      errors: [{ messageId: 'call' }],
    },
    {
      code: `import * as sdk from '@modelcontextprotocol/sdk/server/index.js';\nconst server = new sdk.Server({ name: 's', version: '1' });\nserver.createElicitationCompletionNotifier('e');`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}class Connect { constructor(private server: Server) {}\n  finish(id: string) { return this.server.createElicitationCompletionNotifier(id); } }`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nexport const View = () => <a onClick={() => mcp.server.createElicitationCompletionNotifier('e')} />;`,
      filename: 'connect.tsx',
      errors: [{ messageId: 'call' }],
    },
  ],
});

typedRuleTester.run('no-elicitation-complete-notification (type-aware)', rule, {
  valid: [
    {
      code: `${V1}declare const mcp: McpServer;\nconst done = mcp.server.createElicitationCompletionNotifier.bind(mcp.server);\nexport type Done = typeof done;`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V1}declare const mcp: McpServer;\nconst low = mcp.server;\nexport const finish = (id: string) => low.createElicitationCompletionNotifier(id);`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call' }],
    },
  ],
});
