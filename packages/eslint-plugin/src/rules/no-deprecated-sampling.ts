import { fileAnalysis } from '../analysis/file-analysis.js';
import { legacySiteListeners } from '../analysis/legacy-sites.js';
import { removalSuggestions, siteMessageId } from '../analysis/report-site.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  call: '{{callee}}() sends a server-initiated sampling/createMessage request; sampling is deprecated and push requests are removed. {{guidance}}',
  send: 'This {{callee}}() call sends a server-initiated {{method}} request; sampling is deprecated and push requests are removed. {{guidance}}',
  capability: 'Declaring the {{capability}} {{side}} capability advertises deprecated sampling. {{guidance}}',
  includeContext: 'includeContext "{{value}}" is deprecated. {{guidance}}',
  inputRequest:
    'A {{method}} input request is deprecated, though still valid during the deprecation window. {{guidance}}',
  removeProperty: 'Remove `{{name}}`.',
} as const;

type Options = [{ inputRequests?: boolean }];

export default createRule<Options, keyof typeof messages>({
  name: 'no-deprecated-sampling',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Disallow deprecated sampling: push createMessage requests, includeContext thisServer/allServers, sampling capabilities and sampling input requests',
      recommended: 'recommended',
      category: 'sampling',
      warningMessageIds: ['inputRequest'],
    },
    hasSuggestions: true,
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          inputRequests: {
            type: 'boolean',
            description:
              'Also report sampling/createMessage entries in MRTR inputRequests (deprecated but valid).',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ inputRequests: true }],
  },
  create(context, [{ inputRequests = true }]) {
    return legacySiteListeners(fileAnalysis(context), 'sampling', (site) => {
      if (site.kind === 'inputRequest' && !inputRequests) return;
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
