import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import { indentationAt } from '../../edits/line-ranges.js';
import { reindentEdits } from '../../edits/reindent.js';
import { removeStatement } from '../../edits/removal.js';
import { braces, fitsOnLine, quoteString, semicolon, type SourceStyle } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { AnswerKeys } from './answer-keys.js';
import type { EligibleHandler } from './eligible-handlers.js';
import { requestParts } from './question-edits.js';
import { freshName, planReplayHandler, type Asking, type HandlerRewrite } from './replay-handler.js';
import type { ExplicitQuestion, ExplicitShape } from './explicit-shape.js';
import { typeName, type TypeImport } from './type-imports.js';

// The spec guide's shape. The handler runs from the top on every round; each question becomes
//   const answerRequest = elicitForm({ … });
//   const answer = round.answer('key', answerRequest);
//   if (answer === undefined) return round.inputRequired({ inputRequests: { key: answerRequest } });
// Questions asked together share one guard; a round that needs earlier answers gets them back
// from the sealed requestState, where the previous round's guard put them.

function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function isIdentifierName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name);
}

/** Names for what the rewrite declares, distinct from every name in the handler and from each other. */
class LocalNames {
  readonly #taken = new Set<string>();

  constructor(private readonly scope: ts.Node) {}

  fresh(base: string): string {
    let name = freshName(this.scope, base);
    for (let n = 2; this.#taken.has(name); n++) name = freshName(this.scope, `${base}${n}`);
    this.#taken.add(name);
    return name;
  }
}

interface Written {
  readonly question: ExplicitQuestion;
  readonly key: string;
  readonly answer: string;
  readonly request: string;
}

/** Plans the explicit rewrite of a handler whose flow `shape` describes. */
export function planExplicitHandler(
  context: FileContext,
  handler: EligibleHandler,
  askings: readonly Asking[],
  shape: ExplicitShape,
  adapter: string,
): HandlerRewrite | string {
  const frame = planReplayHandler(context, handler, askings, adapter, false);
  if (typeof frame === 'string') return frame;
  const fn = handler.callback;
  const round = freshName(fn, 'round');
  const style = context.style;
  const nl = style.newline;
  const semi = semicolon(style);
  const q = (text: string) => quoteString(style, text);
  const property = (key: string) => (isIdentifierName(key) ? key : q(key));
  const typed = /\.[cm]?tsx?$/.test(context.sourceFile.fileName);
  const keys = new AnswerKeys(handler.name);
  const names = new LocalNames(fn);
  const imports: ImportRequest[] = [...frame.imports];
  const typeImports: TypeImport[] = [...frame.typeImports];
  const edits: TextEdit[] = [...frame.edits];
  const questions = new Map<ts.CallExpression, TextEdit[]>();

  // Keys in source order, as the replay style hands them out.
  const written = new Map<ExplicitQuestion, Written>();
  for (const question of shape.rounds.flat()) {
    const key = keys.forQuestion(question.push);
    const name = question.declaration.name;
    const answer = ts.isIdentifier(name) ? name.text : names.fresh(`${camelCase(key)}Answer`);
    written.set(question, { question, key, answer, request: names.fresh(`${answer}Request`) });
  }

  const answered: Written[] = [];
  for (const [index, group] of shape.rounds.entries()) {
    const carried = index < shape.rounds.length - 1;
    for (const [position, question] of group.entries()) {
      const entry = written.get(question)!;
      const parts = requestParts(context, question.push);
      if (typeof parts === 'string') return parts;
      imports.push(parts.builder);
      typeImports.push(...parts.typeImports);
      const statement = question.statement;
      const start = statement.getStart(context.sourceFile);
      const indent = `${nl}${indentationAt(context.text, start)}`;
      const own: TextEdit[] = [...parts.edits];

      let read = `${round}.answer(${q(entry.key)}, ${entry.request}${parts.answerOptions})`;
      if (carried) {
        const access = isIdentifierName(entry.key) ? `?.${entry.key}` : `?.[${q(entry.key)}]`;
        let state = `${round}.state`;
        if (typed) {
          typeImports.push({ module: RUNTIME_PACKAGE, name: 'AnswerOf' });
          const answerOf = typeName(context, 'AnswerOf');
          state = `(${state} as ${braces(style, `${property(entry.key)}?: ${answerOf}<typeof ${entry.request}>`)} | undefined)`;
        }
        read = `${state}${access} ?? ${read}`;
      }
      const lines = [`const ${entry.answer} = ${read}${semi}`];
      if (position === group.length - 1) {
        const members = group.map((member) => written.get(member)!);
        const missing = members.map((member) => `${member.answer} === undefined`).join(' || ');
        const requests = members.map((member) => `${property(member.key)}: ${member.request}`).join(', ');
        const properties = [`inputRequests: ${braces(style, requests)}`];
        if (answered.length > 0)
          properties.push(
            `state: ${braces(style, answered.map((earlier) => (earlier.key === earlier.answer ? earlier.key : `${property(earlier.key)}: ${earlier.answer}`)).join(', '))}`,
          );
        lines.push(
          inputRequiredReturn(style, indentationAt(context.text, start), missing, round, properties),
        );
        for (const member of members) {
          const declared = member.question.declaration.name;
          if (!ts.isIdentifier(declared))
            lines.push(`const ${context.textOf(declared)} = ${member.answer}${semi}`);
        }
        answered.push(...members);
        if (!carried) lines.push(...shape.moved.map((moved) => context.textOf(moved)));
      }
      const after = lines.map((text) => `${indent}${text}`).join('');

      const params = question.push.params;
      const builder = `${parts.builder.local}${parts.typeArguments}`;
      if (params === undefined || question.push.shape === 'roots') {
        own.push({
          start,
          end: statement.end,
          text: `const ${entry.request} = ${builder}()${semi}${after}`,
        });
      } else {
        own.push({
          start,
          end: params.getStart(context.sourceFile),
          text: `const ${entry.request} = ${builder}(`,
        });
        // The params now open on the statement's line: their lines move to its depth.
        own.push(...reindentEdits(context.sourceFile, params, params.getStart(context.sourceFile), start));
        own.push({ start: params.end, end: statement.end, text: `)${semi}${after}` });
      }
      questions.set(question.push.call, own);
    }
  }
  for (const moved of shape.moved) edits.push(removeStatement(context.sourceFile, moved));
  return { edits, questions, imports, typeImports };
}

/**
 * `if (<missing>) return round.inputRequired({ … });` on one line when it fits the file's width,
 * else the return on a line of its own, and one property per line when that does not fit
 * either, as Prettier lays it out.
 */
function inputRequiredReturn(
  style: SourceStyle,
  indent: string,
  missing: string,
  round: string,
  properties: readonly string[],
): string {
  const semi = semicolon(style);
  const call = `return ${round}.inputRequired(${braces(style, properties.join(', '))})${semi}`;
  const packed = `if (${missing}) ${call}`;
  if (fitsOnLine(style, indent, packed)) return packed;
  const nl = style.newline;
  const inner = `${indent}${style.indentUnit}`;
  if (fitsOnLine(style, inner, call)) return `if (${missing})${nl}${inner}${call}`;
  const each = properties.map((property) => `${nl}${inner}${style.indentUnit}${property}`).join(',');
  const comma = style.trailingCommas ? ',' : '';
  return `if (${missing})${nl}${inner}return ${round}.inputRequired({${each}${comma}${nl}${inner}})${semi}`;
}
