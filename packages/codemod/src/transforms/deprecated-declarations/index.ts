import type { Transform } from '../../transform.js';
import { analyseClientCapabilities } from './client-capabilities.js';
import { analyseIncludeContext } from './include-context.js';
import { TRANSFORM_ID } from './transform-id.js';

/** Transform 2: deprecated roots and sampling declarations removed where that is safe. */
export const deprecatedDeclarationsTransform: Transform = {
  id: TRANSFORM_ID,
  categories: ['roots', 'sampling'],
  description:
    'client roots and sampling capability declarations and includeContext "thisServer" / "allServers" are removed where nothing else depends on them',
  prefilter: ['includeContext', /\b(roots|sampling)['"]?\s*:/],
  analyse: (context) => [...analyseClientCapabilities(context), ...analyseIncludeContext(context)],
};
