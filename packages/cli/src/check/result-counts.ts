import type { ESLint, Linter } from 'eslint';

function count(messages: readonly Linter.LintMessage[], severity: 1 | 2, fixable = false): number {
  return messages.filter(
    (message) => message.severity === severity && (!fixable || message.fix !== undefined),
  ).length;
}

/** `result` with these messages, and its counts taken from them again. */
export function withMessages(
  result: ESLint.LintResult,
  messages: Linter.LintMessage[],
  suppressedMessages: Linter.SuppressedLintMessage[],
): ESLint.LintResult {
  return {
    ...result,
    messages,
    suppressedMessages,
    errorCount: count(messages, 2),
    warningCount: count(messages, 1),
    fatalErrorCount: messages.filter((message) => message.fatal === true).length,
    fixableErrorCount: count(messages, 2, true),
    fixableWarningCount: count(messages, 1, true),
  };
}
