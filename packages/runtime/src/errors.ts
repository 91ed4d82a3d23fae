import { ERROR_CODES, type JsonObject } from './protocol.js';

/** An error the runtime answers with a JSON-RPC error object instead of a result. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: JsonObject,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }

  /** The wire error object. */
  toJson(): { code: number; message: string; data?: JsonObject } {
    return { code: this.code, message: this.message, ...(this.data !== undefined && { data: this.data }) };
  }
}

/**
 * Why a requestState was refused. For the server's log only: the client always sees the same
 * `-32602 Invalid or expired requestState`, so a probing client learns nothing from the answer.
 */
export type RequestStateFailure =
  /** Not a token of this runtime, or not a string. */
  | 'malformed'
  /** The MAC or the AEAD tag does not verify: the token was altered or forged. */
  | 'mac'
  | 'expired'
  /** Sealed for another principal. */
  | 'principal'
  /** Sealed for another request (method, tool/prompt/resource, or arguments). */
  | 'request'
  /** Its key id is unknown: retired, or never ours. */
  | 'key'
  /** Single use is on and the token was already redeemed. */
  | 'replayed';

export const INVALID_REQUEST_STATE_MESSAGE = 'Invalid or expired requestState';

/** A requestState that did not verify. Never answered with a re-prompt. */
export class RequestStateError extends JsonRpcError {
  constructor(
    readonly reason: RequestStateFailure,
    /** What went wrong, for the log. */
    readonly detail: string,
  ) {
    super(ERROR_CODES.invalidParams, INVALID_REQUEST_STATE_MESSAGE, { reason: 'invalid_request_state' });
    this.name = 'RequestStateError';
  }
}

/**
 * A requestState that verified but holds a journal of another format, sealed by another version of
 * the server (a deploy between two rounds). Its answers and step results cannot be replayed
 * safely, so the call must start again; unlike {@link RequestStateError}, the client is told so.
 */
export class JournalFormatError extends JsonRpcError {
  constructor(
    /** The format the journal declares. */
    readonly found: unknown,
    /** The format this runtime reads. */
    readonly expected: number,
  ) {
    super(
      ERROR_CODES.invalidParams,
      `requestState holds a journal in format ${JSON.stringify(found)}, written by another version of this server, which reads format ${expected}: its answers cannot be replayed. Start the call again without requestState.`,
      { reason: 'incompatible_journal' },
    );
    this.name = 'JournalFormatError';
  }
}

/** `-32602` for malformed MRTR params (`inputResponses` that is not an object, and the like). */
export class InvalidParamsError extends JsonRpcError {
  constructor(message: string) {
    super(ERROR_CODES.invalidParams, message);
    this.name = 'InvalidParamsError';
  }
}

/** `-32021`: the handler needs input the client declared no capability for. */
export class MissingClientCapabilityError extends JsonRpcError {
  constructor(
    readonly requiredCapabilities: JsonObject,
    detail: string,
  ) {
    super(ERROR_CODES.missingRequiredClientCapability, `Missing required client capability: ${detail}`, {
      requiredCapabilities,
    });
    this.name = 'MissingClientCapabilityError';
  }
}

/**
 * A handler broke the MRTR contract: input_required from a method that cannot carry it, a result
 * with neither inputRequests nor requestState, an unknown input request. A bug, reported loudly.
 */
export class MrtrUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MrtrUsageError';
  }
}

/** Invalid runtime configuration: options at startup, keys read from the environment at first use. */
export class RuntimeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeConfigError';
  }
}

/**
 * Accepted form content that fails the form's schema, thrown by `round.ask`. Its message starts
 * like the error SDK v1's `elicitInput` throws, so code and users that read it see the same text.
 */
export class ElicitationContentError extends JsonRpcError {
  constructor(
    /** The ask's key. */
    readonly key: string,
    /** What the schema validator said, e.g. `data/replicas must be <= 5`. */
    readonly detail: string,
  ) {
    super(
      ERROR_CODES.invalidParams,
      `Elicitation response content does not match requested schema: ${detail}`,
    );
    this.name = 'ElicitationContentError';
  }
}
