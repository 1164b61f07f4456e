import { realClock, type Clock, type TimerHandle } from '@kubekit/core';
import { defaultControllerRateLimiter, type RateLimiter } from './rateLimiter.js';
import { noopWorkQueueMetrics, type WorkQueueMetrics, type WorkQueueProgress } from './workQueueMetrics.js';

/** Options of a {@link WorkQueue}. */
export interface WorkQueueOptions<T> {
  /** A name for metrics and logs. @defaultValue `''` */
  name?: string;
  /** Time source for delays and metrics. @defaultValue realClock */
  clock?: Clock;
  /** Delays of `addRateLimited`. @defaultValue {@link defaultControllerRateLimiter} */
  rateLimiter?: RateLimiter<T>;
  /** Where the queue reports adds, depth and latencies. @defaultValue no metrics */
  metrics?: WorkQueueMetrics;
}

/** What {@link WorkQueue.get} resolves to. */
export type WorkQueueGetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

/**
 * A rate-limited, delaying work queue with client-go's semantics (`util/workqueue`).
 *
 * Contract:
 * - De-duplication: an item that is queued (dirty) and added again is queued once.
 * - No item is processed by two workers at once: between `get()` handing it out and `done(item)`,
 *   adding it again only marks it dirty; `done` puts it back, so it is processed again afterwards.
 * - Order: first in, first out among ready items.
 * - `addAfter(item, ms)` queues the item once the delay passes; a second `addAfter` for an item already
 *   waiting keeps the earlier time.
 * - `addRateLimited(item)` is `addAfter(item, rateLimiter.when(item))`; `forget(item)` resets its backoff.
 * - Shutdown: `shutDown()` refuses new adds; items already queued are still handed out, after which
 *   `get()` resolves `{shutdown: true}`. `shutDownWithDrain()` also waits until every item handed out is done.
 *
 * @example
 * ```ts
 * const queue = new WorkQueue<string>();
 * queue.add('default/example1');
 * const { item, shutdown } = await queue.get();
 * if (!shutdown) { try { await reconcile(item); queue.forget(item); } catch { queue.addRateLimited(item); } finally { queue.done(item); } }
 * ```
 */
export class WorkQueue<T> {
  readonly name: string;
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter<T>;
  private readonly metrics: WorkQueueMetrics;
  private readonly queue: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Map<T, number>();
  private readonly addedAt = new Map<T, number>();
  private readonly waiting = new Map<T, { readyAt: number; timer: TimerHandle }>();
  private readonly getters: ((result: WorkQueueGetResult<T>) => void)[] = [];
  private readonly drainers: (() => void)[] = [];
  private shutting = false;

  constructor(options: WorkQueueOptions<T> = {}) {
    this.name = options.name ?? '';
    this.clock = options.clock ?? realClock;
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
    this.metrics = options.metrics ?? noopWorkQueueMetrics;
  }

  /** Queues `item` unless it is already queued; an item being processed is queued again once done. */
  add(item: T): void {
    if (this.shutting || this.dirty.has(item)) return;
    this.metrics.added();
    this.dirty.add(item);
    this.addedAt.set(item, this.clock.now());
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Queues `item` after `delayMs`; a non-positive delay queues it now. */
  addAfter(item: T, delayMs: number): void {
    if (this.shutting) return;
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const existing = this.waiting.get(item);
    if (existing !== undefined) {
      if (existing.readyAt <= readyAt) return;
      existing.timer.cancel();
    }
    const timer = this.clock.setTimeout(() => {
      this.waiting.delete(item);
      this.add(item);
    }, delayMs);
    this.waiting.set(item, { readyAt, timer });
  }

  /** Queues `item` after its rate limiter's delay, counting a retry. */
  addRateLimited(item: T): void {
    if (this.shutting) return;
    this.metrics.retried();
    this.addAfter(item, this.rateLimiter.when(item));
  }

  /** Resets `item`'s backoff: call it when the item was processed successfully. */
  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  /** How many times `item` was requeued with rate limiting since it was last forgotten. */
  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * The next item, once one is ready. The caller must call `done(item)` when finished with it. Resolves
   * `{shutdown: true}` once the queue is shut down and empty.
   */
  get(): Promise<WorkQueueGetResult<T>> {
    const ready = this.take();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Marks `item` as processed; if it was added meanwhile, it is queued again. */
  done(item: T): void {
    const started = this.processing.get(item);
    if (started === undefined) return;
    this.processing.delete(item);
    this.metrics.worked((this.clock.now() - started) / 1000);
    if (this.dirty.has(item)) this.push(item);
    else if (this.processing.size === 0) this.settleDrain();
  }

  /** The number of items ready to be handed out. */
  len(): number {
    return this.queue.length - this.head;
  }

  /** Whether the queue is shutting down. */
  shuttingDown(): boolean {
    return this.shutting;
  }

  /** The in-flight work, for metrics. */
  progress(): WorkQueueProgress {
    const now = this.clock.now();
    let total = 0;
    let longest = 0;
    for (const started of this.processing.values()) {
      const s = (now - started) / 1000;
      total += s;
      longest = Math.max(longest, s);
    }
    return { unfinishedWorkSeconds: total, longestRunningProcessorSeconds: longest };
  }

  /** Refuses further adds, drops pending delayed adds, and wakes waiting `get()` calls once empty. */
  shutDown(): void {
    if (this.shutting) return;
    this.shutting = true;
    for (const { timer } of this.waiting.values()) timer.cancel();
    this.waiting.clear();
    this.wakeGetters();
  }

  /** Shuts down and resolves once every item handed out has been marked done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainers.push(resolve));
  }

  private push(item: T): void {
    this.queue.push(item);
    this.metrics.depth(this.len());
    const getter = this.getters.shift();
    if (getter !== undefined) getter(this.take()!);
  }

  private take(): WorkQueueGetResult<T> | undefined {
    if (this.head < this.queue.length) {
      const item = this.queue[this.head];
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.metrics.depth(this.len());
      const now = this.clock.now();
      const added = this.addedAt.get(item);
      if (added !== undefined) this.metrics.queued((now - added) / 1000);
      this.addedAt.delete(item);
      this.dirty.delete(item);
      this.processing.set(item, now);
      return { item, shutdown: false };
    }
    if (this.shutting) return { item: undefined, shutdown: true };
    return undefined;
  }

  private wakeGetters(): void {
    while (this.getters.length > 0) {
      const next = this.take();
      if (next === undefined) break;
      this.getters.shift()!(next);
    }
  }

  private settleDrain(): void {
    if (!this.shutting) return;
    for (const resolve of this.drainers.splice(0)) resolve();
  }
}
