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

/**
 * Waits for `work`, which runs until `signal` aborts, with a shutdown deadline: there is no limit
 * while `signal` is live; once it aborts, the work has `ms` on `clock` left to finish. Resolves `true`
 * when the work finished (before or within the deadline), `false` when the deadline passed first (the
 * work keeps running). Nothing is left pending on the clock or the signal.
 */
export async function stoppedWithin(work: Promise<unknown>, signal: AbortSignal, ms: number, clock: Clock): Promise<boolean> {
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    onAbort = (): void => { void finishedWithin(work, ms, clock).then(resolve); };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work.then(() => true as const), deadline]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
