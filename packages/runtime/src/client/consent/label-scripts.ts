/**
 * Which writing systems a domain label's letters come from, with Unicode's own Script property
 * (the engine's `\p{Script=…}`), and whether the mix is one a legitimate name uses (UTS #39's
 * "highly restrictive" level: one script, or Latin with the scripts Japanese, Chinese and Korean
 * names combine).
 */

/** Scripts told apart by name; a letter of any other script counts as "another script". */
const NAMED_SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Coptic',
  'Glagolitic',
  'Tifinagh',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
  'Yi',
  'Vai',
  'Lisu',
] as const;

export type ScriptName = (typeof NAMED_SCRIPTS)[number] | 'another script';

const SCRIPT_TESTS = NAMED_SCRIPTS.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);

/** Characters that belong to no one script: digits, hyphens, combining marks, shared punctuation. */
const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Script sets a legitimate label may mix (UTS #39, section 5.2, "highly restrictive"). */
const ALLOWED_MIXES: readonly ReadonlySet<ScriptName>[] = [
  new Set<ScriptName>(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set<ScriptName>(['Latin', 'Han', 'Bopomofo']),
  new Set<ScriptName>(['Latin', 'Han', 'Hangul']),
];

function scriptOf(character: string): ScriptName | undefined {
  if (SHARED.test(character)) return undefined;
  for (const [name, test] of SCRIPT_TESTS) if (test.test(character)) return name;
  return 'another script';
}

/** The scripts of a label's letters, in order of first appearance. */
export function scriptsOf(label: string): ScriptName[] {
  const scripts = new Set<ScriptName>();
  for (const character of label) {
    const script = scriptOf(character);
    if (script) scripts.add(script);
  }
  return [...scripts];
}

/** Whether a set of scripts is a mix no legitimate name needs (Latin with Cyrillic, say). */
export function isSuspiciousMix(scripts: readonly ScriptName[]): boolean {
  if (scripts.length <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => scripts.every((script) => allowed.has(script)));
}
