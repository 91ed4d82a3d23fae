// Words a file must contain for a rule to find anything in it. Rules test them before installing
// listeners, so most files of a project cost them one regular-expression scan.
import {
  DEFAULT_REQUEST_STATE_SEALERS,
  ELICITATION_COMPLETE_METHOD,
  ELICITATION_ID_FIELD,
  escapeRegExp,
  FRAMEWORK_MODULE_IN_TEXT,
  LEGACY_METHODS,
  MRTR_IN_TEXT,
  PUSH_CALL_SHAPES,
  SDK_MODULE_IN_TEXT,
} from '@mcp-mrtr/core';

/** Elicitation requests: the method string, push calls and the SDK and runtime builders. */
export const ELICITATION_IN_TEXT = /elicitation\/create|\belicit(?:Input|Form|Url)?\b/;

/** input_required results, as a literal `resultType` or through a builder. */
export const INPUT_REQUIRED_IN_TEXT = /\binput_required\b|\binputRequired\b/;

/** What a file that sends MRTR-eligible requests as a client contains. */
export const CLIENT_REQUEST_IN_TEXT =
  /tools\/call|prompts\/get|resources\/read|\b(?:callTool|getPrompt|readResource)\b/;

/** A JSON-RPC request written by hand, or one of the MRTR-eligible methods. */
export const JSON_RPC_REQUEST_IN_TEXT = /\bjsonrpc\b|tools\/call|prompts\/get|resources\/read/;

/** URL-mode elicitations: the builders and a literal `mode: 'url'`. */
export const URL_MODE_IN_TEXT = /\burlElicitation\b|\belicitUrl\b|mode\s*:\s*['"`]url['"`]/;

/**
 * Where a name starts: at a word boundary, or for a name that begins with `$` (a configured name
 * may), after a character that cannot continue an identifier. `\b` is the cheaper scan.
 */
function nameStart(name: string): string {
  return /^\w/.test(name) ? `\\b${escapeRegExp(name)}` : `(?<![\\w$])${escapeRegExp(name)}`;
}

/** A call of one of the named functions: `seal(`, `sealRequestState (`, `$seal(`. */
export function callOfAny(names: Iterable<string>): RegExp {
  return new RegExp(`(?:${[...names].map(nameStart).join('|')})\\s*\\(`);
}

/**
 * What a file without an SDK import must contain for a legacy site to be found in it without
 * types: owner chains, `includeContext`, push calls known by their shape, legacy method strings
 * (generic sends, handlers registered with a schema built on the spot) and capabilities in a server
 * info.
 */
export const LEGACY_SITE_IN_TEXT = new RegExp(
  [
    String.raw`\.\s*(?:server|mcpReq)\b|\bincludeContext\b|\bcapabilities\s*:`,
    ...Object.keys(PUSH_CALL_SHAPES).map((name) => String.raw`\b${name}\b`),
    ...LEGACY_METHODS.map((entry) => `['"\`]${entry.method}['"\`]`),
  ].join('|'),
);

function literal(text: string): RegExp {
  return new RegExp(escapeRegExp(text));
}

/**
 * Every first check of every rule in one pattern, with `MRTR_LOOSE_IN_TEXT` (the one that ignores
 * case) beside it: a file neither matches holds nothing a rule reports without types, and these two
 * scans settle that for all the rules (`FileAnalysis.mayBeMcp`). A check that needs two words
 * (`requestState` and a JSON-RPC request) needs only one of them here. A rule whose first check is
 * not made of these patterns (a configured sealer name) tests it beside `mayBeMcp`.
 */
export const MCP_VOCABULARY_IN_TEXT = new RegExp(
  [
    SDK_MODULE_IN_TEXT,
    FRAMEWORK_MODULE_IN_TEXT,
    MRTR_IN_TEXT,
    ELICITATION_IN_TEXT,
    INPUT_REQUIRED_IN_TEXT,
    CLIENT_REQUEST_IN_TEXT,
    JSON_RPC_REQUEST_IN_TEXT,
    URL_MODE_IN_TEXT,
    LEGACY_SITE_IN_TEXT,
    callOfAny(DEFAULT_REQUEST_STATE_SEALERS),
    literal('inputResponses'),
    literal(ELICITATION_COMPLETE_METHOD),
    literal('ElicitationCompleteNotificationSchema'),
    literal(ELICITATION_ID_FIELD),
  ]
    .map((pattern) => `(?:${pattern.source})`)
    .join('|'),
);
