import type { TSESLint } from '@typescript-eslint/utils';
import { staticKey } from './ast.js';
import { removeProperty } from './fixes.js';
import type { LegacySite, SiteKind } from './legacy-sites.js';

/** The message ID a site is reported under (named after its kind), when the rule has one. */
export function siteMessageId<MessageId extends string>(
  messages: Readonly<Record<MessageId, string>>,
  site: LegacySite,
): (MessageId & SiteKind) | undefined {
  return site.kind in messages ? (site.kind as MessageId & SiteKind) : undefined;
}

/**
 * A removable property (a deprecated capability, `includeContext`) gets a suggestion, never an
 * autofix: removing it changes what is negotiated with the client.
 */
export function removalSuggestions<MessageId extends string>(
  sourceCode: Readonly<TSESLint.SourceCode>,
  site: LegacySite,
  messageId: MessageId,
): TSESLint.SuggestionReportDescriptor<MessageId>[] {
  const removal = site.removal;
  if (removal === undefined) return [];
  return [{ messageId, data: { name: staticKey(removal) ?? '' }, fix: removeProperty(sourceCode, removal) }];
}
