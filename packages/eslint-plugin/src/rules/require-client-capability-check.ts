import type { ElicitationMode } from '@mcp-mrtr/core';
import type { TSESTree } from '@typescript-eslint/utils';
import { capabilityChecks, coversElicitation, type CapabilityChecks } from '../analysis/capability-checks.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes } from '../analysis/file-nodes.js';
import { enclosingFunction, handledRequest, type FunctionNode } from '../analysis/handlers.js';
import {
  ELICITATION_METHOD,
  fileInputRequiredResults,
  resultRequests,
  type InputRequiredResult,
} from '../analysis/mrtr-code.js';
import { INPUT_REQUIRED_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  wrongCapability:
    'This handler checks {{checked}} but asks for a {{mode}}-mode elicitation, which needs elicitation.{{mode}}{{why}}. Check the capability this request needs (the runtime’s round.supports(request) does).',
  unchecked:
    'This handler asks for a {{mode}}-mode elicitation without checking that the client declared elicitation.{{mode}}{{why}}. Read the capabilities from the request’s _meta and ask only for what the client supports (or degrade).',
} as const;

/**
 * The checks written in each function around a node, innermost first, up to the file. Each is found
 * when the iteration reaches it: most handlers check what they ask for themselves, and then the
 * functions around them are never searched.
 */
function* checksAround(
  file: ReturnType<typeof fileAnalysis>,
  node: TSESTree.Node,
): Generator<CapabilityChecks> {
  for (
    let fn: FunctionNode | undefined = enclosingFunction(node);
    fn !== undefined;
    fn = enclosingFunction(fn)
  ) {
    yield capabilityChecks(file, fn);
  }
}

export default createRule<[], keyof typeof messages>({
  name: 'require-client-capability-check',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require handlers to check the client’s declared elicitation capability (form or URL) before asking for that kind of input',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(INPUT_REQUIRED_IN_TEXT)) return {};

    /**
     * Whether something other than the handler deals with unsupported requests: the runtime's
     * `round.inputRequired` and its handler types and adapters (which can drop them with
     * `unsupported: 'filter'`). SDK v2's seam does not count: it answers a missing capability with a
     * `-32021` error, so the user gets a failed call where the handler could have degraded.
     */
    function gated(result: InputRequiredResult, server: string | undefined): boolean {
      return result.kind === 'round' || server === 'runtime';
    }

    /** Whether the result is known to be served by an SDK: built with SDK v2's builder, or returned to one. */
    function servedBySdk(result: InputRequiredResult, server: string | undefined): boolean {
      return result.kind === 'sdk' || server === 'sdk-v1' || server === 'sdk-v2';
    }

    function check(result: InputRequiredResult) {
      const { node } = result;
      const elicitations = resultRequests(file, result).filter(
        (entry) => entry.request?.method === ELICITATION_METHOD && entry.request.mode !== undefined,
      );
      if (elicitations.length === 0) return;
      const covered = (mode: ElicitationMode) => {
        for (const found of checksAround(file, node)) if (coversElicitation(found, mode)) return true;
        return false;
      };
      for (const entry of elicitations) {
        const mode = entry.request?.mode as ElicitationMode;
        if (covered(mode)) continue;
        const checks = [...checksAround(file, node)];
        const written = [...new Set(checks.flatMap((found) => [...found.written]))];
        const reads = checks.some((found) => found.reads);
        const why = mode === 'url' ? ' (a bare elicitation: {} means form only)' : '';
        if (written.length > 0) {
          context.report({
            node: entry.property.key,
            messageId: 'wrongCapability',
            data: { checked: written.join(' and '), mode, why },
          });
          continue;
        }
        // Without any check, report what an SDK serves (v1 has no MRTR gate, v2's fails the call)
        // and code that reads other capabilities but not this one; not code whose serving is unseen.
        const server = handledRequest(file, node)?.server;
        if (!gated(result, server) && (reads || servedBySdk(result, server))) {
          context.report({ node: entry.property.key, messageId: 'unchecked', data: { mode, why } });
        }
      }
    }

    return collectingFileNodes(file, () => {
      for (const result of fileInputRequiredResults(file)) check(result);
    });
  },
});
