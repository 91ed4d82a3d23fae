import { CATEGORY_INFO, RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import {
  enclosingStatement,
  findProperty,
  propertyValue,
  staticString,
  unwrapExpression,
} from '../../analysis/syntax.js';
import type { ImportRequest } from '../../edits/imports.js';
import { indentationAt, lineStartOf } from '../../edits/line-ranges.js';
import { markerText } from '../../edits/markers.js';
import { reindentEdits } from '../../edits/reindent.js';
import { removeListElement } from '../../edits/removal.js';
import { braces, quoteString } from '../../edits/source-style.js';
import type { TextEdit } from '../../edits/text-edit.js';
import { builtRequest } from './built-request.js';
import type { PushCall } from './push-calls.js';
import { typeName, type TypeImport } from './type-imports.js';
import { readsUndeclaredFields } from './undeclared-field-reads.js';
import { urlQuestionEdits } from './url-mode-question.js';

// One push call becomes `round.ask('<key>', <input request>)`: the request's params stay where
// they are (other transforms may edit inside them), only re-indented when they move to the
// call's line; the options argument (`{ relatedRequestId }`) and the result schema of a generic
// send go.

const BUILDER: Readonly<Record<Exclude<PushCall['shape'], 'elicit-url'>, string>> = {
  'elicit-form': 'elicitForm',
  sampling: 'createMessage',
  roots: 'listRoots',
};

export interface QuestionEdits {
  readonly edits: TextEdit[];
  readonly imports: ImportRequest[];
  readonly typeImports: TypeImport[];
}

/** `cond ? await askA : await askB`: two forms give a union of two content types. */
function inConditional(call: ts.CallExpression): boolean {
  let node: ts.Node = call.parent;
  while (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) node = node.parent;
  return ts.isConditionalExpression(node);
}

/**
 * `<FormSchema>` for a form whose answer the handler reads as the SDK typed it, one loose record:
 * asked in a conditional, or read for a field the form does not declare. `elicitForm` otherwise
 * types the content by its schema, and those uses would not compile.
 */
function formTypeArguments(
  context: FileContext,
  push: PushCall,
): { typeArguments: string; typeImports: TypeImport[] } {
  if (push.shape !== 'elicit-form' || !(inConditional(push.call) || readsUndeclaredFields(context, push)))
    return { typeArguments: '', typeImports: [] };
  return {
    typeArguments: `<${typeName(context, 'FormSchema')}>`,
    typeImports: [{ module: RUNTIME_PACKAGE, name: 'FormSchema' }],
  };
}

/** The edit dropping `mode: 'form'` from literal params: `elicitForm` sets the mode itself. */
function dropFormMode(context: FileContext, params: ts.Expression | undefined): TextEdit[] {
  if (params === undefined) return [];
  const object = unwrapExpression(params);
  if (!ts.isObjectLiteralExpression(object)) return [];
  const mode = findProperty(object, 'mode');
  if (mode === undefined || staticString(propertyValue(mode)) !== 'form') return [];
  return [removeListElement(context.sourceFile, object.properties, object.properties.indexOf(mode))];
}

function computedIncludeContext(params: ts.Expression | undefined): boolean {
  const object = params === undefined ? undefined : unwrapExpression(params);
  if (object === undefined || !ts.isObjectLiteralExpression(object)) return false;
  const property = findProperty(object, 'includeContext');
  return property !== undefined && staticString(propertyValue(property)) === undefined;
}

/** The deliberate marker above a rewritten sampling or roots question: still deprecated. */
function deprecationMarker(context: FileContext, push: PushCall): TextEdit[] {
  if (push.category === 'elicitation') return [];
  const start = (enclosingStatement(push.call) ?? push.call).getStart(context.sourceFile);
  const lineStart = lineStartOf(context.text, start);
  const indent = indentationAt(context.text, start);
  const info = CATEGORY_INFO[push.category];
  return [
    {
      start: lineStart,
      end: lineStart,
      text: `${indent}// ${markerText(info.ruleId, `${info.guidance} (migrated to an MRTR ${push.category} request, which still works but is deprecated)`)}${context.style.newline}`,
    },
  ];
}

/**
 * `, { validate: false }` after the request when the original call took the answer as the client
 * sent it (a generic send with a permissive result schema), so the rewrite does too.
 */
function answerOptions(context: FileContext, push: PushCall): string {
  return push.validatesAnswer ? '' : `, ${braces(context.style, 'validate: false')}`;
}

/**
 * What the explicit style keeps of a push call: the builder its request is written with, and the
 * edits around and inside its params that do not depend on the style (`mode: 'form'`, the marker).
 */
export function requestParts(
  context: FileContext,
  push: PushCall,
):
  | {
      builder: ImportRequest;
      typeArguments: string;
      typeImports: TypeImport[];
      edits: TextEdit[];
      /** What follows the request in `round.answer(key, request…)`: the options, if any. */
      answerOptions: string;
    }
  | string {
  if (push.shape === 'elicit-url') return 'URL mode is written in replay style';
  if (push.shape === 'sampling' && computedIncludeContext(push.params))
    return 'its includeContext is computed; settle it first (the deprecated-declarations marker says how)';
  if (push.shape !== 'roots' && push.params === undefined) return 'the request has no parameters to ask with';
  const edits = push.shape === 'elicit-form' ? dropFormMode(context, push.params) : [];
  edits.push(...deprecationMarker(context, push));
  return {
    builder: context.importFor(RUNTIME_PACKAGE, BUILDER[push.shape]),
    ...formTypeArguments(context, push),
    edits,
    answerOptions: answerOptions(context, push),
  };
}

/** The edits turning one push call into `round.ask(key, request)`. */
export function questionEdits(
  context: FileContext,
  push: PushCall,
  round: string,
  key: string,
): QuestionEdits | string {
  if (push.shape === 'elicit-url') {
    const url = urlQuestionEdits(context, push, round, key);
    return typeof url === 'string' ? url : { ...url, typeImports: [] };
  }
  if (push.shape === 'sampling' && computedIncludeContext(push.params))
    return 'its includeContext is computed; settle it first (the deprecated-declarations marker says how)';
  const builder = context.importFor(RUNTIME_PACKAGE, BUILDER[push.shape]);
  const q = quoteString(context.style, key);
  const call = push.call;
  const callStart = call.getStart(context.sourceFile);
  const edits: TextEdit[] = [];
  const { typeArguments, typeImports } = formTypeArguments(context, push);
  const options = answerOptions(context, push);
  const built = builtRequest(context, push);
  if (typeof built === 'string') return built;
  if (built !== undefined) {
    // The variable holds the runtime's request, built where the original was; the send asks with it.
    const end = built.initializer.end;
    const params = push.params;
    if (params === undefined) {
      if (push.shape !== 'roots') return 'the request has no parameters to ask with';
      edits.push({ start: built.name.end, end, text: ` = ${builder.local}()` });
    } else {
      edits.push({
        start: built.name.end,
        end: params.getStart(context.sourceFile),
        text: ` = ${builder.local}${typeArguments}(`,
      });
      const start = built.declaration.getStart(context.sourceFile);
      edits.push(...reindentEdits(context.sourceFile, params, params.getStart(context.sourceFile), start));
      edits.push({ start: params.end, end, text: ')' });
      if (push.shape === 'elicit-form') edits.push(...dropFormMode(context, params));
    }
    edits.push({ start: callStart, end: call.end, text: `${round}.ask(${q}, ${built.name.text}${options})` });
  } else if (push.shape === 'roots' || push.params === undefined) {
    if (push.shape !== 'roots') return 'the request has no parameters to ask with';
    edits.push({ start: callStart, end: call.end, text: `${round}.ask(${q}, ${builder.local}()${options})` });
  } else {
    const params = push.params;
    edits.push({
      start: callStart,
      end: params.getStart(context.sourceFile),
      text: `${round}.ask(${q}, ${builder.local}${typeArguments}(`,
    });
    // The params now open on the call's line: their lines move to its depth, and close it there.
    edits.push(...reindentEdits(context.sourceFile, params, params.getStart(context.sourceFile), callStart));
    edits.push({ start: params.end, end: call.end, text: `)${options})` });
    if (push.shape === 'elicit-form') edits.push(...dropFormMode(context, push.params));
  }
  edits.push(...deprecationMarker(context, push));
  return { edits, imports: [builder], typeImports };
}
