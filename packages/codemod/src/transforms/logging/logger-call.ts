import { RUNTIME_PACKAGE } from '@mcp-mrtr/core';
import type { FileContext } from '../../analysis/file-context.js';
import type { ImportRequest } from '../../edits/imports.js';
import { quoteString } from '../../edits/source-style.js';

export const LOGGER_MODULE = `${RUNTIME_PACKAGE}/logger`;
export const OTEL_LOGS_MODULE = '@opentelemetry/api-logs';

/** How a migrated logging call is written around the record it logs: `head + record + tail`. */
export interface LoggerCall {
  readonly head: string;
  readonly tail: string;
  readonly imports: readonly ImportRequest[];
  readonly packages: readonly string[];
}

/** The instrumentation scope OpenTelemetry logs are emitted under: the package's name. */
function otelScope(context: FileContext): string {
  return context.packageName ?? 'mcp-server';
}

/**
 * `logToStderr(record)`, or with `--logging otel`
 * `logs.getLogger('<package>').emit(toOtelLogRecord(record))`.
 */
export function loggerCall(context: FileContext): LoggerCall {
  if (context.logging === 'otel') {
    const logs = context.importFor(OTEL_LOGS_MODULE, 'logs');
    const toRecord = context.importFor(LOGGER_MODULE, 'toOtelLogRecord');
    return {
      head: `${logs.local}.getLogger(${quoteString(context.style, otelScope(context))}).emit(${toRecord.local}(`,
      tail: '))',
      imports: [logs, toRecord],
      packages: [OTEL_LOGS_MODULE, RUNTIME_PACKAGE],
    };
  }
  const logToStderr = context.importFor(LOGGER_MODULE, 'logToStderr');
  return { head: `${logToStderr.local}(`, tail: ')', imports: [logToStderr], packages: [RUNTIME_PACKAGE] };
}
