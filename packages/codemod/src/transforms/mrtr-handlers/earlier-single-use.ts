import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { REQUEST_STATE_RULE_ID } from '../../analysis/site-category.js';
import type { Site } from '../../analysis/site.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { existingImportLocal, type ImportRequest } from '../../edits/imports.js';
import { lineStartOf } from '../../edits/line-ranges.js';
import { markerLineAbove, markerText } from '../../edits/markers.js';
import { semicolon } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import {
  choiceWritten,
  deploymentReason,
  deploymentTodo,
  runtimeDeclarationLines,
  SINGLE_USE_ADVICE,
  SINGLE_USE_STORE,
} from './runtime-construction.js';
import { keysReadBy, THEN_DELETE } from '../shared/state-keys.js';
import { servedTransport } from './served-transport.js';
import { TRANSFORM_ID } from './transform-id.js';

// An adapter an earlier run declared runs without single use when none of its handlers journaled
// steps then. A later run that adds handlers journaling steps turns it on, as it would have in a
// new declaration: when the declaration constructs the runtime itself with an object literal of
// options (what migrate writes), the option goes in, the imports follow and the keys marker says
// why; otherwise the declaration is the user's, and a marker says exactly what to add.

const RUNTIME_CLASS = 'MrtrRuntime';

/** Words of the todo that asks for single use by hand, by which a later run finds it again. */
const BY_HAND = `Pass singleUse: new ${SINGLE_USE_STORE}() (from ${RUNTIME_PACKAGE})`;

/** What turning single use on in an earlier declaration writes, and the sites that say so. */
export interface EarlierSingleUse {
  readonly edits: readonly TextEdit[];
  readonly imports: readonly ImportRequest[];
  readonly sites: readonly Site[];
}

/** The statement declaring the adapter, as `adapter-setup.ts` found it. */
interface Declaration {
  readonly name: string;
  readonly statement: ts.VariableStatement;
}

/** Whether the declaration gives its runtime single use already (an option named singleUse). */
export function hasSingleUse(context: FileContext, declaration: Declaration): boolean {
  return /\bsingleUse\s*:/.test(context.textOf(declaration.statement));
}

/** `new MrtrRuntime({ … })`, the adapter's only argument, with options the codemod can extend. */
function constructedRuntime(
  context: FileContext,
  statement: ts.VariableStatement,
): { adapter: ts.NewExpression; runtime: ts.NewExpression; options: ts.ObjectLiteralExpression } | undefined {
  const init = statement.declarationList.declarations[0]?.initializer;
  if (init === undefined || !ts.isNewExpression(init) || init.arguments?.length !== 1) return undefined;
  const runtime = unwrapExpression(init.arguments[0]!);
  const runtimeClass =
    existingImportLocal(context.sourceFile, RUNTIME_PACKAGE, RUNTIME_CLASS) ?? RUNTIME_CLASS;
  if (
    !ts.isNewExpression(runtime) ||
    !ts.isIdentifier(runtime.expression) ||
    runtime.expression.text !== runtimeClass ||
    runtime.arguments?.length !== 1
  )
    return undefined;
  const options = runtime.arguments[0]!;
  if (
    !ts.isObjectLiteralExpression(options) ||
    options.properties.some(
      (property) => !ts.isPropertyAssignment(property) && !ts.isShorthandPropertyAssignment(property),
    ) ||
    options.properties.some((property) => context.textOf(property).includes('\n'))
  )
    return undefined;
  return { adapter: init, runtime, options };
}

/**
 * The edits that give an earlier adapter's runtime single use, with its keys site updated; or,
 * when the declaration is not one the codemod can extend, a marker and a manual site saying what
 * to add.
 */
export function earlierSingleUse(context: FileContext, declaration: Declaration): EarlierSingleUse {
  const { statement } = declaration;
  const text = context.text;
  const statementStart = statement.getStart(context.sourceFile);
  const lineStart = lineStartOf(text, statementStart);
  const marker = markerLineAbove(text, lineStart, REQUEST_STATE_RULE_ID);
  const newline = context.style.newline;
  const base = { transform: TRANSFORM_ID, category: 'request-state' as const, node: statement };
  const constructed = constructedRuntime(context, statement);
  const head = constructed && text.slice(statementStart, constructed.adapter.arguments!.pos);
  if (constructed === undefined || head === undefined || head.includes('\n')) {
    const todo = `${BY_HAND} to the ${RUNTIME_CLASS} of the adapter ${declaration.name}: this run added handlers that journal steps, and a retry that opens one requestState twice would run a step again. ${SINGLE_USE_ADVICE} ${THEN_DELETE}`;
    const site = context.manualSite(
      { ...base, kind: 'single-use', todo },
      'the adapter’s runtime is not constructed in its declaration with an object of options, so the codemod cannot add the option',
    );
    return {
      edits: [
        { start: lineStart, end: lineStart, text: `// ${markerText(REQUEST_STATE_RULE_ID, todo)}${newline}` },
      ],
      imports: [],
      sites: [{ ...site, anchor: { kind: 'in-rewrite' } }],
    };
  }
  const store = context.importFor(RUNTIME_PACKAGE, SINGLE_USE_STORE);
  const options = [
    ...constructed.options.properties.map((property) => context.textOf(property)),
    `singleUse: new ${store.local}()`,
  ];
  const tail = `)${context.textOf(statement).trimEnd().endsWith(';') ? semicolon(context.style) : ''}`;
  const runtimeClass = context.textOf(constructed.runtime.expression);
  const lines = runtimeDeclarationLines(context.style, head, runtimeClass, options, tail);
  const edits: TextEdit[] = [{ start: statementStart, end: statement.getEnd(), text: lines.join(newline) }];
  const declared = context.textOf(statement);
  const keys = keysReadBy(context, statement) ?? declared;
  const choice = { ...choiceWritten(declared, keys, servedTransport(context)), singleUse: true };
  // A keys marker still there is rewritten to say why the option is there; without one, the
  // deployment has its keys, and a marker of its own says what the in-memory store holds.
  const todo = marker === undefined ? `${SINGLE_USE_ADVICE} ${THEN_DELETE}` : deploymentTodo(choice);
  const comment = `// ${markerText(REQUEST_STATE_RULE_ID, todo)}${newline}`;
  edits.push(
    marker === undefined
      ? { start: lineStart, end: lineStart, text: comment }
      : { start: marker.start, end: marker.end, text: comment },
  );
  const site =
    marker === undefined
      ? context.manualSite(
          { ...base, kind: 'single-use', todo },
          'an in-memory store holds for one process; only the deployment knows whether a retry may reach another',
        )
      : context.manualSite({ ...base, kind: 'state-keys', todo }, deploymentReason(choice.transport));
  return { edits, imports: [store], sites: [{ ...site, anchor: { kind: 'in-rewrite' } }] };
}

/** The marker an earlier run left asking for single use by hand, while the option is still missing. */
export function pendingSingleUseSite(context: FileContext, declaration: Declaration): Site | undefined {
  if (hasSingleUse(context, declaration)) return undefined;
  const text = context.text;
  const lineStart = lineStartOf(text, declaration.statement.getStart(context.sourceFile));
  let end = lineStart;
  while (end > 0) {
    const start = lineStartOf(text, end - 1);
    const line = text.slice(start, end).trim();
    if (!line.startsWith('//')) return undefined;
    if (line.includes(BY_HAND)) {
      const todo = line.slice(line.indexOf(BY_HAND));
      const site = context.manualSite(
        {
          transform: TRANSFORM_ID,
          category: 'request-state',
          kind: 'single-use',
          node: declaration.statement,
          todo,
        },
        'the adapter’s runtime is not constructed in its declaration with an object of options, so the codemod cannot add the option',
      );
      return { ...site, anchor: { kind: 'in-rewrite' } };
    }
    end = start;
  }
  return undefined;
}
