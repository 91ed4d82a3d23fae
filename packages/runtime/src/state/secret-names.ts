import { classifySensitiveName, type SensitiveMatch, type SensitiveNameOptions } from '@mcp-mrtr/core';

export interface SecretNameHit {
  /** Dotted path of the property, e.g. `github.accessToken`. */
  readonly path: string;
  readonly match: SensitiveMatch;
}

/**
 * Every property name in a JSON value that names a secret (passwords, API keys, tokens, …). The
 * spec forbids secrets in requestState even when encrypted: they belong in server-side storage.
 */
export function findSecretNames(value: unknown, options?: SensitiveNameOptions): SecretNameHit[] {
  const hits: SecretNameHit[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, path: string): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${path}[${index}]`));
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${key}` : key;
      const match = classifySensitiveName(key, options);
      if (match) hits.push({ path: childPath, match });
      visit(child, childPath);
    }
  };
  visit(value, '');
  return hits;
}
