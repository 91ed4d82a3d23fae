import { ElicitationContentError, InvalidParamsError } from '../errors.js';
import { checkFormContent } from '../input/form-content.js';
import type { FormContent, FormSchema } from '../input/form-schema.js';
import { parseElicitResult, parseRoots, parseSamplingResult } from '../input/input-responses.js';
import type { ContentBlock, InputRequest, JsonObject, Root } from '../protocol.js';

// What `round.ask` resolves with: the shapes SDK v1's elicitInput, createMessage and listRoots
// returned, so code written against those results keeps compiling and behaving.

/** A value of accepted form content, as SDK v1 types it. */
export type ElicitContentValue = string | number | boolean | string[];

/** Content of a form whose schema is not known statically. */
export type ElicitContent = { [field: string]: ElicitContentValue };

/**
 * The answer to a form: accepted content checked against the schema, or a decline or cancel.
 * `answer.content?.field` reads on every variant, as on SDK v1's `ElicitResult`.
 */
export type FormAnswer<Content = ElicitContent> =
  | { readonly action: 'accept'; readonly content: Content }
  | { readonly action: 'decline' | 'cancel'; readonly content?: undefined };

/** The answer to a URL-mode elicitation. `accept` is consent to open the URL, not completion. */
export interface UrlAnswer {
  readonly action: 'accept' | 'decline' | 'cancel';
}

interface Annotated {
  readonly annotations?: {
    readonly audience?: ('user' | 'assistant')[];
    readonly priority?: number;
    readonly lastModified?: string;
  };
  readonly _meta?: JsonObject;
}

export interface SamplingTextContent extends Annotated {
  readonly type: 'text';
  readonly text: string;
}

export interface SamplingImageContent extends Annotated {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

export interface SamplingAudioContent extends Annotated {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/**
 * The answer to a sampling request: SDK v1's `CreateMessageResult` (one content block).
 * @deprecated Sampling is deprecated in 2026-07-28 (SEP-2577).
 */
export interface SamplingAnswer {
  readonly model: string;
  readonly stopReason?: 'endTurn' | 'stopSequence' | 'maxTokens' | (string & {});
  readonly role: 'user' | 'assistant';
  readonly content: SamplingTextContent | SamplingImageContent | SamplingAudioContent;
  readonly _meta?: JsonObject;
}

/**
 * The answer to a roots request: SDK v1's `ListRootsResult`.
 * @deprecated Roots are deprecated in 2026-07-28 (SEP-2577).
 */
export interface RootsAnswer {
  readonly roots: Root[];
}

/** What `round.ask(key, request)` resolves with, by the request's type. */
export type AnswerOf<R extends InputRequest> = R extends {
  readonly method: 'elicitation/create';
  readonly params: { readonly mode: 'url' };
}
  ? UrlAnswer
  : R extends {
        readonly method: 'elicitation/create';
        readonly params: { readonly requestedSchema: infer S extends FormSchema };
      }
    ? FormAnswer<FormContent<S>>
    : R extends InputRequest<'elicitation/create'>
      ? FormAnswer
      : R extends InputRequest<'sampling/createMessage'>
        ? SamplingAnswer
        : R extends InputRequest<'roots/list'>
          ? RootsAnswer
          : never;

/** How `round.ask` and `round.answer` read a client's answer. */
export interface AnswerOptions {
  /**
   * `false` takes the answer as the client sent it: the envelope must still be well-formed (an
   * `action` of accept, decline or cancel, accepted `content` an object; sampling and roots results
   * of their shape), but accepted form content is not checked against `requestedSchema` and keeps
   * fields the form does not declare, and a sampling answer may hold several content blocks. This
   * is what SDK v1's generic `request`/`sendRequest` did with a permissive result schema
   * (`z.any()`, `ElicitResultSchema`); `elicitInput` validated. The answer keeps the request's
   * type, though its values are only what the client claims. Default `true`.
   */
  readonly validate?: boolean;
}

function malformed(key: string, method: string): InvalidParamsError {
  return new InvalidParamsError(`inputResponses["${key}"] is not a valid ${method} result.`);
}

const SINGLE_BLOCK_TYPES: readonly unknown[] = ['text', 'image', 'audio'];

/**
 * Checks a client's answer to one ask and returns the value the journal keeps. Throws `-32602`
 * for an answer of the wrong shape, and, unless `validate` is `false`,
 * {@link ElicitationContentError} for accepted form content that fails the schema.
 */
export function readAnswer(
  key: string,
  request: InputRequest,
  raw: unknown,
  { validate = true }: AnswerOptions = {},
): unknown {
  const params = request.params ?? {};
  switch (request.method) {
    case 'elicitation/create': {
      const result = parseElicitResult(raw);
      if (!result) throw malformed(key, request.method);
      if (params.mode === 'url' || result.action !== 'accept') return { action: result.action };
      if (!validate) return result.content === undefined ? { action: 'accept' } : result;
      const check = checkFormContent(params.requestedSchema as FormSchema, result.content ?? {});
      if (!check.ok) throw new ElicitationContentError(key, check.summary);
      return { action: 'accept', content: check.content };
    }
    case 'sampling/createMessage': {
      const result = parseSamplingResult(raw);
      if (!result) throw malformed(key, request.method);
      // Without tools the answer is one text, image or audio block, as SDK v1 promised.
      const content: unknown = result.content;
      const single = !Array.isArray(content) && SINGLE_BLOCK_TYPES.includes((content as ContentBlock).type);
      if (!single && params.tools === undefined && validate) throw malformed(key, request.method);
      return result;
    }
    case 'roots/list': {
      const roots = parseRoots(raw);
      if (!roots) throw malformed(key, request.method);
      return { roots };
    }
  }
}
