import {
  classifySensitiveName,
  isPlaintextBufferEncoding,
  RUNTIME_PACKAGE,
  UNSEALED_REQUEST_STATE_GUIDANCE,
  UNVERIFIED_REQUEST_STATE_GUIDANCE,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import type { Site } from '../../analysis/site.js';
import {
  dottedCallee,
  forEachDescendant,
  propertyNameText,
  singleValueDeclaration,
  staticString,
  unwrapParentheses,
  valueSymbol,
} from '../../analysis/syntax.js';
import { containsComment } from '../../edits/removal.js';
import type { TextEdit } from '../../edits/text-edit.js';
import {
  isInputRequiredResult,
  REQUEST_STATE,
  type PlaintextWrite,
  type UnverifiedRead,
} from './plaintext-state.js';
import type { SetupNames } from './sealer-setup.js';
import type { StateHandler } from './state-handlers.js';
import { TRANSFORM_ID } from './transform-id.js';
import { tokenUses, type TokenDecode } from './token-flow.js';

// Sealing at the write and opening at the read, for one handler at a time: either every plaintext
// site of the handler is rewritten, or none is, since a state sealed on one side and decoded as
// text on the other breaks the flow.

const SECRET_SEARCH_DEPTH = 4;

/** The plaintext sites of one handler. */
export interface HandlerSites {
  readonly writes: readonly PlaintextWrite[];
  readonly reads: readonly UnverifiedRead[];
}

function writeBase(write: PlaintextWrite): SiteBase {
  return {
    transform: TRANSFORM_ID,
    category: 'request-state',
    kind: 'plaintext-write',
    node: write.value,
    todo: UNSEALED_REQUEST_STATE_GUIDANCE,
  };
}

function readBase(read: UnverifiedRead): SiteBase {
  return {
    transform: TRANSFORM_ID,
    category: 'request-state',
    kind: 'plaintext-read',
    node: read.call,
    todo: UNVERIFIED_REQUEST_STATE_GUIDANCE,
  };
}

/** Every plaintext site of a handler left for manual work, for one reason. */
export function manualHandlerSites(context: FileContext, sites: HandlerSites, reason: string): Site[] {
  return [
    ...sites.writes.map((write) => context.manualSite(writeBase(write), reason)),
    ...sites.reads.map((read) => context.manualSite(readBase(read), reason)),
  ];
}

function isUndefined(node: ts.Expression): boolean {
  const inner = unwrapParentheses(node);
  return ts.isIdentifier(inner) && inner.text === 'undefined';
}

/** `JSON.stringify(value)` under an optional text encoding: the value, and the whole chain. */
interface JsonEncoding {
  readonly chain: ts.Expression;
  readonly value: ts.Expression;
}

function jsonStringifyOf(node: ts.Expression): ts.Expression | string | undefined {
  const call = unwrapParentheses(node);
  if (!ts.isCallExpression(call) || dottedCallee(call) !== 'JSON.stringify') return undefined;
  const [value, replacer, ...rest] = call.arguments;
  if (value === undefined || ts.isSpreadElement(value) || rest.length > 1) return undefined;
  if (replacer !== undefined && !isUndefined(replacer) && replacer.kind !== ts.SyntaxKind.NullKeyword)
    return 'JSON.stringify is given a replacer, which changes the value that would be sealed';
  return value;
}

/** `JSON.stringify(v)`, `btoa(JSON.stringify(v))`, `Buffer.from(JSON.stringify(v)).toString('base64')`. */
function jsonEncoding(checker: ts.TypeChecker, node: ts.Expression): JsonEncoding | string | undefined {
  const chain = unwrapParentheses(node);
  let json: ts.Expression | undefined = chain;
  if (ts.isCallExpression(chain) && dottedCallee(chain) === 'btoa' && chain.arguments.length === 1) {
    json = chain.arguments[0];
  } else if (
    ts.isCallExpression(chain) &&
    ts.isPropertyAccessExpression(chain.expression) &&
    chain.expression.name.text === 'toString' &&
    isPlaintextBufferEncoding(staticString(chain.arguments[0], checker))
  ) {
    const from = unwrapParentheses(chain.expression.expression);
    const charset = ts.isCallExpression(from) ? from.arguments[1] : undefined;
    if (
      !ts.isCallExpression(from) ||
      dottedCallee(from) !== 'Buffer.from' ||
      from.arguments.length > 2 ||
      (charset !== undefined && !['utf8', 'utf-8'].includes(staticString(charset, checker) ?? ''))
    )
      return undefined;
    json = from.arguments[0];
  }
  const value = json === undefined ? undefined : jsonStringifyOf(json);
  return typeof value === 'string' || value === undefined ? value : { chain, value };
}

/** A secret-named property the written value's type declares, as `path` (the runtime refuses those). */
function secretProperty(checker: ts.TypeChecker, value: ts.Expression): string | undefined {
  const seen = new Set<ts.Type>();
  const visit = (type: ts.Type, path: string, depth: number): string | undefined => {
    if (depth > SECRET_SEARCH_DEPTH || seen.has(type)) return undefined;
    seen.add(type);
    for (const part of type.isUnion() ? type.types : [type]) {
      if ((part.flags & ts.TypeFlags.Object) === 0) continue;
      for (const property of part.getProperties()) {
        const name = property.getName();
        const here = path ? `${path}.${name}` : name;
        if (classifySensitiveName(name) !== undefined) return here;
        const found = visit(checker.getTypeOfSymbolAtLocation(property, value), here, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return visit(checker.getTypeAtLocation(value), '', 0);
}

/** The edits that seal one encoding chain in place: `seal(<value>, <binding>)`, the value kept. */
function sealEdits(
  context: FileContext,
  encoding: JsonEncoding,
  sealer: string,
  binding: string,
): TextEdit[] | string {
  const file = context.sourceFile;
  const [chainStart, valueStart] = [encoding.chain.getStart(file), encoding.value.getStart(file)];
  if (
    containsComment(context.text, chainStart, valueStart) ||
    containsComment(context.text, encoding.value.end, encoding.chain.end)
  )
    return 'comments inside the encoding would be lost';
  const secret = secretProperty(context.checker, encoding.value);
  if (secret !== undefined) {
    return `the state carries a secret-named property (${secret}), which the runtime refuses to seal: keep the secret on the server and carry a reference to it`;
  }
  return [
    { start: chainStart, end: valueStart, text: `${sealer}.seal(` },
    { start: encoding.value.end, end: encoding.chain.end, text: `, ${binding})` },
  ];
}

/** Where the encoded state is: the value itself, the branches of `a ? b : undefined`, or a `const`. */
function encodedValues(
  context: FileContext,
  write: PlaintextWrite,
  handler: StateHandler,
): ts.Expression[] | string {
  const value = unwrapParentheses(write.value);
  if (ts.isConditionalExpression(value)) {
    const branches = [value.whenTrue, value.whenFalse].filter((branch) => !isUndefined(branch));
    return branches;
  }
  if (!ts.isIdentifier(value)) return [value];
  const declaration = singleValueDeclaration(context.checker, value);
  if (declaration === undefined || !isWithin(declaration, handler.callback))
    return 'the state is encoded outside the handler';
  const symbol = context.checker.getSymbolAtLocation(declaration.name);
  let elsewhere: ts.Node | undefined;
  forEachDescendant(context.sourceFile, (node) => {
    if (elsewhere !== undefined || !ts.isIdentifier(node) || node === declaration.name) return;
    if (valueSymbol(context.checker, node) !== symbol) return;
    const parent = node.parent;
    const isStateValue =
      (ts.isShorthandPropertyAssignment(parent) ||
        (ts.isPropertyAssignment(parent) && parent.initializer === node)) &&
      propertyNameText(parent.name) === REQUEST_STATE &&
      ts.isObjectLiteralExpression(parent.parent) &&
      isInputRequiredResult(context.checker, parent.parent);
    if (!isStateValue) elsewhere = node;
  });
  if (elsewhere !== undefined) {
    return `the encoded state ${value.text} is also used on line ${context.lineOf(elsewhere)}, where sealing would change it`;
  }
  return [declaration.initializer];
}

function isWithin(node: ts.Node, ancestor: ts.Node): boolean {
  return node.pos >= ancestor.pos && node.end <= ancestor.end;
}

function isAsync(node: ts.Node): boolean {
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (ts.isFunctionLike(current))
      return (ts.getCombinedModifierFlags(current) & ts.ModifierFlags.Async) !== 0;
  }
  return false;
}

/** Whether `await x` must be parenthesised where the `JSON.parse(…)` call stood. */
function needsParentheses(call: ts.CallExpression): boolean {
  const parent = call.parent;
  return (
    ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) &&
      parent.expression === call) ||
    ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === call) ||
    ts.isTaggedTemplateExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    ts.isPostfixUnaryExpression(parent) ||
    (ts.isBinaryExpression(parent) &&
      parent.left === call &&
      parent.operatorToken.kind === ts.SyntaxKind.AsteriskAsteriskToken)
  );
}

/**
 * `<any>` when the parsed state was untyped (`JSON.parse` returns `any`) and nothing gives the
 * opened state a type; nothing when an assertion or the context types it.
 */
function typeArgument(context: FileContext, call: ts.CallExpression): string {
  if (/\.[cm]?jsx?$/.test(context.path)) return '';
  let outer: ts.Node = call;
  while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
  if (ts.isAsExpression(outer.parent) || ts.isTypeAssertionExpression(outer.parent)) return '';
  const contextual = context.checker.getContextualType(call);
  return contextual === undefined || (contextual.flags & ts.TypeFlags.Any) !== 0 ? '<any>' : '';
}

function isEvaluatedTwiceSafely(token: ts.Expression): boolean {
  let current = unwrapParentheses(token);
  if (ts.isCallExpression(current) && current.arguments.length === 0) current = current.expression;
  while (ts.isPropertyAccessExpression(current) || ts.isNonNullExpression(current))
    current = current.expression;
  return ts.isIdentifier(current) || current.kind === ts.SyntaxKind.ThisKeyword;
}

/** The edits that open the state where it was decoded: `await sealer.open(<token>, <binding>)`. */
function openEdits(
  context: FileContext,
  decode: TokenDecode,
  sealer: string,
  binding: string,
): TextEdit[] | string {
  const file = context.sourceFile;
  const parse = decode.parse;
  if (!isAsync(parse)) {
    return `opening the sealed state needs await, and the function around line ${context.lineOf(parse)} is not async`;
  }
  const open = `await ${sealer}.open${typeArgument(context, parse)}`;
  const [parseStart, tokenStart] = [parse.getStart(file), decode.token.getStart(file)];
  if (decode.fallback !== undefined) {
    if (!isEvaluatedTwiceSafely(decode.token))
      return 'the state’s default would need the token expression evaluated twice';
    if (containsComment(context.text, parseStart, parse.end))
      return 'comments inside the decoding would be lost';
    const token = context.textOf(decode.token);
    const fallback = context.textOf(decode.fallback);
    return [
      {
        start: parseStart,
        end: parse.end,
        text: `(${token} === undefined ? JSON.parse(${fallback}) : ${open}(${token}, ${binding}))`,
      },
    ];
  }
  if (
    containsComment(context.text, parseStart, tokenStart) ||
    containsComment(context.text, decode.token.end, parse.end)
  )
    return 'comments inside the decoding would be lost';
  const [before, after] = needsParentheses(parse) ? ['(', ')'] : ['', ''];
  return [
    { start: parseStart, end: tokenStart, text: `${before}${open}(` },
    { start: decode.token.end, end: parse.end, text: `, ${binding})${after}` },
  ];
}

/** The `requestState` values of the handler's input_required results that are not plaintext writes. */
function otherStateWrites(context: FileContext, handler: StateHandler, sites: HandlerSites): ts.Expression[] {
  const plaintext = new Set<ts.Node>(sites.writes.map((write) => write.property));
  const found: ts.Expression[] = [];
  forEachDescendant(handler.callback, (node) => {
    if (
      (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
      !plaintext.has(node) &&
      propertyNameText(node.name) === REQUEST_STATE &&
      ts.isObjectLiteralExpression(node.parent) &&
      isInputRequiredResult(context.checker, node.parent)
    )
      found.push(ts.isPropertyAssignment(node) ? node.initializer : node.name);
  });
  return found;
}

/** One handler's plaintext sites, all rewritten, or all manual with the first reason found. */
export function planHandler(
  context: FileContext,
  handler: StateHandler,
  sites: HandlerSites,
  names: SetupNames,
): Site[] {
  const planned = planEdits(context, handler, sites, names);
  if (typeof planned === 'string') return manualHandlerSites(context, sites, planned);
  const options = { packages: [RUNTIME_PACKAGE] };
  const rewritten = [
    ...sites.writes.map((write) => ({ base: writeBase(write), edits: planned.get(write) ?? [] })),
    ...sites.reads.map((read) => ({ base: readBase(read), edits: planned.get(read) ?? [] })),
  ].sort((a, b) => a.base.node.pos - b.base.node.pos);
  return rewritten.map(({ base, edits }, index) =>
    context.rewriteSite(base, index === 0 ? [...handler.parameterEdits, ...edits] : edits, options),
  );
}

function planEdits(
  context: FileContext,
  handler: StateHandler,
  sites: HandlerSites,
  names: SetupNames,
): Map<PlaintextWrite | UnverifiedRead, TextEdit[]> | string {
  const uses = tokenUses(context.checker, handler.callback);
  const other = uses.find(({ use }) => use.kind === 'other');
  if (other !== undefined) {
    return `the received requestState is also used on line ${context.lineOf(other.reference)} (${context.textOf(other.reference)}), where the codemod cannot follow it`;
  }
  const decodes = uses.flatMap(({ use }) => (use.kind === 'decode' ? [use] : []));
  // An echo sends the received token back: once sealed, it stays sealed.
  const unseen = otherStateWrites(context, handler, sites).find(
    (value) => !uses.some(({ reference, use }) => use.kind === 'echo' && isWithin(reference, value)),
  );
  if (unseen !== undefined) {
    return `requestState is also written as ${context.textOf(unseen)} on line ${context.lineOf(unseen)}, which the codemod cannot see into`;
  }
  const verifiedElsewhere = decodes.find(
    (decode) => !sites.reads.some((read) => read.call === decode.decoder),
  );
  if (verifiedElsewhere !== undefined) {
    return `the state is also decoded on line ${context.lineOf(verifiedElsewhere.parse)} by code that checks it itself, which would not accept a sealed state`;
  }
  if (sites.writes.length === 0) return 'the handler decodes a requestState it does not write itself';
  if (decodes.length === 0)
    return 'the handler writes requestState but does not decode it as JSON, so whatever reads it is elsewhere';
  const edits = new Map<PlaintextWrite | UnverifiedRead, TextEdit[]>();
  for (const read of sites.reads) {
    const decode = decodes.find((candidate) => candidate.decoder === read.call);
    if (decode === undefined) return 'it decodes a requestState the handler did not receive';
    const binding = handler.bindingAt(read.call, names.binding);
    if (typeof binding !== 'string') return binding.reason;
    const opened = openEdits(context, decode, names.sealer, binding);
    if (typeof opened === 'string') return opened;
    edits.set(read, opened);
  }
  const sealedConstants = new Set<ts.Node>();
  for (const write of sites.writes) {
    const values = encodedValues(context, write, handler);
    if (typeof values === 'string') return values;
    const writeEdits: TextEdit[] = [];
    for (const value of values) {
      if (sealedConstants.has(value)) continue;
      const encoding = jsonEncoding(context.checker, value);
      if (encoding === undefined) {
        return `the state is ${write.how}, not JSON.stringify(value) under an encoding; seal the value it carries instead`;
      }
      if (typeof encoding === 'string') return encoding;
      const binding = handler.bindingAt(value, names.binding);
      if (typeof binding !== 'string') return binding.reason;
      const sealed = sealEdits(context, encoding, names.sealer, binding);
      if (typeof sealed === 'string') return sealed;
      writeEdits.push(...sealed);
      sealedConstants.add(value);
    }
    edits.set(write, writeEdits);
  }
  return edits;
}
