'use strict';

// A jscodeshift transform module running every mcp-mrtr transform:
//   npx jscodeshift -t node_modules/@mcp-mrtr/codemod/jscodeshift/all.cjs --extensions=ts,tsx,js <paths>
// Options: --logging=stderr|otel, --style=auto|explicit|replay, --sampling=rewrite|manual, --roots=rewrite|manual, --depth=<n>.
const { loadEngine } = require('./load-engine.cjs');

/**
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftFile} file
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftApi} api
 * @param {import('@mcp-mrtr/codemod/jscodeshift').JscodeshiftOptions} options
 */
module.exports = async function transform(file, api, options) {
  const { runAsJscodeshift } = await loadEngine();
  return runAsJscodeshift(undefined, file, api, options);
};
