import { NAMESPACE, rules } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';

/** Message IDs each rule marks as deprecated-but-valid (`meta.docs.warningMessageIds`). */
function warningMessageIds(): Map<string, ReadonlySet<string>> {
  return new Map(
    Object.entries(rules).map(([name, rule]) => [
      `${NAMESPACE}/${name}`,
      new Set(rule.meta.docs?.warningMessageIds ?? []),
    ]),
  );
}

function count(messages: readonly Linter.LintMessage[], severity: 1 | 2, fixable = false): number {
  return messages.filter(
    (message) => message.severity === severity && (!fixable || message.fix !== undefined),
  ).length;
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
  return results.map((result) => {
    const messages = result.messages.map(lower);
    return {
      ...result,
      messages,
      suppressedMessages: result.suppressedMessages.map(lower),
      errorCount: count(messages, 2),
      warningCount: count(messages, 1),
      fatalErrorCount: messages.filter((message) => message.fatal === true).length,
      fixableErrorCount: count(messages, 2, true),
      fixableWarningCount: count(messages, 1, true),
    };
  });
}
