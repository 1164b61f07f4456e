import type { Clock } from '@kubekit/core';

/**
 * Waits for `work`, but no longer than `ms` on `clock`. Resolves `true` when the work finished in time,
 * `false` when the deadline passed first (the work keeps running). The timer is always cancelled, so
 * nothing is left pending on the clock.
 */
export async function finishedWithin(work: Promise<unknown>, ms: number, clock: Clock): Promise<boolean> {
  let timer: { cancel(): void } | undefined;
  const expired = new Promise<false>((resolve) => { timer = clock.setTimeout(() => resolve(false), ms); });
  try {
    return await Promise.race([work.then(() => true as const), expired]);
  } finally {
    timer?.cancel();
  }
}
