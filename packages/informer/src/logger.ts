import type { LogFields, Logger } from '@kubekit/core';

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
 * The informer's default logger: warnings and errors to `console.warn`/`console.error`, nothing else,
 * so that a fallback to client-side selection or a failing watch is never silent. Pass any
 * `Logger` of @kubekit/core (such as `noopLogger`, or the controller's winston logger) to change it.
 */
export const consoleLogger: Logger = consoleAt({});
