import type { Transform } from '../transform.js';
import { deprecatedDeclarationsTransform } from './deprecated-declarations/index.js';
import { elicitationCompleteTransform } from './elicitation-complete/index.js';
import { loggingTransform } from './logging/index.js';
import { mrtrHandlersTransform } from './mrtr-handlers/index.js';
import { requestStateTransform } from './request-state/index.js';

/** The registry of transforms, in the order they run. */
export const transforms: readonly Transform[] = [
  loggingTransform,
  deprecatedDeclarationsTransform,
  requestStateTransform,
  elicitationCompleteTransform,
  mrtrHandlersTransform,
];

/** A transform ID that no registered transform has. */
export class UnknownTransformError extends Error {
  override readonly name = 'UnknownTransformError';
}

/** The registered transforms with the given IDs, in registry order; all of them without IDs. */
export function selectTransforms(ids: readonly string[] | undefined): readonly Transform[] {
  if (ids === undefined || ids.length === 0) return transforms;
  const unknown = ids.filter((id) => !transforms.some((transform) => transform.id === id));
  if (unknown.length > 0) {
    throw new UnknownTransformError(
      `unknown transform ${unknown.join(', ')}; available: ${transforms.map((transform) => transform.id).join(', ')}`,
    );
  }
  return transforms.filter((transform) => ids.includes(transform.id));
}
