import {
  checkElicitationUrl,
  DESCRIPTIVE_SCHEMA_KEYS,
  splitWordParts,
  type SensitiveNameOptions,
  type UrlProblemCode,
} from '@mcp-mrtr/core';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  asObjectLiteral,
  objectProperty,
  resolveConst,
  staticProperties,
  staticString,
} from '../analysis/ast.js';
import { fileAnalysis } from '../analysis/file-analysis.js';
import { collectingFileNodes } from '../analysis/file-nodes.js';
import { fileElicitations, type ElicitationParams } from '../analysis/mrtr-code.js';
import { ELICITATION_IN_TEXT } from '../analysis/text-hints.js';
import { createRule } from '../util/create-rule.js';
import { perOptions } from '../util/per-options.js';

type Node = TSESTree.Node;
type Scope = TSESLint.Scope.Scope;

const messages = {
  insecureUrl: '{{problem}}',
  credentialsInUrl: '{{problem}}',
  sensitiveQuery: '{{problem}}',
  preAuthenticatedUrl: '{{problem}}',
  relativeUrl: '{{problem}}',
  missingMessage: 'A URL-mode elicitation needs a message telling the user why they should open the link.',
  urlInForm:
    'The {{where}} of a form-mode elicitation holds a clickable URL ({{url}}); send the user to a page with a URL-mode elicitation instead.',
} as const;

type MessageId = keyof typeof messages;
type Options = [{ allow?: string[] }];

const MESSAGE_BY_CODE: Readonly<Record<UrlProblemCode, MessageId>> = {
  'not-absolute': 'relativeUrl',
  'insecure-scheme': 'insecureUrl',
  'credentials-in-userinfo': 'credentialsInUrl',
  'secret-in-query': 'sensitiveQuery',
  'personal-data-in-query': 'sensitiveQuery',
  'pre-authenticated': 'preAuthenticatedUrl',
};

/**
 * Stand-ins for interpolated values: letters fit a host, a path or a query; digits fit a port. The
 * first that makes the URL parse is used.
 */
const PLACEHOLDERS = ['mcpmrtrvalue', '65535'];
const CLICKABLE_URL = /\bhttps?:\/\/[^\s"'<>)]+/i;

interface UrlText {
  readonly text: string;
  /** What stands for interpolated values in `text`; undefined when nothing is interpolated. */
  readonly placeholder: string | undefined;
}

function parses(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The static pieces of a template or a `+` concatenation, in order, with one gap between two
 * pieces wherever a value is interpolated; undefined when the expression is neither.
 */
function staticPieces(scope: Scope, node: Node, depth = 0): string[] | undefined {
  const current = resolveConst(scope, node);
  const text = staticString(scope, current);
  if (text !== undefined) return [text];
  if (current.type === AST_NODE_TYPES.TemplateLiteral)
    return current.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw);
  if (current.type !== AST_NODE_TYPES.BinaryExpression || current.operator !== '+' || depth > 8)
    return undefined;
  const left = staticPieces(scope, current.left, depth + 1);
  const right = staticPieces(scope, current.right, depth + 1);
  // An unknown operand is one gap: the pieces around it join with an empty piece between.
  const [before, after] = [left ?? ['', ''], right ?? ['', '']];
  return [...before.slice(0, -1), `${before.at(-1) ?? ''}${after[0] ?? ''}`, ...after.slice(1)];
}

/**
 * The URL text an expression builds, interpolations replaced by a placeholder; undefined if
 * unknowable. The static prefix of a template or a concatenation already fixes the scheme and host.
 */
function urlText(scope: Scope, node: Node): UrlText | undefined {
  const parts = staticPieces(scope, node);
  if (parts === undefined || parts.every((part) => part === '')) return undefined;
  if (parts.length === 1) return { text: parts[0] ?? '', placeholder: undefined };
  const candidates = PLACEHOLDERS.map((placeholder) => ({ text: parts.join(placeholder), placeholder }));
  return candidates.find((candidate) => parses(candidate.text)) ?? candidates[0];
}

/** Problems an interpolated value could explain (an unknown scheme, host or parameter name) are not reported. */
function isCertain(
  code: UrlProblemCode,
  { text, placeholder }: UrlText,
  parameter: string | undefined,
): boolean {
  if (placeholder === undefined || !text.includes(placeholder)) return true;
  if (code === 'not-absolute') return false;
  if (parameter !== undefined) return !parameter.includes(placeholder);
  if (code === 'insecure-scheme') return parses(text) && !new URL(text).hostname.includes(placeholder);
  return true;
}

/** The static text of a string-valued node: literal, `const`, or a template's literal parts. */
function staticTexts(scope: Scope, node: Node): string[] {
  const current = resolveConst(scope, node);
  const text = staticString(scope, current);
  if (text !== undefined) return [text];
  if (current.type === AST_NODE_TYPES.TemplateLiteral)
    return current.quasis.map((quasi) => quasi.value.cooked ?? '');
  return [];
}

const settings = perOptions((options: Options[0]) => {
  const classifierOptions: SensitiveNameOptions = { allow: options.allow ?? [] };
  const allowed: ReadonlySet<string> = new Set(
    (options.allow ?? []).map((name) => splitWordParts(name).join(' ')),
  );
  return { classifierOptions, allowed };
});

export default createRule<Options, MessageId>({
  name: 'valid-url-elicitation',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require URL-mode elicitations to use https without credentials or personal data in the URL, and keep clickable URLs out of forms',
      recommended: 'recommended',
    },
    messages,
    schema: [
      {
        type: 'object',
        properties: {
          allow: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Query parameter names (compared by word parts) never to report, e.g. "state".',
          },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ allow: [] }],
  },
  create(context, [options]) {
    const file = fileAnalysis(context);
    if (!file.mayBeMcp) return {};
    if (!file.mentions(ELICITATION_IN_TEXT)) return {};
    const { classifierOptions, allowed } = settings(options);
    const checked = new Set<TSESTree.ObjectExpression>();

    function checkUrlMode(scope: Scope, site: ElicitationParams) {
      const { params } = site;
      const opaque = params.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
      const url = objectProperty(scope, params, 'url');
      // Without a url the object is a shape, e.g. a capability probe passed to round.supports().
      if (url !== undefined && objectProperty(scope, params, 'message') === undefined && !opaque) {
        context.report({ node: site.node, messageId: 'missingMessage' });
      }
      const built = url && urlText(scope, url.value);
      if (url === undefined || built === undefined) return;
      for (const problem of checkElicitationUrl(built.text, classifierOptions)) {
        if (!isCertain(problem.code, built, problem.parameter)) continue;
        if (problem.parameter !== undefined && allowed.has(splitWordParts(problem.parameter).join(' ')))
          continue;
        context.report({
          node: url.value,
          messageId: MESSAGE_BY_CODE[problem.code],
          data: { problem: problem.message },
        });
      }
    }

    function reportClickable(scope: Scope, node: Node, where: string) {
      for (const text of staticTexts(scope, node)) {
        const match = CLICKABLE_URL.exec(text);
        if (match === null) continue;
        context.report({ node, messageId: 'urlInForm', data: { where, url: match[0] } });
        return;
      }
    }

    function checkFormMode(scope: Scope, params: TSESTree.ObjectExpression) {
      const message = objectProperty(scope, params, 'message');
      if (message !== undefined) reportClickable(scope, message.value, 'message');
      const schema = asObjectLiteral(scope, objectProperty(scope, params, 'requestedSchema')?.value);
      const properties = schema && asObjectLiteral(scope, objectProperty(scope, schema, 'properties')?.value);
      if (properties === undefined) return;
      for (const { key, property } of staticProperties(scope, properties)) {
        const field = asObjectLiteral(scope, property.value);
        // A field that asks for a URL may show an example of one.
        if (
          field === undefined ||
          staticString(scope, objectProperty(scope, field, 'format')?.value) === 'uri'
        )
          continue;
        for (const descriptive of DESCRIPTIVE_SCHEMA_KEYS) {
          const text = objectProperty(scope, field, descriptive);
          if (text !== undefined) reportClickable(scope, text.value, `${descriptive} of field "${key}"`);
        }
      }
    }

    function check(site: ElicitationParams) {
      if (checked.has(site.params)) return;
      checked.add(site.params);
      const scope = file.scopeOf(site.params);
      if (site.mode === 'url') checkUrlMode(scope, site);
      else if (site.mode === 'form') checkFormMode(scope, site.params);
    }

    return collectingFileNodes(file, () => {
      for (const site of fileElicitations(file)) check(site);
    });
  },
});
