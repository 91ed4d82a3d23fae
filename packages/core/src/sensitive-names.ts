/**
 * Decides whether a property name, title or description names a secret that must never be asked
 * for in a form or carried in requestState. Matching is by word parts, so `apiKey`, `api_key` and
 * `API-KEY` all read as "api key", while `tokenizer` (one part) and `maxTokens` ("tokens") do not.
 */

export type SensitiveKind =
  'password' | 'api-key' | 'token' | 'secret' | 'private-key' | 'payment' | 'government-id' | 'one-time-code';

export interface SensitiveTerm {
  /** Consecutive word parts, lower case. */
  readonly words: readonly string[];
  readonly kind: SensitiveKind;
}

function terms(kind: SensitiveKind, ...phrases: string[]): SensitiveTerm[] {
  return phrases.map((phrase) => ({ kind, words: phrase.split(' ') }));
}

export const DEFAULT_SENSITIVE_TERMS: readonly SensitiveTerm[] = [
  ...terms('password', 'password', 'passwd', 'passphrase', 'pass phrase', 'passcode'),
  ...terms('api-key', 'api key', 'apikey', 'access key', 'secret key'),
  ...terms('token', 'token', 'bearer'),
  ...terms('secret', 'secret', 'secrets', 'credential', 'credentials'),
  // A wallet's seed (recovery) phrase derives its private keys: whoever reads it owns the wallet.
  ...terms(
    'private-key',
    'private key',
    'privatekey',
    'ssh key',
    'signing key',
    'encryption key',
    'seed phrase',
    'seedphrase',
    'recovery phrase',
    'mnemonic',
  ),
  ...terms(
    'payment',
    'card number',
    'cardnumber',
    'credit card',
    'creditcard',
    'cvv',
    'cvc',
    'security code',
    'iban',
    'account number',
    'routing number',
  ),
  ...terms('government-id', 'ssn', 'social security number', 'social security', 'passport number'),
  ...terms(
    'one-time-code',
    'otp',
    'totp',
    'one time code',
    'verification code',
    'mfa code',
    'auth code',
    'authorization code',
  ),
];

/**
 * Word parts that, directly after a term, make the name describe the secret rather than hold it:
 * `passwordPolicyUrl`, `tokenCount`, `apiKeyId`, `privateKeyPath`.
 */
export const DEFAULT_NON_SECRET_QUALIFIERS: readonly string[] = [
  'url',
  'uri',
  'link',
  'href',
  'endpoint',
  'path',
  'file',
  'policy',
  'policies',
  'hint',
  'rule',
  'rules',
  'requirement',
  'requirements',
  'length',
  'strength',
  'format',
  'pattern',
  'type',
  'kind',
  'scope',
  'scopes',
  'id',
  'ids',
  'name',
  'label',
  'field',
  'version',
  'expiry',
  'expires',
  'expiration',
  'expired',
  'ttl',
  'lifetime',
  'age',
  'count',
  'limit',
  'budget',
  'usage',
  'max',
  'min',
  'last',
  'required',
  'enabled',
  'disabled',
  'set',
  'present',
  'exists',
  'provided',
  'configured',
  'status',
  'state',
  'source',
  'reset',
  'updated',
  'changed',
  'created',
];

export interface SensitiveNameOptions {
  /** Extra phrases to treat as secrets, e.g. `"license key"` or `"pin"`. */
  readonly extraTerms?: readonly string[];
  /** Names (compared by word parts) that are never reported, e.g. `"token budget"`. */
  readonly allow?: readonly string[];
  /** Replaces the default qualifier list. */
  readonly qualifiers?: readonly string[];
}

export interface SensitiveMatch {
  readonly kind: SensitiveKind;
  /** The matched term, words joined by a space. */
  readonly term: string;
}

/**
 * Splits an identifier or a phrase into lower-case word parts: camelCase and PascalCase humps,
 * acronyms (`APIKey` → api, key), digits, and any non-alphanumeric separator.
 */
export function splitWordParts(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
}

function startsAt(parts: readonly string[], at: number, words: readonly string[]): boolean {
  return words.every((word, i) => parts[at + i] === word);
}

/** A classifier's options, compiled: terms indexed by their first word, longest first. */
interface CompiledOptions {
  readonly allow: ReadonlySet<string>;
  readonly qualifiers: ReadonlySet<string>;
  readonly termsByFirstWord: ReadonlyMap<string, readonly SensitiveTerm[]>;
  /** Answers already given: field names and descriptions repeat across a project's forms. */
  readonly answers: Map<string, SensitiveMatch | undefined>;
}

/** How many answers a compiled classifier keeps before it starts again; bounds its memory. */
const MAX_ANSWERS = 4096;

function compile(options: SensitiveNameOptions): CompiledOptions {
  const allTerms = [
    ...DEFAULT_SENSITIVE_TERMS,
    ...(options.extraTerms ?? []).map((phrase) => ({
      kind: 'secret' as const,
      words: splitWordParts(phrase),
    })),
  ].filter((term) => term.words.length > 0);
  const termsByFirstWord = new Map<string, SensitiveTerm[]>();
  for (const term of allTerms) {
    const first = term.words[0] as string;
    termsByFirstWord.set(first, [...(termsByFirstWord.get(first) ?? []), term]);
  }
  // Longest term first, so "api key" wins over a shorter overlapping term (the sort is stable).
  for (const terms of termsByFirstWord.values()) terms.sort((a, b) => b.words.length - a.words.length);
  return {
    allow: new Set((options.allow ?? []).map((name) => splitWordParts(name).join(' '))),
    qualifiers: new Set(options.qualifiers ?? DEFAULT_NON_SECRET_QUALIFIERS),
    termsByFirstWord,
    answers: new Map(),
  };
}

// Classifiers run on every field of every form a lint sees: options are compiled once per object.
const DEFAULT_OPTIONS = compile({});
const compiledOptions = new WeakMap<SensitiveNameOptions, CompiledOptions>();

function compiled(options: SensitiveNameOptions | undefined): CompiledOptions {
  if (options === undefined) return DEFAULT_OPTIONS;
  let result = compiledOptions.get(options);
  if (result === undefined) {
    result = compile(options);
    compiledOptions.set(options, result);
  }
  return result;
}

/** The first secret the text names, or undefined when it names none. */
export function classifySensitiveName(
  text: string,
  options?: SensitiveNameOptions,
): SensitiveMatch | undefined {
  const compiledOptions = compiled(options);
  const { answers } = compiledOptions;
  if (answers.has(text)) return answers.get(text);
  const answer = classify(text, compiledOptions);
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(text, answer);
  return answer;
}

function classify(
  text: string,
  { allow, qualifiers, termsByFirstWord }: CompiledOptions,
): SensitiveMatch | undefined {
  const parts = splitWordParts(text);
  if (allow.size > 0 && allow.has(parts.join(' '))) return undefined;
  for (let at = 0; at < parts.length; at++) {
    const hit = termsByFirstWord.get(parts[at] as string)?.find((term) => startsAt(parts, at, term.words));
    if (hit === undefined) continue;
    const next = parts[at + hit.words.length];
    if (next !== undefined && qualifiers.has(next)) continue;
    return Object.freeze({ kind: hit.kind, term: hit.words.join(' ') });
  }
  return undefined;
}

export function isSensitiveName(text: string, options?: SensitiveNameOptions): boolean {
  return classifySensitiveName(text, options) !== undefined;
}
