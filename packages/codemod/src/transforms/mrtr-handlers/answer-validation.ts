import { legacySchema } from '@mcp-mrtr/core';
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

/** The SDK's name for the schema constant `schema`, resolved by type or, without types, by import. */
function schemaName(context: FileContext, schema: ts.Expression): string | undefined {
  const inner = unwrapExpression(schema);
  const named = ts.isPropertyAccessExpression(inner) ? inner.name : inner;
  return sdkExportName(context.checker, named) ?? unresolvedSdkExportName(context, schema);
}

/**
 * Whether the original push call validated the answer as `round.ask` does by default. A dedicated
 * call did. A generic send of a form did not. A generic sampling or roots send did with the SDK's
 * own result schema for its method, or with none (SDK v2's `send` then takes the method's; a second
 * argument written as an object literal is its options). Any other schema (`z.any()`,
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
  if (category === 'elicitation') return false;
  const schema = call.arguments[1];
  if (schema === undefined || ts.isObjectLiteralExpression(unwrapExpression(schema))) return true;
  const name = schemaName(context, schema);
  const entry = name === undefined ? undefined : legacySchema(name);
  return entry?.role === 'result' && entry.category === category;
}
