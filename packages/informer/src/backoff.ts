import type { Clock } from '@kubekit/core';

/**
 * How long to wait between failed attempts. The defaults are client-go's reflector: 800 ms doubling
 * to 30 s, each delay stretched by up to `jitter` × itself at random, and back to 800 ms after two
 * minutes without a failure.
 *
 * @see https://github.com/kubernetes/client-go/blob/master/tools/cache/reflector.go (NewExponentialBackoffManager)
 */
export interface BackoffPolicy {
  /** The first delay, in milliseconds. @defaultValue 800 */
  initialMs: number;
  /** The largest delay before jitter, in milliseconds. @defaultValue 30000 */
  maxMs: number;
  /** The multiplier from one delay to the next. @defaultValue 2 */
  factor: number;
  /** The random stretch: a delay `d` becomes `d + random() × jitter × d`. @defaultValue 1 */
  jitter: number;
  /** After this long without a failure the next delay starts over at `initialMs`. @defaultValue 120000 */
  resetAfterMs: number;
}

/** client-go's reflector backoff. */
export const defaultBackoffPolicy: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 120_000,
});

/**
 * An exponential backoff with jitter and reset-after-health, as client-go's `exponentialBackoffManagerImpl`.
 *
 * Contract: {@link Backoff.next} is called once per failure and returns the delay to wait before the
 * next attempt. If more than `resetAfterMs` passed since the previous call, the sequence starts over.
 * {@link Backoff.reset} starts it over explicitly.
 */
export class Backoff {
  readonly policy: Readonly<BackoffPolicy>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private current: number;
  private lastFailureAt: number | undefined;
  private failures = 0;

  constructor(policy: Partial<BackoffPolicy> = {}, clock: Clock, random: () => number = Math.random) {
    this.policy = { ...defaultBackoffPolicy, ...policy };
    this.clock = clock;
    this.random = random;
    this.current = this.policy.initialMs;
  }

  /** The number of failures since the last reset. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Records a failure and returns how long to wait, in milliseconds. */
  next(): number {
    const now = this.clock.now();
    if (this.lastFailureAt !== undefined && now - this.lastFailureAt > this.policy.resetAfterMs) this.reset();
    this.lastFailureAt = now;
    this.failures++;
    const base = this.current;
    this.current = Math.min(this.policy.maxMs, this.current * this.policy.factor);
    return base + this.random() * this.policy.jitter * base;
  }

  /** Starts the sequence over at `initialMs`. */
  reset(): void {
    this.current = this.policy.initialMs;
    this.failures = 0;
    this.lastFailureAt = undefined;
  }
}
