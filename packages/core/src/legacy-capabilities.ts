import type { LegacyCategory } from './categories.js';

/** A capability field whose declaration negotiates a deprecated feature. */
export interface LegacyCapability {
  /** Which side declares it: clients in `ClientCapabilities`, servers in `ServerCapabilities`. */
  readonly side: 'client' | 'server';
  /** Property path inside the capabilities object. */
  readonly path: readonly string[];
  readonly category: LegacyCategory;
  readonly guidance: string;
}

export const LEGACY_CAPABILITIES = [
  {
    side: 'server',
    path: ['logging'],
    category: 'logging',
    guidance: 'Remove the logging capability; log to stderr or through OpenTelemetry.',
  },
  {
    side: 'client',
    path: ['sampling'],
    category: 'sampling',
    guidance: 'Stop declaring sampling; servers should call an LLM provider themselves.',
  },
  {
    side: 'client',
    path: ['sampling', 'context'],
    category: 'sampling',
    guidance: 'Stop declaring sampling.context; includeContext thisServer/allServers is deprecated.',
  },
  {
    side: 'client',
    path: ['sampling', 'tools'],
    category: 'sampling',
    guidance: 'Stop declaring sampling.tools; sampling is deprecated.',
  },
  {
    side: 'client',
    path: ['roots'],
    category: 'roots',
    guidance: 'Stop declaring roots; pass paths to servers as tool arguments or configuration.',
  },
  {
    side: 'client',
    path: ['roots', 'listChanged'],
    category: 'roots',
    guidance: 'Stop declaring roots.listChanged; roots are deprecated.',
  },
] as const satisfies readonly LegacyCapability[];

export function legacyCapability(
  side: LegacyCapability['side'],
  path: readonly string[],
): LegacyCapability | undefined {
  return LEGACY_CAPABILITIES.find(
    (entry) =>
      entry.side === side &&
      entry.path.length === path.length &&
      entry.path.every((segment, i) => segment === path[i]),
  );
}

/** `includeContext` values deprecated by SEP-2596; `none` (the default) is still fine. */
export const DEPRECATED_INCLUDE_CONTEXT_VALUES = ['thisServer', 'allServers'] as const;

export const INCLUDE_CONTEXT_GUIDANCE =
  'Omit includeContext (the default none applies); thisServer and allServers are deprecated and need the client’s sampling.context capability.';

export function isDeprecatedIncludeContext(value: unknown): boolean {
  return (DEPRECATED_INCLUDE_CONTEXT_VALUES as readonly unknown[]).includes(value);
}
