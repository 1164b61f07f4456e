/**
 * Reads at a resourceVersion the store has not reached yet: they wait for it, as kube-apiserver's watch
 * cache does (`waitUntilFreshAndBlock`), instead of failing at once.
 *
 * Contract:
 * - {@link ResourceVersionWaiter.waitUntilFresh} resolves at once when the store is at or past the
 *   resourceVersion (0 is "any", always fresh); otherwise as soon as a write brings it there, in the
 *   same turn of the event loop as that write's commit (or its delivery to watchers, when asked).
 * - After `blockTimeoutMs` (the apiserver's `blockTimeout`, 3 s) without reaching it, the wait fails
 *   with the apiserver's `504 Timeout: Too large resource version: X, current: Y`, Y being the store's
 *   version at that moment, and `retryAfterSeconds: 1`.
 * - The wait ends, with the signal's reason, when the request's signal aborts (the client went away),
 *   and with `503` when the waiter closes; no timer is left behind either way.
 * - At most `maxWaiting` reads wait at once; one more fails at once with a {@link TooManyWaitingRequestsError}
 *   (429). The apiserver bounds them only as it bounds every request, through its in-flight limit
 *   (`--max-requests-inflight`, 400 read-only requests), whose answer this copies.
 *
 * Time comes from the injected clock: tests move it with a `FakeClock`.
 *
 * @see https://github.com/kubernetes/apiserver/blob/v0.34.4/pkg/storage/cacher/watch_cache.go (waitUntilFreshAndBlock)
 */
import { KubeError, type Clock, type TimerHandle } from '@kubekit/core';
import type { ObjectStore } from './objectStore.js';

/** Options of a {@link ResourceVersionWaiter}. */
export interface ResourceVersionWaiterOptions {
  /** Where time comes from. */
  clock: Clock;
  /** How long a read waits for its resourceVersion. @defaultValue 3000 (the apiserver's `blockTimeout`) */
  blockTimeoutMs?: number;
  /** How many reads may wait at once. @defaultValue 400 (the apiserver's read-only in-flight limit) */
  maxWaiting?: number;
}

/** Options of one wait. */
export interface WaitUntilFreshOptions {
  /**
   * Wait until the version has been delivered to watchers (it is durable), not only committed: what a
   * watch starting from the current state needs. @defaultValue false
   */
  delivered?: boolean;
  /**
   * Ends the wait when it aborts (the request went away); a function is called only when the read has
   * to wait (most reads are fresh already: no signal is made for them). @defaultValue none
   */
  signal?: AbortSignal | (() => AbortSignal);
  /**
   * Whether to wait at all: a resource without a watch cache reads from etcd, which answers a version it
   * has not reached at once, with the 504 without `retryAfterSeconds`. @defaultValue true
   */
  wait?: boolean;
}

/**
 * The apiserver's answer to a read at a resourceVersion the store did not reach in time
 * (storage.NewTooLargeResourceVersionError, a `NewTimeoutError`, hence its `Timeout: ` prefix): the watch
 * cache asks to retry after 1 s, etcd's reads (`retrySeconds` 0) say nothing of it.
 */
export function tooLargeResourceVersion(wanted: bigint | number, current: number, retryAfterSeconds = 1): KubeError {
  const causes = [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }];
  return new KubeError('Timeout', `Timeout: Too large resource version: ${wanted}, current: ${current}`, {
    details: retryAfterSeconds > 0 ? { causes, retryAfterSeconds } : { causes },
  });
}

/**
 * A read refused because too many reads already wait: the apiserver's in-flight limit answers it
 * with `429` and `Retry-After: 1`, as plain text (filters/priority-and-fairness.go, tooManyRequests).
 */
export class TooManyWaitingRequestsError extends KubeError {
  override name = 'TooManyWaitingRequestsError';

  constructor() {
    super('TooManyRequests', 'Too many requests, please try again later.', { details: { retryAfterSeconds: 1 } });
  }
}

interface Waiting {
  rv: bigint;
  resolve: () => void;
  cancel: (err: unknown) => void;
}

/** See the file comment for the contract. */
export class ResourceVersionWaiter {
  /** Waiting reads by progress kind, each sorted by resourceVersion. */
  private readonly committed: Waiting[] = [];
  private readonly delivered: Waiting[] = [];
  private readonly clock: Clock;
  private readonly blockTimeoutMs: number;
  private readonly maxWaiting: number;
  private readonly unsubscribe: (() => void)[];
  private closed = false;

  constructor(private readonly store: ObjectStore, options: ResourceVersionWaiterOptions) {
    this.clock = options.clock;
    this.blockTimeoutMs = options.blockTimeoutMs ?? 3000;
    this.maxWaiting = options.maxWaiting ?? 400;
    this.unsubscribe = [
      store.onCommit((e) => this.release(this.committed, e.rv)),
      store.subscribe((e) => this.release(this.delivered, e.rv)),
    ];
  }

  /** How many reads wait. */
  get waiting(): number {
    return this.committed.length + this.delivered.length;
  }

  /**
   * Resolves once the store has reached `rv` (see the file comment).
   *
   * @throws KubeError `Timeout` (504) after the block timeout, {@link TooManyWaitingRequestsError} (429)
   *   when too many reads wait, `ServiceUnavailable` (503) when the waiter closes, or the signal's reason.
   */
  waitUntilFresh(rv: bigint, options: WaitUntilFreshOptions = {}): Promise<void> {
    const delivered = options.delivered === true;
    const current = (): number => (delivered ? this.store.deliveredResourceVersion : this.store.resourceVersion);
    if (rv <= BigInt(current())) return Promise.resolve();
    if (options.wait === false) return Promise.reject(tooLargeResourceVersion(rv, current(), 0));
    const signal = typeof options.signal === 'function' ? options.signal() : options.signal;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(shuttingDown());
    if (this.waiting >= this.maxWaiting) return Promise.reject(new TooManyWaitingRequestsError());
    const queue = delivered ? this.delivered : this.committed;
    return new Promise<void>((resolve, reject) => {
      // Every path that settles the wait runs after `timer` is set below (timers and signals fire later).
      const finish = (): void => {
        timer.cancel();
        signal?.removeEventListener('abort', onAbort);
      };
      const entry: Waiting = {
        rv,
        resolve: () => { finish(); resolve(); },
        cancel: (err) => { finish(); reject(err); },
      };
      const drop = (err: unknown): void => {
        const i = queue.indexOf(entry);
        if (i >= 0) queue.splice(i, 1);
        entry.cancel(err);
      };
      const onAbort = (): void => drop(signal!.reason);
      insertSorted(queue, entry);
      const timer: TimerHandle = this.clock.setTimeout(() => drop(tooLargeResourceVersion(rv, current())), this.blockTimeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Ends every wait with `503` and stops following the store. */
  close(): void {
    this.closed = true;
    for (const u of this.unsubscribe) u();
    for (const queue of [this.committed, this.delivered]) {
      for (const w of queue.splice(0)) w.cancel(shuttingDown());
    }
  }

  private release(queue: Waiting[], rv: number): void {
    if (queue.length === 0 || queue[0].rv > BigInt(rv)) return;
    const at = BigInt(rv);
    let n = 0;
    while (n < queue.length && queue[n].rv <= at) n++;
    for (const w of queue.splice(0, n)) w.resolve();
  }
}

function shuttingDown(): KubeError {
  return new KubeError('ServiceUnavailable', 'apiserver is shutting down');
}

/** Inserts after every entry with the same or a lower resourceVersion. */
function insertSorted(queue: Waiting[], entry: Waiting): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (queue[mid].rv <= entry.rv) lo = mid + 1;
    else hi = mid;
  }
  queue.splice(lo, 0, entry);
}
