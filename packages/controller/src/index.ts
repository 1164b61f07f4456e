/**
 * `@kubekit/controller`: work queues with client-go's semantics, reconcilers, controllers and a manager.
 *
 * Start with {@link WorkQueue}.
 *
 * @packageDocumentation
 */

export { Controller } from './controller.js';
export { EventRecorder } from './eventRecorder.js';
export { kubeLeaseClient } from './leaseClient.js';
export {
  addFinalizer,
  controllerReference,
  handleFinalizer,
  hasFinalizer,
  removeFinalizer,
  retryOnConflict,
  setControllerReference,
  updateStatus,
} from './objectHelpers.js';
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

export type { ControllerOptions, EventSource, MapFunc, SourceHandlers } from './controller.js';
export type { CoreEvent, EventRecorderOptions } from './eventRecorder.js';
export type { CreateLoggerOptions } from './logger.js';
export type { FinalizerOutcome, RetryOnConflictOptions } from './objectHelpers.js';
export type { Predicate, PredicateFactory } from './predicates.js';
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
