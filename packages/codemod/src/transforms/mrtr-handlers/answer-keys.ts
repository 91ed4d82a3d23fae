import { splitWordParts } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import { findProperty, propertyValue, unwrapExpression } from '../../analysis/syntax.js';
import type { PushCall } from './push-calls.js';

// Answer keys name a question for the journal and the client: stable across runs of the codemod
// and rounds of the handler, readable (`change_ticket`, `delete_project`), unique per handler.

/** Variable names that say nothing about the question. */
const GENERIC_NAMES = new Set([
  'answer',
  'answers',
  'result',
  'res',
  'r',
  'response',
  'reply',
  'input',
  'data',
  'value',
  'elicitation',
  'elicited',
  'outcome',
  'user',
  'pending',
  'promise',
]);

const MAX_MESSAGE_WORDS = 3;

export function snakeCase(text: string): string {
  return splitWordParts(text)
    .map((part) => part.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .filter((part) => part !== '')
    .join('_');
}

/** The name the answer is stored under: `const x = await …`, `const { a, b } = await …`. */
function assignedName(call: ts.CallExpression): string | undefined {
  let node: ts.Node = call.parent;
  while (ts.isParenthesizedExpression(node)) node = node.parent;
  // `const [a, b] = await Promise.all([askA, askB])`: each question is named by its element.
  if (ts.isArrayLiteralExpression(node)) {
    const index = node.elements.indexOf(call);
    let outer: ts.Node = node.parent.parent;
    while (ts.isParenthesizedExpression(outer) || ts.isAwaitExpression(outer)) outer = outer.parent;
    if (ts.isVariableDeclaration(outer) && ts.isArrayBindingPattern(outer.name)) {
      const element = outer.name.elements[index];
      return element !== undefined && ts.isBindingElement(element) && ts.isIdentifier(element.name)
        ? element.name.text
        : undefined;
    }
    return undefined;
  }
  while (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) node = node.parent;
  if (ts.isVariableDeclaration(node)) {
    if (ts.isIdentifier(node.name)) return node.name.text;
    if (ts.isObjectBindingPattern(node.name)) {
      const names = node.name.elements.flatMap((element) =>
        ts.isIdentifier(element.name) ? [element.name.text] : [],
      );
      return names.length > 0 ? names.join('_') : undefined;
    }
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    const left = unwrapExpression(node.left);
    if (ts.isIdentifier(left)) return left.text;
    if (ts.isPropertyAccessExpression(left)) return left.name.text;
  }
  return undefined;
}

/** The first words of a literal `message` (the static head of a template). */
function messageWords(params: ts.Expression | undefined): string | undefined {
  if (params === undefined) return undefined;
  const object = unwrapExpression(params);
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  const property = findProperty(object, 'message');
  if (property === undefined) return undefined;
  const value = unwrapExpression(propertyValue(property));
  const text =
    ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)
      ? value.text
      : ts.isTemplateExpression(value)
        ? value.head.text
        : undefined;
  if (text === undefined) return undefined;
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  // One word ("Really …?") says too little; the handler's name says more.
  return words.length < 2 ? undefined : snakeCase(words.slice(0, MAX_MESSAGE_WORDS).join(' '));
}

const CATEGORY_WORD: Readonly<Record<PushCall['shape'], string>> = {
  'elicit-form': 'input',
  'elicit-url': 'url_input',
  sampling: 'sampling',
  roots: 'roots',
};

/** Hands out the keys of one handler's questions and steps. */
export class AnswerKeys {
  readonly #used = new Set<string>();

  constructor(private readonly handlerName: string | undefined) {}

  /** A key for a push call: the variable its answer goes to, its message's first words, or the handler's name. */
  forQuestion(push: PushCall): string {
    const assigned = assignedName(push.call);
    const fromName = assigned === undefined || GENERIC_NAMES.has(assigned) ? undefined : snakeCase(assigned);
    const base =
      fromName ||
      messageWords(push.params) ||
      (this.handlerName !== undefined && push.shape === 'elicit-form'
        ? snakeCase(this.handlerName)
        : [this.handlerName && snakeCase(this.handlerName), CATEGORY_WORD[push.shape]]
            .filter(Boolean)
            .join('_'));
    return this.unique(base);
  }

  /** A key for a journaled step, from the variable it initializes or what it calls. */
  forStep(name: string): string {
    return this.unique(snakeCase(name) || 'step');
  }

  unique(base: string): string {
    let key = base;
    for (let n = 2; this.#used.has(key); n++) key = `${base}_${n}`;
    this.#used.add(key);
    return key;
  }
}
