import { setMaxListeners } from 'node:events';
import { EventEmitter } from 'eventemitter3';
import { errorMessage, asError, KubeError, makeObjectKey, realClock, type Clock, type KubeObject, type Logger, type TimerHandle } from '@kubekit/core';
import { selectorMatcher, type ResourceFields, type SelectionPredicate } from '@kubekit/attrs';
import type { FieldSelector, LabelSelector } from '@kubekit/selectors';
import type { BackoffPolicy } from './backoff.js';
import type { DeleteReason, EventHandlers, HandlerRegistration, RegistrationOptions } from './events.js';
import type { KubeConfigLike } from './kubeConfig.js';
import { ListerWatcher, type ResourceRef } from './listerWatcher.js';
import { defaultLogger } from './logger.js';
import type { InformerMetricsSink } from './metrics.js';
import { Reflector, type ObjectEvent, type ReflectorStatus } from './reflector.js';
import { Store, labelsIndex, labelsIndexFunc, metaNamespaceIndexFunc, namespaceIndex, type Indexers } from './store.js';
import type { FieldPath, FieldValue, KubeObjectLike } from './types.js';
import { DeleteReasonResolver, type DeleteReasonOptions, type PendingReason } from './internal/deleteReasons.js';
import { describe, unsupportedFieldLabel } from './internal/errors.js';
import { HandlerQueue, type Deliverer, type Notification } from './internal/handlerQueue.js';
import { discoverResourceInfo, type ResourceInfo, type SelectableFieldRef } from './internal/resourceInfo.js';
import { resourceFieldsFor, toFieldSelector, toLabelSelector, type FieldSelectorInput, type LabelSelectorInput } from './internal/selection.js';

/** Where an informer's selectors are evaluated. */
export type SelectionMode = 'server' | 'client';

/** Options of an {@link Informer}: the resource, its selectors, and how to keep it in sync. */
export interface InformerOptions<T extends KubeObjectLike = KubeObject> extends ResourceRef {
  /** Objects whose labels match. @defaultValue everything */
  labelSelector?: LabelSelectorInput;
  /** Objects whose fields match (KEP-4358 for custom resources). @defaultValue everything */
  fieldSelector?: FieldSelectorInput<T>;
  /**
   * Where to select when the server cannot: `'never'` (report the server's 400 and keep retrying),
   * `'fallback'` (on `field label not supported`, watch unfiltered and select here, saying so in a
   * warning and in `status.selection`), `'always'` (select here from the start).
   * @defaultValue 'never'
   */
  clientSideSelection?: 'never' | 'fallback' | 'always';
  /**
   * The resource version's `selectableFields`, for client-side selection and `byField`.
   * @defaultValue read from the cluster (the CRD, else OpenAPI v3) when needed
   */
  selectableFields?: readonly SelectableFieldRef[];
  /** Whether the resource is namespaced. @defaultValue read from discovery when needed */
  namespaced?: boolean;
  /** The resource's kind (for built-in kinds' field sets). @defaultValue read from discovery when needed */
  kind?: string;
  /**
   * Confirm with the server whether an object that left a selected informer was deleted or only left
   * the selection (see {@link Informer}, Deletes). Without it, such deletes report `'unknown'` unless
   * the object visibly no longer matches or was being deleted. @defaultValue true
   */
  confirmDeletes?: boolean;
  /**
   * The budget of those confirmations: lookups per second and burst, lookups in flight, and how long
   * a departure may wait for one before its reason is `'unknown'`.
   * @defaultValue qps 50, burst 500, concurrency 256, maxWaitMs 5000, graceMs 0
   */
  deleteReasons?: DeleteReasonOptions;
  /**
   * Applied to every object before it is cached. The default drops `metadata.managedFields`, as
   * controller-runtime users commonly do; `null` keeps objects as received.
   * @defaultValue {@link dropManagedFields}
   */
  transform?: ((obj: T) => T) | null;
  /**
   * Notifications a handler registration holds exactly before merging those of objects already waiting
   * (see {@link Informer}, Buffering). @defaultValue 10000
   */
  handlerBufferSize?: number;
  /** Redeliver every cached object as `update(obj, obj)` this often, in ms; 0 disables. @defaultValue 0 */
  resyncPeriodMs?: number;
  /** Extra indexes. @defaultValue none (namespace, label and field indexes are built on first use) */
  indexers?: Indexers<T>;
  /** List page size. @defaultValue 500 */
  pageSize?: number;
  /** Streaming lists (`sendInitialEvents`): `'auto'` uses them when the server does. @defaultValue 'auto' */
  streamingList?: 'auto' | 'never';
  /** Watch timeout range start, in seconds (the timeout is random in [min, 2·min)). @defaultValue 300 */
  minWatchTimeoutSeconds?: number;
  /** Reconnect a watch that sent no byte for this long, in ms. @defaultValue 180000 */
  idleTimeoutMs?: number;
  /** Idle limit while a streaming list sends its initial events, in ms. @defaultValue 10000 */
  initialEventsIdleTimeoutMs?: number;
  /** Delays after failures. @defaultValue 800 ms doubling to 5 s, jitter 1 (so at most 10 s), reset after 10 s of health */
  backoff?: Partial<BackoffPolicy>;
  /**
   * Fail {@link Informer.waitForSync} after this many attempts failed with a permanent error (400, 403,
   * 404, 405: a selector the server rejects, a resource it does not serve, forbidden) since the last
   * successful list or watch event (other failures in between do not reset the count). The
   * informer keeps retrying after that, so a later CRD or RBAC change still brings it in sync. @defaultValue 3
   */
  permanentErrorAttempts?: number;
  /** Where list, watch, event and cache-size counts go; a `Manager` sets its own. @defaultValue none */
  metrics?: InformerMetricsSink;
  /** @defaultValue the real clock of @kubekit/core */
  clock?: Clock;
  /** Random numbers in [0, 1), for jitter. @defaultValue Math.random */
  random?: () => number;
  /** @defaultValue {@link defaultLogger}: silent unless `KUBEKIT_LOG_LEVEL` is set */
  logger?: Logger;
  /** The `User-Agent` header. @defaultValue `kubekit-informer` */
  userAgent?: string;
}

/** A snapshot of an {@link Informer}'s state. */
export interface InformerStatus extends ReflectorStatus {
  /** Where selectors are evaluated: by the server, or here after a fallback (or by request). */
  selection: SelectionMode;
  /** Why selection is client-side, when it is. */
  selectionReason: string | undefined;
  /** The number of cached objects. */
  objects: number;
  /** The number of handler registrations. */
  handlers: number;
  /**
   * Delete reasons confirmed with the server: departures waiting for an answer now, lookups sent
   * (retries included), lookups sent again because the server asked to (429, or a 5xx with
   * `Retry-After`), and reasons reported as `'unknown'` (see {@link Informer}, Deletes), since the
   * informer was created.
   */
  deleteReasons: { pending: number; lookups: number; retries: number; unknown: number };
}

/** Events of an {@link Informer} besides object events. */
interface InformerControlEvents {
  error: [error: Error];
  status: [status: InformerStatus];
}

type ObjectEventName = 'add' | 'update' | 'delete' | 'synced';
type Listener = (...args: unknown[]) => unknown;

/** Drops `metadata.managedFields` (in place: the object comes fresh from the decoder). The default transform. */
export function dropManagedFields<T extends KubeObjectLike>(obj: T): T {
  if (obj.metadata?.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
}

/**
 * A cache of one resource's objects, kept in sync by list and watch, with events for every change:
 * client-go's `SharedIndexInformer` for TypeScript, with field selectors done right.
 *
 * Contract:
 * - Consistency: {@link Informer.list}/{@link Informer.get} return the state of the last event
 *   applied; the cache is eventually consistent with the server through the selectors (after the
 *   events in flight arrive, it equals a fresh list with the same selectors). It is never a mix of two
 *   relists: a relist replaces it in one step, and the differences become events (objects that
 *   vanished during a disconnect become `delete`s; one found under another `uid` than the cached one,
 *   deleted and re-created meanwhile, becomes a `delete` (`deleted`) of the cached one and an `add`,
 *   as the watch would have reported it).
 * - Ordering: each handler registration sees the changes of one object in the order they happened,
 *   starting with `add`, and `synced` after the objects of the initial state. `update(obj, old)`
 *   passes the state this registration saw before. Every listener added with {@link Informer.on}
 *   belongs to one shared registration, so `on('add')`, `on('update')` and `on('delete')` added
 *   separately still see each object's changes in order; each {@link Informer.addEventHandler} is a
 *   registration of its own, independent of the others. Order is per object, not global: a delete
 *   whose reason is being confirmed holds back that object's later notifications only.
 * - Buffering: the cache is updated as events arrive, whatever the handlers do. Each registration has
 *   its own queue. Up to `handlerBufferSize` notifications wait as they are (every state, in order);
 *   beyond that the handler is lagging, and a notification for an object that already has one waiting
 *   is merged into it (add+update ⇒ add(latest); update+update ⇒ update(latest, seen); add+delete ⇒
 *   nothing; update+delete ⇒ delete). A slow handler then sees fewer, later states of an object, still
 *   in order, while memory stays bounded by `handlerBufferSize` plus twice the number of objects, and
 *   the stream never waits for a handler. A handler that returns a promise is awaited before its
 *   registration's next notification; synchronous handlers run in slices that yield to I/O.
 * - Deletes: `delete(obj, { reason })` says `deleted`, `leftSelection` or `unknown`. The apiserver
 *   sends `DELETED` for both, carrying the last matching state. Without selectors every delete is
 *   `deleted`; with client-side selection kubekit sees the change itself. With server-side selection:
 *   a last state with `metadata.deletionTimestamp` is `deleted` and one that visibly does not match is
 *   `leftSelection`, without asking; otherwise kubekit asks the server (`confirmDeletes`), at most
 *   once per departure and never with a list of the whole resource: a metadata-only GET by name (or,
 *   without get permission, a list restricted to `metadata.name`) finds the object with the same
 *   `uid` (`leftSelection`) or not (`deleted`). An object that comes back before the answer settles
 *   it without a request. The lookups have a budget (`deleteReasons`); a reason that could not be
 *   confirmed — budget spent, lookup failed or forbidden, `confirmDeletes: false`, informer stopping —
 *   is `unknown`, never a guess. Nothing is asked while no registration has a `delete` handler.
 * - Errors: list and watch failures are `error` events and show in {@link Informer.status}; the
 *   informer retries forever with backoff (see {@link Reflector}). Permanent errors (a selector the
 *   server rejects, a resource it does not serve, forbidden) fail {@link Informer.waitForSync} with the
 *   server's message after `permanentErrorAttempts` attempts and show in `status.permanentError`; the
 *   informer goes on retrying, so it syncs once the CRD or the RBAC rules change. A handler that throws or rejects is
 *   reported as an `error` event and delivery goes on.
 * - Objects are shared between the cache and all handlers: treat them as immutable.
 *
 * @example
 * ```ts
 * const shirts = new Informer<Shirt>(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector: 'spec.color=blue' });
 * shirts.on('add', (s) => console.log('blue shirt', s.metadata.name));
 * shirts.on('delete', (s, { reason }) => console.log(s.metadata.name, reason));
 * const stop = new AbortController();
 * const done = shirts.start(stop.signal);
 * await shirts.waitForSync();
 * ```
 */
export class Informer<T extends KubeObjectLike = KubeObject> {
  /** The resource this informer caches. */
  readonly resource: Readonly<ResourceRef>;
  /** The field selector, parsed and canonical. */
  readonly fieldSelector: FieldSelector;
  /** The label selector, parsed and canonical. */
  readonly labelSelector: LabelSelector;
  /** The HTTP list+watch source. */
  readonly listerWatcher: ListerWatcher<T>;

  private readonly options: InformerOptions<T>;
  private readonly store: Store<T>;
  private readonly reflector: Reflector<T>;
  private readonly resolver: DeleteReasonResolver;
  private readonly emitter = new EventEmitter<InformerControlEvents>();
  private readonly queues = new Set<HandlerQueue<T>>();
  /** The listeners added with `on`, which share one registration (`onQueue`). */
  private readonly listeners = new Map<ObjectEventName, Set<Listener>>();
  private onQueue: HandlerQueue<T> | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private info: ResourceInfo;
  private fields: ResourceFields | undefined;
  private mode: SelectionMode = 'server';
  private modeReason: string | undefined;
  private clientMatch: SelectionPredicate | undefined;
  private localMatch: SelectionPredicate | undefined;
  private synced = false;
  private syncWaiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private runSignal: AbortSignal | undefined;
  private resyncTimer: TimerHandle | undefined;
  private enteringClientMode = false;
  private fallbackImpossible = false;

  /**
   * @throws SelectorParseError (a `KubeError`, `BadRequest`) with the apiserver's text when a selector does not parse.
   */
  constructor(kubeConfig: KubeConfigLike, options: InformerOptions<T>) {
    this.options = options;
    this.resource = { apiVersion: options.apiVersion, plural: options.plural, namespace: options.namespace };
    this.fieldSelector = toFieldSelector(options.fieldSelector);
    this.labelSelector = toLabelSelector(options.labelSelector);
    this.clock = options.clock ?? realClock;
    this.logger = options.logger ?? defaultLogger();
    this.info = {
      kind: options.kind,
      namespaced: options.namespaced,
      selectableFields: options.selectableFields,
      source: options.selectableFields === undefined ? undefined : 'options',
    };
    // The default transform drops managedFields: leave them out while decoding instead of after.
    const skipManagedFields = options.transform === undefined;
    this.listerWatcher = new ListerWatcher<T>(kubeConfig, this.resource, { clock: this.clock, userAgent: options.userAgent, skipManagedFields });
    this.store = new Store<T>({ indexers: options.indexers });
    const transform = options.transform === undefined ? (dropManagedFields as (obj: T) => T) : options.transform ?? undefined;
    this.reflector = new Reflector<T>(this.listerWatcher, { replace: (objs, rv) => this.onReplace(objs, rv), apply: (e) => this.onEvent(e), size: () => this.store.size }, {
      labelSelector: this.labelSelector.toString(),
      fieldSelector: this.fieldSelector.toString(),
      pageSize: options.pageSize,
      streamingList: options.streamingList,
      minWatchTimeoutSeconds: options.minWatchTimeoutSeconds,
      idleTimeoutMs: options.idleTimeoutMs,
      initialEventsIdleTimeoutMs: options.initialEventsIdleTimeoutMs,
      backoff: options.backoff,
      permanentErrorAttempts: options.permanentErrorAttempts,
      metrics: options.metrics,
      metricsName: metricsName(options),
      clock: this.clock,
      random: options.random,
      transform,
      logger: this.logger,
    });
    this.reflector.on('status', (st) => {
      if (st.permanentError !== undefined && !this.synced) this.failSyncWaiters(st.permanentError);
      this.emitter.emit('status', this.status);
    });
    this.reflector.on('error', (err) => this.onReflectorError(err));
    this.resolver = new DeleteReasonResolver(this.listerWatcher, this.clock, this.logger, () => this.runSignal, options.deleteReasons);
  }

  /** The current state: the reflector's phase and counters, the selection mode, the cache size. */
  get status(): InformerStatus {
    const { lookups, retries, unknown } = this.resolver.counts;
    return {
      ...this.reflector.status,
      selection: this.mode,
      selectionReason: this.modeReason,
      objects: this.store.size,
      handlers: this.queues.size,
      deleteReasons: { pending: this.resolver.pending, lookups, retries, unknown },
    };
  }

  /**
   * The resource version of the last event applied or bookmark seen (client-go's
   * `LastSyncResourceVersion`): a cheap check of progress, where {@link Informer.status} builds a
   * whole report. `undefined` before the first list.
   */
  get lastSyncResourceVersion(): string | undefined {
    return this.reflector.lastSyncResourceVersion;
  }

  /** Reports list, watch, event and cache-size counts to `sink` from now on (a `Manager` calls this). */
  useMetrics(sink: InformerMetricsSink | undefined): void {
    this.reflector.useMetrics(sink);
  }

  /** Whether the cache has received the complete state at least once. */
  hasSynced(): boolean {
    return this.synced;
  }

  /**
   * Lists, watches and delivers events until `signal` aborts; resolves once everything it started has
   * stopped (in-flight handler calls included; notifications still queued are dropped). Calling it
   * again while it runs returns the same promise; an informer cannot be restarted once stopped.
   *
   * @throws KubeError (`BadRequest`) when the informer was stopped before.
   */
  start(signal: AbortSignal): Promise<void> {
    if (this.running !== undefined) return this.running;
    if (this.stopped) return Promise.reject(KubeError.badRequest('the informer was stopped; create a new one'));
    // One listener on the caller's signal; everything inside listens to the informer's own.
    const own = new AbortController();
    setMaxListeners(0, own.signal);
    if (signal.aborted) own.abort(signal.reason);
    else signal.addEventListener('abort', () => own.abort(signal.reason), { once: true });
    this.runSignal = own.signal;
    this.running = this.run(own.signal);
    return this.running;
  }

  private async run(signal: AbortSignal): Promise<void> {
    try {
      if (this.options.clientSideSelection === 'always' && this.hasSelectors()) await this.enterClientMode('requested by the clientSideSelection option', signal);
      this.scheduleResync();
      await this.reflector.start(signal);
    } finally {
      this.stopped = true;
      this.resyncTimer?.cancel();
      this.resolver.stop();
      const idle = [...this.queues].map((q) => {
        q.stop();
        return q.idle();
      });
      await Promise.all(idle);
      await this.resolver.drained();
      this.listerWatcher.close();
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w.reject(new KubeError('Timeout', 'the informer stopped before it synced'));
      this.running = undefined;
    }
  }

  /**
   * Resolves once the cache holds the complete state, at once if it does.
   *
   * @throws the signal's reason when `signal` aborts first; KubeError (`Timeout`) when the informer stops
   * first; the server's error (a `KubeError` with its message) once `permanentErrorAttempts` attempts
   * since the last success failed with a permanent error (see `status.permanentError`; the informer keeps retrying).
   */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    const permanent = this.reflector.status.permanentError;
    if (permanent !== undefined) return Promise.reject(permanent);
    return new Promise<void>((resolve, reject) => {
      const waiter = { resolve, reject };
      this.syncWaiters.push(waiter);
      signal?.addEventListener('abort', () => {
        this.syncWaiters = this.syncWaiters.filter((w) => w !== waiter);
        reject(signal.reason);
      }, { once: true });
    });
  }

  private failSyncWaiters(err: Error): void {
    const waiters = this.syncWaiters;
    this.syncWaiters = [];
    for (const w of waiters) w.reject(err);
  }

  /** Every cached object (a new array). */
  list(): T[] {
    return this.store.list();
  }

  /** The cached object with `key` (`namespace/name`, or `name` for cluster-scoped objects). */
  get(key: string): T | undefined {
    return this.store.get(key);
  }

  /** The cached object with this name (and namespace, for namespaced resources). */
  getByName(name: string, namespace?: string): T | undefined {
    return this.store.get(makeObjectKey(namespace ?? this.resource.namespace, name));
  }

  /** The keys of every cached object. */
  keys(): string[] {
    return this.store.listKeys();
  }

  /** The number of cached objects. */
  get size(): number {
    return this.store.size;
  }

  /** The cached objects of a namespace (an index lookup; the index is built on first use). */
  byNamespace(namespace: string): T[] {
    if (!this.store.hasIndex(namespaceIndex)) this.store.addIndexers({ [namespaceIndex]: metaNamespaceIndexFunc });
    return this.store.byIndex(namespaceIndex, namespace);
  }

  /** The cached objects with label `key` set to `value` (an index lookup; the index is built on first use). */
  byLabel(key: string, value: string): T[] {
    if (!this.store.hasIndex(labelsIndex)) this.store.addIndexers({ [labelsIndex]: labelsIndexFunc });
    return this.store.byIndex(labelsIndex, `${key}=${value}`);
  }

  /**
   * The cached objects whose field `path` has `value`, valued as field selectors value it (Go's
   * `fmt.Sprint`: `2`, `true`, `""` for absent). An index lookup: the index of a field is built on
   * first use from the resource's field set (a built-in kind's, the CRD's `selectableFields`, or the
   * simple path itself) and kept up to date after.
   */
  byField(path: FieldPath<T>, value: FieldValue): T[] {
    const name = `field:${path}`;
    if (!this.store.hasIndex(name)) {
      const extract = this.extractorFor(path);
      this.store.addIndexers({ [name]: (obj) => [extract(obj)] });
    }
    return this.store.byIndex(name, typeof value === 'string' ? value : String(value));
  }

  /** The cached objects listed under `value` in index `name` (one given in `indexers`). */
  byIndex(name: string, value: string): T[] {
    return this.store.byIndex(name, value);
  }

  /** Adds indexes; each is built from the current cache at once. */
  addIndexers(indexers: Indexers<T>): void {
    this.store.addIndexers(indexers);
  }

  /**
   * Registers handlers. If the informer has objects already, this registration first receives an
   * `add` for each (and `synced` if the informer has synced), as client-go's `AddEventHandler`.
   */
  addEventHandler(handlers: EventHandlers<T>, options: RegistrationOptions = {}): HandlerRegistration {
    const queue = this.register(handlers, true, options.deleteReasons !== false);
    return {
      hasSynced: () => queue.hasSynced,
      pending: () => queue.size,
      idle: () => queue.idle(),
      remove: () => {
        queue.stop();
        this.queues.delete(queue);
      },
    };
  }

  /**
   * Listens to an object event (`add`, `update`, `delete`, `synced`) or to `error`/`status`. All
   * object listeners share one registration, so each object's events reach them in order whichever
   * events they listen to; a listener added late first receives an `add` for each cached object
   * (and `synced` if the informer has synced), as a new registration would.
   */
  on(event: 'add', handler: (obj: T) => unknown): this;
  on(event: 'update', handler: (obj: T, old: T) => unknown): this;
  on(event: 'delete', handler: (obj: T, info: { reason: DeleteReason }) => unknown): this;
  on(event: 'synced', handler: () => unknown): this;
  on(event: 'error', handler: (error: Error) => void): this;
  on(event: 'status', handler: (status: InformerStatus) => void): this;
  on(event: ObjectEventName | 'error' | 'status', handler: (...args: never[]) => unknown): this {
    if (event === 'error' || event === 'status') {
      this.emitter.on(event, handler as (...args: unknown[]) => void);
      return this;
    }
    const listener = handler as Listener;
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    if (set.has(listener)) return this;
    set.add(listener);
    if (this.onQueue === undefined) {
      this.onQueue = this.register(this.onDeliverer(), false);
    }
    if (!this.stopped) {
      if (event === 'add') for (const [key, obj] of this.store.entries()) this.onQueue.enqueue(key, { kind: 'add', obj, to: listener });
      if (event === 'synced' && this.synced) this.onQueue.synced(listener);
    }
    return this;
  }

  /** Removes a listener added with {@link Informer.on}. */
  off(event: ObjectEventName | 'error' | 'status', handler: (...args: never[]) => unknown): this {
    if (event === 'error' || event === 'status') {
      this.emitter.off(event, handler as (...args: unknown[]) => void);
      return this;
    }
    this.listeners.get(event)?.delete(handler as Listener);
    if (this.onQueue !== undefined && [...this.listeners.values()].every((set) => set.size === 0)) {
      this.onQueue.stop();
      this.queues.delete(this.onQueue);
      this.onQueue = undefined;
    }
    return this;
  }

  /** Delivers the shared registration's notifications to the listeners of each event. */
  private onDeliverer(): Deliverer<T> {
    const fanOut = (event: ObjectEventName, to: unknown, args: unknown[]): unknown => {
      const set = this.listeners.get(event);
      if (set === undefined || set.size === 0) return undefined;
      if (to !== undefined) return set.has(to as Listener) ? (to as Listener)(...args) : undefined;
      let pending: Promise<unknown>[] | undefined;
      for (const listener of [...set]) {
        try {
          const result = listener(...args);
          if (result instanceof Promise) (pending ??= []).push(result.catch((err: unknown) => this.reportHandlerError(err)));
        } catch (err) {
          this.reportHandlerError(err);
        }
      }
      return pending === undefined ? undefined : Promise.all(pending);
    };
    return {
      add: (obj, to) => fanOut('add', to, [obj]),
      update: (obj, old) => fanOut('update', undefined, [obj, old]),
      delete: (obj, info) => fanOut('delete', undefined, [obj, info]),
      synced: (to) => fanOut('synced', to, []),
    };
  }

  /** Resolves once every registration has delivered everything pending (for tests and orderly shutdowns). */
  async idle(): Promise<void> {
    for (let i = 0; i < 1000; i++) {
      await Promise.all([...this.queues].map((q) => q.idle()));
      if ([...this.queues].every((q) => q.size === 0)) return;
    }
  }

  private register(handlers: Deliverer<T>, replay = true, deleteReasons = true): HandlerQueue<T> {
    const queue = new HandlerQueue<T>(handlers, (err) => this.reportHandlerError(err), this.options.handlerBufferSize ?? 10_000, deleteReasons);
    this.queues.add(queue);
    if (this.stopped) {
      queue.stop();
      return queue;
    }
    if (replay) {
      for (const [key, obj] of this.store.entries()) queue.enqueue(key, { kind: 'add', obj });
      if (this.synced) queue.synced();
    }
    return queue;
  }

  private hasSelectors(): boolean {
    return !this.fieldSelector.isEmpty() || !this.labelSelector.isEmpty();
  }

  private notify(key: string, n: Notification<T>): void {
    for (const q of this.queues) q.enqueue(key, n);
  }

  private onReplace(objects: T[], _resourceVersion: string): void {
    const match = this.mode === 'client' ? this.clientMatch! : undefined;
    // Selecting here, the list has every object: one missing from the selection left it if it is
    // still there under the same uid; under another uid it was deleted (and re-created) meanwhile.
    const allUids = match === undefined ? undefined : new Map<string, string | undefined>();
    const incoming: T[] = [];
    const changed: { key: string; obj: T; old: T | undefined }[] = [];
    for (const obj of objects) {
      const key = this.store.keyFunc(obj);
      allUids?.set(key, obj.metadata?.uid);
      if (match !== undefined && !match.matches(obj)) continue;
      const old = this.store.get(key);
      if (old === undefined) this.resolver.settle(key, obj.metadata?.uid);
      if (old !== undefined && old.metadata?.resourceVersion === obj.metadata?.resourceVersion) {
        // Unchanged: keep the instance the handlers saw, so a later `update` passes it as `old`.
        incoming.push(old);
      } else {
        incoming.push(obj);
        changed.push({ key, obj, old });
      }
    }
    const previous = this.store.replace(incoming);
    if (this.queues.size > 0) {
      for (const { key, obj, old } of changed) this.notifyUpsert(key, obj, old);
      for (const obj of incoming) previous.delete(this.store.keyFunc(obj));
      for (const [key, old] of previous) {
        const reason = allUids !== undefined ? (allUids.has(key) && allUids.get(key) === old.metadata?.uid ? 'leftSelection' : 'deleted') : this.deleteReason(key, old);
        this.notify(key, { kind: 'delete', obj: old, reason });
      }
    }
    if (!this.synced) {
      this.synced = true;
      for (const q of this.queues) q.synced();
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w.resolve();
    }
  }

  private onEvent(event: ObjectEvent<T>): void {
    const obj = event.object;
    const key = this.store.keyFunc(obj);
    if (this.mode === 'client') {
      if (event.type === 'DELETED') {
        const old = this.store.delete(key);
        if (old !== undefined) this.notify(key, { kind: 'delete', obj, reason: 'deleted' });
        return;
      }
      if (!this.clientMatch!.matches(obj)) {
        const old = this.store.delete(key);
        if (old !== undefined) this.notify(key, { kind: 'delete', obj: old, reason: 'leftSelection' });
        return;
      }
    } else if (event.type === 'DELETED') {
      const old = this.store.delete(key);
      if (old !== undefined && this.queues.size > 0) this.notify(key, { kind: 'delete', obj, reason: this.deleteReason(key, obj) });
      return;
    }
    const old = this.store.upsert(obj, key);
    // An object back under a name whose departure is being confirmed answers the question.
    if (old === undefined && this.resolver.pending > 0) this.resolver.settle(key, obj.metadata?.uid);
    if (this.queues.size === 0) return;
    this.notifyUpsert(key, obj, old);
  }

  /**
   * An `add`, or an `update` from `old` — but a deletion and an `add` when `old` is another object
   * under the same name (another `uid`): deleted and re-created while the informer did not watch (a
   * relist shows only the new one), which the watch would have reported as `DELETED` then `ADDED`.
   */
  private notifyUpsert(key: string, obj: T, old: T | undefined): void {
    if (old === undefined) {
      this.notify(key, { kind: 'add', obj });
      return;
    }
    const was = old.metadata?.uid;
    const is = obj.metadata?.uid;
    if (was !== undefined && was !== '' && is !== undefined && is !== '' && was !== is) {
      this.notify(key, { kind: 'delete', obj: old, reason: 'deleted' });
      this.notify(key, { kind: 'add', obj });
      return;
    }
    this.notify(key, { kind: 'update', obj, old });
  }

  /** Whether some registration has a `delete` handler; if none has, reasons are not looked up. */
  private wantsDeleteReasons(): boolean {
    for (const q of this.queues) {
      if (q === this.onQueue ? (this.listeners.get('delete')?.size ?? 0) > 0 : q.wantsDeleteReasons) return true;
    }
    return false;
  }

  /** The reason of a server-side `DELETED` (or of an object missing from a relist). */
  private deleteReason(key: string, obj: T): DeleteReason | PendingReason {
    if (!this.hasSelectors()) return 'deleted';
    // Being deleted (finalizers ran): a deletion, whatever else changed.
    if (obj.metadata?.deletionTimestamp != null) return 'deleted';
    // The server sends the last matching state; one that visibly does not match left the selection.
    if (!this.localMatcher().matches(obj)) return 'leftSelection';
    if (this.options.confirmDeletes === false || !this.wantsDeleteReasons()) return 'unknown';
    return this.resolver.resolve(key, obj);
  }

  private localMatcher(): SelectionPredicate {
    this.localMatch ??= selectorMatcher({
      fields: this.resourceFields(),
      fieldSelector: this.fieldSelector,
      labelSelector: this.labelSelector,
      convertFieldLabels: false,
    });
    return this.localMatch;
  }

  private resourceFields(): ResourceFields {
    this.fields ??= resourceFieldsFor(this.resource.apiVersion, this.info, this.fieldSelector.requirements().map((r) => r.field)).fields;
    return this.fields;
  }

  private extractorFor(path: string): (obj: T) => string {
    const known = this.resourceFields().extractor(path);
    if (known !== undefined) return known;
    const own = resourceFieldsFor(this.resource.apiVersion, { namespaced: this.info.namespaced }, [path]).fields.extractor(path);
    return own ?? (() => '');
  }

  private onReflectorError(err: Error): void {
    const label = unsupportedFieldLabel(err);
    if (label !== undefined && this.mode === 'server' && !this.fieldSelector.isEmpty()) {
      if (this.options.clientSideSelection === 'fallback') {
        if (!this.enteringClientMode && !this.fallbackImpossible) {
          this.enteringClientMode = true;
          void this.enterClientMode(`the server does not support the field selector (${err.message})`, this.runSignal)
            .catch((e: unknown) => this.emitError(asError(e)))
            .finally(() => {
              this.enteringClientMode = false;
            });
        }
      } else {
        this.logger.error(`the server rejected the field selector: ${err.message}; set clientSideSelection: 'fallback' to select client-side`);
      }
    }
    this.emitError(err);
  }

  /** Switches to unfiltered list+watch with selection done here, then relists. */
  private async enterClientMode(reason: string, signal: AbortSignal | undefined): Promise<void> {
    const labels = this.fieldSelector.requirements().map((r) => r.field);
    if (this.info.kind === undefined || this.info.namespaced === undefined || this.info.selectableFields === undefined) {
      this.info = await discoverResourceInfo((p) => this.listerWatcher.getPath(p, { signal }), this.resource.apiVersion, this.resource.plural, this.info, this.logger);
    }
    const { fields, known } = resourceFieldsFor(this.resource.apiVersion, this.info, labels);
    let predicate: SelectionPredicate;
    try {
      // Known fields: the server's own conversion (renames legacy labels, rejects unknown ones).
      predicate = selectorMatcher({ fields, fieldSelector: this.fieldSelector, labelSelector: this.labelSelector, convertFieldLabels: known });
    } catch (err) {
      // The selector cannot be evaluated here either: trying again on every retry would only repeat
      // this error. The server's 400 stays the informer's error (permanent: waitForSync fails with it).
      this.fallbackImpossible = true;
      this.logger.error(`cannot select client-side: ${describe(err)}`);
      this.emitError(asError(err));
      return;
    }
    this.fields = fields;
    this.localMatch = predicate;
    this.clientMatch = predicate;
    this.mode = 'client';
    this.modeReason = reason;
    this.logger.warn(`selecting ${this.resource.plural} client-side: ${reason}; watching all objects and filtering locally${known ? '' : ' (field paths read as written: the resource\'s selectableFields are unknown)'}`);
    this.reflector.reconfigure({ fieldSelector: '', labelSelector: '' });
    this.emitter.emit('status', this.status);
  }

  private scheduleResync(): void {
    const period = this.options.resyncPeriodMs ?? 0;
    if (period <= 0) return;
    this.resyncTimer = this.clock.setTimeout(() => {
      if (this.stopped) return;
      if (this.synced) {
        for (const [key, obj] of this.store.entries()) this.notify(key, { kind: 'update', obj, old: obj });
      }
      this.scheduleResync();
    }, period);
  }

  private reportHandlerError(err: unknown): void {
    const error = asError(err);
    this.logger.error(`an event handler failed: ${errorMessage(error)}`);
    this.emitError(error);
  }

  private emitError(error: Error): void {
    this.emitter.emit('error', error);
  }
}

/** The `resource` label of an informer's metrics: `plural.group`, or `plural` for the core group. */
function metricsName(resource: ResourceRef): string {
  const slash = resource.apiVersion.indexOf('/');
  return slash < 0 ? resource.plural : `${resource.plural}.${resource.apiVersion.slice(0, slash)}`;
}
