/** Where each lint rule's documentation lives; the same URL the ESLint plugin puts in `meta.docs.url`. */
export const RULE_DOCS_BASE_URL = 'https://github.com/mcp-mrtr/mcp-mrtr/blob/main/docs/rules';

export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}/${ruleId}.md`;
}
