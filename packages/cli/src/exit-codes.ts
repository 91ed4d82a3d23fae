/** Exit codes a pipeline can trust (DESIGN.md, "CLI output"). */
export const ExitCode = {
  /** Nothing to do, or everything done. */
  Ok: 0,
  /** Findings or manual work remain, or a file could not be processed. */
  Findings: 1,
  /** Bad usage, or the tool itself failed. */
  UsageOrCrash: 2,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A problem with how the command was invoked; reported without a stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
