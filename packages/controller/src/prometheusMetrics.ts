import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { InformerMetricsSink, RestClientMetricsSink } from '@kubekit/informer';
import type { WorkQueueMetrics, WorkQueueProgress } from './workQueueMetrics.js';

/** Options of {@link ControllerMetrics}. */
export interface ControllerMetricsOptions {
  /** @defaultValue a new registry */
  registry?: Registry;
  /**
   * Serve prom-client's default process and Node.js metrics (`process_cpu_seconds_total`,
   * `process_resident_memory_bytes`, `nodejs_heap_size_used_bytes`, `nodejs_eventloop_lag_seconds`, …)
   * with {@link ControllerMetrics.scrape}. They live in one registry per process (their collectors
   * observe the whole process), not in `registry`. @defaultValue true
   */
  processMetrics?: boolean;
}

let processRegistry: Registry | undefined;

/** The process-wide registry of prom-client's default metrics, created on first use. */
function processMetricsRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * An operator's metrics in Prometheus form, with client-go's and controller-runtime's names where they
 * have one: work queues (`workqueue_depth`, `workqueue_adds_total`, `workqueue_queue_duration_seconds`,
 * `workqueue_work_duration_seconds`, `workqueue_unfinished_work_seconds`,
 * `workqueue_longest_running_processor_seconds`, `workqueue_retries_total`, by queue `name`),
 * reconciles (`controller_runtime_reconcile_total`, `controller_runtime_reconcile_errors_total`,
 * `controller_runtime_terminal_reconcile_errors_total`, `controller_runtime_reconcile_time_seconds`,
 * `controller_runtime_max_concurrent_reconciles`, `controller_runtime_active_workers`, by `controller`),
 * the REST client (`rest_client_requests_total` by `code`, `method`, `host`;
 * `rest_client_request_duration_seconds` by `verb`, `host`), leader election
 * (`leader_election_master_status` by `name`), informers (`kubekit_informer_lists_total`,
 * `kubekit_informer_relists_total`, `kubekit_informer_watches_total`, `kubekit_informer_failures_total`,
 * `kubekit_informer_events_total` by `type`, `kubekit_informer_cache_objects`, by `resource`), and
 * prom-client's default process metrics.
 *
 * One instance per registry; a manager creates one and hands it to its controllers and informers, and
 * registers it for the REST client metrics of the process while it runs.
 */
export class ControllerMetrics implements InformerMetricsSink, RestClientMetricsSink {
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
  private readonly maxConcurrent: Gauge<'controller'>;
  private readonly activeWorkers: Gauge<'controller'>;
  private readonly terminalErrors: Counter<'controller'>;
  private readonly restRequests: Counter<'code' | 'method' | 'host'>;
  private readonly restLatency: Histogram<'verb' | 'host'>;
  private readonly leaderStatus: Gauge<'name'>;
  private readonly lists: Counter<'resource'>;
  private readonly relists: Counter<'resource'>;
  private readonly watches: Counter<'resource'>;
  private readonly failures: Counter<'resource'>;
  private readonly events: Counter<'resource' | 'type'>;
  private readonly cacheObjects: Gauge<'resource'>;
  private readonly process: Registry | undefined;

  /** A registry (the old signature), or options. */
  constructor(options: Registry | ControllerMetricsOptions = {}) {
    const opts: ControllerMetricsOptions = options instanceof Registry ? { registry: options } : options;
    const registry = opts.registry ?? new Registry();
    this.registry = registry;
    this.process = opts.processMetrics !== false && registry.getSingleMetric('process_cpu_user_seconds_total') === undefined
      ? processMetricsRegistry() : undefined;
    // client-go's and controller-runtime's work queue buckets: 10 ns to 1000 s, by tens.
    const buckets = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];
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
    this.terminalErrors = new Counter({ name: 'controller_runtime_terminal_reconcile_errors_total', help: 'Total number of terminal reconciliation errors per controller', labelNames: ['controller'], registers: [registry] });
    this.reconcileTime = new Histogram({
      name: 'controller_runtime_reconcile_time_seconds', help: 'Length of time per reconciliation per controller', labelNames: ['controller'], registers: [registry],
      // controller-runtime's buckets (5 ms to 60 s), so that its dashboards' quantiles read the same.
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
        1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60],
    });
    this.maxConcurrent = new Gauge({ name: 'controller_runtime_max_concurrent_reconciles', help: 'Maximum number of concurrent reconciles per controller', labelNames: ['controller'], registers: [registry] });
    this.activeWorkers = new Gauge({ name: 'controller_runtime_active_workers', help: 'Number of currently used workers per controller', labelNames: ['controller'], registers: [registry] });
    this.restRequests = new Counter({ name: 'rest_client_requests_total', help: 'Number of HTTP requests, partitioned by status code, method, and host.', labelNames: ['code', 'method', 'host'], registers: [registry] });
    this.restLatency = new Histogram({
      name: 'rest_client_request_duration_seconds', help: 'Request latency in seconds. Broken down by verb, and host.', labelNames: ['verb', 'host'], registers: [registry],
      buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    });
    this.leaderStatus = new Gauge({ name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.', labelNames: ['name'], registers: [registry] });
    this.lists = new Counter({ name: 'kubekit_informer_lists_total', help: 'Complete lists (paginated or streaming) received by informers, first syncs and relists', labelNames: ['resource'], registers: [registry] });
    this.relists = new Counter({ name: 'kubekit_informer_relists_total', help: 'Complete lists received by informers after their first sync', labelNames: ['resource'], registers: [registry] });
    this.watches = new Counter({ name: 'kubekit_informer_watches_total', help: 'Watch requests opened by informers', labelNames: ['resource'], registers: [registry] });
    this.failures = new Counter({ name: 'kubekit_informer_failures_total', help: 'Failed lists and watches of informers', labelNames: ['resource'], registers: [registry] });
    this.events = new Counter({ name: 'kubekit_informer_events_total', help: 'Watch events applied by informers, by type', labelNames: ['resource', 'type'], registers: [registry] });
    this.cacheObjects = new Gauge({ name: 'kubekit_informer_cache_objects', help: 'Objects in the cache of each informer', labelNames: ['resource'], registers: [registry] });
  }

  /** Everything to serve on `/metrics`: `registry`'s metrics, then the process metrics (text format, `registry.contentType`). */
  async scrape(): Promise<string> {
    const own = await this.registry.metrics();
    if (this.process === undefined) return own;
    return `${own.endsWith('\n') || own === '' ? own : `${own}\n`}${await this.process.metrics()}`;
  }

  /** Records one REST request (a {@link RestClientMetricsSink}). */
  request(method: string, host: string, code: string, seconds: number): void {
    this.restRequests.inc({ code, method, host });
    this.restLatency.observe({ verb: method, host }, seconds);
  }

  /** Records a complete list of an informer (an `InformerMetricsSink`). */
  listed(resource: string, relist: boolean): void {
    this.lists.inc({ resource });
    if (relist) this.relists.inc({ resource });
  }

  /** Records a watch opened by an informer. */
  watchStarted(resource: string): void {
    this.watches.inc({ resource });
  }

  /** Records a failed list or watch of an informer. */
  failed(resource: string): void {
    this.failures.inc({ resource });
  }

  /** Records a watch event applied by an informer. */
  event(resource: string, type: string): void {
    this.events.inc({ resource, type });
  }

  /** Sets the number of objects an informer caches. */
  cacheSize(resource: string, objects: number): void {
    this.cacheObjects.set({ resource }, objects);
  }

  /** Sets whether this process leads lease `name` (1) or not (0). */
  leading(name: string, leader: boolean): void {
    this.leaderStatus.set({ name }, leader ? 1 : 0);
  }

  /** Sets a controller's configured concurrency. */
  concurrency(controller: string, workers: number): void {
    this.maxConcurrent.set({ controller }, workers);
    this.activeWorkers.set({ controller }, 0);
  }

  /** Counts a reconcile of `controller` starting (`+1`) or ending (`-1`) in one of its workers. */
  working(controller: string, delta: 1 | -1): void {
    if (delta > 0) this.activeWorkers.inc({ controller });
    else this.activeWorkers.dec({ controller });
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

  /** Counts a reconcile of `controller` that failed with a `TerminalError` (also counted by {@link reconciled} as an error). */
  terminalError(controller: string): void {
    this.terminalErrors.inc({ controller });
  }
}
