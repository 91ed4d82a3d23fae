import type { TSESLint } from '@typescript-eslint/utils';
import type { PluginDocs } from '../util/create-rule.js';
import noDeprecatedLogging from './no-deprecated-logging.js';
import noDeprecatedRoots from './no-deprecated-roots.js';
import noDeprecatedSampling from './no-deprecated-sampling.js';
import noElicitationCompleteNotification from './no-elicitation-complete-notification.js';
import noPushElicitation from './no-push-elicitation.js';
import noSensitiveFormFields from './no-sensitive-form-fields.js';
import requireSealedRequestState from './require-sealed-request-state.js';
import requireSuspensionRethrow from './require-suspension-rethrow.js';
import noInputRequiredOutsideEligibleMethods from './no-input-required-outside-eligible-methods.js';
import noRequestStateInspection from './no-request-state-inspection.js';
import noReusedRetryId from './no-reused-retry-id.js';
import noSecretsInRequestState from './no-secrets-in-request-state.js';
import noSideEffectsBeforeInputRequired from './no-side-effects-before-input-required.js';
import noUnjournaledEffects from './no-unjournaled-effects.js';
import noWaitForElicitationComplete from './no-wait-for-elicitation-complete.js';
import requireClientCapabilityCheck from './require-client-capability-check.js';
import urlAcceptIsNotCompletion from './url-accept-is-not-completion.js';
import validElicitationSchema from './valid-elicitation-schema.js';
import validInputRequiredResult from './valid-input-required-result.js';
import validJournalKeys from './valid-journal-keys.js';
import validUrlElicitation from './valid-url-elicitation.js';

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
  'no-input-required-outside-eligible-methods': noInputRequiredOutsideEligibleMethods,
  'no-request-state-inspection': noRequestStateInspection,
  'no-reused-retry-id': noReusedRetryId,
  'no-secrets-in-request-state': noSecretsInRequestState,
  'no-side-effects-before-input-required': noSideEffectsBeforeInputRequired,
  'no-wait-for-elicitation-complete': noWaitForElicitationComplete,
  'no-unjournaled-effects': noUnjournaledEffects,
  'require-client-capability-check': requireClientCapabilityCheck,
  'require-suspension-rethrow': requireSuspensionRethrow,
  'url-accept-is-not-completion': urlAcceptIsNotCompletion,
  'valid-elicitation-schema': validElicitationSchema,
  'valid-input-required-result': validInputRequiredResult,
  'valid-journal-keys': validJournalKeys,
  'valid-url-elicitation': validUrlElicitation,
};
