import winston from 'winston';
import type { LogFields, Logger } from '@kubekit/core';
import { logSettingsFromEnv } from '@kubekit/informer';

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** `json` for machines, `text` for people. @defaultValue `KUBEKIT_LOG_FORMAT`, else `'text'` */
  format?: 'json' | 'text';
  /** The lowest level written. @defaultValue `KUBEKIT_LOG_LEVEL` (unless `off`), else `'info'` */
  level?: 'error' | 'warn' | 'info' | 'debug';
  /** Where lines go. @defaultValue standard error */
  stream?: NodeJS.WritableStream;
  /** Fields on every line. @defaultValue none */
  fields?: LogFields;
}

/** A winston logger with kubekit's formats: JSON lines, or `time level message key=value…` text. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const env = logSettingsFromEnv();
  const text = winston.format.printf(({ level, message, timestamp, ...fields }) => {
    const extra = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v)}`);
    return [timestamp, level.toUpperCase().padEnd(5), message, ...extra].join(' ');
  });
  const logger = winston.createLogger({
    level: options.level ?? env.level ?? 'info',
    defaultMeta: options.fields,
    format: winston.format.combine(winston.format.timestamp(), (options.format ?? env.format) === 'json' ? winston.format.json() : text),
    transports: [new winston.transports.Stream({ stream: options.stream ?? process.stderr })],
  });
  return wrap(logger);
}

function wrap(logger: winston.Logger): Logger {
  return {
    error: (message, fields) => logger.error(message, fields),
    warn: (message, fields) => logger.warn(message, fields),
    info: (message, fields) => logger.info(message, fields),
    debug: (message, fields) => logger.debug(message, fields),
    child: (fields) => wrap(logger.child(fields)),
  };
}
