import { KubeError } from '@kubekit/core';

/** What a reconciler is asked to reconcile: one object, by namespace (empty for cluster-scoped) and name. */
export interface Request {
  readonly namespace: string;
  readonly name: string;
}

/**
 * What a reconcile returns. Nothing (or `{}`) means done. `requeueAfterMs` schedules the next
 * reconcile of the same object after that delay (and resets its backoff); `requeue: true` retries it with
 * rate-limited backoff.
 */
export type ReconcileResult = void | { readonly requeue?: boolean; readonly requeueAfterMs?: number };

/**
 * Brings the world in line with one object's desired state. Reconcilers are level-based: they read the
 * current state (from an informer's cache or the server) rather than relying on the event that
 * triggered them, so they must be idempotent.
 *
 * Throwing retries the request with rate-limited backoff; throwing a {@link TerminalError} reports
 * the error without retrying.
 */
export interface Reconciler {
  reconcile(request: Request, signal: AbortSignal): Promise<ReconcileResult> | ReconcileResult;
}

/** A reconciler given as a function. */
export type ReconcileFunc = (request: Request, signal: AbortSignal) => Promise<ReconcileResult> | ReconcileResult;

/**
 * An error that retrying will not fix (for example an invalid spec): reported, never retried, as
 * controller-runtime's `reconcile.TerminalError`.
 */
export class TerminalError extends KubeError {
  override name = 'TerminalError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super('Invalid', message, options);
  }
}

/** The queue key of a request: `namespace/name`, or `name` when cluster-scoped. */
export function requestKey(request: Request): string {
  return request.namespace === '' ? request.name : `${request.namespace}/${request.name}`;
}

/** The request of a queue key made by {@link requestKey}. */
export function requestFromKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
