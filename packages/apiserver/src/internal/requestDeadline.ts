/**
 * A request's deadline as the apiserver's request context carries it (`WithRequestDeadline`): the time
 * left bounds the admission webhooks it calls, and once it has passed nothing more is stored. Deadlines
 * are `performance.now()` times; a request without one (long-running, or the server's own work) has
 * `undefined`.
 */
import { KubeError } from '@kubekit/core';

/** The milliseconds left before `deadline` (negative once past); `Infinity` without a deadline. */
export function remainingMs(deadline: number | undefined): number {
  return deadline === undefined ? Infinity : deadline - performance.now();
}

/**
 * Throws once `deadline` has passed: the apiserver's storage calls take the request's context, and etcd
 * refuses one that has expired, so a request answered 504 stores nothing it had not stored already. The
 * error is never shown (the 504 has been written); it stops the handler before it writes.
 */
export function checkDeadline(deadline: number | undefined): void {
  if (remainingMs(deadline) <= 0) throw new KubeError('Timeout', 'context deadline exceeded');
}
