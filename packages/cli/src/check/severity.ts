import { NAMESPACE, rules } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';
import { withMessages } from './result-counts.js';

/** Message IDs each rule marks as deprecated-but-valid (`meta.docs.warningMessageIds`). */
function warningMessageIds(): Map<string, ReadonlySet<string>> {
  return new Map(
    Object.entries(rules).map(([name, rule]) => [
      `${NAMESPACE}/${name}`,
      new Set(rule.meta.docs?.warningMessageIds ?? []),
    ]),
  );
}

/**
 * ESLint has one severity per rule; `check` lowers the findings a rule marks as deprecated but still
 * valid (sampling and roots input requests) to warnings, and recounts.
 */
export function applyMessageSeverities(results: readonly ESLint.LintResult[]): ESLint.LintResult[] {
  const warnings = warningMessageIds();
  const lower = <Message extends Linter.LintMessage>(message: Message): Message =>
    message.severity === 2 &&
    message.ruleId !== null &&
    message.messageId !== undefined &&
    warnings.get(message.ruleId)?.has(message.messageId) === true
      ? { ...message, severity: 1 as const }
      : message;
  return results.map((result) =>
    withMessages(result, result.messages.map(lower), result.suppressedMessages.map(lower)),
  );
}
