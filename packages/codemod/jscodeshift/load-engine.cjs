'use strict';

/**
 * Loads the mcp-mrtr engine for a jscodeshift transform module. jscodeshift compiles every
 * require() through Babel unless it is given --no-babel, and Babel's setup there rejects syntax
 * the engine's dependencies use; the engine is plain JavaScript, so the hook is turned off once
 * jscodeshift has loaded the transform module.
 *
 * @returns {Promise<typeof import('@mcp-mrtr/codemod/jscodeshift')>}
 */
async function loadEngine() {
  /** @type {Record<string, { exports?: { revert?: () => void } } | undefined>} */
  const loaded = require.cache;
  for (const [id, entry] of Object.entries(loaded)) {
    const revert = entry?.exports?.revert;
    if (/[\\/]@babel[\\/]register[\\/]lib[\\/]index\.c?js$/.test(id) && typeof revert === 'function')
      revert();
  }
  return import('@mcp-mrtr/codemod/jscodeshift');
}

module.exports = { loadEngine };
