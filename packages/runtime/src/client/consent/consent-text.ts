import type { UrlConsentPrompt } from './url-consent-prompt.js';

const MARK: Readonly<Record<string, string>> = { danger: 'DANGER', caution: 'CAUTION', info: 'NOTE' };

/**
 * The prompt as plain text for terminal clients: who asks, why, the full URL with the site
 * bracketed (`https://login.[example.com]/…`), and the warnings. Ask the question after it.
 */
export function formatUrlConsent(prompt: UrlConsentPrompt): string {
  const url = prompt.segments
    .map((segment) => (segment.role === 'site' ? `[${segment.text}]` : segment.text))
    .join('');
  const lines = [
    prompt.openable
      ? `${prompt.serverName} asks you to open a link:`
      : `${prompt.serverName} sent a link that will not be opened:`,
    `  ${prompt.message}`,
    `  ${url}`,
  ];
  if (prompt.site !== '') lines.push(`  Site: ${prompt.site}`);
  for (const warning of prompt.warnings) lines.push(`  ${MARK[warning.severity]}: ${warning.message}`);
  return lines.join('\n');
}
