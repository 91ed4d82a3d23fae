/** The server asked for input this client has no handler for (it should not have declared it). */
export class UnsupportedInputRequestError extends Error {
  constructor(
    readonly key: string,
    what: string,
  ) {
    super(`The server asked for ${what} under "${key}", which this client cannot provide.`);
    this.name = 'UnsupportedInputRequestError';
  }
}

/** The server kept asking for input past the round cap. */
export class InputRoundsExceededError extends Error {
  constructor(
    readonly rounds: number,
    readonly lastResult: unknown,
  ) {
    super(`The server still required input after ${rounds} rounds; giving up.`);
    this.name = 'InputRoundsExceededError';
  }
}

/** The server answered with something that is not a valid result. */
export class InvalidServerResultError extends Error {
  constructor(
    message: string,
    readonly result: unknown,
  ) {
    super(message);
    this.name = 'InvalidServerResultError';
  }
}
