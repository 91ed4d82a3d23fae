import { MCP_SDK_PACKAGES } from './sdk-packages.js';

// What a file's text must contain to be MCP or MRTR code at all. The lint rules and the codemod test
// these before parsing or installing listeners, so most files of a project cost one scan.

/**
 * Frameworks that wrap the MCP SDK and hand their users its objects (`agent.server.server`,
 * `ctx.mcpServer.server`) or their own options that carry capabilities (`McpModule.forRoot`,
 * `new FastMCP`). A file that imports one is MCP code even when it never names the SDK.
 */
export const MCP_FRAMEWORK_PACKAGES = [
  'agents',
  'fastmcp',
  '@rekog/mcp-nest',
  'mcp-use',
  '@frontmcp/sdk',
  'mcp-handler',
  '@vercel/mcp-adapter',
  'xmcp',
] as const;

/** Whether an import specifier names an MCP framework or one of its subpaths (`agents/mcp`). */
export function isMcpFrameworkModule(specifier: string): boolean {
  return MCP_FRAMEWORK_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The npm scope every SDK package is published under. */
export const SDK_SCOPE = '@modelcontextprotocol/';

/** Some SDK package named anywhere in the text (imports, `require`, comments). */
export const SDK_MODULE_IN_TEXT = new RegExp(escapeRegExp(SDK_SCOPE));

/** `require('@modelcontextprotocol/…')` and `import('@modelcontextprotocol/…')`: CommonJS and dynamic imports. */
export const DYNAMIC_SDK_IMPORT_IN_TEXT = new RegExp(
  `\\b(?:require|import)\\s*\\(\\s*['"\`](?:${MCP_SDK_PACKAGES.map(escapeRegExp).join('|')})(?:['"\`/])`,
);

/** A framework module named as an import source: `from 'agents/mcp'`, `require("fastmcp")`. */
export const FRAMEWORK_MODULE_IN_TEXT = new RegExp(
  `['"\`](?:${MCP_FRAMEWORK_PACKAGES.map(escapeRegExp).join('|')})(?:/[\\w./-]*)?['"\`]`,
);

/**
 * MRTR vocabulary: a file without any of these words neither builds input_required results nor
 * reads input responses (`inputRequired` is SDK v2's builder and the runtime's round method).
 */
export const MRTR_WORDS = ['inputRequests', 'inputResponses', 'input_required', 'inputRequired'] as const;

export const MRTR_IN_TEXT = new RegExp(`\\b(?:${MRTR_WORDS.join('|')})\\b`);

/**
 * MRTR vocabulary as it may be misspelled (`inputRequired` as a resultType, `Input-Required`), for
 * the rule that reports the misspellings themselves.
 */
export const MRTR_LOOSE_IN_TEXT = /input[_-]?required|inputRequests|resultType/i;
