import type { Clock } from '@kubekit/core';

/**
 * How long to wait between failed attempts: exponential with jitter, as client-go's reflector, but
 * with a shorter cap and a reset that follows health rather than the absence of failures.
 *
 * Defaults: 800 ms doubling to 5 s, each delay stretched by up to 100 % at random, so **no wait is ever
 * longer than 10 s** (`maxMs × (1 + jitter)`, the cap). The sequence starts over at 800 ms once the
 * connection has been healthy (a list completed, a watch stayed open) for 10 s. client-go caps at 30 s
 * (60 s with jitter) and resets only after 2 min without failure; after a short outage its informers
 * wait up to a minute before they try again. kubekit's cap bounds recovery after a fault to about
 * 10 s, while the jitter still spreads the retries of many clients.
 *
 * @see https://github.com/kubernetes/client-go/blob/master/tools/cache/reflector.go (NewExponentialBackoffManager)
 */
export interface BackoffPolicy {
  /** The first delay, in milliseconds. @defaultValue 800 */
  initialMs: number;
  /** The largest delay before jitter, in milliseconds. @defaultValue 5000 */
  maxMs: number;
  /** The multiplier from one delay to the next. @defaultValue 2 */
  factor: number;
  /** The random stretch: a delay `d` becomes `d + random() × jitter × d`. @defaultValue 1 */
  jitter: number;
  /**
   * After this long of health (see {@link Backoff.healthy}) the next failure starts the sequence over
   * at `initialMs`. @defaultValue 10000
   */
  resetAfterMs: number;
}

/** kubekit's reflector backoff: see {@link BackoffPolicy}. */
export const defaultBackoffPolicy: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 800,
  maxMs: 5_000,
  factor: 2,
  jitter: 1,
  resetAfterMs: 10_000,
});

/** The longest wait a policy can produce: `maxMs × (1 + jitter)`. */
export function backoffCapMs(policy: Partial<BackoffPolicy> = {}): number {
  const p = { ...defaultBackoffPolicy, ...policy };
  return p.maxMs * (1 + p.jitter);
}

/**
 * An exponential backoff with jitter that resets after a period of health.
 *
 * Contract: {@link Backoff.next} is called once per failure and returns the delay to wait before the
 * next attempt. {@link Backoff.healthy} is called when an attempt succeeded (the caller is connected);
 * once that health has lasted `resetAfterMs` without a failure, {@link Backoff.consecutiveFailures}
 * reads 0 and the next delay is `initialMs` again. {@link Backoff.reset} starts over explicitly.
 */
export class Backoff {
  readonly policy: Readonly<BackoffPolicy>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private current: number;
  private healthySince: number | undefined;
  private failures = 0;

  constructor(policy: Partial<BackoffPolicy> = {}, clock: Clock, random: () => number = Math.random) {
    this.policy = { ...defaultBackoffPolicy, ...policy };
    this.clock = clock;
    this.random = random;
    this.current = this.policy.initialMs;
  }

  /** The number of failures since the last reset (0 once healthy for `resetAfterMs`). */
  get consecutiveFailures(): number {
    this.resetIfHealthy();
    return this.failures;
  }

  /** Records a failure and returns how long to wait, in milliseconds. */
  next(): number {
    this.resetIfHealthy();
    this.healthySince = undefined;
    this.failures++;
    const base = this.current;
    this.current = Math.min(this.policy.maxMs, this.current * this.policy.factor);
    return base + this.random() * this.policy.jitter * base;
  }

  /** Records that an attempt succeeded: health starts now, unless it already did since the last failure. */
  healthy(): void {
    this.healthySince ??= this.clock.now();
  }

  /** Starts the sequence over at `initialMs`. */
  reset(): void {
    this.current = this.policy.initialMs;
    this.failures = 0;
    this.healthySince = undefined;
  }

  private resetIfHealthy(): void {
    if (this.healthySince !== undefined && this.failures > 0 && this.clock.now() - this.healthySince >= this.policy.resetAfterMs) {
      const since = this.healthySince;
      this.reset();
      this.healthySince = since;
    }
  }
}
