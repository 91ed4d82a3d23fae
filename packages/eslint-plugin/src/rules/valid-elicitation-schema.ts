import { elicitationSchemaPointer, validateElicitationSchema } from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESTree } from '@typescript-eslint/utils';
import { objectProperty, staticString } from '../analysis/ast.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes } from '../analysis/file-nodes.js';
import { fileElicitations, type ElicitationParams } from '../analysis/mrtr-code.js';
import { staticJson } from '../analysis/static-json.js';
import { ELICITATION_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';

const messages = {
  invalidSchema: 'requestedSchema {{pointer}}: {{problem}}',
  missingSchema:
    'A form-mode elicitation needs a requestedSchema: a flat object of primitive fields the client can render.',
  missingMessage: 'A form-mode elicitation needs a message telling the user why the input is needed.',
  invalidMode: 'An elicitation mode is "form" or "url", not {{mode}}.',
} as const;

export default createRule<[], keyof typeof messages>({
  name: 'valid-elicitation-schema',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require form-mode elicitations to have a message and a requestedSchema inside the restricted flat, primitive-only subset',
      recommended: 'recommended',
    },
    messages,
    schema: [],
  },
  create(context) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(ELICITATION_IN_TEXT)) return {};
    const checked = new Set<TSESTree.ObjectExpression>();

    function check(site: ElicitationParams) {
      if (checked.has(site.params)) return;
      checked.add(site.params);
      const { params } = site;
      const scope = file.scopeOf(params);
      // A spread we cannot see into may hold the message, the mode or the schema.
      const opaque = params.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
      const mode = objectProperty(scope, params, 'mode');
      if (site.modeWritten && mode !== undefined) {
        const value = staticString(scope, mode.value);
        const literal =
          mode.value.type === AST_NODE_TYPES.Literal || mode.value.type === AST_NODE_TYPES.TemplateLiteral;
        if ((value !== undefined || literal) && value !== 'form' && value !== 'url') {
          context.report({
            node: mode.value,
            messageId: 'invalidMode',
            data: { mode: JSON.stringify(value ?? '') },
          });
          return;
        }
      }
      // URL mode has its own rule (valid-url-elicitation), message included.
      if (site.mode !== 'form') return;
      if (objectProperty(scope, params, 'message') === undefined && !opaque) {
        context.report({ node: site.node, messageId: 'missingMessage' });
      }
      const schema = objectProperty(scope, params, 'requestedSchema');
      if (schema === undefined) {
        // A wrapper's own `schema` (often a zod object) is converted by the wrapper, not checked here.
        const wrapped = objectProperty(scope, params, 'schema') !== undefined;
        if (!opaque && !wrapped) context.report({ node: site.node, messageId: 'missingSchema' });
        return;
      }
      const json = staticJson(scope, schema.value);
      for (const problem of validateElicitationSchema(json.value)) {
        // Whatever the code computes at run time could be valid: report only what is written.
        if (json.touchesUnknown(problem.path)) continue;
        context.report({
          node: json.nodeAt(problem.path),
          messageId: 'invalidSchema',
          data: { pointer: elicitationSchemaPointer(problem.path) || '/', problem: problem.message },
        });
      }
    }

    return collectingFileNodes(file, () => {
      for (const site of fileElicitations(file)) check(site);
    });
  },
});
