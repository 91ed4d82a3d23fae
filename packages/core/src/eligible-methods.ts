/** The only requests a server may answer with `input_required` (2026-07-28, MRTR). */
export const MRTR_ELIGIBLE_METHODS = ['tools/call', 'resources/read', 'prompts/get'] as const;

export type MrtrEligibleMethod = (typeof MRTR_ELIGIBLE_METHODS)[number];

export function isMrtrEligibleMethod(method: string): method is MrtrEligibleMethod {
  return (MRTR_ELIGIBLE_METHODS as readonly string[]).includes(method);
}

/** The v1 zod request schema names for the eligible methods, as used in `setRequestHandler`. */
export const MRTR_ELIGIBLE_REQUEST_SCHEMAS: Readonly<Record<string, MrtrEligibleMethod>> = {
  CallToolRequestSchema: 'tools/call',
  ReadResourceRequestSchema: 'resources/read',
  GetPromptRequestSchema: 'prompts/get',
};
