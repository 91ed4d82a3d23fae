import { isAtLeast, isLogLevel, LOG_LEVELS, type LogLevel } from './levels.js';
import type { LogRecord } from './log-record.js';
import { toJsonValue } from './json-value.js';

/** The environment variable that sets the default logger's threshold, e.g. `MCP_LOG_LEVEL=warning`. */
export const LOG_LEVEL_ENV = 'MCP_LOG_LEVEL';

/** Where log lines go: `process.stderr` by default; anything with a `write(string)` works. */
export interface LogSink {
  write(line: string): unknown;
}

export interface StderrLoggerOptions {
  /** Defaults to `process.stderr`. A stdio server must never log to stdout: that is the protocol. */
  readonly sink?: LogSink;
  /** Records below this level are dropped. Defaults to `debug`: everything is written. */
  readonly minLevel?: LogLevel;
  /** The clock for the `time` field; tests pass a fixed one. */
  readonly now?: () => Date;
}

/** Writes one JSON object per line: `{"time":…,"level":…,"logger":…,"data":…}`. */
export type StderrLogger = (record: LogRecord) => void;

/**
 * Creates a logger that writes structured records as JSON lines. It never throws: a value that
 * cannot be serialized is converted (see `toJsonValue`), and a failing sink drops the line, so
 * logging can never break the request that logs.
 */
export function createStderrLogger(options: StderrLoggerOptions = {}): StderrLogger {
  const minLevel = options.minLevel ?? 'debug';
  const now = options.now ?? (() => new Date());
  return (record) => {
    if (!isAtLeast(record.level, minLevel)) return;
    const line: Record<string, unknown> = { time: now().toISOString(), level: record.level };
    if (record.logger !== undefined) line.logger = record.logger;
    const data = toJsonValue(record.data);
    if (data !== undefined) line.data = data;
    const meta = toJsonValue(record._meta);
    if (meta !== undefined) line._meta = meta;
    try {
      (options.sink ?? process.stderr).write(`${JSON.stringify(line)}\n`);
    } catch {
      // A closed stderr (EPIPE) must not turn a log call into a failed request.
    }
  };
}

let defaultLogger: StderrLogger | undefined;

function levelFromEnvironment(): LogLevel {
  const configured = process.env[LOG_LEVEL_ENV];
  if (configured === undefined || configured === '') return 'debug';
  if (isLogLevel(configured)) return configured;
  process.stderr.write(
    `${LOG_LEVEL_ENV}=${configured} is not a log level (${LOG_LEVELS.join(', ')}); logging everything.\n`,
  );
  return 'debug';
}

/**
 * Writes one record to stderr as a JSON line. What `mcp-mrtr migrate` puts where the code used
 * protocol logging (`sendLoggingMessage`, `notifications/message`, `ctx.mcpReq.log`). The threshold
 * comes from `MCP_LOG_LEVEL`, read on first use.
 */
export function logToStderr(record: LogRecord): void {
  defaultLogger ??= createStderrLogger({ minLevel: levelFromEnvironment() });
  defaultLogger(record);
}
