import { classifySensitiveName, type SensitiveMatch, type SensitiveNameOptions } from '@mcp-mrtr/core';

export interface SecretNameHit {
  /** Dotted path of the property, e.g. `github.accessToken`. */
  readonly path: string;
  readonly match: SensitiveMatch;
}

const MAX_REMEMBERED_NAMES = 4096;

function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

/**
 * A finder of secret-named properties that remembers how each name classified: state objects
 * repeat the same few property names on every round.
 */
export function secretNameFinder(options?: SensitiveNameOptions): (value: unknown) => SecretNameHit[] {
  const known = new Map<string, SensitiveMatch | undefined>();
  const classify = (name: string): SensitiveMatch | undefined => {
    if (known.has(name)) return known.get(name);
    const match = classifySensitiveName(name, options);
    if (known.size >= MAX_REMEMBERED_NAMES) known.clear();
    known.set(name, match);
    return match;
  };
  return (value) => findSecretNames(value, classify);
}

/**
 * Every property name in a JSON value that names a secret (passwords, API keys, tokens, …). The
 * spec forbids secrets in requestState even when encrypted: they belong in server-side storage.
 */
export function findSecretNames(
  value: unknown,
  classifier: SensitiveNameOptions | ((name: string) => SensitiveMatch | undefined) = {},
): SecretNameHit[] {
  const classify =
    typeof classifier === 'function' ? classifier : (name: string) => classifySensitiveName(name, classifier);
  const hits: SecretNameHit[] = [];
  const seen = new Set<object>();
  // Paths are built only for hits: most state has none, and this runs on every seal.
  const visit = (node: unknown, parent: readonly (string | number)[]): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) visit(node[index], [...parent, index]);
      return;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const child = (node as Record<string, unknown>)[key];
      const match = classify(key);
      if (match) hits.push({ path: formatPath([...parent, key]), match });
      if (typeof child === 'object' && child !== null) visit(child, [...parent, key]);
    }
  };
  visit(value, []);
  return hits;
}
