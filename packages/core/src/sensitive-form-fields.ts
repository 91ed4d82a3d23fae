/**
 * Form-mode elicitation must never ask for secrets (passwords, API keys, tokens, payment data):
 * those go through URL mode, where the data never passes through the client.
 */

/** JSON Schema `format` values that only make sense for a secret. */
export const SENSITIVE_FORMATS: readonly string[] = ['password'];

/** The schema keys whose text is checked for secret names, besides the property name itself. */
export const DESCRIPTIVE_SCHEMA_KEYS = ['title', 'description'] as const;

export const SENSITIVE_FORM_FIELD_GUIDANCE =
  'Ask for secrets with a URL-mode elicitation that opens a page of your own server, never in a form.';
