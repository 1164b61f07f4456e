import PQueue from 'p-queue';
import { errorMessage, isInstanceOf, KubeError, realClock, type Clock, type KubeObject, type Logger } from '@kubekit/core';
import { defaultLogger } from '@kubekit/informer';
import type { Predicate } from './predicates.js';
import { TerminalError, requestFromKey, requestKey, type ReconcileFunc, type Reconciler, type Request } from './reconciler.js';
import type { RateLimiter } from './rateLimiter.js';
import { WorkQueue } from './workQueue.js';
import { finishedWithin, syncFailure, syncedWithin } from './internal/deadline.js';
import type { WorkQueueMetrics } from './workQueueMetrics.js';
import type { ControllerMetrics } from './prometheusMetrics.js';

/** The handlers a controller registers on an {@link EventSource}. */
export interface SourceHandlers<T> {
  add(obj: T): void;
  update(obj: T, old: T): void;
  delete(obj: T, info?: unknown): void;
}

/**
 * Where a controller's events come from: an `Informer` of `@kubekit/informer`, or anything with the
 * same surface. `waitForSync` resolves once the initial state has been delivered.
 */
export interface EventSource<T extends KubeObject = KubeObject> {
  /**
   * Registers the controller's handlers. A controller never reads why an object left (its reconcile
   * reads the object's current state), so it registers with `deleteReasons: false`: an informer then
   * confirms no delete reasons with the server for it, and never holds its deletes for one.
   */
  addEventHandler(handlers: SourceHandlers<T>, options?: { deleteReasons?: boolean }): { remove(): void };
  waitForSync(signal?: AbortSignal): Promise<unknown>;
}

/** Maps an object of a watched source to the requests it should trigger. */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T) => readonly Request[];

/** Options of a {@link Controller}. */
export interface ControllerOptions {
  /** The controller's name, in logs, metrics and the queue. */
  name: string;
  /** The reconciler, or a reconcile function. */
  reconciler: Reconciler | ReconcileFunc;
  /** How many requests are reconciled at once (never the same object twice). @defaultValue 1 */
  maxConcurrentReconciles?: number;
  /** Backoff for failed reconciles. @defaultValue client-go's default controller rate limiter */
  rateLimiter?: RateLimiter<string>;
  /** @defaultValue realClock */
  clock?: Clock;
  /** @defaultValue `defaultLogger()` of @kubekit/informer: silent unless `KUBEKIT_LOG_LEVEL` is set */
  logger?: Logger;
  /** Reconcile and queue metrics. @defaultValue none; a `Manager` hands down its own */
  metrics?: ControllerMetrics;
  /**
   * How long `start` waits for the sources to sync before it fails, as controller-runtime's
   * `CacheSyncTimeout`. @defaultValue 120000 ms
   */
  cacheSyncTimeoutMs?: number;
  /** How long shutdown waits for in-flight reconciles before abandoning them. @defaultValue 30000 ms */
  gracefulShutdownTimeoutMs?: number;
}

interface Watch {
  source: EventSource<KubeObject>;
  attach(): void;
  detach(): void;
}

/**
 * Turns events into reconciles of object keys, with a de-duplicating, rate-limited {@link WorkQueue}.
 *
 * Contract:
 * - Every event of a watched source is mapped to requests (the object itself for `For`, its
 *   controlling owner for `Owns`, a map function for `Watches`), filtered by predicates, and queued.
 * - One object is never reconciled by two workers at once; events arriving meanwhile coalesce into one
 *   more reconcile afterwards.
 * - Workers start only once every source has synced. `start` rejects when a source fails to sync
 *   (its `waitForSync` rejects, a permanent error) or does not within `cacheSyncTimeoutMs`.
 * - A reconcile that throws is retried with backoff; a {@link TerminalError} is logged and not retried;
 *   neither ever escapes the controller.
 * - `start(signal)` resolves after `signal` aborts, the queue stops taking work, and in-flight reconciles
 *   finished (or the graceful shutdown timeout passed; their signals are aborted first).
 *
 * @example
 * ```ts
 * const controller = new Controller({ name: 'shirts', reconciler: async ({ namespace, name }) => { ... } });
 * controller.for(shirtInformer, generationChangedPredicate());
 * await controller.start(signal);
 * ```
 */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  private readonly reconcile: ReconcileFunc;
  private readonly concurrency: number;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private metrics: ControllerMetrics | undefined;
  private queueMetrics: WorkQueueMetrics | undefined;
  private readonly cacheSyncTimeoutMs: number;
  private readonly gracefulShutdownTimeoutMs: number;
  private readonly sources: Watch[] = [];
  private started = false;

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.clock = options.clock ?? realClock;
    this.logger = (options.logger ?? defaultLogger()).child({ controller: options.name });
    this.cacheSyncTimeoutMs = options.cacheSyncTimeoutMs ?? 120_000;
    this.concurrency = Math.max(1, options.maxConcurrentReconciles ?? 1);
    this.gracefulShutdownTimeoutMs = options.gracefulShutdownTimeoutMs ?? 30_000;
    const r = options.reconciler;
    this.reconcile = typeof r === 'function' ? r : (req, signal) => r.reconcile(req, signal);
    // The queue reports to whatever metrics the controller has at the time (a Manager may hand them down
    // later); the hooks are looked up once per `useMetrics`, not on every queue operation.
    const queueMetrics: WorkQueueMetrics = {
      added: () => this.queueMetrics?.added(),
      depth: (d) => this.queueMetrics?.depth(d),
      queued: (sec) => this.queueMetrics?.queued(sec),
      worked: (sec) => this.queueMetrics?.worked(sec),
      retried: () => this.queueMetrics?.retried(),
    };
    this.queue = new WorkQueue<string>({ name: options.name, clock: this.clock, rateLimiter: options.rateLimiter, metrics: queueMetrics });
    if (options.metrics !== undefined) this.useMetrics(options.metrics);
  }

  /** Reports reconcile and queue metrics to `metrics` from now on (a `Manager` calls this with its own). */
  useMetrics(metrics: ControllerMetrics): void {
    this.metrics = metrics;
    this.queueMetrics = metrics.forQueue(this.name);
    metrics.trackQueue(this.queue);
    metrics.concurrency(this.name, this.concurrency);
  }

  /** Reconciles the objects of `source` themselves (controller-runtime's `For`). */
  for<T extends KubeObject>(source: EventSource<T>, ...predicates: Predicate<T>[]): this {
    // An object's own key never changes, so updates need not map the old state too.
    return this.addSource(source, (obj) => [{ namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }], predicates, false);
  }

  /**
   * Reconciles the controlling owner of each object of `source` whose owner reference with
   * `controller: true` has the given apiVersion group and kind (controller-runtime's `Owns`).
   */
  owns<T extends KubeObject>(source: EventSource<T>, owner: { apiVersion: string; kind: string }, ...predicates: Predicate<T>[]): this {
    const group = owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
    return this.addSource(source, (obj) => {
      for (const ref of obj.metadata.ownerReferences ?? []) {
        const refGroup = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
        if (ref.controller === true && ref.kind === owner.kind && refGroup === group) {
          return [{ namespace: obj.metadata.namespace ?? '', name: ref.name }];
        }
      }
      return [];
    }, predicates);
  }

  /** Reconciles whatever `map` returns for each object of `source` (controller-runtime's `Watches`). */
  watches<T extends KubeObject>(source: EventSource<T>, map: MapFunc<T>, ...predicates: Predicate<T>[]): this {
    return this.addSource(source, map, predicates);
  }

  /** Queues a reconcile of `request` now, as an external trigger would. */
  enqueue(request: Request): void {
    this.queue.add(requestKey(request));
  }

  /** Runs the controller until `signal` aborts; see the class contract. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error(`controller ${this.name} was already started`);
    this.started = true;
    for (const w of this.sources) w.attach();
    const onAbort = (): void => this.queue.shutDown();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) this.queue.shutDown();
    const syncFailure = await this.waitForSources(signal);
    if (syncFailure !== undefined) {
      signal.removeEventListener('abort', onAbort);
      this.queue.shutDown();
      for (const w of this.sources) w.detach();
      throw syncFailure;
    }
    const inFlight = new AbortController();
    const pool = new PQueue({ concurrency: this.concurrency });
    try {
      for (;;) {
        await pool.onSizeLessThan(1);
        const { item, shutdown } = await this.queue.get();
        if (shutdown) break;
        // process() reports its own failures; this only keeps a throwing metrics sink or logger from
        // ending the process with an unhandled rejection.
        pool.add(() => this.process(item, inFlight.signal)).catch((err: unknown) => {
          try {
            this.logger.error('processing a request failed', { error: describe(err) });
          } catch {
            // Nowhere left to report it.
          }
        });
      }
      await this.drain(pool, inFlight);
    } finally {
      signal.removeEventListener('abort', onAbort);
      for (const w of this.sources) w.detach();
    }
  }

  /** Waits for every source to sync; returns the error to fail with (unless `signal` aborted). */
  private async waitForSources(signal: AbortSignal): Promise<Error | undefined> {
    const outcome = await syncedWithin((s) => Promise.all(this.sources.map((w) => w.source.waitForSync(s))), signal, this.cacheSyncTimeoutMs, this.clock);
    if (outcome.kind === 'synced') this.logger.info('caches synced; starting workers', { workers: this.concurrency });
    if (outcome.kind === 'synced' || outcome.kind === 'aborted') return undefined;
    const error = outcome.kind === 'timedOut' ? new KubeError('Timeout', `timed out after ${this.cacheSyncTimeoutMs} ms`) : outcome.error;
    this.logger.error('waiting for caches to sync failed', { error: describe(error) });
    return syncFailure(`controller ${this.name}: failed to wait for caches to sync`, error);
  }

  private async drain(pool: PQueue, inFlight: AbortController): Promise<void> {
    if (await finishedWithin(pool.onIdle(), this.gracefulShutdownTimeoutMs, this.clock)) return;
    inFlight.abort(new Error('graceful shutdown timeout'));
    this.logger.warn('in-flight reconciles did not finish within the graceful shutdown timeout', { pending: pool.pending });
  }

  private async process(key: string, signal: AbortSignal): Promise<void> {
    const request = requestFromKey(key);
    const started = this.clock.now();
    const log = this.logger.child({ namespace: request.namespace, name: request.name });
    let outcome: 'success' | 'requeue' | 'requeue_after' | 'error' = 'success';
    this.metrics?.working(this.name, 1);
    try {
      const result = await this.reconcile(request, signal);
      if (result && result.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
        outcome = 'requeue_after';
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfterMs);
      } else if (result && result.requeue) {
        outcome = 'requeue';
        this.queue.addRateLimited(key);
      } else {
        this.queue.forget(key);
      }
    } catch (err) {
      outcome = 'error';
      if (isInstanceOf(err, TerminalError)) {
        this.queue.forget(key);
        this.metrics?.terminalError(this.name);
        log.error('reconcile failed with a terminal error; not retrying', { error: describe(err) });
      } else {
        this.queue.addRateLimited(key);
        log.error('reconcile failed; retrying with backoff', { error: describe(err), retries: this.queue.numRequeues(key) });
      }
    } finally {
      this.queue.done(key);
      const seconds = (this.clock.now() - started) / 1000;
      this.metrics?.reconciled(this.name, outcome, seconds);
      this.metrics?.working(this.name, -1);
      log.debug('reconciled', { outcome, seconds });
    }
  }

  private addSource<T extends KubeObject>(source: EventSource<T>, map: MapFunc<T>, predicates: Predicate<T>[], mapOld = true): this {
    if (this.started) throw new Error(`controller ${this.name}: watches must be added before start`);
    const enqueue = (obj: T): void => {
      try {
        for (const req of map(obj)) if (req.name !== '') this.enqueue(req);
      } catch (err) {
        this.logger.error('mapping an event to requests failed', { error: describe(err) });
      }
    };
    const handlers: SourceHandlers<T> = {
      add: (obj) => { if (predicates.every((p) => p.create?.(obj) ?? true)) enqueue(obj); },
      update: (obj, old) => {
        if (predicates.every((p) => p.update?.(obj, old) ?? true)) {
          enqueue(obj);
          // An owner change must also reach the previous owner.
          if (mapOld && old !== obj) enqueue(old);
        }
      },
      delete: (obj) => { if (predicates.every((p) => p.delete?.(obj) ?? true)) enqueue(obj); },
    };
    let registration: { remove(): void } | undefined;
    this.sources.push({
      source: source as unknown as EventSource<KubeObject>,
      attach: () => { registration = source.addEventHandler(handlers, { deleteReasons: false }); },
      detach: () => { registration?.remove(); registration = undefined; },
    });
    return this;
  }
}

/** `Name: message` of an Error, the text of anything else; never throws (see core's `errorMessage`). */
function describe(err: unknown): string {
  const message = errorMessage(err);
  try {
    if (err instanceof Error) return `${String(err.name)}: ${message}`;
  } catch {
    // A hostile value: its message alone.
  }
  return message;
}
