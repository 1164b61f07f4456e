/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/**
 * The logging surface of kubekit's runtime packages: levelled, structured, and `child` loggers that
 * carry fields (controller, request, resource) onto every line. `@kubekit/controller`'s `createLogger`
 * makes one from winston; any logger with these methods fits.
 */
export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

/** A logger that drops everything: the default of every component. */
export const noopLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  child() {
    return noopLogger;
  },
};
