import { fileAnalysis } from '../analysis/file-analysis.js';
import { legacySiteListeners } from '../analysis/legacy-sites.js';
import { removalSuggestions, siteMessageId } from '../analysis/report-site.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  call: '{{callee}}() uses roots ({{method}}), which are deprecated. {{guidance}}',
  send: 'This {{callee}}() call sends {{method}}; roots are deprecated. {{guidance}}',
  handler: '{{callee}}() handles {{method}}; roots are deprecated. {{guidance}}',
  capability: 'Declaring the {{capability}} {{side}} capability advertises deprecated roots. {{guidance}}',
  inputRequest:
    'A {{method}} input request is deprecated, though still valid during the deprecation window. {{guidance}}',
  removeProperty: 'Remove `{{name}}`.',
} as const;

type Options = [{ inputRequests?: boolean }];

export default createRule<Options, keyof typeof messages>({
  name: 'no-deprecated-roots',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Disallow deprecated roots: roots/list requests, list_changed handlers, roots capabilities and roots input requests',
      recommended: 'recommended',
      category: 'roots',
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
            description: 'Also report roots/list entries in MRTR inputRequests (deprecated but valid).',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ inputRequests: true }],
  },
  create(context, [{ inputRequests = true }]) {
    return legacySiteListeners(fileAnalysis(context), 'roots', (site) => {
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
