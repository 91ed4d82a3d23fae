import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { staticString, unwrapExpression } from '../../analysis/syntax.js';
import { fallsThrough } from './case-flow.js';
import type { EligibleHandler } from './eligible-handlers.js';

// A handler that already returns input_required itself and reads the retry's fields on its own
// runs a round trip the adapter knows nothing of: its legacy loop would fulfil that input_required
// through the push APIs and re-run the handler, which reads its answers elsewhere. In a low-level
// handler that switches on the name, such cases are told apart by name: the adapter serves them
// once with their result untouched (`ownRoundTrip`), and the other cases are rewritten as usual.

const ROUND_TRIP_NAMES = new Set(['resultType', 'inputRequests', 'inputResponses', 'requestState']);

/** Every use of a round-trip field in the body: `x.requestState`, `{ resultType: … }`, `{ inputResponses }`. */
function roundTripSigns(body: ts.Block): ts.Identifier[] {
  const signs: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    const name =
      ts.isPropertyAssignment(node) ||
      ts.isPropertyAccessExpression(node) ||
      ts.isShorthandPropertyAssignment(node)
        ? node.name
        : ts.isBindingElement(node)
          ? (node.propertyName ?? node.name)
          : undefined;
    if (name !== undefined && ts.isIdentifier(name) && ROUND_TRIP_NAMES.has(name.text)) signs.push(name);
    ts.forEachChild(node, visit);
  };
  visit(body);
  return signs;
}

/** Whether `expression` is `<request>.params.name`, `request` being the handler's first parameter. */
function isRequestedName(expression: ts.Expression, request: ts.ParameterDeclaration | undefined): boolean {
  const outer = unwrapExpression(expression);
  if (!ts.isPropertyAccessExpression(outer) || outer.name.text !== 'name') return false;
  const params = unwrapExpression(outer.expression);
  if (!ts.isPropertyAccessExpression(params) || params.name.text !== 'params') return false;
  const base = unwrapExpression(params.expression);
  return (
    request !== undefined &&
    ts.isIdentifier(request.name) &&
    ts.isIdentifier(base) &&
    base.text === request.name.text
  );
}

/** The clause of a switch on the name that holds `node`, if any. */
function clauseOf(
  node: ts.Node,
  switches: readonly ts.SwitchStatement[],
): ts.CaseOrDefaultClause | undefined {
  for (let current: ts.Node = node; current.parent !== undefined; current = current.parent) {
    const parent = current.parent;
    if ((ts.isCaseClause(parent) || ts.isDefaultClause(parent)) && switches.includes(parent.parent.parent))
      return parent;
  }
  return undefined;
}

/**
 * The names whose cases run the handler's own round trip, undefined when it runs none, or why its
 * questions stay manual: the round trip is not confined to cases of a switch on the name, or such
 * a case also asks through the push APIs, or control flows between it and another case.
 */
export function ownRoundTripTargets(
  context: FileContext,
  handler: EligibleHandler,
  body: ts.Block,
  askings: readonly ts.Node[],
): readonly string[] | string | undefined {
  const signs = roundTripSigns(body);
  const first = signs[0];
  if (first === undefined) return undefined;
  const manual = (why: string) =>
    `the handler already runs its own round trip (it uses ${first.text} on line ${context.lineOf(first)}); ${why}, so migrate its other questions by hand`;
  if (handler.kind !== 'low-level' || handler.method === 'resources/read')
    return manual(
      'only the cases of a low-level tools/call or prompts/get handler switching on request.params.name can be served apart from it',
    );
  const request = handler.callback.parameters[0];
  const switches: ts.SwitchStatement[] = [];
  const collect = (node: ts.Node): void => {
    if (ts.isSwitchStatement(node) && isRequestedName(node.expression, request)) switches.push(node);
    ts.forEachChild(node, collect);
  };
  collect(body);
  const clauses = new Set<ts.CaseOrDefaultClause>();
  for (const sign of signs) {
    const clause = clauseOf(sign, switches);
    if (clause === undefined)
      return manual(`line ${context.lineOf(sign)} is outside the cases of a switch on request.params.name`);
    clauses.add(clause);
  }
  const targets: string[] = [];
  const labelOf = (clause: ts.CaseOrDefaultClause) =>
    ts.isCaseClause(clause) ? staticString(clause.expression) : undefined;
  for (const clause of clauses) {
    const label = labelOf(clause);
    if (label === undefined)
      return manual(
        `its case on line ${context.lineOf(clause)} has no literal name (a default or computed case) to serve apart by`,
      );
    if (askings.some((asking) => asking.pos >= clause.pos && asking.end <= clause.end))
      return manual(`its case '${label}' also asks through the push APIs`);
    if (fallsThrough(clause)) return manual(`its case '${label}' falls through into the next one`);
    // Empty cases stacked above it (`case 'a': case 'b': {…}`) run the same code.
    const shared: string[] = [label];
    const all = clause.parent.clauses;
    for (let index = all.indexOf(clause) - 1; index >= 0; index--) {
      const previous = all[index]!;
      if (previous.statements.length > 0) {
        if (fallsThrough(previous)) return manual(`the case before '${label}' falls through into it`);
        break;
      }
      const stacked = labelOf(previous);
      if (stacked === undefined)
        return manual(
          `a default or computed case on line ${context.lineOf(previous)} shares '${label}''s code`,
        );
      shared.unshift(stacked);
    }
    targets.push(...shared);
  }
  return targets;
}
