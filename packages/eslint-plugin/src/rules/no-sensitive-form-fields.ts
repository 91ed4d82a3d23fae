import {
  classifySensitiveName,
  DESCRIPTIVE_SCHEMA_KEYS,
  SENSITIVE_FORM_FIELD_GUIDANCE,
  SENSITIVE_FORMATS,
  type SensitiveKind,
  type SensitiveNameOptions,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  objectProperty,
  resolveConst,
  staticKey,
  staticProperties,
  staticString,
  unwrap,
} from '../analysis/ast.js';
import { fileAnalysis, type FileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes } from '../analysis/file-nodes.js';
import { fileElicitations, type ElicitationParams } from '../analysis/mrtr-code.js';
import { ELICITATION_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;
type Scope = TSESLint.Scope.Scope;

const messages = {
  sensitiveField: 'Form field "{{field}}" asks for {{secret}} (its {{where}}). {{guidance}}',
  sensitiveFormat: 'Form field "{{field}}" uses format "{{format}}", which only a secret needs. {{guidance}}',
} as const;

type Options = [{ extraTerms?: string[]; allow?: string[] }];

const SECRET_WORDS: Readonly<Record<SensitiveKind, string>> = {
  password: 'a password',
  'api-key': 'an API key',
  token: 'a token',
  secret: 'a secret',
  'private-key': 'a private key',
  payment: 'payment data',
  'government-id': 'a government ID',
  'one-time-code': 'a one-time code',
};

/** The zod `object({...})` shape at the root of a builder chain (`z.object({…}).strict().describe(…)`). */
function zodShape(scope: Scope, node: Node): TSESTree.ObjectExpression | undefined {
  let current = resolveConst(scope, node);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression
  ) {
    if (staticKey(current.callee) === 'object') return asObjectLiteral(scope, current.arguments[0]);
    current = unwrap(current.callee.object);
  }
  return undefined;
}

/** Title and description texts a zod field carries: `.describe('…')` and `.meta({ title, description })`. */
function zodTexts(scope: Scope, node: Node): { where: string; text: string }[] {
  const texts: { where: string; text: string }[] = [];
  let current = resolveConst(scope, node);
  while (
    current.type === AST_NODE_TYPES.CallExpression &&
    current.callee.type === AST_NODE_TYPES.MemberExpression
  ) {
    const method = staticKey(current.callee);
    if (method === 'describe') {
      const text = staticString(scope, current.arguments[0]);
      if (text !== undefined) texts.push({ where: 'description', text });
    } else if (method === 'meta') {
      const meta = asObjectLiteral(scope, current.arguments[0]);
      for (const key of DESCRIPTIVE_SCHEMA_KEYS) {
        const text = meta && staticString(scope, objectProperty(scope, meta, key)?.value);
        if (text !== undefined) texts.push({ where: key, text });
      }
    }
    current = unwrap(current.callee.object);
  }
  return texts;
}

const settings = perOptions((options: Options[0]): SensitiveNameOptions => ({
  extraTerms: options.extraTerms ?? [],
  allow: options.allow ?? [],
}));

export default createRule<Options, keyof typeof messages>({
  name: 'no-sensitive-form-fields',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow form-mode elicitation fields that ask for passwords, API keys, tokens or payment data',
      recommended: 'recommended',
    },
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          extraTerms: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'More phrases that name a secret, e.g. "license key".',
          },
          allow: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Field names (compared by word parts) never to report, e.g. "token budget".',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ extraTerms: [], allow: [] }],
  },
  create(context, [options]) {
    const file: FileAnalysis = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    // Every form this rule checks is an elicitation: a push call, a request object or a builder.
    if (!file.mentions(ELICITATION_IN_TEXT)) return {};
    const classifierOptions = settings(options);
    const checkedSchemas = new Set<Node>();

    function checkField(
      field: string,
      keyNode: Node,
      texts: { where: string; text: string }[],
      format?: string,
    ) {
      const candidates = [{ where: 'name', text: field }, ...texts];
      for (const { where, text } of candidates) {
        const match = classifySensitiveName(text, classifierOptions);
        if (match === undefined) continue;
        context.report({
          node: keyNode,
          messageId: 'sensitiveField',
          data: { field, secret: SECRET_WORDS[match.kind], where, guidance: SENSITIVE_FORM_FIELD_GUIDANCE },
        });
        return;
      }
      if (format !== undefined && SENSITIVE_FORMATS.includes(format)) {
        context.report({
          node: keyNode,
          messageId: 'sensitiveFormat',
          data: { field, format, guidance: SENSITIVE_FORM_FIELD_GUIDANCE },
        });
      }
    }

    function checkRequestedSchema(scope: Scope, schemaNode: Node) {
      const resolved = resolveConst(scope, schemaNode);
      if (checkedSchemas.has(resolved)) return;
      checkedSchemas.add(resolved);
      const schema = asObjectLiteral(scope, resolved);
      if (schema !== undefined) {
        const properties = asObjectLiteral(scope, objectProperty(scope, schema, 'properties')?.value);
        if (properties === undefined) return;
        for (const { key, property } of staticProperties(scope, properties)) {
          const field = asObjectLiteral(scope, property.value);
          const texts = DESCRIPTIVE_SCHEMA_KEYS.flatMap((where) => {
            const text = field && staticString(scope, objectProperty(scope, field, where)?.value);
            return text === undefined ? [] : [{ where, text }];
          });
          const format = field && staticString(scope, objectProperty(scope, field, 'format')?.value);
          checkField(key, property.key, texts, format);
        }
        return;
      }
      const shape = zodShape(scope, resolved);
      if (shape === undefined) return;
      for (const { key, property } of staticProperties(scope, shape)) {
        checkField(key, property.key, zodTexts(scope, property.value));
      }
    }

    /** Form-mode elicitation params, wherever they are built (the same sites the schema rule checks). */
    function check(site: ElicitationParams) {
      if (site.mode === 'url') return;
      const requestedSchema = objectProperty(file.scopeOf(site.params), site.params, 'requestedSchema');
      if (requestedSchema !== undefined)
        checkRequestedSchema(file.scopeOf(requestedSchema), requestedSchema.value);
    }

    return collectingFileNodes(file, () => {
      for (const site of fileElicitations(file)) check(site);
    });
  },
});
