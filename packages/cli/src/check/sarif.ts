import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { NAMESPACE, rules } from '@mcp-mrtr/eslint-plugin';
import type { ESLint, Linter } from 'eslint';
import type { Log, Notification, ReportingDescriptor, Result, Suppression } from 'sarif';
import { lineReader, relativePath, type ReportContext } from './report-context.js';

/** Results are located relative to this base, which the log maps to the checked directory. */
export const SRCROOT = 'SRCROOT';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://github.com/mcp-mrtr/mcp-mrtr';
const SECURITY_RULES: ReadonlySet<string> = new Set([
  'require-sealed-request-state',
  'no-sensitive-form-fields',
]);

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function ruleDescriptor(name: string): ReportingDescriptor {
  const rule = rules[name];
  const docs = rule?.meta.docs;
  const description = docs?.description ?? name;
  const url = docs?.url;
  const tags = ['mcp', ...(docs?.category === undefined ? [] : [docs.category])];
  if (SECURITY_RULES.has(name)) tags.push('security');
  return {
    id: `${NAMESPACE}/${name}`,
    name,
    shortDescription: { text: `${description}.` },
    fullDescription: { text: `${description}.` },
    ...(url === undefined ? {} : { helpUri: url }),
    help: {
      text: url === undefined ? `${description}.` : `${description}. Documentation: ${url}`,
      markdown:
        url === undefined ? `**${description}.**` : `**${description}.**\n\n[Rule documentation](${url})`,
    },
    defaultConfiguration: { level: 'error' },
    properties: { tags, precision: 'high' },
  };
}

function level(message: Linter.LintMessage): Result.level {
  return message.severity === 2 ? 'error' : message.severity === 1 ? 'warning' : 'note';
}

function region(message: Linter.LintMessage) {
  return {
    startLine: Math.max(1, message.line),
    startColumn: Math.max(1, message.column),
    ...(message.endLine === undefined ? {} : { endLine: message.endLine }),
    ...(message.endColumn === undefined ? {} : { endColumn: message.endColumn }),
  };
}

/** ESLint's `file` suppressions come from the baseline file; `directive` ones from comments in the source. */
function sarifSuppression(context: ReportContext) {
  return (suppression: Linter.LintSuppression): Suppression =>
    suppression.kind === 'directive'
      ? {
          kind: 'inSource',
          ...(suppression.justification ? { justification: suppression.justification } : {}),
        }
      : {
          kind: 'external',
          justification: `Counted in ${context.suppressionsFile ?? 'the suppressions file'} (ESLint bulk suppressions)`,
        };
}

/**
 * SARIF 2.1.0 for code scanning: relative artifact URIs under `SRCROOT` (mapped to the checked
 * directory in `originalUriBaseIds`), rule metadata with help and `helpUri`, and fingerprints that
 * survive unrelated edits: the rule, the file, the finding's source line with whitespace collapsed,
 * and which occurrence of that same line it is. Findings a baseline tolerates are kept, with a
 * `suppressions` entry of kind `external`.
 */
export function sarifLog(results: readonly ESLint.LintResult[], context: ReportContext): Log {
  const ruleNames = Object.keys(rules).sort();
  const ruleIndex = new Map(ruleNames.map((name, index) => [`${NAMESPACE}/${name}`, index]));
  const linesOf = lineReader();
  const sarifResults: Result[] = [];
  const notifications: Notification[] = [];

  for (const result of results) {
    const uri = relativePath(context.cwd, result.filePath);
    const occurrences = new Map<string, number>();
    // Suppressed findings stay in the log, marked, and count towards occurrences like the others,
    // so a fingerprint does not change when the baseline changes.
    const messages = [
      ...result.messages.map((message) => ({ message, suppressed: undefined })),
      ...result.suppressedMessages.map((message) => ({ message, suppressed: message.suppressions })),
    ].sort((a, b) => a.message.line - b.message.line || a.message.column - b.message.column);
    for (const { message, suppressed } of messages) {
      const location = {
        physicalLocation: { artifactLocation: { uri, uriBaseId: SRCROOT }, region: region(message) },
      };
      const index = message.ruleId === null ? undefined : ruleIndex.get(message.ruleId);
      if (message.ruleId === null || index === undefined) {
        // Parse errors and the like have no rule: they are about the run, not findings.
        notifications.push({
          level: level(message),
          message: { text: message.message },
          locations: [location],
        });
        continue;
      }
      const lineText = (linesOf(result.filePath)[message.line - 1] ?? '').trim().replace(/\s+/g, ' ');
      const key = `${message.ruleId}\0${lineText}`;
      const occurrence = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, occurrence);
      sarifResults.push({
        ruleId: message.ruleId,
        ruleIndex: index,
        level: level(message),
        message: { text: message.message },
        locations: [location],
        partialFingerprints: {
          primaryLocationLineHash: `${sha256(lineText).slice(0, 16)}:${occurrence}`,
          'mcpMrtr/v1': sha256(`${message.ruleId}\0${uri}\0${lineText}\0${occurrence}`),
        },
        ...(suppressed === undefined ? {} : { suppressions: suppressed.map(sarifSuppression(context)) }),
      });
    }
  }

  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-mrtr',
            informationUri: INFORMATION_URI,
            version: context.toolVersion,
            semanticVersion: context.toolVersion,
            rules: ruleNames.map(ruleDescriptor),
          },
        },
        ...(context.automationId === undefined ? {} : { automationDetails: { id: context.automationId } }),
        originalUriBaseIds: {
          [SRCROOT]: { uri: pathToFileURL(context.cwd.endsWith('/') ? context.cwd : `${context.cwd}/`).href },
        },
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
        results: sarifResults,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
}
