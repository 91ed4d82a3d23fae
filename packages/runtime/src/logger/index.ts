export { isAtLeast, isLogLevel, LOG_LEVELS, type LogLevel } from './levels.js';
export type { LogRecord } from './log-record.js';
export { toJsonValue, type JsonValue } from './json-value.js';
export {
  createStderrLogger,
  LOG_LEVEL_ENV,
  logToStderr,
  type LogSink,
  type StderrLogger,
  type StderrLoggerOptions,
} from './stderr-logger.js';
export {
  MCP_LOGGER_ATTRIBUTE,
  OTEL_SEVERITY_NUMBERS,
  toOtelLogRecord,
  type OtelLogRecord,
} from './otel-log-record.js';
