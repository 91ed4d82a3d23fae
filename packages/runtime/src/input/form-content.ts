import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { isJsonObject, type JsonObject } from '../protocol.js';
import type { FormContent, FormSchema } from './form-schema.js';

/** One way accepted form content fails its schema. */
export interface ContentProblem {
  /** The field, or `''` for the content as a whole. */
  readonly field: string;
  readonly message: string;
}

export type ContentCheck<S> =
  | { readonly ok: true; readonly content: FormContent<S> }
  | {
      readonly ok: false;
      readonly problems: readonly ContentProblem[];
      /** All problems in the validator's words (`data/replicas must be <= 5`), as SDK v1 reports them. */
      readonly summary: string;
    };

const ajv = new Ajv({ allErrors: true, strict: false });
formats.default(ajv, ['email', 'uri', 'date', 'date-time']);

const byIdentity = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();
const MAX_CACHED_BY_TEXT = 256;

/** Compiles once per schema object, and once per distinct schema text for schemas built per call. */
function validatorFor(schema: FormSchema): ValidateFunction {
  const cached = byIdentity.get(schema);
  if (cached) return cached;
  const text = JSON.stringify(schema);
  let validate = byText.get(text);
  if (!validate) {
    validate = ajv.compile({
      type: 'object',
      properties: schema.properties,
      required: schema.required ?? [],
      additionalProperties: false,
    });
    if (byText.size >= MAX_CACHED_BY_TEXT) byText.delete(byText.keys().next().value as string);
    byText.set(text, validate);
  }
  byIdentity.set(schema, validate);
  return validate;
}

/**
 * Checks content a client accepted against the form's schema. The MRTR path delivers client
 * answers unvalidated, so handlers must not trust them before this. Fields the schema does not
 * declare are dropped, never passed on.
 */
export function checkFormContent<S extends FormSchema>(schema: S, content: unknown): ContentCheck<S> {
  if (!isJsonObject(content)) {
    return {
      ok: false,
      problems: [{ field: '', message: 'accepted content must be an object' }],
      summary: 'data must be object',
    };
  }
  const declared: JsonObject = {};
  for (const name of Object.keys(schema.properties)) {
    if (Object.hasOwn(content, name)) declared[name] = content[name];
  }
  const validate = validatorFor(schema);
  if (validate(declared)) return { ok: true, content: declared as FormContent<S> };
  // One problem per field: a choice outside `oneOf` alone yields an error per option.
  const problems = new Map<string, string>();
  for (const error of validate.errors ?? []) {
    const missing =
      error.keyword === 'required'
        ? (error.params as { missingProperty?: string }).missingProperty
        : undefined;
    const field = missing ?? error.instancePath.split('/')[1] ?? '';
    if (problems.has(field)) continue;
    const choice = ['const', 'oneOf', 'anyOf', 'enum'].includes(error.keyword);
    problems.set(
      field,
      missing ? 'is required' : choice ? 'must be one of the options' : (error.message ?? 'is invalid'),
    );
  }
  return {
    ok: false,
    problems: [...problems].map(([field, message]) => ({ field, message })),
    summary: ajv.errorsText(validate.errors),
  };
}
