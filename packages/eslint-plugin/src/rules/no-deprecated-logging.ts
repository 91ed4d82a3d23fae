import { fileAnalysis } from '../analysis/file-analysis.js';
import { legacySiteListeners } from '../analysis/legacy-sites.js';
import { removalSuggestions, siteMessageId } from '../analysis/report-site.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  call: '{{callee}}() uses protocol logging ({{method}}), which is deprecated. {{guidance}}',
  send: 'This {{callee}}() call sends {{method}}; protocol logging is deprecated. {{guidance}}',
  handler: '{{callee}}() handles {{method}}; protocol logging is deprecated. {{guidance}}',
  capability:
    'Declaring the {{capability}} {{side}} capability negotiates deprecated protocol logging. {{guidance}}',
  removeProperty: 'Remove `{{name}}`.',
} as const;

export default createRule<[], keyof typeof messages>({
  name: 'no-deprecated-logging',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Disallow deprecated protocol logging: sendLoggingMessage, notifications/message, ctx.mcpReq.log, the logging capability and logging/setLevel',
      recommended: 'recommended',
      category: 'logging',
    },
    hasSuggestions: true,
    messages,
    schema: [],
  },
  create(context) {
    return legacySiteListeners(fileAnalysis(context), 'logging', (site) => {
      const messageId = siteMessageId(messages, site);
      if (messageId !== undefined)
        context.report({
          node: site.node,
          messageId,
          data: site.data,
          suggest: removalSuggestions(context.sourceCode, site, 'removeProperty'),
        });
    });
  },
});
