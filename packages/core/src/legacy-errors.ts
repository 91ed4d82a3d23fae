import type { LegacyCategory } from './categories.js';

/** An error class whose throw is an old-style server-initiated request in disguise. */
export interface LegacyError {
  readonly name: string;
  readonly code: number;
  readonly category: LegacyCategory;
  readonly modules: readonly string[];
  readonly guidance: string;
}

export const LEGACY_ERRORS = [
  {
    name: 'UrlElicitationRequiredError',
    code: -32042,
    category: 'elicitation',
    modules: ['@modelcontextprotocol/sdk/types.js', '@modelcontextprotocol/server'],
    guidance:
      'Return an input_required result with a URL-mode elicitation/create input request instead of throwing -32042.',
  },
] as const satisfies readonly LegacyError[];

export function legacyError(name: string): LegacyError | undefined {
  return LEGACY_ERRORS.find((entry) => entry.name === name);
}
