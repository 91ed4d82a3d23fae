import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import { unwrapExpression } from '../../analysis/syntax.js';
import { unresolvedSdkExportName } from '../../analysis/unresolved-sdk-evidence.js';
import type { PushCategory } from './push-calls.js';

// `round.ask` checks an answer as SDK v1's dedicated calls did: `elicitInput` validates accepted
// content against `requestedSchema`, `createMessage` and `listRoots` parse with the SDK's result
// schemas. A generic `request`/`sendRequest`/`send` checked only what its result schema checks,
// and no SDK result schema checks form content against `requestedSchema` (`ElicitResultSchema`
// parses the envelope), so where the original did not validate, the rewrite asks with
// `{ validate: false }` and the handler sees what it saw before.

/**
 * The SDK result schemas that check an answer as `round.ask` does by default, by what is asked.
 * None checks form content against `requestedSchema` (`ElicitResultSchema` checks the envelope).
 * `CreateMessageResultWithToolsSchema` takes several content blocks even when no tools were
 * offered, which the runtime allows only without validation.
 */
const VALIDATING_RESULT_SCHEMAS: Readonly<Record<PushCategory, readonly string[]>> = {
  elicitation: [],
  sampling: ['CreateMessageResultSchema'],
  roots: ['ListRootsResultSchema'],
};

/** The result schema SDK v2's `ctx.mcpReq.send(request)` parses with when given none. */
const V2_SEND_RESULT_SCHEMAS: Readonly<Record<PushCategory, string>> = {
  elicitation: 'ElicitResultSchema',
  sampling: 'CreateMessageResultWithToolsSchema',
  roots: 'ListRootsResultSchema',
};

/** The SDK's name for the schema constant `schema`, resolved by type or, without types, by import. */
function schemaName(context: FileContext, schema: ts.Expression): string | undefined {
  const inner = unwrapExpression(schema);
  const named = ts.isPropertyAccessExpression(inner) ? inner.name : inner;
  return sdkExportName(context.checker, named) ?? unresolvedSdkExportName(context, schema);
}

/**
 * Whether the original push call validated the answer as `round.ask` does by default. A dedicated
 * call did. A generic send did when its result schema is one of {@link VALIDATING_RESULT_SCHEMAS}:
 * never for a form, only `CreateMessageResultSchema` for sampling and `ListRootsResultSchema` for
 * roots. Without a schema (or with an object literal, its options) SDK v2's `send` takes the
 * method's own ({@link V2_SEND_RESULT_SCHEMAS}). Any other schema (`z.any()`,
 * `z.object({}).passthrough()`, a project schema, an identifier that does not resolve) is presumed
 * not to validate, which keeps the answer the original code saw.
 */
export function pushValidatesAnswer(
  context: FileContext,
  call: ts.CallExpression,
  category: PushCategory,
  generic: boolean,
): boolean {
  if (!generic) return true;
  const schema = call.arguments[1];
  const name =
    schema === undefined || ts.isObjectLiteralExpression(unwrapExpression(schema))
      ? V2_SEND_RESULT_SCHEMAS[category]
      : schemaName(context, schema);
  return name !== undefined && VALIDATING_RESULT_SCHEMAS[category].includes(name);
}
