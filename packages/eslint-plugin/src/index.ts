import { plugin } from './plugin.js';

export { CONFIG_NAMES, FILES, NAMESPACE, plugin, type PluginConfigName } from './plugin.js';
export { rules, type PluginRule } from './rules/index.js';
export type { PluginDocs } from './util/create-rule.js';
// `require('@mcp-mrtr/eslint-plugin')` (require(esm), Node ≥ 20.19) returns the plugin object itself.
export { plugin as 'module.exports' };
export default plugin;
