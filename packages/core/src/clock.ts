/**
 * Time as a dependency: everything in kubekit that waits takes a {@link Clock}, so tests move time
 * forward with a {@link FakeClock} instead of sleeping.
 */

/** A handle returned by {@link Clock.setTimeout}. */
export interface TimerHandle {
  /** Cancels the timer; calling it after the timer fired does nothing. */
  cancel(): void;
}

/** A source of the current time and of timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once, `ms` milliseconds from now. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Resolves after `ms` milliseconds, or rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleepWith(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      timer.cancel();
      reject(signal!.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The longest delay one Node timer takes (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms
 * with a `TimeoutOverflowWarning`.
 */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The real clock: `Date.now()` and Node timers (unref'd, so a pending timer never keeps a process alive).
 * A delay longer than one Node timer takes is waited out in steps of at most `maxTimerMs` (2³¹−1 ms).
 */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    let t: ReturnType<typeof setTimeout>;
    const arm = (left: number): void => {
      t = setTimeout(() => (left > maxTimerMs ? arm(left - maxTimerMs) : fn()), Math.min(Math.max(0, left), maxTimerMs));
      t.unref();
    };
    arm(ms);
    return { cancel: () => clearTimeout(t) };
  },
  sleep(ms, signal) {
    return sleepWith(realClock, ms, signal);
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when told to. Timers fire in time order (ties in creation order) during
 * {@link FakeClock.advance}, each at its own instant, with microtasks drained between them so that
 * promise continuations run before the next timer, as they would in real time.
 *
 * @example
 * ```ts
 * const clock = new FakeClock();
 * let fired = false;
 * clock.setTimeout(() => { fired = true; }, 1000);
 * await clock.advance(1000); // fired === true
 * ```
 */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => { timer.cancelled = true; } };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepWith(this, ms, signal);
  }

  /** The number of timers that have not fired or been cancelled. */
  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** The time of the next pending timer, if any. */
  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers) if (!t.cancelled && (next === undefined || t.at < next)) next = t.at;
    return next;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    for (let fired = 0; fired < 1_000_000; fired++) {
      await drainMicrotasks();
      this.timers = this.timers.filter((t) => !t.cancelled);
      let next: PendingTimer | undefined;
      for (const t of this.timers) if (t.at <= until && (next === undefined || t.at < next.at || (t.at === next.at && t.seq < next.seq))) next = t;
      if (next === undefined) break;
      this.current = Math.max(this.current, next.at);
      next.cancelled = true;
      next.fn();
    }
    this.current = until;
    await drainMicrotasks();
  }
}

async function drainMicrotasks(): Promise<void> {
  // A macrotask boundary lets every queued promise continuation run first.
  await new Promise<void>((resolve) => setImmediate(resolve));
}
