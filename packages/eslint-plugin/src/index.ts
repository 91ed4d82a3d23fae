import { plugin } from './plugin.js';

export { NAMESPACE, plugin } from './plugin.js';
export { rules } from './rules/index.js';
export default plugin;
