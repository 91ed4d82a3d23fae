import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/no-deprecated-roots.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V1_TYPES, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

ruleTester.run('no-deprecated-roots', rule, {
  valid: [
    // The project's own listRoots, through `this` or an instance of a class from another package.
    `${V1}export class Workspace {\n  listRoots() { return ['/srv']; }\n  scan() { return this.listRoots(); }\n}`,
    `${V1}import { FolderPicker } from 'folder-picker-kit';\nconst picker = new FolderPicker();\nexport const folders = () => picker.listRoots();`,
    `class Fs { listRoots() { return []; } }\nnew Fs().listRoots();`,
    `${V1}class Fs { listRoots() { return []; } }\nconst fs = new Fs();\nfs.listRoots();`,
    `declare const drive: any;\ndrive.listRoots();`,
    `${V1}function scan(volume: { listRoots(): string[] }) { return volume.listRoots(); }`,
    // A client answering roots requests (for MRTR input requests) is allowed.
    `import { Client } from '@modelcontextprotocol/client';\nconst client = new Client({ name: 'c', version: '1' });\nclient.setRequestHandler('roots/list', async () => ({ roots: [] }));`,
    `${V1}const note = 'roots/list and notifications/roots/list_changed are deprecated';`,
    `${V1}declare const server: Server;\nserver.setNotificationHandler('notifications/initialized' as never, () => {});`,
    `const settings = { capabilities: { roots: { listChanged: true } } };`,
    `${V1}new Server({ name: 's', version: '1' }, { capabilities: { resources: {} } });`,
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { r: inputRequired.listRoots() } });`,
      options: [{ inputRequests: false }],
    },
    `export const result = { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: {} } } };`,
    `${V1}declare const server: Server;\nawait server.request({ method: 'tools/list' } as never, {} as never);`,
    `${V1}// await server.server.listRoots()\nexport {};`,
    `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client({ name: 'c', version: '1' }, { capabilities: { elicitation: {} } });`,
    `${V1}const roots = ['a', 'b'];\nroots.push('c');`,
    // Destructured from a value whose type this file declares: the member's type decides.
    `${V1}import type { Host } from './host.js';\ninterface Session { host: Host }\nexport function roots(session: Session) {\n  const { host } = session;\n  return host.listRoots();\n}`,
  ],
  invalid: [
    {
      // A server held in a module-level `let`, assigned later: unknown, in a file that imports the SDK.
      code: `${V1}let loose: any;\nexport function attach(value: unknown) { loose = value; }\nexport const roots = () => loose.listRoots();`,
      errors: [{ messageId: 'call', line: 5 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nconst { roots } = await mcp.server.listRoots();`,
      errors: [{ messageId: 'call', line: 4 }],
    },
    {
      code: `${V1}export const list = (server: Server) => server.listRoots();`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `${V1}${V1_TYPES}export const tool = async (_a: unknown, extra: any) => extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V2}export const tool = async (_a: unknown, ctx: any) => ctx.mcpReq.send({ method: 'roots/list' });`,
      errors: [{ messageId: 'send' }],
    },
    {
      code: `${V1}${V1_TYPES}const mcp = new McpServer({ name: 's', version: '1' });\nmcp.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {});`,
      errors: [
        {
          messageId: 'handler',
          data: {
            callee: 'mcp.server.setNotificationHandler',
            method: 'notifications/roots/list_changed',
            guidance:
              'Remove the handler; read paths from tool arguments or configuration instead of tracking client roots.',
          },
        },
      ],
    },
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.server.setNotificationHandler('notifications/roots/list_changed', async () => {});`,
      errors: [{ messageId: 'handler' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nconst client = new Client({ name: 'c', version: '1' });\nawait client.sendRootsListChanged();`,
      errors: [{ messageId: 'call' }],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client({ name: 'c', version: '1' }, { capabilities: { roots: { listChanged: true } } });`,
      errors: [
        {
          messageId: 'capability',
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'roots' },
              output: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nnew Client({ name: 'c', version: '1' }, { capabilities: {} });`,
            },
          ],
        },
      ],
    },
    {
      code: `import { Client } from '@modelcontextprotocol/client';\nexport const options = {\n  capabilities: {\n    roots: { listChanged: true },\n    elicitation: {},\n  },\n};`,
      errors: [
        {
          messageId: 'capability',
          line: 4,
          suggestions: [
            {
              messageId: 'removeProperty',
              data: { name: 'roots' },
              output: `import { Client } from '@modelcontextprotocol/client';\nexport const options = {\n  capabilities: {\n    elicitation: {},\n  },\n};`,
            },
          ],
        },
      ],
    },
    {
      code: `${V2}export const r = inputRequired({ inputRequests: { r: inputRequired.listRoots() } });`,
      errors: [{ messageId: 'inputRequest' }],
    },
    {
      code: `const rootsRequest = { method: 'roots/list' };\nexport const result = { resultType: 'input_required', inputRequests: { r: rootsRequest } };`,
      errors: [{ messageId: 'inputRequest', line: 2 }],
    },
    {
      code: `${V1}const { Server: S } = require('@modelcontextprotocol/sdk/server/index.js');\nconst server = new S({ name: 's', version: '1' });\nserver.listRoots();`,
      filename: 'legacy.cjs',
      errors: [{ messageId: 'call', line: 5 }],
    },
    {
      code: `${V1}import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';\nimport type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';\ntype Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;\nexport const tool = (extra: Extra) => extra.sendRequest({ method: 'roots/list' }, {} as never);`,
      errors: [{ messageId: 'send', line: 6 }],
    },
    {
      code: `${V1}declare const server: Server;\nserver.registerCapabilities({});\nconst c = new (await import('@modelcontextprotocol/sdk/client/index.js')).Client({ name: 'c', version: '1' });\nc.sendRootsListChanged();`,
      errors: [{ messageId: 'call', line: 6 }],
    },
    {
      code: `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nexport const View = () => { void mcp.server.listRoots(); return <div />; };`,
      filename: 'view.tsx',
      errors: [{ messageId: 'call' }],
    },
  ],
});

typedRuleTester.run('no-deprecated-roots (type-aware)', rule, {
  valid: [
    {
      code: `class Fs { server = { listRoots: () => [] as string[] }; }\nnew Fs().server.listRoots();`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V1}export class Tools { constructor(private readonly mcp: McpServer) {}\n  private get low() { return this.mcp.server; }\n  roots() { return this.low.listRoots(); } }`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'call', line: 5 }],
    },
  ],
});
