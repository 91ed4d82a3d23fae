/**
 * The npm packages of the official MCP TypeScript SDK, both generations. A file that imports one of
 * them (or a subpath such as `@modelcontextprotocol/sdk/server/index.js`) is MCP code, which is what
 * lets syntax-only detection stay precise.
 */
export const MCP_SDK_PACKAGES = [
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/express',
  '@modelcontextprotocol/hono',
  '@modelcontextprotocol/server-legacy',
] as const;

const MCP_SDK_SCOPE = '@modelcontextprotocol/';

/** Whether an import specifier names an MCP SDK package or one of its subpaths. */
export function isMcpSdkModule(specifier: string): boolean {
  // Most specifiers a lint sees are not the SDK's; this is asked of every import.
  if (!specifier.startsWith(MCP_SDK_SCOPE)) return false;
  return MCP_SDK_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** The SDK generation an MCP SDK package belongs to: 1.x is one package, 2.x is split in several. */
export type McpSdkGeneration = 'v1' | 'v2';

/**
 * The generation of the MCP SDK an import specifier names: `@modelcontextprotocol/sdk/…` is SDK v1,
 * every other SDK package (`@modelcontextprotocol/server`, `/node`, `/express`…) SDK v2; `undefined`
 * for anything else.
 */
export function mcpSdkGenerationOf(specifier: string): McpSdkGeneration | undefined {
  if (!isMcpSdkModule(specifier)) return undefined;
  return specifier === '@modelcontextprotocol/sdk' || specifier.startsWith('@modelcontextprotocol/sdk/')
    ? 'v1'
    : 'v2';
}

/**
 * Whether a declaration file on disk belongs to an installed MCP SDK package, as type-aware
 * detection sees it (`…/node_modules/@modelcontextprotocol/server/dist/index.d.mts`).
 */
export function isMcpSdkDeclarationFile(fileName: string): boolean {
  const normalized = fileName.replaceAll('\\', '/');
  return MCP_SDK_PACKAGES.some((name) => normalized.includes(`/node_modules/${name}/`));
}
