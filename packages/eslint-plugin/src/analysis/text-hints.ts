// Words a file must contain for a rule to find anything in it. Rules test them before installing
// listeners, so most files of a project cost them one scan of the text.
import {
  DEFAULT_REQUEST_STATE_SEALERS,
  ELICITATION_COMPLETE_METHOD,
  ELICITATION_ID_FIELD,
  escapeRegExp,
  LEGACY_METHODS,
  MCP_FRAMEWORK_PACKAGES,
  MRTR_WORDS,
  PUSH_CALL_SHAPES,
  SDK_SCOPE,
} from '@mcp-mrtr/core';

/**
 * One way a hint shows in a text: a word or phrase (`anchor`), and what must hold where it starts
 * (`at`, a sticky pattern that matches from the anchor on). Every match of a hint starts with one of
 * its anchors, which is what lets `anchoredScan` look for the anchors alone and check only where one
 * occurs.
 */
export interface HintPart {
  readonly anchor: string;
  readonly at: RegExp;
  /**
   * How `anchoredScan` checks the part where its anchor starts: `plain` needs nothing more, `word`
   * needs a word boundary on both sides (what `\b` tests), `pattern` runs `at`.
   */
  readonly check: 'plain' | 'word' | 'pattern';
}

/** The parts each hint was built from. */
const PARTS = new Map<RegExp, readonly HintPart[]>();

/** What a part requires around its anchor, as regular-expression sources. */
interface PartContext {
  /** A zero-width assertion where the anchor starts (`\b`). */
  readonly start?: string;
  /**
   * What must come right before the anchor (`\.\s*`, a quote). It is checked by a lookbehind after
   * the anchor: in front of it, the engine would try the lookbehind at every position of the text.
   */
  readonly preceded?: string;
  /** What must follow the anchor. */
  readonly after?: string;
}

/** `anchor` in its context. */
export function part(anchor: string, { start = '', preceded, after = '' }: PartContext = {}): HintPart {
  const literal = escapeRegExp(anchor);
  const before = preceded === undefined ? '' : `(?<=${preceded}${literal})`;
  const at = new RegExp(`${start}${literal}${before}${after}`, 'y');
  const plain = start === '' && preceded === undefined && after === '';
  return { anchor, at, check: plain ? 'plain' : 'pattern' };
}

const WORD = /^\w+$/;

/** A whole word. */
function word(name: string): HintPart {
  const built = part(name, { start: '\\b', after: '\\b' });
  return WORD.test(name) ? { ...built, check: 'word' } : built;
}

/** Whether the character at `index` is one `\b` counts as a word character (none past either end). */
function isWordCharacter(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

/** Whether `p` matches `text` where its anchor starts, at `start`. */
function matchesAt(p: HintPart, text: string, start: number): boolean {
  switch (p.check) {
    case 'plain':
      return true;
    case 'word':
      return !isWordCharacter(text, start - 1) && !isWordCharacter(text, start + p.anchor.length);
    case 'pattern':
      p.at.lastIndex = start;
      return p.at.test(text);
  }
}

const QUOTE = '[\'"`]';

/** A pattern that matches where any of its parts does. */
function hint(...parts: readonly HintPart[]): RegExp {
  const pattern = new RegExp(parts.map((p) => `(?:${p.at.source})`).join('|'));
  PARTS.set(pattern, parts);
  return pattern;
}

/** Elicitation requests: the method string, push calls and the SDK and runtime builders. */
export const ELICITATION_IN_TEXT = hint(
  part('elicitation/create'),
  part('elicit', { start: '\\b', after: '(?:Input|Form|Url)?\\b' }),
);

/** input_required results, as a literal `resultType` or through a builder. */
export const INPUT_REQUIRED_IN_TEXT = hint(word('input_required'), word('inputRequired'));

const ELIGIBLE_METHODS = ['tools/call', 'prompts/get', 'resources/read'].map((method) => part(method));

/** What a file that sends MRTR-eligible requests as a client contains. */
export const CLIENT_REQUEST_IN_TEXT = hint(
  ...ELIGIBLE_METHODS,
  ...['callTool', 'getPrompt', 'readResource'].map(word),
);

/** A JSON-RPC request written by hand, or one of the MRTR-eligible methods. */
export const JSON_RPC_REQUEST_IN_TEXT = hint(word('jsonrpc'), ...ELIGIBLE_METHODS);

/** URL-mode elicitations: the builders and a literal `mode: 'url'`. */
export const URL_MODE_IN_TEXT = hint(
  word('urlElicitation'),
  word('elicitUrl'),
  part('mode', { after: `\\s*:\\s*${QUOTE}url${QUOTE}` }),
);

/**
 * Where a name starts: at a word boundary, or for a name that begins with `$` (a configured name
 * may), after a character that cannot continue an identifier. `\b` is the cheaper scan.
 */
function nameStart(name: string): string {
  return /^\w/.test(name) ? '\\b' : '(?<![\\w$])';
}

/** A call of one of the named functions: `seal(`, `sealRequestState (`, `$seal(`. */
export function callOfAny(names: Iterable<string>): RegExp {
  return hint(...[...names].map((name) => part(name, { start: nameStart(name), after: '\\s*\\(' })));
}

/**
 * What a file without an SDK import must contain for a legacy site to be found in it without
 * types: owner chains, `includeContext`, push calls known by their shape, legacy method strings
 * (generic sends, handlers registered with a schema built on the spot) and capabilities in a server
 * info.
 */
export const LEGACY_SITE_IN_TEXT = hint(
  part('server', { preceded: '\\.\\s*', after: '\\b' }),
  part('mcpReq', { preceded: '\\.\\s*', after: '\\b' }),
  word('includeContext'),
  part('capabilities', { start: '\\b', after: '\\s*:' }),
  ...Object.keys(PUSH_CALL_SHAPES).map(word),
  ...LEGACY_METHODS.map((entry) => part(entry.method, { preceded: QUOTE, after: QUOTE })),
);

/** Core's `SDK_MODULE_IN_TEXT`, `FRAMEWORK_MODULE_IN_TEXT` and `MRTR_IN_TEXT`, as parts. */
const SDK_MODULE = hint(part(SDK_SCOPE));
const FRAMEWORK_MODULE = hint(
  ...MCP_FRAMEWORK_PACKAGES.map((name) => part(name, { preceded: QUOTE, after: `(?:/[\\w./-]*)?${QUOTE}` })),
);
const MRTR = hint(...MRTR_WORDS.map(word));

/** Core's SDK, framework and MRTR patterns as hints, for the file analysis; tested against core's. */
export const CORE_HINTS = { SDK_MODULE, FRAMEWORK_MODULE, MRTR } as const;

const VOCABULARY = [
  SDK_MODULE,
  FRAMEWORK_MODULE,
  MRTR,
  ELICITATION_IN_TEXT,
  INPUT_REQUIRED_IN_TEXT,
  CLIENT_REQUEST_IN_TEXT,
  JSON_RPC_REQUEST_IN_TEXT,
  URL_MODE_IN_TEXT,
  LEGACY_SITE_IN_TEXT,
  callOfAny(DEFAULT_REQUEST_STATE_SEALERS),
  hint(part('inputResponses')),
  hint(part(ELICITATION_COMPLETE_METHOD)),
  hint(part('ElicitationCompleteNotificationSchema')),
  hint(part(ELICITATION_ID_FIELD)),
];

/**
 * Every first check of every rule in one pattern (`MRTR_LOOSE_IN_TEXT`, the one that ignores case,
 * is tested beside it): a file that matches neither holds nothing a rule reports without types, and
 * these two scans settle that for all the rules (`FileAnalysis.mayBeMcp`). A check that needs two
 * words (`requestState` and a JSON-RPC request) needs only one of them here. A rule whose first
 * check is not made of these patterns (a configured sealer name) tests it beside `mayBeMcp`.
 */
export const MCP_VOCABULARY_IN_TEXT = new RegExp(
  VOCABULARY.map((pattern) => `(?:${pattern.source})`).join('|'),
);

const VOCABULARY_PARTS = VOCABULARY.flatMap((pattern) => PARTS.get(pattern) ?? []);

/** The words and phrases every match of `MCP_VOCABULARY_IN_TEXT` starts with. */
export const VOCABULARY_ANCHORS: readonly string[] = [...new Set(VOCABULARY_PARTS.map((p) => p.anchor))];

/** Where in a text each of some parts may match: their anchors, and the parts by first character. */
class AnchorIndex {
  readonly #anchors: RegExp;
  readonly #byFirst = new Map<string, HintPart[]>();

  constructor(parts: readonly HintPart[]) {
    // Longest first, so that of two anchors starting at one place the longer is the one found.
    const anchors = [...new Set(parts.map((p) => p.anchor))].sort((a, b) => b.length - a.length);
    this.#anchors = new RegExp(anchors.map(escapeRegExp).join('|'), 'g');
    for (const p of parts) {
      const first = p.anchor[0] as string;
      this.#byFirst.set(first, [...(this.#byFirst.get(first) ?? []), p]);
    }
  }

  /**
   * Tries, in text order, each part that `wanted` still asks about where its anchor starts; calls
   * `matched` for each match, and stops when that returns true.
   */
  scan(text: string, wanted: (p: HintPart) => boolean, matched: (p: HintPart) => boolean): void {
    const anchors = this.#anchors;
    anchors.lastIndex = 0;
    for (let found = anchors.exec(text); found !== null; found = anchors.exec(text)) {
      const start = found.index;
      for (const candidate of this.#byFirst.get(text[start] as string) ?? []) {
        if (!text.startsWith(candidate.anchor, start) || !wanted(candidate)) continue;
        if (matchesAt(candidate, text, start) && matched(candidate)) return;
      }
      // Another anchor may start inside this one: look again from the next character.
      anchors.lastIndex = start + 1;
    }
  }
}

/**
 * A test of whether any of `parts` matches a text that is about twice as fast as their alternation
 * on ordinary modules: one scan for the anchors (plain words, which the engine finds fast), and each
 * part's own pattern tried only where its anchor starts. The alternation of every part, with the
 * assertions in front of most of them, is tried by the engine at every position of the text.
 */
export function anchoredScan(parts: readonly HintPart[]): (text: string) => boolean {
  const index = new AnchorIndex(parts);
  return (text) => {
    let any = false;
    index.scan(
      text,
      () => true,
      () => (any = true),
    );
    return any;
  };
}

/** Whether `MCP_VOCABULARY_IN_TEXT` matches the text, by `anchoredScan`. */
export const mentionsMcpVocabulary = anchoredScan(VOCABULARY_PARTS);

/** Whether a pattern was built from parts (`hint`), so `hintsInText` can answer for it. */
export function isHint(pattern: RegExp): boolean {
  return PARTS.has(pattern);
}

/** Which hints match a text, of those `covered`. */
export interface HintsInText {
  readonly covered: ReadonlySet<RegExp>;
  readonly found: ReadonlySet<RegExp>;
}

interface AllHints {
  readonly index: AnchorIndex;
  readonly covered: ReadonlySet<RegExp>;
  /** A part can belong to several hints (the MRTR-eligible methods). */
  readonly hintsOf: ReadonlyMap<HintPart, readonly RegExp[]>;
}

let allHints: AllHints | undefined;

/** Every hint built so far, indexed; built again when a rule's options add one (`callOfAny`). */
function indexOfAllHints(): AllHints {
  if (allHints?.covered.size === PARTS.size) return allHints;
  const hintsOf = new Map<HintPart, RegExp[]>();
  for (const [pattern, parts] of PARTS) {
    for (const p of parts) hintsOf.set(p, [...(hintsOf.get(p) ?? []), pattern]);
  }
  allHints = { index: new AnchorIndex([...hintsOf.keys()]), covered: new Set(PARTS.keys()), hintsOf };
  return allHints;
}

/**
 * Every hint that matches the text, in one anchored scan for all of them: a file's first checks,
 * one per rule, then cost a set lookup each instead of a scan of the text each.
 */
export function hintsInText(text: string): HintsInText {
  const { index, covered, hintsOf } = indexOfAllHints();
  const found = new Set<RegExp>();
  const hints = (p: HintPart) => hintsOf.get(p) ?? [];
  index.scan(
    text,
    (p) => !hints(p).every((pattern) => found.has(pattern)),
    (p) => {
      for (const pattern of hints(p)) found.add(pattern);
      return found.size === covered.size;
    },
  );
  return { covered, found };
}
