/** A stream the CLI writes to; `process.stdout` and test buffers both fit. */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Everything the CLI touches outside itself, so tests can run it in-process. */
export interface CliIo {
  /** Results: the only thing a pipeline should parse. */
  readonly stdout: OutputStream;
  /** Progress, logs and errors. */
  readonly stderr: OutputStream;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return {
    stdout: closedPipeTolerant(process.stdout),
    stderr: closedPipeTolerant(process.stderr),
    cwd: process.cwd(),
    env: process.env,
  };
}

/**
 * A reader that stops early (`mcp-mrtr migrate | head`) closes the pipe. Unix tools then stop
 * writing; crashing on the unhandled EPIPE instead would kill a `--write` run between two files, so
 * later output is dropped and the command finishes its work.
 */
function closedPipeTolerant(stream: NodeJS.WriteStream): OutputStream {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    write: (text) => closed || stream.write(text),
    get isTTY() {
      return stream.isTTY;
    },
  };
}

/** Writes progress lines to stderr unless `--quiet` was given. */
export interface Log {
  info(message: string): void;
}

export function createLog(io: CliIo, quiet: boolean): Log {
  return { info: (message) => (quiet ? undefined : io.stderr.write(`${message}\n`)) };
}
