import { createRequire } from 'node:module';

export const VERSION = (createRequire(import.meta.url)('@mcp-mrtr/cli/package.json') as { version: string })
  .version;
