/**
 * What a {@link WorkQueue} reports about itself, as client-go's `workqueue.MetricsProvider` does. The
 * queue calls these hooks; a provider turns them into metrics (see `prometheusWorkQueueMetrics`).
 */
export interface WorkQueueMetrics {
  /** An item entered the queue (not counted when it was already queued). */
  added(): void;
  /** The number of queued items changed. */
  depth(depth: number): void;
  /** An item left the queue after waiting `seconds`. */
  queued(seconds: number): void;
  /** An item finished processing after `seconds`. */
  worked(seconds: number): void;
  /** An item was requeued with rate limiting. */
  retried(): void;
}

/** Metrics that go nowhere: the default. */
export const noopWorkQueueMetrics: WorkQueueMetrics = {
  added() {},
  depth() {},
  queued() {},
  worked() {},
  retried() {},
};

/** A snapshot of a queue's in-flight work, read when metrics are collected. */
export interface WorkQueueProgress {
  /** Seconds of work in progress that has not finished, summed over items being processed. */
  unfinishedWorkSeconds: number;
  /** Seconds the longest-running item has been processed. */
  longestRunningProcessorSeconds: number;
}
