import { fileAnalysis } from '../analysis/file-analysis.js';
import { legacySiteListeners } from '../analysis/legacy-sites.js';
import { siteMessageId } from '../analysis/report-site.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  call: '{{callee}}() prepares notifications/elicitation/complete, which the 2026-07-28 protocol removes. {{guidance}}',
  send: 'This {{callee}}() call sends {{method}}, which the 2026-07-28 protocol removes. {{guidance}}',
  handler: '{{callee}}() waits for {{method}}, which servers no longer send. {{guidance}}',
} as const;

export default createRule<[], keyof typeof messages>({
  name: 'no-elicitation-complete-notification',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow sending or waiting for notifications/elicitation/complete, which the 2026-07-28 protocol removes',
      recommended: 'recommended',
      category: 'elicitation-complete',
    },
    messages,
    schema: [],
  },
  create(context) {
    return legacySiteListeners(fileAnalysis(context), 'elicitation-complete', (site) => {
      const messageId = siteMessageId(messages, site);
      if (messageId !== undefined) context.report({ node: site.node, messageId, data: site.data });
    });
  },
});
