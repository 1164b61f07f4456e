import type { Clock, TimerHandle } from '@kubekit/core';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A clock whose time moves only when a test says so, synchronously (unlike @kubekit/core's
 * `FakeClock`, whose `advance` is async): the informer tests interleave it with real sockets.
 */
export class FakeClock implements Clock {
  private time = 0;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { id, at: this.time + Math.max(0, ms), fn });
    return { cancel: () => void this.timers.delete(id) };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        timer.cancel();
        reject(signal?.reason);
      };
      const timer = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The number of pending timers. */
  get pending(): number {
    return this.timers.size;
  }

  /** Delays of the pending timers from now, ascending. */
  pendingDelays(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing due timers in order (timers they set fire too if due). */
  advance(ms: number): void {
    const until = this.time + ms;
    for (let guard = 0; guard < 100_000; guard++) {
      let next: Timer | undefined;
      for (const t of this.timers.values()) if (t.at <= until && (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id))) next = t;
      if (next === undefined) break;
      this.timers.delete(next.id);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    this.time = until;
  }

  /** Fires the earliest pending timer (moving time to it); returns its delay, or undefined if none. */
  fireNext(): number | undefined {
    let next: Timer | undefined;
    for (const t of this.timers.values()) if (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
    if (next === undefined) return undefined;
    const delay = next.at - this.time;
    this.advance(delay);
    return delay;
  }
}
