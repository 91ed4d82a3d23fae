import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/require-client-capability-check.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const FORM = `{ method: 'elicitation/create', params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } } }`;
const URL_MODE = `{ method: 'elicitation/create', params: { mode: 'url', message: 'Connect', url: 'https://example.com/connect' } }`;
const result = (requests: string) => `{ resultType: 'input_required', inputRequests: { ${requests} } }`;
const V1_TYPES = `import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';\n`;
const v1Tool = (body: string) =>
  `${V1}const mcp = new McpServer({ name: 's', version: '1' });\nmcp.registerTool('t', {}, async (extra) => {\n${body}\n});`;
const plain = (body: string) =>
  `type Caps = { elicitation?: { form?: object; url?: object }; sampling?: object };\nexport function handle(params: { _meta?: { 'io.modelcontextprotocol/clientCapabilities'?: Caps } }) {\n  const caps = params._meta?.['io.modelcontextprotocol/clientCapabilities'];\n${body}\n}`;
const RUNTIME = `import { elicitForm, elicitUrl, type ToolHandler } from '@mcp-mrtr/runtime';\n`;
const URL_WHY = ' (a bare elicitation: {} means form only)';

ruleTester.run('require-client-capability-check', rule, {
  valid: [
    // The runtime refuses (-32021) or drops requests the client cannot serve.
    `${RUNTIME}export const tool: ToolHandler = (_a, round) => round.inputRequired({ inputRequests: { c: elicitUrl({ message: 'Go', url: 'https://example.com' }) } });`,
    `${RUNTIME}export const tool: ToolHandler = (_a, round) => round.inputRequired({ inputRequests: { n: elicitForm({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }) }, unsupported: 'filter' });`,
    // SDK v2 with a check that degrades instead of letting the seam fail the call (-32021).
    `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async (_args, ctx) => {\n  if (!ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation?.url) return { content: [] };\n  return inputRequired({ inputRequests: { c: inputRequired.elicitUrl({ message: 'Go', url: 'https://example.com' }) } });\n});`,
    // The runtime's SDK v1 adapter runs the rounds and checks capabilities before asking.
    `${V1}import { SdkV1Adapter } from '@mcp-mrtr/runtime/sdk-v1';\ndeclare const mrtr: SdkV1Adapter;\nconst mcp = new McpServer({ name: 's', version: '1' });\nmrtr.registerTool(mcp, 'connect', {}, async () => (${result(`c: ${URL_MODE}`)}) as never);`,
    // Checks that cover the request.
    plain(`  if (!caps?.elicitation) return { content: [] };\n  return ${result(`n: ${FORM}`)};`),
    plain(`  if (!caps?.elicitation?.url) return { content: [] };\n  return ${result(`c: ${URL_MODE}`)};`),
    plain(
      `  if (caps?.elicitation && 'url' in caps.elicitation) return ${result(`c: ${URL_MODE}`)};\n  return { content: [] };`,
    ),
    plain(
      `  const { elicitation } = caps ?? {};\n  if (elicitation?.url) return ${result(`c: ${URL_MODE}`)};\n  return { content: [] };`,
    ),
    `${RUNTIME}const ask = elicitUrl({ message: 'Go', url: 'https://example.com' });\nexport const tool: ToolHandler = (_a, round) => (round.supports(ask) ? round.inputRequired({ inputRequests: { c: ask } }) : { content: [] });`,
    // The capabilities handed to a helper of the project's own: it may check anything.
    `declare function supportedOnly(requests: object, caps: unknown): object;\n${plain(`  return { resultType: 'input_required', inputRequests: supportedOnly({ c: ${URL_MODE} }, caps) };`)}`,
    v1Tool(
      `  if (!mcp.server.getClientCapabilities()?.elicitation) return { content: [] };\n  return ${result(`n: ${FORM}`)} as never;`,
    ),
    // Unknown serving (the guide's own example): a dispatcher we cannot see may check.
    `export function ask() {\n  return ${result(`n: ${FORM}`)};\n}`,
    // Non-elicitation requests are other rules' business (sampling and roots are deprecated).
    plain(`  return ${result(`s: { method: 'roots/list' }`)};`),
    // Not an input_required result.
    plain(`  return { content: [], structuredContent: ${result(`c: ${URL_MODE}`)} };`).replace(
      `resultType: 'input_required', `,
      '',
    ),
  ],
  invalid: [
    {
      // A check written with a quoted key is a check ('elicitation/create', the method, is not).
      code: `type Caps = { elicitation?: object };\nexport function handle(caps: Caps) {\n  if (!caps['elicitation']) return { content: [] };\n  return ${result(`c: ${URL_MODE}`)};\n}`,
      errors: [{ messageId: 'wrongCapability', data: { checked: 'elicitation', mode: 'url', why: URL_WHY } }],
    },
    {
      // SDK v2's seam answers a client without the capability with -32021: the call fails.
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async () => inputRequired({ inputRequests: { c: inputRequired.elicitUrl({ message: 'Go', url: 'https://example.com' }) } }));`,
      errors: [{ messageId: 'unchecked', data: { mode: 'url', why: URL_WHY } }],
    },
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async () => (${result(`n: ${FORM}`)}));`,
      errors: [{ messageId: 'unchecked', data: { mode: 'form', why: '' } }],
    },
    {
      // The builder alone says SDK v2 serves it, wherever the handler is registered.
      code: `${V2}export async function tool() {\n  return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }) } });\n}`,
      errors: [{ messageId: 'unchecked', data: { mode: 'form', why: '' } }],
    },
    {
      code: plain(`  if (!caps?.elicitation) return { content: [] };\n  return ${result(`c: ${URL_MODE}`)};`),
      errors: [{ messageId: 'wrongCapability', data: { checked: 'elicitation', mode: 'url', why: URL_WHY } }],
    },
    {
      code: plain(
        `  if (!caps?.elicitation?.form) return { content: [] };\n  return ${result(`c: ${URL_MODE}`)};`,
      ),
      errors: [
        { messageId: 'wrongCapability', data: { checked: 'elicitation.form', mode: 'url', why: URL_WHY } },
      ],
    },
    {
      code: plain(
        `  if (!caps?.elicitation?.url) return { content: [] };\n  return ${result(`n: ${FORM}`)};`,
      ),
      errors: [{ messageId: 'wrongCapability', data: { checked: 'elicitation.url', mode: 'form', why: '' } }],
    },
    {
      code: plain(
        `  if (caps?.elicitation?.form) return ${result(`n: ${FORM}, c: ${URL_MODE}`)};\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'wrongCapability', line: 4 }],
    },
    {
      code: plain(
        `  if (!('elicitation' in (caps ?? {}))) return { content: [] };\n  return ${result(`c: ${URL_MODE}`)};`,
      ),
      errors: [{ messageId: 'wrongCapability' }],
    },
    {
      code: `${RUNTIME}const ask = elicitUrl({ message: 'Go', url: 'https://example.com' });\nexport const tool: ToolHandler = (_a, round) => (round.clientCapabilities?.elicitation ? round.inputRequired({ inputRequests: { c: ask } }) : { content: [] });`,
      errors: [{ messageId: 'wrongCapability', data: { checked: 'elicitation', mode: 'url', why: URL_WHY } }],
    },
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async (_args, ctx) => {\n  if (!ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation) return { content: [] };\n  return inputRequired({ inputRequests: { c: inputRequired.elicitUrl({ message: 'Go', url: 'https://example.com' }) } });\n});`,
      errors: [{ messageId: 'wrongCapability' }],
    },
    {
      // Reads other capabilities, forgets elicitation.
      code: plain(`  if (!caps?.sampling) return { content: [] };\n  return ${result(`n: ${FORM}`)};`),
      errors: [{ messageId: 'unchecked', data: { mode: 'form', why: '' } }],
    },
    {
      // SDK v1 has no MRTR gate: nothing refuses the request for the handler.
      code: v1Tool(`  return ${result(`n: ${FORM}`)} as never;`),
      errors: [{ messageId: 'unchecked', data: { mode: 'form', why: '' } }],
    },
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nserver.setRequestHandler(CallToolRequestSchema, async () => (${result(`c: ${URL_MODE}`)}) as never);`,
      errors: [{ messageId: 'unchecked', data: { mode: 'url', why: URL_WHY } }],
    },
    {
      code: `${V1}${V1_TYPES}const server = new Server({ name: 's', version: '1' });\nasync function callTool() {\n  return ${result(`n: ${FORM}, c: ${URL_MODE}`)} as never;\n}\nserver.setRequestHandler(CallToolRequestSchema, callTool);`,
      errors: [{ messageId: 'unchecked' }, { messageId: 'unchecked' }],
    },
    {
      code: `const ASK = ${URL_MODE};\n${plain(`  if (caps?.elicitation) return ${result('connect: ASK')};\n  return { content: [] };`)}`,
      errors: [{ messageId: 'wrongCapability', line: 5 }],
    },
  ],
});

typedRuleTester.run('require-client-capability-check (type-aware)', rule, {
  valid: [
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async (_args, ctx) => {\n  if (!ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation?.url) return { content: [] };\n  return inputRequired({ inputRequests: { c: inputRequired.elicitUrl({ message: 'Go', url: 'https://example.com' }) } });\n});`,
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: `${V2}const server = new McpServer({ name: 's', version: '1' });\nserver.registerTool('t', {}, async () => inputRequired({ inputRequests: { c: inputRequired.elicitUrl({ message: 'Go', url: 'https://example.com' }) } }));`,
      filename: TYPED_FILE,
      errors: [{ messageId: 'unchecked' }],
    },
    {
      code: v1Tool(`  return ${result(`n: ${FORM}`)} as never;`),
      filename: TYPED_FILE,
      errors: [{ messageId: 'unchecked' }],
    },
  ],
});
