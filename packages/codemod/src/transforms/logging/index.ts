import type { FileContext } from '../../analysis/file-context.js';
import type { Site } from '../../analysis/site.js';
import { forEachDescendant } from '../../analysis/syntax.js';
import type { Transform } from '../../transform.js';
import { asMemberCall } from '../shared/calls.js';
import { analyseLoggingCapability, resolveLoggingCapability } from './logging-capability.js';
import { analyseLoggingSends, TRANSFORM_ID } from './logging-sends.js';
import { analyseSetLevelHandlers } from './set-level-handlers.js';

const CLIENT_SET_LEVEL_TODO = 'Stop setting a protocol log level; servers log to stderr or OpenTelemetry.';

function analyseClientSetLevel(context: FileContext): Site[] {
  const sites: Site[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    const member = asMemberCall(node);
    if (member?.name !== 'setLoggingLevel') return;
    const resolution = context.resolveMember(member.access);
    if (resolution.kind !== 'sdk') return;
    sites.push(
      context.manualSite(
        {
          transform: TRANSFORM_ID,
          category: 'logging',
          kind: 'client-set-level',
          node: member.call,
          todo: CLIENT_SET_LEVEL_TODO,
        },
        'what should replace a client-chosen log level depends on the application',
      ),
    );
  });
  return sites;
}

/** Transform 1: protocol logging becomes structured stderr (or OpenTelemetry) logging. */
export const loggingTransform: Transform = {
  id: TRANSFORM_ID,
  categories: ['logging'],
  description:
    'sendLoggingMessage, notifications/message sends and ctx.mcpReq.log become logger calls; logging/setLevel handlers that only served logging and the logging capability are removed',
  prefilter: [
    'sendLoggingMessage',
    'notifications/message',
    'mcpReq',
    'logging/setLevel',
    'SetLevelRequestSchema',
    'setLoggingLevel',
    /\blogging['"]?\s*:/,
  ],
  // Only sends and setLevel handlers elsewhere keep the capability necessary.
  crossFileTerms: [
    'sendLoggingMessage',
    'notifications/message',
    'logging/setLevel',
    'SetLevelRequestSchema',
    /mcpReq\s*\.\s*log\s*\(/,
  ],
  analyse(context) {
    const sends = analyseLoggingSends(context);
    return [
      ...sends.sites,
      ...analyseSetLevelHandlers(context, sends.rewrittenStatements),
      ...analyseLoggingCapability(context),
      ...analyseClientSetLevel(context),
    ];
  },
  resolve: resolveLoggingCapability,
};
