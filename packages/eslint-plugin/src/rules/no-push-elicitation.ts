import { fileAnalysis } from '../analysis/file-analysis.js';
import { legacySiteListeners } from '../analysis/legacy-sites.js';
import { siteMessageId } from '../analysis/report-site.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  call: '{{callee}}() sends a server-initiated elicitation/create request, which the 2026-07-28 protocol removes. {{guidance}}',
  send: 'This {{callee}}() call sends a server-initiated {{method}} request, which the 2026-07-28 protocol removes. {{guidance}}',
  legacyError: 'Throwing {{name}} asks for URL-mode input the removed push way (-32042). {{guidance}}',
} as const;

export default createRule<[], keyof typeof messages>({
  name: 'no-push-elicitation',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow server-initiated elicitation/create requests, which the stateless 2026-07-28 protocol replaces with input_required results',
      recommended: 'recommended',
      category: 'elicitation',
    },
    messages,
    schema: [],
  },
  create(context) {
    return legacySiteListeners(fileAnalysis(context), 'elicitation', (site) => {
      const messageId = siteMessageId(messages, site);
      if (messageId !== undefined) context.report({ node: site.node, messageId, data: site.data });
    });
  },
});
