/**
 * What the apiserver's request context carries to the work a request does: its deadline
 * (`WithRequestDeadline`) and its cancellation when the client goes away (Go's server cancels a request's
 * context when its connection closes). The admission webhooks a request calls are given what is left of the
 * deadline and are cancelled with it; storage calls fail once it has expired or been cancelled, so a request
 * answered 504, or abandoned by its client, stores nothing it had not stored already.
 */
import { KubeError } from '@kubekit/core';

/** A request's context. */
export interface RequestContext {
  /** The request's deadline, a `performance.now()` time; none for a long-running request. */
  readonly deadline?: number;
  /** Aborted when the client has gone before its answer was written. */
  readonly signal?: AbortSignal;
}

/** The milliseconds left before the context's deadline (negative once past); `Infinity` without a deadline. */
export function remainingMs(context: RequestContext | undefined): number {
  return context?.deadline === undefined ? Infinity : context.deadline - performance.now();
}

/**
 * Throws once the context has expired or been cancelled, as etcd refuses a call whose context has: the
 * error is never shown (the 504 has been written, or no one is listening); it stops the handler before it
 * stores anything.
 */
export function checkRequestContext(context: RequestContext | undefined): void {
  if (context?.signal?.aborted === true) throw new KubeError('InternalError', 'context canceled');
  if (remainingMs(context) <= 0) throw new KubeError('Timeout', 'context deadline exceeded');
}
