'use strict';

// A jscodeshift transform module running the mcp-mrtr "request-state" transform:
//   npx jscodeshift -t node_modules/@mcp-mrtr/codemod/jscodeshift/request-state.cjs --extensions=ts,tsx,js <paths>
const { loadEngine } = require('./load-engine.cjs');

/**
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftFile} file
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftApi} api
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftOptions} options
 */
module.exports = async function transform(file, api, options) {
  const { runAsJscodeshift } = await loadEngine();
  return runAsJscodeshift('request-state', file, api, options);
};
