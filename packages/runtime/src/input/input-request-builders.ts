import {
  checkElicitationUrl,
  classifySensitiveName,
  elicitationSchemaPointer,
  isInputRequestMethod,
  validateElicitationSchema,
  type SensitiveNameOptions,
} from '@mcp-mrtr/core';
import { MrtrUsageError } from '../errors.js';
import { isJsonObject, type InputRequest, type JsonObject } from '../protocol.js';
import type { FormSchema } from './form-schema.js';

/** A form-mode elicitation whose schema type is kept, so answers to it are typed. */
export interface FormRequest<S extends FormSchema = FormSchema> extends InputRequest<'elicitation/create'> {
  readonly params: { readonly mode: 'form'; readonly message: string; readonly requestedSchema: S };
}

export interface UrlRequest extends InputRequest<'elicitation/create'> {
  readonly params: { readonly mode: 'url'; readonly message: string; readonly url: string };
}

export interface BuilderOptions {
  /** Tunes the secret classifier, e.g. `{ allow: ['token budget'] }` for a field that is no secret. */
  readonly sensitiveNames?: SensitiveNameOptions;
}

const checked = new WeakSet<InputRequest>();

function requireMessage(message: unknown, what: string): string {
  if (typeof message !== 'string' || message.trim() === '') {
    throw new MrtrUsageError(`${what} needs a non-empty message telling the user why the input is needed.`);
  }
  return message;
}

function checkForm(params: JsonObject, options: BuilderOptions): void {
  requireMessage(params.message, 'A form elicitation');
  const problems = validateElicitationSchema(params.requestedSchema);
  if (problems.length > 0) {
    throw new MrtrUsageError(
      `requestedSchema leaves the restricted elicitation schema: ${problems
        .map((problem) => `${elicitationSchemaPointer(problem.path) || '/'}: ${problem.message}`)
        .join(' ')}`,
    );
  }
  const schema = params.requestedSchema as FormSchema;
  for (const [name, field] of Object.entries(schema.properties)) {
    for (const text of [name, field.title, field.description]) {
      const match = text === undefined ? undefined : classifySensitiveName(text, options.sensitiveNames);
      if (match) {
        throw new MrtrUsageError(
          `Form field "${name}" asks for a ${match.kind} ("${match.term}"); forms must never ask for secrets. Send the user to a page of your own with elicitUrl() instead.`,
        );
      }
    }
  }
}

function checkUrl(params: JsonObject, options: BuilderOptions): void {
  requireMessage(params.message, 'A URL elicitation');
  const [problem] = checkElicitationUrl(String(params.url), options.sensitiveNames);
  if (problem) throw new MrtrUsageError(problem.message);
}

/**
 * Checks an input request a handler returns: a known method, a form schema inside the subset and
 * free of secret fields, an https URL. Requests made by the builders below were checked already.
 */
export function checkInputRequest(key: string, request: unknown, options: BuilderOptions = {}): InputRequest {
  if (!isJsonObject(request) || !isInputRequestMethod(request.method)) {
    throw new MrtrUsageError(
      `inputRequests["${key}"] must be an elicitation/create, sampling/createMessage or roots/list request.`,
    );
  }
  const typed = request as unknown as InputRequest;
  if (checked.has(typed)) return typed;
  if (request.params !== undefined && !isJsonObject(request.params)) {
    throw new MrtrUsageError(`inputRequests["${key}"].params must be an object.`);
  }
  const params = request.params ?? {};
  if (request.method === 'elicitation/create') {
    if (params.mode === 'url') checkUrl(params, options);
    else checkForm(params, options);
  } else if (request.method === 'sampling/createMessage') {
    if (!Array.isArray(params.messages) || typeof params.maxTokens !== 'number') {
      throw new MrtrUsageError(`inputRequests["${key}"]: sampling needs messages and maxTokens.`);
    }
  }
  checked.add(typed);
  return typed;
}

function built<R extends InputRequest>(request: R): R {
  checked.add(request);
  return request;
}

/**
 * A form-mode elicitation. The schema is checked against the restricted subset and for secret
 * fields when the request is built, so a bad form fails in development, not in front of a user.
 */
export function elicitForm<const S extends FormSchema>(
  params: { readonly message: string; readonly requestedSchema: S },
  options: BuilderOptions = {},
): FormRequest<S> {
  const request: FormRequest<S> = {
    method: 'elicitation/create',
    params: { mode: 'form', message: params.message, requestedSchema: params.requestedSchema },
  };
  checkForm(request.params, options);
  return built(request);
}

/**
 * A URL-mode elicitation, for what must not pass through the client: sign-ins, payments, API keys
 * your server stores. An accept only means the user agreed to open the URL; learn on the retry
 * whether the interaction completed. https only, except on localhost.
 */
export function elicitUrl(
  params: { readonly message: string; readonly url: string },
  options: BuilderOptions = {},
): UrlRequest {
  const request: UrlRequest = {
    method: 'elicitation/create',
    params: { mode: 'url', message: params.message, url: params.url },
  };
  checkUrl(request.params, options);
  return built(request);
}

/**
 * A sampling request to the client's model.
 * @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577): call an LLM provider's API from the
 * server instead.
 */
export function createMessage(
  params: JsonObject & { readonly messages: readonly unknown[]; readonly maxTokens: number },
): InputRequest<'sampling/createMessage'> {
  const request: InputRequest<'sampling/createMessage'> = { method: 'sampling/createMessage', params };
  checkInputRequest('sampling', request);
  return request;
}

/**
 * A request for the client's roots.
 * @deprecated Roots are deprecated in 2026-07-28 (SEP-2577): take paths as tool arguments, resource
 * URIs or server configuration.
 */
export function listRoots(): InputRequest<'roots/list'> {
  return built({ method: 'roots/list', params: {} });
}
