/**
 * Where the informer writes what it does on its own: falling back to client-side selection, giving up
 * on streaming lists, relisting, backing off. Structured fields go in the second argument.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A {@link Logger} that writes warnings and errors to `console.warn`/`console.error` and drops the rest. */
export const consoleLogger: Logger = {
  debug() {},
  info() {},
  warn(message, fields) {
    console.warn(`[kubekit/informer] ${message}`, ...(fields === undefined ? [] : [fields]));
  },
  error(message, fields) {
    console.error(`[kubekit/informer] ${message}`, ...(fields === undefined ? [] : [fields]));
  },
};

/** A {@link Logger} that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
