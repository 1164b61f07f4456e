import { asError, KubeError, type Clock } from '@kubekit/core';

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

/** How a wait bounded by {@link syncedWithin} ended. */
export type SyncOutcome =
  | { kind: 'synced' }
  | { kind: 'aborted' }
  | { kind: 'timedOut' }
  | { kind: 'failed'; error: Error };

/**
 * Waits for caches to sync (`wait`, given a signal it should honour) for at most `ms` on `clock`,
 * ending at once when `signal` aborts even if `wait` ignores its signal. `wait`'s signal aborts when
 * the wait ends, whichever way. `aborted` wins over a failure that comes with or after the abort.
 * Nothing is left pending on the clock or on `signal`.
 */
export async function syncedWithin(wait: (signal: AbortSignal) => Promise<unknown>, signal: AbortSignal, ms: number, clock: Clock): Promise<SyncOutcome> {
  const waiting = new AbortController();
  const stop = (): void => waiting.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  let timedOut = false;
  const timer = clock.setTimeout(() => { timedOut = true; waiting.abort(new Error('cache sync timeout')); }, ms);
  const ended = new Promise<never>((_, reject) => {
    if (waiting.signal.aborted) reject(waiting.signal.reason as Error);
    else waiting.signal.addEventListener('abort', () => reject(waiting.signal.reason), { once: true });
  });
  ended.catch(() => undefined);
  try {
    await Promise.race([wait(waiting.signal), ended]);
    return { kind: 'synced' };
  } catch (err) {
    if (signal.aborted) return { kind: 'aborted' };
    if (timedOut) return { kind: 'timedOut' };
    return { kind: 'failed', error: asError(err) };
  } finally {
    timer.cancel();
    signal.removeEventListener('abort', stop);
    waiting.abort(new Error('done waiting'));
  }
}

/** The error a failed cache sync fails `start` with: `message: <cause>`, keeping a `KubeError`'s reason, code and details. */
export function syncFailure(message: string, error: Error): KubeError {
  if (error instanceof KubeError) {
    return new KubeError(error.reason, `${message}: ${error.message}`, { code: error.code, cause: error, details: error.details });
  }
  return new KubeError('InternalError', `${message}: ${error.message}`, { cause: error });
}
