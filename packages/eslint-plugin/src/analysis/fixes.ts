import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * Removes one property from an object literal together with the comma and spacing that belong to
 * it, so `{ a: 1, logging: {}, b: 2 }` becomes `{ a: 1, b: 2 }` and `{ logging: {} }` becomes `{}`.
 */
export function removeProperty(
  sourceCode: Readonly<TSESLint.SourceCode>,
  property: TSESTree.Property,
): (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix {
  return (fixer) => {
    const object = property.parent;
    // An object literal's range starts at its `{` and ends after its `}`.
    if (object.type === AST_NODE_TYPES.ObjectExpression && object.properties.length === 1)
      return fixer.replaceTextRange([object.range[0] + 1, object.range[1] - 1], '');
    const after = sourceCode.getTokenAfter(property);
    if (after?.value === ',') {
      const next = sourceCode.getTokenAfter(after, { includeComments: true });
      const end = next !== null && next.value !== '}' ? next.range[0] : after.range[1];
      return fixer.removeRange([property.range[0], end]);
    }
    const before = sourceCode.getTokenBefore(property);
    if (before?.value === ',') return fixer.removeRange([before.range[0], property.range[1]]);
    return fixer.remove(property);
  };
}
