import { plugin } from './plugin.js';

export { CONFIG_NAMES, FILES, NAMESPACE, plugin, type PluginConfigName } from './plugin.js';
export { rules, type PluginRule } from './rules/index.js';
export { docsUrl, type PluginDocs } from './util/create-rule.js';
export default plugin;
