import pino, { type Logger, type LoggerOptions } from 'pino';
import { activeTraceIds } from './telemetry.ts';

/** Structured JSON logs with the service name and the active trace ids on every line. */
export function loggerOptions(service: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    mixin: () => activeTraceIds(),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-parley-assertion"]',
        '*.password',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(service: string, level?: string): Logger {
  return pino(loggerOptions(service, level));
}

export type { Logger };
