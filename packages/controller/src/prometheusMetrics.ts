import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { WorkQueueMetrics, WorkQueueProgress } from './workQueueMetrics.js';

/**
 * Work queue and reconcile metrics in Prometheus form, with client-go's and controller-runtime's metric
 * names (`workqueue_depth`, `workqueue_adds_total`, `workqueue_queue_duration_seconds`,
 * `workqueue_work_duration_seconds`, `workqueue_unfinished_work_seconds`,
 * `workqueue_longest_running_processor_seconds`, `workqueue_retries_total`,
 * `controller_runtime_reconcile_total`, `controller_runtime_reconcile_errors_total`,
 * `controller_runtime_reconcile_time_seconds`), labelled by queue or controller `name`.
 *
 * One instance per registry; a manager creates one and hands queues their per-name metrics.
 */
export class ControllerMetrics {
  /** The registry the metrics are registered in; serve `registry.metrics()` on `/metrics`. */
  readonly registry: Registry;
  private readonly depth: Gauge<'name'>;
  private readonly adds: Counter<'name'>;
  private readonly latency: Histogram<'name'>;
  private readonly workDuration: Histogram<'name'>;
  private readonly retries: Counter<'name'>;
  private readonly reconcileTotal: Counter<'controller' | 'result'>;
  private readonly reconcileErrors: Counter<'controller'>;
  private readonly reconcileTime: Histogram<'controller'>;
  private readonly progress = new Map<string, () => WorkQueueProgress>();

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const buckets = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10];
    this.depth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers: [registry] });
    this.adds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers: [registry] });
    this.latency = new Histogram({ name: 'workqueue_queue_duration_seconds', help: 'How long in seconds an item stays in workqueue before being requested', labelNames: ['name'], buckets, registers: [registry] });
    this.workDuration = new Histogram({ name: 'workqueue_work_duration_seconds', help: 'How long in seconds processing an item from workqueue takes', labelNames: ['name'], buckets, registers: [registry] });
    this.retries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers: [registry] });
    const progress = this.progress;
    new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: 'How many seconds of work has been done that is in progress and hasn\'t been observed by work_duration',
      labelNames: ['name'], registers: [registry],
      collect() { for (const [name, read] of progress) this.set({ name }, read().unfinishedWorkSeconds); },
    });
    new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running',
      labelNames: ['name'], registers: [registry],
      collect() { for (const [name, read] of progress) this.set({ name }, read().longestRunningProcessorSeconds); },
    });
    this.reconcileTotal = new Counter({ name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller', labelNames: ['controller', 'result'], registers: [registry] });
    this.reconcileErrors = new Counter({ name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller', labelNames: ['controller'], registers: [registry] });
    this.reconcileTime = new Histogram({ name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], registers: [registry] });
  }

  /** The hooks a work queue named `name` reports to. */
  forQueue(name: string): WorkQueueMetrics {
    return {
      added: () => this.adds.inc({ name }),
      depth: (d) => this.depth.set({ name }, d),
      queued: (s) => this.latency.observe({ name }, s),
      worked: (s) => this.workDuration.observe({ name }, s),
      retried: () => this.retries.inc({ name }),
    };
  }

  /** Reads the queue's in-flight work whenever metrics are scraped (the unfinished-work gauges). */
  trackQueue(queue: { readonly name: string; progress(): WorkQueueProgress }): void {
    this.progress.set(queue.name, () => queue.progress());
  }

  /** Records one reconcile of `controller` with its outcome and duration. */
  reconciled(controller: string, result: 'success' | 'requeue' | 'requeue_after' | 'error', seconds: number): void {
    this.reconcileTotal.inc({ controller, result });
    if (result === 'error') this.reconcileErrors.inc({ controller });
    this.reconcileTime.observe({ controller }, seconds);
  }
}
