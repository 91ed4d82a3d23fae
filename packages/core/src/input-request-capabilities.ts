/** The request kinds a server may embed in `inputRequests`. */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

export function isInputRequestMethod(method: unknown): method is InputRequestMethod {
  return (INPUT_REQUEST_METHODS as readonly unknown[]).includes(method);
}

/** The part of an input request that decides which capability it needs. */
export interface InputRequestLike {
  readonly method: string;
  readonly params?: unknown;
}

export interface CapabilityRequirement {
  /** Path in `ClientCapabilities`, e.g. `['elicitation', 'url']`. */
  readonly path: readonly string[];
  /** The same path as a capabilities object, as `-32021` reports it in `requiredCapabilities`. */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

function requirement(path: readonly string[]): CapabilityRequirement {
  let capabilities: Record<string, unknown> = {};
  for (const segment of [...path].reverse()) capabilities = { [segment]: capabilities };
  return { path, capabilities };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The client capability an input request needs: form elicitation needs `elicitation.form`, URL
 * elicitation `elicitation.url`, sampling `sampling` (`sampling.tools` with tools or toolChoice),
 * roots `roots`. Undefined for a method that cannot be embedded.
 */
export function requiredClientCapability(request: InputRequestLike): CapabilityRequirement | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return requirement(['elicitation', field(request.params, 'mode') === 'url' ? 'url' : 'form']);
    case 'sampling/createMessage': {
      const usesTools =
        field(request.params, 'tools') !== undefined || field(request.params, 'toolChoice') !== undefined;
      return requirement(usesTools ? ['sampling', 'tools'] : ['sampling']);
    }
    case 'roots/list':
      return requirement(['roots']);
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether declared client capabilities cover a requirement. A bare `elicitation: {}` (neither
 * `form` nor `url`) means form only, as the spec says.
 */
export function clientHasCapability(declared: unknown, needed: CapabilityRequirement): boolean {
  const [head, sub] = needed.path;
  if (head === undefined || !isObject(declared)) return false;
  const top = declared[head];
  if (!isObject(top)) return false;
  if (sub === undefined) return true;
  if (head === 'elicitation' && sub === 'form' && !('form' in top) && !('url' in top)) return true;
  return isObject(top[sub]);
}
