import { RuleTester } from '@typescript-eslint/rule-tester';
import rule from '../src/rules/url-accept-is-not-completion.js';
import { SYNTAX_ONLY, TYPE_AWARE, TYPED_FILE, V1, V2 } from './rule-tester.js';

const ruleTester = new RuleTester(SYNTAX_ONLY);
const typedRuleTester = new RuleTester(TYPE_AWARE);

const PRELUDE = `import { elicitUrl, type ToolHandler } from '@mcp-mrtr/runtime';
declare const github: { isConnected(user: string): Promise<boolean>; listRepos(user: string): Promise<string[]>; saveLink(user: string): void; linkAccount(user: string): Promise<void> };
const connect = elicitUrl({ message: 'Connect GitHub', url: 'https://mcp.example.com/connect' });
const text = (message: string) => ({ content: [{ type: 'text' as const, text: message }] });
`;
/** A runtime handler whose URL-mode answer is `answer`; line 6 is the body's first line. */
const tool = (body: string) =>
  `${PRELUDE}export const tool: ToolHandler = async (_args, round) => {\n  const answer = round.urlElicitation('connect');\n  if (!answer) return round.inputRequired({ inputRequests: { connect } });\n${body}\n};`;

/** SDK v2 with a hand-built URL request under the key `connect_github`. */
const sdk = (body: string) =>
  `${V2}declare const store: { linkAccount(user: string): Promise<void>; hasLink(user: string): Promise<boolean> };\nexport async function tool(ctx: { mcpReq: { inputResponses?: Record<string, { action: string } | undefined> } }) {\n  const answer = ctx.mcpReq.inputResponses?.connect_github;\n  if (answer === undefined) {\n    return inputRequired({ inputRequests: { connect_github: inputRequired.elicitUrl({ message: 'Connect', url: 'https://mcp.example.com/c' }) } });\n  }\n${body}\n}`;

/** Journaled replay: the URL answer comes from `await round.ask('connect', elicitUrl(…))`. */
const replay = (body: string) =>
  `${PRELUDE}export const tool: ToolHandler = async (_args, round) => {\n  const answer = await round.ask('connect', elicitUrl({ message: 'Connect GitHub', url: 'https://mcp.example.com/connect' }));\n${body}\n};`;

ruleTester.run('url-accept-is-not-completion', rule, {
  valid: [
    // Accept, then check the server's own record and ask again while it is missing.
    tool(
      `  if (answer.action !== 'accept') return text('Not connected.');\n  if (!(await github.isConnected('ada'))) return round.inputRequired({ inputRequests: { connect } });\n  return text('Connected.');`,
    ),
    tool(
      `  if (answer.action === 'accept') {\n    const connected = await github.isConnected('ada');\n    return connected ? text('Connected.') : round.inputRequired({ inputRequests: { connect } });\n  }\n  return text('Not connected.');`,
    ),
    sdk(
      `  if (answer.action !== 'accept') return { content: [] };\n  if (!(await store.hasLink('ada'))) return inputRequired({ inputRequests: { connect_github: inputRequired.elicitUrl({ message: 'Still waiting', url: 'https://mcp.example.com/c' }) } });\n  return { content: [] };`,
    ),
    // Accept that only reports, without claiming or acting on completion (the runtime's fixture).
    tool(
      `  return text(answer.action === 'accept' ? 'Waiting for the connection to finish.' : 'Not connected.');`,
    ),
    tool(
      `  if (answer.action === 'accept') return text('Opened the link; run the tool again once you are done.');\n  return text('Not connected.');`,
    ),
    // Form-mode answers are real answers: acting on them is fine.
    `${PRELUDE}import { elicitForm } from '@mcp-mrtr/runtime';\nconst confirm = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });\nexport const tool: ToolHandler = async (_a, round) => {\n  const answer = round.elicitation('confirm', confirm);\n  if (!answer) return round.inputRequired({ inputRequests: { confirm } });\n  if (answer.action === 'accept') github.saveLink('ada');\n  return text('Connected.');\n};`,
    `${V2}export async function tool(ctx: { mcpReq: { inputResponses?: Record<string, { action: string } | undefined> } }) {\n  const answer = ctx.mcpReq.inputResponses?.confirm;\n  if (!answer) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Link?', requestedSchema: { type: 'object', properties: {} } }) } });\n  if (answer.action === 'accept') return { content: [{ type: 'text', text: 'Connected.' }] };\n  return { content: [] };\n}`,
    // A legacy push that waits on the server's own completion signal.
    `${V1}declare const server: Server;\ndeclare const completed: Promise<string>;\nexport async function connectTool() {\n  const answer = await server.elicitInput({ mode: 'url', message: 'Connect', url: 'https://mcp.example.com/c', elicitationId: 'e1' });\n  if (answer.action !== 'accept') return 'Not connected.';\n  const login = await completed;\n  return \`Connected as \${login}.\`;\n}`,
    {
      code: tool(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  github.saveLink('ada');\n  return text('Linking…');`,
      ),
      options: [{ allowCalls: ['saveLink'] }],
    },
    // The server-side check in the same condition, or asking again until the next retry.
    tool(
      `  if (answer.action === 'accept' && (await github.isConnected('ada'))) return text('Connected.');\n  return text('Not connected yet.');`,
    ),
    tool(
      `  if (answer.action === 'accept') return round.inputRequired({ state: { waiting: true } });\n  return text('Not connected.');`,
    ),
    // An accept test outside any handler, or of something that is not an elicitation answer.
    `declare const event: { action: string };\nif (event.action === 'accept') console.error('connected');`,
    `${PRELUDE}export function onClick(button: { action: string }) {\n  return button.action === 'accept' ? text('Saved.') : text('Discarded.');\n}`,
    // Not an accept test of a URL answer.
    tool(
      `  if (answer.action === 'decline') return text('Connected elsewhere?');\n  return text('Not connected.');`,
    ),
    // Accept AND the server's own record of completion: awaiting a predicate is a check, not an act.
    `${PRELUDE}declare const billing: { paymentCompleted(ticket: string): Promise<boolean> };\nexport const tool: ToolHandler = async (_args, round) => {\n  const answer = round.urlElicitation('connect');\n  if (!answer) return round.inputRequired({ inputRequests: { connect } });\n  const paid = answer.action === 'accept' && await billing.paymentCompleted('t-1');\n  return paid ? text('Paid.') : round.inputRequired({ inputRequests: { connect } });\n};`,
    tool(
      `  if (answer.action === 'accept' && (await github.isConnected('ada'))) return text('Connected.');\n  return round.inputRequired({ inputRequests: { connect } });`,
    ),
    // Messages that send the user on, or say what must happen first, claim nothing.
    tool(
      `  if (answer.action === 'accept') return text('Connection page opened. Complete it in your browser.');\n  return text('Cancelled.');`,
    ),
    tool(
      `  if (answer.action === 'accept') return text('Page opened. Verify the callback before treating the service as connected.');\n  return text('Cancelled.');`,
    ),
    // Journaled replay: the check of the server's own record runs again on every retry.
    replay(
      `  if (answer.action !== 'accept') return text('Not connected.');\n  if (!(await github.isConnected('ada'))) return text('Not connected yet.');\n  return text('Connected.');`,
    ),
    replay(
      `  if (answer.action !== 'accept') return text('Not connected.');\n  const connected = await round.step('connected', () => github.isConnected('ada'));\n  return connected ? text('Connected.') : text('Not yet.');`,
    ),
    // A form asked with round.ask is a real answer: acting on it is fine.
    `${PRELUDE}import { elicitForm } from '@mcp-mrtr/runtime';\nexport const tool: ToolHandler = async (_a, round) => {\n  const answer = await round.ask('confirm', elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } }));\n  if (answer.action === 'accept') github.saveLink('ada');\n  return text('Connected.');\n};`,
  ],
  invalid: [
    {
      // A verb that acts, awaited after accept, still acts on the accept alone.
      code: `${PRELUDE}declare const billing: { chargeTicket(ticket: string): Promise<boolean> };\nexport const tool: ToolHandler = async (_args, round) => {\n  const answer = round.urlElicitation('connect');\n  if (!answer) return round.inputRequired({ inputRequests: { connect } });\n  const paid = answer.action === 'accept' && await billing.chargeTicket('t-1');\n  return text(String(paid));\n};`,
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'awaits billing.chargeTicket(…)' } }],
    },
    {
      code: tool(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  return text('GitHub connected.');`,
      ),
      errors: [
        {
          messageId: 'acceptIsConsent',
          line: 8,
          data: { evidence: 'tells the user "GitHub connected."' },
        },
      ],
    },
    {
      code: tool(
        `  if (answer.action === 'accept') {\n    github.saveLink('ada');\n  }\n  return text('Done.');`,
      ),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'calls github.saveLink(…)' } }],
    },
    {
      code: tool(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  const repos = await github.listRepos('ada');\n  return text(\`\${repos.length} repositories\`);`,
      ).replace(/listRepos/g, 'importRepos'),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'awaits github.importRepos(…)' } }],
    },
    {
      code: tool(`  return text(answer.action === 'accept' ? 'Payment completed.' : 'Payment cancelled.');`),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'tells the user "Payment completed."' } }],
    },
    {
      code: tool(`  return answer.action === 'accept' && text('Your key is saved.');`),
      errors: [{ messageId: 'acceptIsConsent' }],
    },
    {
      code: tool(
        `  if ('accept' === answer.action) return text('Signed in successfully.');\n  return text('Not signed in.');`,
      ),
      errors: [{ messageId: 'acceptIsConsent' }],
    },
    {
      code: tool(
        `  if (answer.action != 'accept') {\n    return text('Not connected.');\n  } else {\n    return text('Account linked.');\n  }`,
      ),
      errors: [{ messageId: 'acceptIsConsent' }],
    },
    {
      code: sdk(
        `  if (answer.action !== 'accept') return { content: [] };\n  await store.linkAccount('ada');\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'awaits store.linkAccount(…)' } }],
    },
    {
      code: sdk(
        `  if (answer.action === 'accept') return { content: [{ type: 'text', text: 'Authorized.' }] };\n  return { content: [] };`,
      ),
      errors: [{ messageId: 'acceptIsConsent' }],
    },
    {
      code: `${V2}export async function tool(ctx: { mcpReq: { inputResponses?: Record<string, unknown> } }) {\n  const view = inputResponse(ctx.mcpReq.inputResponses, 'pay');\n  if (view.kind === 'missing') return inputRequired({ inputRequests: { pay: inputRequired.elicitUrl({ message: 'Pay', url: 'https://mcp.example.com/pay' }) } });\n  if (view.kind === 'elicit' && view.action === 'accept') return { content: [{ type: 'text', text: 'Paid.' }] };\n  return { content: [] };\n}`.replace(
        'inputRequired }',
        'inputRequired, inputResponse }',
      ),
      errors: [{ messageId: 'acceptIsConsent' }],
    },
    {
      code: `export function handle(params: { inputResponses?: Record<string, { action: string } | undefined> }) {\n  const connect = params.inputResponses?.['connect'];\n  if (!connect) return { resultType: 'input_required', inputRequests: { connect: { method: 'elicitation/create', params: { mode: 'url', message: 'Connect', url: 'https://mcp.example.com/c' } } } };\n  if (connect.action !== 'accept') return { resultType: 'complete', content: [] };\n  return { resultType: 'complete', content: [{ type: 'text', text: 'Connected!' }] };\n}`,
      errors: [{ messageId: 'acceptIsConsent', line: 4 }],
    },
    {
      code: `${V1}declare const server: Server;\ndeclare const accounts: { activate(user: string): Promise<void> };\nexport async function connectTool() {\n  const answer = await server.elicitInput({ mode: 'url', message: 'Connect', url: 'https://mcp.example.com/c', elicitationId: 'e1' });\n  if (answer.action !== 'accept') return 'Not connected.';\n  await accounts.activate('ada');\n  return 'ok';\n}`,
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'awaits accounts.activate(…)' } }],
    },
    {
      code: replay(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  return text('GitHub connected.');`,
      ),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'tells the user "GitHub connected."' } }],
    },
    {
      // A step does what its function does: here it writes, on the accept alone.
      code: replay(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  await round.step('link', () => github.linkAccount('ada'));\n  return text('Done.');`,
      ),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'awaits github.linkAccount(…)' } }],
    },
    {
      code: replay(
        `  if (answer.action === 'accept') {\n    await round.step('save', async () => {\n      github.saveLink('ada');\n    });\n  }\n  return text('Done.');`,
      ),
      errors: [{ messageId: 'acceptIsConsent', data: { evidence: 'calls github.saveLink(…)' } }],
    },
  ],
});

typedRuleTester.run('url-accept-is-not-completion (type-aware)', rule, {
  valid: [
    {
      code: tool(
        `  return text(answer.action === 'accept' ? 'Waiting for the connection to finish.' : 'Not connected.');`,
      ),
      filename: TYPED_FILE,
    },
  ],
  invalid: [
    {
      code: tool(
        `  if (answer.action !== 'accept') return text('Not connected.');\n  return text('GitHub connected.');`,
      ),
      filename: TYPED_FILE,
      errors: [{ messageId: 'acceptIsConsent' }],
    },
  ],
});
