import { ts } from 'ts-morph';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { AnswerKeys } from './answer-keys.js';
import { keptQuestionWaits } from './awaited-question.js';
import { nameOfFunction } from './eligible-handlers.js';
import type { Helper } from './placement.js';
import { questionEdits } from './question-edits.js';
import { planSteps } from './step-planner.js';
import { planUrlCompletion } from './url-mode-question.js';
import { freshName, type Asking, type HandlerRewrite } from './replay-handler.js';
import { typeName, type TypeImport } from './type-imports.js';

// A helper that asks through the server, `extra` or `ctx` it receives takes the handler's round
// instead; its callers pass it (see planReplayHandler).

function isTypeScript(sourceFile: ts.SourceFile): boolean {
  return !/\.[cm]?jsx?$/.test(sourceFile.fileName);
}

/** Plans the helper's edits: its parameter becomes `round: Round`, its questions `round.ask`, its helper calls pass `round`. */
export function planReplayHelper(
  context: FileContext,
  helper: Helper,
  askings: readonly Asking[],
): HandlerRewrite | string {
  const { fn, parameter } = helper;
  const name = nameOfFunction(fn)?.text ?? 'the helper';
  if (!ts.isIdentifier(parameter.name)) return `${name}() destructures the parameter it asks through`;
  const symbol = context.checker.getSymbolAtLocation(parameter.name);
  const body = fn.body;
  if (body === undefined) return `${name}() has no body`;
  // What the rewrite replaces: each question's receiver, each helper call's round argument.
  const replaced: ts.Node[] = [];
  for (const asking of askings) {
    if (asking.kind === 'push') {
      replaced.push(asking.push.call);
      continue;
    }
    const argument = asking.call.arguments[asking.helper.fn.parameters.indexOf(asking.helper.parameter)];
    if (argument === undefined)
      return `${name}() calls ${nameOfFunction(asking.helper.fn)?.text ?? 'a helper'}() without the argument it asks through`;
    replaced.push(argument);
  }
  let otherUse: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (otherUse !== undefined || replaced.includes(node)) return;
    if (ts.isIdentifier(node) && context.checker.getSymbolAtLocation(node) === symbol) otherUse = node;
    ts.forEachChild(node, visit);
  };
  visit(body);
  if (otherUse !== undefined)
    return `${name}() also uses ${parameter.name.text} for something other than questions (line ${context.lineOf(otherUse)})`;
  const asked = askings.map((asking) => (asking.kind === 'push' ? asking.push.call : asking.call));
  // A question kept in a variable suspends where it is awaited.
  const waits = keptQuestionWaits(context, asked);
  const round = freshName(fn, 'round');
  const keys = new AnswerKeys(name);
  const steps = planSteps(context, fn, [...asked, ...waits], round, keys);
  if (typeof steps === 'string') return `in ${name}(): ${steps}`;
  const imports: ImportRequest[] = [];
  const typeImports: TypeImport[] = [];
  const edits: TextEdit[] = [];
  let declaration = round;
  if (isTypeScript(context.sourceFile)) {
    typeImports.push({ module: RUNTIME_PACKAGE, name: 'Round' });
    declaration = `${round}: ${typeName(context, 'Round')}`;
  }
  edits.push({ start: parameter.getStart(context.sourceFile), end: parameter.end, text: declaration });
  edits.push(...steps.edits);
  const questions = new Map<ts.CallExpression, TextEdit[]>();
  for (const [index, asking] of askings.entries()) {
    if (asking.kind === 'helper-call') {
      const argument = replaced[index]!;
      questions.set(asking.call, [
        { start: argument.getStart(context.sourceFile), end: argument.end, text: round },
      ]);
      continue;
    }
    const planned = questionEdits(context, asking.push, round, keys.forQuestion(asking.push));
    if (typeof planned === 'string') return planned;
    questions.set(asking.push.call, planned.edits);
    imports.push(...planned.imports);
    typeImports.push(...planned.typeImports);
  }
  const pushes = askings.flatMap((asking) => (asking.kind === 'push' ? [asking.push] : []));
  const completion = planUrlCompletion(context, fn, pushes);
  if (typeof completion === 'string') return completion;
  edits.push(...completion);
  return { edits, questions, imports, typeImports, notes: steps.notes };
}
