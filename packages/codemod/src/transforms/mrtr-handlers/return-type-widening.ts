import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import type { TextEdit } from '../../edits/text-edit.js';
import type { HandlerFunction } from './eligible-handlers.js';
import { typeName, type TypeImport } from './type-imports.js';

// A handler that now returns `round.inputRequired(…)` (the explicit style, a rewritten
// UrlElicitationRequiredError) no longer fits a declared `Promise<CallToolResult>`. The runtime's
// handler types accept `R | InputRequiredResult` (their `Outcome`), so the annotation gains
// exactly that member, and the rest of it stays as written.

const WIDENED_BY = 'InputRequiredResult';

function isAsync(fn: HandlerFunction): boolean {
  return fn.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.AsyncKeyword) ?? false;
}

/**
 * Whether the annotation already takes anything: `unknown`, `any`, `Promise<unknown>`. A type the
 * compiler could not resolve (the SDK is not installed) is `any` to it, but not to the user's build.
 */
function acceptsAnything(context: FileContext, fn: HandlerFunction, annotation: ts.TypeNode): boolean {
  const declared = context.checker.getTypeFromTypeNode(annotation);
  const returned = isAsync(fn) ? (context.checker.getAwaitedType(declared) ?? declared) : declared;
  if (context.syntacticEvidence && (isUnresolved(declared) || isUnresolved(returned))) return false;
  return (returned.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
}

/** The compiler's error type, which stands for a reference it could not resolve. */
function isUnresolved(type: ts.Type): boolean {
  return (type as { readonly intrinsicName?: string }).intrinsicName === 'error';
}

/** A type that needs parentheses before `| X`: a function, constructor or conditional type. */
function needsParentheses(node: ts.TypeNode): boolean {
  return ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node) || ts.isConditionalTypeNode(node);
}

/**
 * The edit widening a handler's declared return type by the runtime's `InputRequiredResult`, and
 * the type it imports; nothing when the handler declares none or one that takes anything.
 * `Promise<T>` becomes `Promise<T | InputRequiredResult>`; an alias in an async function
 * `Promise<Awaited<Alias> | InputRequiredResult>`; a synchronous `T`, `T | InputRequiredResult`.
 */
export function returnTypeWidening(
  context: FileContext,
  fn: HandlerFunction,
): { edits: TextEdit[]; typeImports: TypeImport[] } {
  const annotation = fn.type;
  if (annotation === undefined || acceptsAnything(context, fn, annotation))
    return { edits: [], typeImports: [] };
  const widened = typeName(context, WIDENED_BY);
  const typeImports = [{ module: RUNTIME_PACKAGE, name: WIDENED_BY }];
  const file = context.sourceFile;
  const promised =
    ts.isTypeReferenceNode(annotation) &&
    ts.isIdentifier(annotation.typeName) &&
    annotation.typeName.text === 'Promise' &&
    annotation.typeArguments?.length === 1
      ? annotation.typeArguments[0]!
      : undefined;
  if (promised !== undefined) {
    const inner = needsParentheses(promised) ? `(${context.textOf(promised)})` : context.textOf(promised);
    return {
      edits: [{ start: promised.getStart(file), end: promised.end, text: `${inner} | ${widened}` }],
      typeImports,
    };
  }
  const written = context.textOf(annotation);
  const text = isAsync(fn)
    ? `Promise<Awaited<${written}> | ${widened}>`
    : `${needsParentheses(annotation) ? `(${written})` : written} | ${widened}`;
  return { edits: [{ start: annotation.getStart(file), end: annotation.end, text }], typeImports };
}
