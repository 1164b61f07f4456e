import { KubeError, noopLogger, type LogFields, type Logger } from '@kubekit/core';

/** The levels of kubekit's loggers, most severe first. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** The line formats of kubekit's loggers: JSON lines for machines, `time LEVEL message key=value…` for people. */
export type LogFormat = 'json' | 'text';

const levels: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** Options of {@link streamLogger}. */
export interface StreamLoggerOptions {
  /** The lowest level written. @defaultValue `'info'` */
  level?: LogLevel;
  /** @defaultValue `'text'` */
  format?: LogFormat;
  /** Where lines go. @defaultValue standard error */
  stream?: { write(line: string): unknown };
  /** Fields on every line. @defaultValue none */
  fields?: LogFields;
  /** The time of a line. @defaultValue the current time */
  now?: () => Date;
}

/**
 * A dependency-free logger that writes one line per entry, in the same formats as
 * `@kubekit/controller`'s winston `createLogger`.
 */
export function streamLogger(options: StreamLoggerOptions = {}): Logger {
  const max = levels.indexOf(options.level ?? 'info');
  const format = options.format ?? 'text';
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => new Date());
  const at = (fields: LogFields): Logger => {
    const write = (level: LogLevel, message: string, more?: LogFields): void => {
      if (levels.indexOf(level) > max) return;
      const all = { ...fields, ...more };
      const timestamp = now().toISOString();
      if (format === 'json') {
        stream.write(`${JSON.stringify({ ...all, level, message, timestamp }, jsonSafe)}\n`);
      } else {
        const extra = Object.keys(all).map((k) => `${k}=${JSON.stringify(all[k], jsonSafe) ?? String(all[k])}`);
        stream.write(`${[timestamp, level.toUpperCase().padEnd(5), message, ...extra].join(' ')}\n`);
      }
    };
    return {
      error: (m, f) => write('error', m, f),
      warn: (m, f) => write('warn', m, f),
      info: (m, f) => write('info', m, f),
      debug: (m, f) => write('debug', m, f),
      child: (more) => at({ ...fields, ...more }),
    };
  };
  return at(options.fields ?? {});
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (value instanceof Error) return value.message;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** What `KUBEKIT_LOG_LEVEL` and `KUBEKIT_LOG_FORMAT` ask for; `level` is undefined when logging is off. */
export interface LogSettings {
  level: LogLevel | undefined;
  format: LogFormat;
}

/**
 * Reads `KUBEKIT_LOG_LEVEL` (`error`, `warn`, `info`, `debug`, or `off`; unset or empty means off) and
 * `KUBEKIT_LOG_FORMAT` (`text` or `json`; default `text`) from `env`.
 *
 * @throws KubeError (`BadRequest`) naming the variable, the value, and the values it accepts.
 */
export function logSettingsFromEnv(env: Record<string, string | undefined> = process.env): LogSettings {
  const rawLevel = (env.KUBEKIT_LOG_LEVEL ?? '').trim().toLowerCase();
  const rawFormat = (env.KUBEKIT_LOG_FORMAT ?? '').trim().toLowerCase();
  let level: LogLevel | undefined;
  if (rawLevel === '' || rawLevel === 'off' || rawLevel === 'none') level = undefined;
  else if ((levels as readonly string[]).includes(rawLevel)) level = rawLevel as LogLevel;
  else throw KubeError.badRequest(`KUBEKIT_LOG_LEVEL: Unsupported value: ${JSON.stringify(env.KUBEKIT_LOG_LEVEL)}: supported values: "error", "warn", "info", "debug", "off"`);
  if (rawFormat !== '' && rawFormat !== 'text' && rawFormat !== 'json') {
    throw KubeError.badRequest(`KUBEKIT_LOG_FORMAT: Unsupported value: ${JSON.stringify(env.KUBEKIT_LOG_FORMAT)}: supported values: "text", "json"`);
  }
  return { level, format: rawFormat === 'json' ? 'json' : 'text' };
}

let cached: { key: string; logger: Logger } | undefined;

/**
 * The default logger of every kubekit component (informers, controllers, the manager): silent, unless
 * `KUBEKIT_LOG_LEVEL` is set, then lines at that level and above go to standard error in the
 * `KUBEKIT_LOG_FORMAT` format. So an operator is configured from its Deployment's environment, and a
 * `logger` option (or the one a `Manager` hands down) overrides it.
 *
 * @throws KubeError (`BadRequest`) when either variable has a value it does not accept.
 */
export function defaultLogger(env: Record<string, string | undefined> = process.env): Logger {
  const key = `${env.KUBEKIT_LOG_LEVEL ?? ''}\u0000${env.KUBEKIT_LOG_FORMAT ?? ''}`;
  if (cached?.key === key) return cached.logger;
  const settings = logSettingsFromEnv(env);
  const logger = settings.level === undefined ? noopLogger : streamLogger({ level: settings.level, format: settings.format });
  cached = { key, logger };
  return logger;
}

function consoleAt(fields: LogFields): Logger {
  const extra = (more?: LogFields): unknown[] => {
    const all = { ...fields, ...more };
    return Object.keys(all).length === 0 ? [] : [all];
  };
  return {
    debug() {},
    info() {},
    warn(message, more) {
      console.warn(`[kubekit/informer] ${message}`, ...extra(more));
    },
    error(message, more) {
      console.error(`[kubekit/informer] ${message}`, ...extra(more));
    },
    child(more) {
      return consoleAt({ ...fields, ...more });
    },
  };
}

/**
 * Warnings and errors to `console.warn`/`console.error`, nothing else. It was the informer's default;
 * the default is now {@link defaultLogger} (silent unless `KUBEKIT_LOG_LEVEL` is set).
 */
export const consoleLogger: Logger = consoleAt({});
