/**
 * Time as the informer sees it. Every component that waits (backoff, watch watchdog, resync) takes a
 * {@link Clock}, so tests advance time instead of sleeping.
 */

/** An opaque handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = unknown;

/** A source of time and timers. Tests substitute a fake one; production code uses {@link realClock}. */
export interface Clock {
  /** Milliseconds since an arbitrary epoch; only differences are meaningful. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds unless cleared first. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer; clearing a fired or cleared timer does nothing. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * The wall clock: `performance.now()` and unref'ed Node timers, so an idle informer never keeps the
 * process alive by its timers alone (its open watch connection does that, as it should).
 */
export const realClock: Clock = {
  now: () => performance.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * Resolves after `ms` on `clock`, or rejects with the signal's reason as soon as `signal` aborts.
 * A non-positive delay resolves on the next macrotask.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
