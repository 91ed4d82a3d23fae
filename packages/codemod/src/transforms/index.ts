import type { Transform } from '../transform.js';

/** The registry of transforms, in the order they run. */
export const transforms: readonly Transform[] = [];
