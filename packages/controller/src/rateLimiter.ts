import { realClock, type Clock } from '@kubekit/core';

/**
 * How long an item must wait before it is retried. The queue asks `when(item)` each time the item fails
 * and calls `forget(item)` once it succeeds.
 *
 * @see client-go `util/workqueue/default_rate_limiters.go`
 */
export interface RateLimiter<T> {
  /** The delay in milliseconds before `item` may be processed again; counts a failure. */
  when(item: T): number;
  /** Stops tracking `item` (its failures reset). */
  forget(item: T): void;
  /** How many times `item` has been requeued since it was last forgotten. */
  numRequeues(item: T): number;
}

/** Options of {@link ItemExponentialFailureRateLimiter}. */
export interface ItemExponentialFailureRateLimiterOptions {
  /** The first delay. @defaultValue 5 ms (client-go's controller default) */
  baseDelayMs?: number;
  /** The longest delay. @defaultValue 1000 s (client-go's controller default) */
  maxDelayMs?: number;
}

/** Per-item exponential backoff: `base × 2^failures`, capped at `max`. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(options: ItemExponentialFailureRateLimiterOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 5;
    this.maxDelayMs = options.maxDelayMs ?? 1_000_000;
  }

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return Number.isFinite(backoff) && backoff < this.maxDelayMs ? backoff : this.maxDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** Options of {@link ItemFastSlowRateLimiter}. */
export interface ItemFastSlowRateLimiterOptions {
  /** The delay of the first `maxFastAttempts` retries. */
  fastDelayMs: number;
  /** The delay of later retries. */
  slowDelayMs: number;
  /** How many retries use the fast delay. */
  maxFastAttempts: number;
}

/** A fast delay for the first few retries of an item, then a slow one. */
export class ItemFastSlowRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(private readonly options: ItemFastSlowRateLimiterOptions) {}

  when(item: T): number {
    const n = (this.failures.get(item) ?? 0) + 1;
    this.failures.set(item, n);
    return n <= this.options.maxFastAttempts ? this.options.fastDelayMs : this.options.slowDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** Options of {@link BucketRateLimiter}. */
export interface BucketRateLimiterOptions {
  /** Tokens added per second. @defaultValue 10 (client-go's controller default) */
  qps?: number;
  /** The bucket size. @defaultValue 100 (client-go's controller default) */
  burst?: number;
  /** @defaultValue realClock */
  clock?: Clock;
}

/**
 * A global token bucket shared by all items, as golang.org/x/time/rate's `Reserve().Delay()`: every call
 * takes a token, going into debt when the bucket is empty, and waits until the debt is paid.
 */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private readonly qps: number;
  private readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private last: number;

  constructor(options: BucketRateLimiterOptions = {}) {
    this.qps = options.qps ?? 10;
    this.burst = options.burst ?? 100;
    this.clock = options.clock ?? realClock;
    this.tokens = this.burst;
    this.last = this.clock.now();
  }

  when(_item: T): number {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_item: T): void {
    // The bucket is global: there is nothing per item to forget.
  }

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay of several limiters; each of them counts the failure. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/**
 * client-go's `DefaultControllerRateLimiter`: per-item exponential backoff from 5 ms to 1000 s, combined
 * with a global bucket of 10 qps and burst 100.
 */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>({ baseDelayMs: 5, maxDelayMs: 1_000_000 }),
    new BucketRateLimiter<T>({ qps: 10, burst: 100, clock }),
  );
}
