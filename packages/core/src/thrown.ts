/**
 * Thrown values as text and as `Error`s, whatever was thrown: user code (reconcilers, handlers,
 * webhook functions) may throw `null`, an object without a prototype, a proxy whose traps throw, or an
 * `Error` whose `message` getter throws. Reporting such a value must not throw in turn: a report that
 * throws from a `catch` block loses the item being retried or ends the process with an unhandled
 * rejection.
 */

/** A one-line description of any thrown value (an `Error`'s message, else its text); never throws. */
export function errorMessage(err: unknown): string {
  try {
    if (err instanceof Error) return String(err.message);
  } catch {
    // A proxy's trap or a getter threw: describe it another way.
  }
  try {
    return String(err);
  } catch {
    // No usable toString (an object without a prototype, a proxy).
  }
  try {
    return Object.prototype.toString.call(err);
  } catch {
    return '(a thrown value that cannot be printed)';
  }
}

/** `err` itself when it is a usable `Error`, else an `Error` with its {@link errorMessage} (and `err` as the cause); never throws. */
export function asError(err: unknown): Error {
  try {
    if (err instanceof Error) {
      // Its message must be readable where it will be reported.
      void String(err.message);
      return err;
    }
  } catch {
    // A hostile Error-like value: wrapped below.
  }
  return new Error(errorMessage(err), { cause: err });
}

/** `err instanceof type`, false (not a throw) for a value whose prototype cannot be read. */
export function isInstanceOf<T>(err: unknown, type: abstract new (...args: never[]) => T): err is T {
  try {
    return err instanceof type;
  } catch {
    return false;
  }
}
