'use strict';

// A jscodeshift transform module running the mcp-mrtr "deprecated-declarations" transform:
//   npx jscodeshift -t node_modules/@mcp-mrtr/codemod/jscodeshift/deprecated-declarations.cjs --extensions=ts,tsx,js <paths>
// Options: --logging=stderr|otel.
const { loadEngine } = require('./load-engine.cjs');

/**
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftFile} file
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftApi} api
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftOptions} options
 */
module.exports = async function transform(file, api, options) {
  const { runAsJscodeshift } = await loadEngine();
  return runAsJscodeshift('deprecated-declarations', file, api, options);
};
