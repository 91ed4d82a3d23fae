import type { LogLevel } from './levels.js';
import type { LogRecord } from './log-record.js';
import { toJsonValue, type JsonValue } from './json-value.js';

/**
 * OpenTelemetry severity numbers (`SeverityNumber` in `@opentelemetry/api-logs`) for the MCP
 * levels: syslog's three levels between error and emergency map onto ERROR2..ERROR4.
 */
export const OTEL_SEVERITY_NUMBERS: Readonly<Record<LogLevel, number>> = {
  debug: 5,
  info: 9,
  notice: 10,
  warning: 13,
  error: 17,
  critical: 18,
  alert: 19,
  emergency: 21,
};

/** The attribute that carries the MCP logger name. */
export const MCP_LOGGER_ATTRIBUTE = 'mcp.logger';

/** The subset of `@opentelemetry/api-logs`'s `LogRecord` this module fills; assignable to it. */
export interface OtelLogRecord {
  severityNumber: number;
  severityText: LogLevel;
  body?: JsonValue;
  attributes: Record<string, string>;
}

/**
 * Maps an MCP-shaped log record onto an OpenTelemetry log record, for
 * `logs.getLogger(name).emit(toOtelLogRecord(record))`. Kept free of any OpenTelemetry import, so
 * the runtime does not depend on it; the shape is checked against the real package in tests.
 */
export function toOtelLogRecord(record: LogRecord): OtelLogRecord {
  const body = toJsonValue(record.data);
  return {
    severityNumber: OTEL_SEVERITY_NUMBERS[record.level],
    severityText: record.level,
    ...(body === undefined ? {} : { body }),
    attributes: record.logger === undefined ? {} : { [MCP_LOGGER_ATTRIBUTE]: record.logger },
  };
}
