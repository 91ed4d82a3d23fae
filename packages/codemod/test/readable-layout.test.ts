import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planMigration } from '@mcp-mrtr/codemod';

// Issue 24, item 10: what the handler rewrite moves lands at its new depth, laid out as a person
// would write it, and what it does not change keeps its bytes.

// Planning a TypeScript program: slow on a loaded machine.
const TIMEOUT = 120_000;
const REPO = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-mrtr-layout-'));
symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function migrated(
  name: string,
  text: string,
  style: 'replay' | 'explicit' = 'replay',
): Promise<string> {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  const result = await planMigration({
    files: [file],
    cwd: dir,
    transforms: ['mrtr-handlers'],
    handlers: { style },
  });
  const outcome = result.files[0]!;
  expect(outcome.status, outcome.reason).toBe('changed');
  return outcome.output!;
}

/** The lines from the one that contains `from` to the one that contains `to`, both included. */
function linesBetween(text: string, from: string, to: string): string {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.includes(from));
  const last = lines.findIndex((line, index) => index >= first && line.includes(to));
  return lines.slice(first, last + 1).join('\n');
}

const HEADER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'layout', version: '1.0.0' });
`;

describe('the layout of rewritten handlers', () => {
  it(
    "moves a generic send's params to the question's depth and closes the call on their last line",
    async () => {
      const output = await migrated(
        'send-request.ts',
        `${HEADER}
server.registerTool('rename', { inputSchema: { id: z.string() } }, async ({ id }, extra) => {
  const answer = await extra.sendRequest(
    {
      method: 'elicitation/create',
      params: {
        message: \`New name for \${id}?\`,
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
    ElicitResultSchema,
  );
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
      );
      // ElicitResultSchema never checked the content against the form, so neither does the rewrite.
      expect(linesBetween(output, 'round.ask(', '}), { validate: false });')).toBe(
        [
          "  const answer = await round.ask('new_name_for', elicitForm({",
          '    message: `New name for ${id}?`,',
          "    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },",
          '  }), { validate: false });',
        ].join('\n'),
      );
    },
    TIMEOUT,
  );

  it(
    'closes a push call whose params stood on lines of their own without a dangling comma and parenthesis',
    async () => {
      const output = await migrated(
        'elicit-input.ts',
        `${HEADER}
server.registerTool('drop', { inputSchema: { id: z.string() } }, async ({ id }, extra) => {
  const answer = await server.server.elicitInput(
    {
      message: \`Drop \${id}?\`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    },
    { relatedRequestId: extra.requestId },
  );
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
      );
      expect(linesBetween(output, 'round.ask(', '}));')).toBe(
        [
          "  const answer = await round.ask('drop', elicitForm({",
          '    message: `Drop ${id}?`,',
          "    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },",
          '  }));',
        ].join('\n'),
      );
    },
    TIMEOUT,
  );

  it(
    "lays out tool()'s description and shape one property per line, in the file's tab indentation",
    async () => {
      const output = await migrated(
        'shorthand-tabs.ts',
        `${HEADER}
server.tool(
\t'archive',
\t'Archive a project.',
\t{
\t\tid: z.string(),
\t},
\tasync ({ id }) => {
\t\tconst answer = await server.server.elicitInput({
\t\t\tmessage: \`Archive \${id}?\`,
\t\t\trequestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
\t\t});
\t\treturn { content: [{ type: 'text', text: answer.action }] };
\t},
);
`,
      );
      expect(linesBetween(output, 'mrtr.registerTool(', 'async (')).toBe(
        [
          'mrtr.registerTool(',
          '\tserver,',
          "\t'archive',",
          '\t{',
          "\t\tdescription: 'Archive a project.',",
          '\t\tinputSchema: {',
          '\t\t\tid: z.string(),',
          '\t\t},',
          '\t},',
          '\tasync ({ id }, round) => {',
        ].join('\n'),
      );
    },
    TIMEOUT,
  );

  it(
    'keeps a parameter list written one per line one per line, and the code it does not change byte for byte',
    async () => {
      const untouched = `function   oddlySpaced( a:number ) {\n      return a  ;\n}\n`;
      const output = await migrated(
        'named-handler.ts',
        `${HEADER}
${untouched}
async function rename(
  { id }: { id: string },
  extra: Parameters<Parameters<typeof server.registerTool>[2]>[1],
) {
  const answer = await server.server.elicitInput({
    message: \`Rename \${id}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text' as const, text: answer.action }] };
}

server.registerTool('rename', { inputSchema: { id: z.string() } }, rename);
`,
      );
      expect(output).toContain(untouched);
      expect(linesBetween(output, 'async function rename(', ') {')).toMatch(
        /^async function rename\(\n {2}\{ id \}: \{ id: string \},\n {2}round: \w+,\n\) \{$/,
      );
    },
    TIMEOUT,
  );

  it(
    "breaks the explicit style's input-required return that would not fit the file's longest line",
    async () => {
      const handler = (answer: string) => `${HEADER}
server.registerTool('archive', { inputSchema: { id: z.string() } }, async ({ id }) => {
  const ${answer} = await server.server.elicitInput({
    message: \`Archive \${id}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: ${answer}.action }] };
});
`;
      const shorter = await migrated('explicit-width.ts', handler('confirmed'), 'explicit');
      expect(linesBetween(shorter, 'if (confirmed === undefined)', '});')).toBe(
        [
          '  if (confirmed === undefined)',
          '    return round.inputRequired({ inputRequests: { confirmed: confirmedRequest } });',
        ].join('\n'),
      );
      const longer = await migrated('explicit-wider.ts', handler('confirmedByTheUser'), 'explicit');
      expect(linesBetween(longer, 'if (confirmedByTheUser === undefined)', '});')).toBe(
        [
          '  if (confirmedByTheUser === undefined)',
          '    return round.inputRequired({',
          '      inputRequests: { confirmed_by_the_user: confirmedByTheUserRequest },',
          '    });',
        ].join('\n'),
      );
    },
    TIMEOUT,
  );

  it(
    'wraps a long condition and a multi-line effect in round.step at their new depth',
    async () => {
      const output = await migrated(
        'steps.ts',
        `${HEADER}
const audit: string[] = [];

server.registerTool('purge', { inputSchema: { id: z.string() } }, async ({ id }) => {
  if (server.server.getClientCapabilities()?.elicitation === undefined) return { content: [] };
  audit.push(
    \`purge requested for \${id}\`,
  );
  const answer = await server.server.elicitInput({
    message: \`Purge \${id}?\`,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  });
  return { content: [{ type: 'text', text: answer.action }] };
});
`,
      );
      expect(linesBetween(output, 'if (await round.step(', ')) return')).toBe(
        [
          "  if (await round.step('condition', async () =>",
          '    server.server.getClientCapabilities()?.elicitation === undefined,',
          '  )) return { content: [] };',
        ].join('\n'),
      );
      expect(linesBetween(output, "await round.step('audit_push'", '});')).toBe(
        [
          "  await round.step('audit_push', async () => {",
          '    audit.push(',
          '      `purge requested for ${id}`,',
          '    );',
          '  });',
        ].join('\n'),
      );
    },
    TIMEOUT,
  );

  it(
    "writes the stdio server's per-process key option in the file's quotes",
    async () => {
      const output = await migrated(
        'stdio-double-quotes.ts',
        `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "quotes", version: "1.0.0" });

server.registerTool("drop", { description: "Drop it." }, async () => {
  const answer = await server.server.elicitInput({
    message: "Drop it?",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
  });
  return { content: [{ type: "text", text: answer.action }] };
});

await server.connect(new StdioServerTransport());
`,
      );
      expect(output).toContain('Keyring.fromEnv({ whenUnset: "per-process-key" })');
    },
    TIMEOUT,
  );
});
