/**
 * `@kubekit/controller`: work queues with client-go's semantics, reconcilers, controllers and a manager.
 *
 * Start with {@link WorkQueue}.
 *
 * @packageDocumentation
 */

export { Controller } from './controller.js';
export { createLogger } from './logger.js';
export {
  allPredicates,
  annotationsChangedPredicate,
  anyPredicate,
  generationChangedPredicate,
  labelsChangedPredicate,
  resourceVersionChangedPredicate,
} from './predicates.js';
export { TerminalError, requestFromKey, requestKey } from './reconciler.js';
export { Manager, shutdownSignal } from './manager.js';
export { LeaderElector } from './leaderElector.js';
export { ControllerMetrics } from './prometheusMetrics.js';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rateLimiter.js';
export { WorkQueue } from './workQueue.js';
export { noopWorkQueueMetrics } from './workQueueMetrics.js';

export type { ControllerOptions, EventSource, MapFunc } from './controller.js';
export type { CreateLoggerOptions } from './logger.js';
export type { Predicate } from './predicates.js';
export type { ReconcileFunc, ReconcileResult, Reconciler, Request } from './reconciler.js';
export type { ManagerOptions, Runnable, SyncableRunnable } from './manager.js';
export type { Lease, LeaseClient, LeaderCallbacks, LeaderElectorOptions } from './leaderElector.js';
export type {
  BucketRateLimiterOptions,
  ItemExponentialFailureRateLimiterOptions,
  ItemFastSlowRateLimiterOptions,
  RateLimiter,
} from './rateLimiter.js';
export type { WorkQueueGetResult, WorkQueueOptions } from './workQueue.js';
export type { WorkQueueMetrics, WorkQueueProgress } from './workQueueMetrics.js';
