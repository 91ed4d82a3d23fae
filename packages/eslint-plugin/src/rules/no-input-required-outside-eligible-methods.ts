import { isMrtrEligibleMethod, MRTR_ELIGIBLE_METHODS } from '@mcp-mrtr/core';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes } from '../analysis/file-nodes.js';
import { handledRequest } from '../analysis/handlers.js';
import { fileInputRequiredResults, type InputRequiredResult } from '../analysis/mrtr-code.js';
import { INPUT_REQUIRED_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  ineligible:
    'This {{method}} handler returns input_required, which only {{eligible}} may return. Ask for the input in the tool, prompt or resource that needs it, or take it as an argument.',
} as const;

export default createRule<[], keyof typeof messages>({
  name: 'no-input-required-outside-eligible-methods',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow input_required results from handlers of any request other than tools/call, resources/read and prompts/get',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(INPUT_REQUIRED_IN_TEXT)) return {};

    function check({ node }: InputRequiredResult) {
      const request = handledRequest(file, node);
      if (request === undefined || isMrtrEligibleMethod(request.method)) return;
      context.report({
        node,
        messageId: 'ineligible',
        data: { method: request.method, eligible: MRTR_ELIGIBLE_METHODS.join(', ') },
      });
    }

    return collectingFileNodes(file, () => {
      for (const result of fileInputRequiredResults(file)) check(result);
    });
  },
});
