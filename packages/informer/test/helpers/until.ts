import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Yields to the event loop until `predicate` holds; fails after `limitMs` of real time. Not a sleep:
 * it returns as soon as the awaited I/O has happened.
 */
export async function until(predicate: () => boolean, what: string | (() => string) = 'condition', limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await nextTurn();
  }
}

/** Re-checks an asynchronous condition (each check is real I/O) until it holds; fails after `limitMs`. */
export async function untilAsync(predicate: () => Promise<boolean>, what = 'condition', limitMs = 5000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await nextTurn();
  }
}
