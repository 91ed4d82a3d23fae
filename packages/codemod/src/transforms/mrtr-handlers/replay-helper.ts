import { ts } from 'ts-morph';
import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { AnswerKeys } from './answer-keys.js';
import { keptQuestionWaits } from './awaited-question.js';
import { finallyGuardEdits } from './finally-guard.js';
import type { Helper } from './placement.js';
import { questionEdits } from './question-edits.js';
import { roundArgumentEdit, roundParameterEdit } from './round-parameter.js';
import { planSteps } from './step-planner.js';
import { unusedSenderEdits } from './taken-senders.js';
import { planUrlCompletion } from './url-mode-question.js';
import { catchEdits, freshName, type Asking, type HandlerRewrite } from './replay-handler.js';
import { typeName, type TypeImport } from './type-imports.js';

// A helper that asks takes the handler's round, in place of the server, `extra` or `ctx` it asks
// through when it uses that for nothing else, or as its first parameter (a method asking through
// `this.server`, a helper also reading the server's capabilities); its callers pass it (see
// planReplayHandler).

function isTypeScript(sourceFile: ts.SourceFile): boolean {
  return !/\.[cm]?jsx?$/.test(sourceFile.fileName);
}

/** Plans the helper's edits: it takes `round: Round`, its questions become `round.ask`, its helper calls pass `round`. */
export function planReplayHelper(
  context: FileContext,
  helper: Helper,
  askings: readonly Asking[],
): HandlerRewrite | string {
  const { fn, slot, name } = helper;
  const body = fn.body;
  if (body === undefined) return `${name}() has no body`;
  const round = freshName(fn, 'round');
  // What the rewrite replaces: each question, and each argument a helper call gives the round's place.
  const replaced: ts.Node[] = [];
  const calls = new Map<ts.CallExpression, TextEdit[]>();
  for (const asking of askings) {
    if (asking.kind === 'push') {
      replaced.push(asking.push.call);
      continue;
    }
    const passed = roundArgumentEdit(context, asking.call, asking.helper.fn, asking.helper.slot, round);
    if (typeof passed === 'string') return `${name}() calls ${asking.helper.name}(), but ${passed}`;
    if (passed.replaced !== undefined) replaced.push(passed.replaced);
    calls.set(asking.call, [passed.edit]);
  }
  if (slot.kind === 'replaces') {
    const parameter = slot.parameter;
    if (!ts.isIdentifier(parameter.name)) return `${name}() destructures the parameter it asks through`;
    const symbol = context.checker.getSymbolAtLocation(parameter.name);
    let otherUse: ts.Node | undefined;
    const visit = (node: ts.Node): void => {
      if (otherUse !== undefined || replaced.includes(node)) return;
      if (ts.isIdentifier(node) && context.checker.getSymbolAtLocation(node) === symbol) otherUse = node;
      ts.forEachChild(node, visit);
    };
    visit(body);
    if (otherUse !== undefined)
      return `${name}() also uses ${parameter.name.text} for something other than questions (line ${context.lineOf(otherUse)})`;
  }
  const asked = askings.map((asking) => (asking.kind === 'push' ? asking.push.call : asking.call));
  // A question kept in a variable suspends where it is awaited.
  const waits = keptQuestionWaits(context, asked);
  const keys = new AnswerKeys(name.replace(/^#/, ''));
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
  edits.push(roundParameterEdit(context, fn, slot, declaration));
  edits.push(...steps.edits);
  const questions = new Map<ts.CallExpression, TextEdit[]>(calls);
  for (const asking of askings) {
    if (asking.kind === 'helper-call') continue;
    const planned = questionEdits(context, asking.push, round, keys.forQuestion(asking.push));
    if (typeof planned === 'string') return planned;
    questions.set(asking.push.call, planned.edits);
    imports.push(...planned.imports);
    typeImports.push(...planned.typeImports);
  }
  const pushes = askings.flatMap((asking) => (asking.kind === 'push' ? [asking.push] : []));
  // A sender taken off what the helper was given (`const ask = server.elicitInput.bind(server)`) goes with its calls.
  const rewritten = [...questions.values()].flat().filter((edit) => edit.end > edit.start);
  edits.push(...unusedSenderEdits(context, fn, pushes, rewritten).edits);
  const completion = planUrlCompletion(context, fn, pushes);
  if (typeof completion === 'string') return completion;
  edits.push(...completion);
  const guards = finallyGuardEdits(context, fn, steps.guardedFinally, imports, steps.edits);
  edits.push(...guards.edits);
  const catches = catchEdits(context, fn, [...asked, ...waits], imports, guards.flags);
  if (typeof catches === 'string') return `in ${name}(): ${catches}`;
  edits.push(...catches);
  return { edits, questions, imports, typeImports, notes: steps.notes };
}
