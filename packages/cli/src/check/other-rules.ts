import { NAMESPACE } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';
import { withMessages } from './result-counts.js';

function isOursOrNoRule(message: Linter.LintMessage): boolean {
  return message.ruleId === null || message.ruleId.startsWith(`${NAMESPACE}/`);
}

/**
 * The results without messages of rules other than the plugin's. `check` runs only the plugin's
 * rules, but a project's inline comments name the rules of its own ESLint setup: ESLint reports
 * `// eslint-disable-next-line @typescript-eslint/no-explicit-any` as "Definition for rule … was not
 * found" when that plugin is not loaded, and `/* eslint no-console: "error" *\/` turns a core rule
 * on. Neither is a finding of `check`. Messages without a rule (a parse error) are kept.
 */
export function withoutOtherRules(results: readonly ESLint.LintResult[]): ESLint.LintResult[] {
  return results.map((result) =>
    result.messages.every(isOursOrNoRule) && result.suppressedMessages.every(isOursOrNoRule)
      ? result
      : withMessages(
          result,
          result.messages.filter(isOursOrNoRule),
          result.suppressedMessages.filter(isOursOrNoRule),
        ),
  );
}
