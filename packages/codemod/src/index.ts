export type { Transform } from './transform.js';
export { transforms } from './transforms/index.js';
