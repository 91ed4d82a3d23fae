/** Where each lint rule's documentation lives: the plugin's `meta.docs.url` and the codemod's reports. */
export const RULE_DOCS_BASE_URL = 'https://github.com/mcp-mrtr/mcp-mrtr/blob/main/docs/rules';

export function ruleDocsUrl(ruleId: string): string {
  return `${RULE_DOCS_BASE_URL}/${ruleId}.md`;
}
