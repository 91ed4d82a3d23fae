import type { TSESLint } from '@typescript-eslint/utils';
import type { PluginDocs } from '../util/create-rule.js';
import noDeprecatedLogging from './no-deprecated-logging.js';
import noDeprecatedRoots from './no-deprecated-roots.js';
import noDeprecatedSampling from './no-deprecated-sampling.js';
import noElicitationCompleteNotification from './no-elicitation-complete-notification.js';
import noPushElicitation from './no-push-elicitation.js';
import noSensitiveFormFields from './no-sensitive-form-fields.js';
import requireSealedRequestState from './require-sealed-request-state.js';

/** A rule of this plugin, with its extra `meta.docs` fields typed. */
export type PluginRule = TSESLint.RuleModule<string, unknown[], PluginDocs>;

/** The registry of rules, keyed by rule name (without the `@mcp-mrtr/` namespace). */
export const rules: Readonly<Record<string, PluginRule>> = {
  'no-push-elicitation': noPushElicitation,
  'no-deprecated-sampling': noDeprecatedSampling,
  'no-deprecated-roots': noDeprecatedRoots,
  'no-deprecated-logging': noDeprecatedLogging,
  'no-elicitation-complete-notification': noElicitationCompleteNotification,
  'require-sealed-request-state': requireSealedRequestState,
  'no-sensitive-form-fields': noSensitiveFormFields,
};
