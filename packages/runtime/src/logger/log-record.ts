import type { LogLevel } from './levels.js';

/**
 * One structured log record, shaped like the params of the deprecated MCP `notifications/message`
 * so that migrated call sites pass the same object they used to send.
 */
export interface LogRecord {
  readonly level: LogLevel;
  /** The logger name, e.g. the subsystem that logs. */
  readonly logger?: string | undefined;
  /** Any JSON-serializable value; other values are made serializable (see `toJsonValue`). */
  readonly data?: unknown;
  /** Kept so that SDK params objects carrying `_meta` are accepted; written out unchanged. */
  readonly _meta?: unknown;
}
