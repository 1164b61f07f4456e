import { EventEmitter } from 'eventemitter3';
import { jsonTypeName, KubeError, objectKey, realClock, type Clock, type KubeList, type KubeObject, type Logger, type WatchEvent } from '@kubekit/core';
import { Backoff, type BackoffPolicy } from './backoff.js';
import type { ListOptions, RequestOptions, WatchOptions } from './listerWatcher.js';
import type { InformerMetricsSink } from './metrics.js';
import { defaultLogger } from './logger.js';
import { describe, isExpired, isPermanent, isStreamingListRejected, isTooLargeResourceVersion, retryAfterMs, unsupportedFieldLabel } from './internal/errors.js';
import { connectionLoss, explainFailure, type ConnectionLoss } from './internal/connectionLoss.js';
import { IdleTimeoutError } from './internal/restClient.js';
import { TimeSlice } from './internal/timeSlice.js';
import type { KubeObjectLike } from './types.js';
import { WatchClosedError } from './watchClosedError.js';

/** What a {@link Reflector} needs from a list+watch source; {@link ListerWatcher} is one. */
export interface ListerWatcherLike<T extends KubeObjectLike = KubeObject> {
  list(options: ListOptions, request?: RequestOptions): Promise<KubeList<T & KubeObject>>;
  watch(options: WatchOptions, request?: RequestOptions): Promise<WatchStreamLike<T>>;
}

/** What a {@link Reflector} needs from an open watch; {@link WatchStream} is one. */
export interface WatchStreamLike<T extends KubeObjectLike = KubeObject> {
  batches(): AsyncIterable<WatchEvent<T & KubeObject>[]>;
  setIdleTimeout(ms: number): void;
  close(err?: Error): void;
}

/** An object change as the {@link Reflector} hands it to its target. */
export interface ObjectEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
}

/**
 * Where a {@link Reflector} writes. The informer is one; a bare {@link Store} can be adapted in two lines.
 *
 * Contract: calls are synchronous and in the order the server produced the data. `replace` hands over
 * the complete state at `resourceVersion` (after a list, or the initial events of a streaming list);
 * `apply` hands over one change that happened after it.
 */
export interface ReflectorTarget<T> {
  replace(objects: T[], resourceVersion: string): void;
  apply(event: ObjectEvent<T>): void;
  /** The number of objects the target holds, for the `cacheSize` metric. @defaultValue not reported */
  size?(): number;
}

/**
 * What a {@link Reflector} is doing: `listing` (a list or the initial events of a streaming list),
 * `connecting` (a watch request sent, no answer yet), `watching` (a watch is open), `backoff` (waiting
 * after a failure; `retryInMs` says how long), `stopped`.
 */
export type ReflectorPhase = 'idle' | 'listing' | 'connecting' | 'watching' | 'backoff' | 'stopped';

/** Whether the server serves streaming lists (`sendInitialEvents`), as far as the reflector knows. */
export type StreamingListSupport = 'unknown' | 'supported' | 'unsupported' | 'disabled';

/** A snapshot of a {@link Reflector}'s state. */
export interface ReflectorStatus {
  phase: ReflectorPhase;
  /** Whether a complete state has been received at least once. */
  synced: boolean;
  /** The resource version the next watch starts from. */
  resourceVersion: string | undefined;
  streamingList: StreamingListSupport;
  /** Failures since the backoff last reset. */
  consecutiveFailures: number;
  /** The most recent failure, if any since the last successful sync or watch event. */
  lastError: Error | undefined;
  /**
   * Set once `permanentErrorAttempts` attempts since the last successful sync or watch event failed with
   * an error that cannot go away by itself (400, 403, 404, 405: a rejected selector, a missing resource,
   * forbidden; other failures in between do not reset the count); cleared by the next
   * successful sync or watch event. The reflector keeps retrying (with its backoff, so at most every
   * 10 s by default): a CRD or RBAC change fixes such errors.
   */
  permanentError: Error | undefined;
  /** When in `backoff`: how long until the next attempt, in ms. */
  retryInMs: number | undefined;
  /** Complete lists (or streaming lists) received. */
  syncs: number;
  /** Watch requests opened. */
  watches: number;
  /**
   * Watches whose connection broke (closed by the server or a proxy, reset) after they delivered an
   * event or lasted a second, and which were resumed at once: no failure (as in client-go).
   */
  watchesResumed: number;
  /** The most recent of those, saying what happened and where the next watch started. */
  lastWatchClose: WatchClosedError | undefined;
  labelSelector: string;
  fieldSelector: string;
}

/** Events of a {@link Reflector}. */
export interface ReflectorEvents {
  /** The phase, sync state, streaming support or selectors changed. */
  status: [status: ReflectorStatus];
  /** A list or watch failed; the reflector recovers on its own (relist or backoff). */
  error: [error: Error];
}

/** Options of a {@link Reflector}. */
export interface ReflectorOptions<T> {
  /** Sent to the server as-is. @defaultValue none */
  labelSelector?: string;
  /** Sent to the server as-is. @defaultValue none */
  fieldSelector?: string;
  /** Page size of lists. @defaultValue 500 (client-go's pager) */
  pageSize?: number;
  /**
   * Streaming lists (`sendInitialEvents=true`, KEP-3157): `'auto'` tries one and falls back to
   * list+watch for good when the server rejects it or sends nothing for `initialEventsIdleTimeoutMs`;
   * `'never'` always lists. @defaultValue 'auto'
   */
  streamingList?: 'auto' | 'never';
  /** Watches ask the server to end after a random time in [min, 2·min) seconds, as client-go. @defaultValue 300 */
  minWatchTimeoutSeconds?: number;
  /**
   * Reconnect when an open watch sends no byte — not even a bookmark — for this long. The apiserver
   * sends a bookmark about every minute. @defaultValue 180000 (3 min)
   */
  idleTimeoutMs?: number;
  /** During the initial events of a streaming list, the idle limit before falling back to a list. @defaultValue 10000 */
  initialEventsIdleTimeoutMs?: number;
  /** Abort a list page when no byte arrives for this long. @defaultValue 60000 */
  listIdleTimeoutMs?: number;
  /** Delays after failures. @defaultValue {@link defaultBackoffPolicy} */
  backoff?: Partial<BackoffPolicy>;
  /**
   * After this many attempts failed with a permanent error (400, 403, 404, 405) since the last successful
   * sync or watch event (other failures in between do not reset the count), report it in
   * `status.permanentError` (the informer then fails `waitForSync`). @defaultValue 3
   */
  permanentErrorAttempts?: number;
  /** Where list, watch, event and cache-size counts go. @defaultValue none */
  metrics?: InformerMetricsSink;
  /** The `resource` label of the metrics. @defaultValue `''` */
  metricsName?: string;
  /** @defaultValue the real clock of @kubekit/core */
  clock?: Clock;
  /** Random numbers in [0, 1) for jitter. @defaultValue Math.random */
  random?: () => number;
  /** Applied to each object before it reaches the target (never to bookmarks). @defaultValue none */
  transform?: (obj: T) => T;
  /** @defaultValue {@link defaultLogger} (silent unless `KUBEKIT_LOG_LEVEL` is set) */
  logger?: Logger;
}

const initialEventsEndAnnotation = 'k8s.io/initial-events-end';
/**
 * The longest a watch stream is read without yielding to I/O, in ms: a server that streams faster than
 * the informer ingests would otherwise hold the event loop for the whole burst (delete-reason lookups,
 * lease renewals, health probes and timers of the process all waiting behind it).
 */
const ingestSliceMs = 5;
/** A watch that ends sooner without any event is a failure (client-go's `VeryShortWatchError`), in ms. */
const veryShortWatchMs = 1000;

/** The reason an attempt was interrupted by {@link Reflector.reconfigure} or {@link Reflector.relist}. */
class Interrupted extends Error {
  override name = 'Interrupted';
}

/** The server accepted a streaming list but did not deliver its initial events in time. */
class InitialEventsTimeout extends Error {
  override name = 'InitialEventsTimeout';
}

/** A page of a list asked for, and the page after it if it was asked for ahead (with the token guessed). */
interface PageFetch<T extends KubeObjectLike> {
  page: Promise<KubeList<T & KubeObject>>;
  next?: { token: string; fetch: PageFetch<T> };
}

interface OpenWatch<T extends KubeObjectLike> {
  stream: WatchStreamLike<T>;
  iterator: AsyncIterator<WatchEvent<T & KubeObject>[]>;
  pending: WatchEvent<T & KubeObject>[];
}

/**
 * Keeps a {@link ReflectorTarget} equal to the server's state of one resource, as client-go's
 * `Reflector`: list (paginated, or a streaming list), then watch from the list's resource version,
 * forever.
 *
 * Contract:
 * - Ordering: the target sees a `replace` with the complete state, then every change after it in the
 *   server's order; after a relist, a new `replace`. Nothing is applied twice and nothing is skipped:
 *   a broken watch resumes from the resource version of the last event applied (or bookmark seen).
 * - Consistency: the target is eventually consistent with the server. It may lag by the events in
 *   flight; it is never ahead, and never a mix of two states (a relist is one `replace`).
 * - Recovery: a watch that ends — the server's `timeoutSeconds`, or its connection closed or reset
 *   under it by the server, a proxy or a load balancer — is no failure, as in client-go: the next watch
 *   starts at once from the last resource version (`status.lastWatchClose` says what happened), unless
 *   the watch lasted under 1 s without any event (client-go's very short watch: a failure).
 *   `410 Gone`/`Expired` or a too-large resource version ⇒ relist at once (then with backoff if it
 *   happens again; client-go waits a backoff step first). An expired `continue` token ⇒ the list
 *   starts over. Anything else (network errors, 5xx, 429, a silent connection, a truncated or
 *   undecodable line) ⇒ wait per the backoff policy (at least `Retry-After`), then resume the watch,
 *   or relist if never synced. The backoff starts over once a
 *   list completed or a watch stayed open for its `resetAfterMs`. Permanent errors (400, 403, 404, 405)
 *   are retried the same way, and after `permanentErrorAttempts` of them since the last success they show in
 *   `status.permanentError`. The reflector never gives up: it stops only when the signal passed to
 *   {@link Reflector.start} aborts.
 * - Observability: every phase change is a `status` event, every failure an `error` event, and
 *   {@link Reflector.status} is always current.
 *
 * @see https://github.com/kubernetes/client-go/blob/master/tools/cache/reflector.go
 */
export class Reflector<T extends KubeObjectLike = KubeObject> extends EventEmitter<ReflectorEvents> {
  private readonly lw: ListerWatcherLike<T>;
  private readonly target: ReflectorTarget<T>;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: Backoff;
  private readonly logger: Logger;
  private readonly opts: Required<Pick<ReflectorOptions<T>, 'pageSize' | 'minWatchTimeoutSeconds' | 'idleTimeoutMs' | 'initialEventsIdleTimeoutMs' | 'listIdleTimeoutMs'>>;
  private readonly transform: ((obj: T) => T) | undefined;
  private readonly permanentErrorAttempts: number;
  private readonly metricsName: string;
  private metrics: InformerMetricsSink | undefined;
  private permanentFailures = 0;
  private permanentError: Error | undefined;

  private labelSelector: string;
  private fieldSelector: string;
  private phase: ReflectorPhase = 'idle';
  /** Set by a watch that timed out idle: the next watch first checks the server has reached `rv` (once). */
  private checkResourceVersion = false;
  private synced = false;
  private needSync = true;
  private rv: string | undefined;
  private streaming: StreamingListSupport;
  private lastError: Error | undefined;
  private retryInMs: number | undefined;
  private syncs = 0;
  private watches = 0;
  private watchesResumed = 0;
  private lastWatchClose: WatchClosedError | undefined;
  private attempt: AbortController | undefined;
  private running: Promise<void> | undefined;
  private openWatch: OpenWatch<T> | undefined;

  constructor(listerWatcher: ListerWatcherLike<T>, target: ReflectorTarget<T>, options: ReflectorOptions<T> = {}) {
    super();
    this.lw = listerWatcher;
    this.target = target;
    this.clock = options.clock ?? realClock;
    this.random = options.random ?? Math.random;
    this.backoff = new Backoff(options.backoff, this.clock, this.random);
    this.logger = options.logger ?? defaultLogger();
    this.transform = options.transform;
    this.permanentErrorAttempts = Math.max(1, options.permanentErrorAttempts ?? 3);
    this.metrics = options.metrics;
    this.metricsName = options.metricsName ?? '';
    this.labelSelector = options.labelSelector ?? '';
    this.fieldSelector = options.fieldSelector ?? '';
    this.streaming = options.streamingList === 'never' ? 'disabled' : 'unknown';
    this.opts = {
      pageSize: options.pageSize ?? 500,
      minWatchTimeoutSeconds: options.minWatchTimeoutSeconds ?? 300,
      idleTimeoutMs: options.idleTimeoutMs ?? 180_000,
      initialEventsIdleTimeoutMs: options.initialEventsIdleTimeoutMs ?? 10_000,
      listIdleTimeoutMs: options.listIdleTimeoutMs ?? 60_000,
    };
  }

  /** The current state. */
  get status(): ReflectorStatus {
    return {
      phase: this.phase,
      synced: this.synced,
      resourceVersion: this.rv,
      streamingList: this.streaming,
      consecutiveFailures: this.backoff.consecutiveFailures,
      lastError: this.lastError,
      permanentError: this.permanentError,
      retryInMs: this.retryInMs,
      syncs: this.syncs,
      watches: this.watches,
      watchesResumed: this.watchesResumed,
      lastWatchClose: this.lastWatchClose,
      labelSelector: this.labelSelector,
      fieldSelector: this.fieldSelector,
    };
  }

  /** Reports to `sink` from now on (replacing the `metrics` option). */
  useMetrics(sink: InformerMetricsSink | undefined): void {
    this.metrics = sink;
  }

  /** The resource version of the last event applied or bookmark seen. */
  get lastSyncResourceVersion(): string | undefined {
    return this.rv;
  }

  /**
   * Runs until `signal` aborts; resolves once everything it started has stopped. Calling it again
   * while it runs returns the same promise.
   */
  start(signal: AbortSignal): Promise<void> {
    this.running ??= this.run(signal).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Changes the selectors sent to the server and relists with them at once, interrupting whatever is
   * in progress (including a backoff wait).
   */
  reconfigure(selectors: { labelSelector?: string; fieldSelector?: string }): void {
    if (selectors.labelSelector !== undefined) this.labelSelector = selectors.labelSelector;
    if (selectors.fieldSelector !== undefined) this.fieldSelector = selectors.fieldSelector;
    this.relist();
  }

  /** Relists at once, interrupting whatever is in progress (including a backoff wait). */
  relist(): void {
    this.needSync = true;
    this.backoff.reset();
    this.permanentFailures = 0;
    this.attempt?.abort(new Interrupted('relist requested'));
  }

  private setPhase(phase: ReflectorPhase): void {
    if (phase !== 'backoff') this.retryInMs = undefined;
    this.phase = phase;
    this.emit('status', this.status);
  }

  private async run(signal: AbortSignal): Promise<void> {
    try {
      while (!signal.aborted) {
        const attempt = new AbortController();
        this.attempt = attempt;
        const forward = (): void => attempt.abort(signal.reason);
        signal.addEventListener('abort', forward, { once: true });
        try {
          if (this.needSync) await this.sync(attempt.signal);
          await this.watchLoop(attempt.signal);
        } catch (err) {
          if (signal.aborted) break;
          if (attempt.signal.aborted && attempt.signal.reason instanceof Interrupted) continue;
          try {
            await this.recover(err, attempt.signal);
          } catch (sleepErr) {
            if (signal.aborted) break;
            if (!(attempt.signal.reason instanceof Interrupted)) throw sleepErr;
          }
        } finally {
          signal.removeEventListener('abort', forward);
          this.closeOpenWatch();
        }
      }
    } finally {
      this.attempt = undefined;
      this.setPhase('stopped');
    }
  }

  /** Decides what a failure means, reports it, and waits as long as the backoff policy says. */
  private async recover(err: unknown, signal: AbortSignal): Promise<void> {
    const error = explainFailure(err, this.needSync ? (this.streaming === 'unknown' || this.streaming === 'supported' ? 'streaming list' : 'list') : 'watch');
    this.lastError = error;
    this.metrics?.failed(this.metricsName);
    if (isPermanent(err)) {
      this.permanentFailures++;
      if (this.permanentFailures >= this.permanentErrorAttempts && this.permanentError === undefined) {
        this.permanentError = error;
        this.logger.error(`${this.needSync ? 'list' : 'watch'} failed ${this.permanentFailures} times with a permanent error; still retrying`, { error: describe(error) });
      }
    }
    const relist = isExpired(err) || isTooLargeResourceVersion(err);
    const firstFailure = this.backoff.consecutiveFailures === 0;
    let delay = this.backoff.next();
    if (relist) {
      this.needSync = true;
      // Where kubekit differs on purpose: client-go relists only after a step of its backoff manager
      // (tools/cache/reflector.go: a 410 ends ListAndWatch, and RunWithContext's
      // `delayHandler.Until(ctx, true, true, …)` waits `delayHandler()` — 0.8–1.6 s at first — before
      // the next one). kubekit relists at once after a first failure, and with backoff after more.
      if (firstFailure) delay = 0;
      this.logger.info('resource version unavailable; relisting', { error: describe(error) });
    } else {
      this.logger.warn(`${this.needSync ? 'list' : 'watch'} failed; retrying`, { error: describe(error), delayMs: Math.round(delay) });
    }
    const retryAfter = retryAfterMs(err);
    if (retryAfter !== undefined) delay = Math.max(delay, retryAfter);
    this.emitError(error);
    if (delay <= 0) return;
    this.retryInMs = delay;
    this.setPhase('backoff');
    await this.clock.sleep(delay, signal);
  }

  private emitError(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  /** Gets a complete state into the target: a streaming list when possible, else a paginated list. */
  private async sync(signal: AbortSignal): Promise<void> {
    this.setPhase('listing');
    if (this.streaming === 'unknown' || this.streaming === 'supported') {
      try {
        await this.streamingList(signal);
        return;
      } catch (err) {
        if (signal.aborted) throw err;
        const rejected = this.streaming === 'unknown' && isStreamingListRejected(err) && unsupportedFieldLabel(err) === undefined;
        if (!(err instanceof InitialEventsTimeout) && !rejected) throw err;
        this.streaming = 'unsupported';
        this.logger.info('the server does not serve streaming lists (sendInitialEvents); using list+watch', { error: describe(err) });
        this.emit('status', this.status);
      }
    }
    await this.paginatedList(signal);
  }

  private async paginatedList(signal: AbortSignal): Promise<void> {
    const maxRestarts = 3;
    for (let restarts = 0; ; restarts++) {
      // Pages asked for ahead stop with this attempt, whatever ends it (a wrong guess, an error, the end).
      const ahead = new AbortController();
      const aheadSignal = AbortSignal.any([signal, ahead.signal]);
      try {
        const items: T[] = [];
        let cont: string | undefined;
        let resourceVersion = '';
        let expired = false;
        let fetch = this.fetchPage(undefined, signal, aheadSignal);
        for (;;) {
          let page: KubeList<T & KubeObject>;
          try {
            page = await fetch.page;
          } catch (err) {
            if (cont !== undefined && isExpired(err) && restarts < maxRestarts) {
              this.logger.info('continue token expired; listing from the start', { error: describe(err) });
              expired = true;
              break;
            }
            throw err;
          }
          const itemKind = typeof page.kind === 'string' && page.kind.endsWith('List') ? page.kind.slice(0, -4) : undefined;
          const pageItems = listItemsOf<T & KubeObject>(page);
          for (const item of pageItems) {
            // Lists of built-in kinds omit each item's apiVersion and kind.
            if (item.apiVersion === undefined && page.apiVersion !== undefined) item.apiVersion = page.apiVersion;
            if (item.kind === undefined && itemKind !== undefined) item.kind = itemKind;
            items.push(this.applyTransform(item));
          }
          cont = page.metadata?.continue || undefined;
          if (cont === undefined) {
            resourceVersion = page.metadata?.resourceVersion ?? '';
            break;
          }
          // The next page was asked for while this one was decoded, if the guess was right.
          fetch = fetch.next?.token === cont ? fetch.next.fetch : this.fetchPage(cont, signal, aheadSignal);
        }
        if (expired) continue;
        this.completeSync(items, resourceVersion);
        return;
      } finally {
        ahead.abort();
      }
    }
  }

  /**
   * Asks for one page of a list, and for the next one as soon as this one's `continue` token shows
   * (before this page is decoded: see `RequestOptions.onContinue`), so that the server answers it
   * while this one is decoded. A page asked for ahead is awaited, or dropped with `aheadSignal`.
   */
  private fetchPage(cont: string | undefined, signal: AbortSignal, aheadSignal: AbortSignal): PageFetch<T> {
    // Made before the request: a lister may call onContinue before `list` returns.
    const fetch = {} as PageFetch<T>;
    fetch.page = this.lw.list(
      { limit: this.opts.pageSize, continue: cont, labelSelector: this.labelSelector, fieldSelector: this.fieldSelector },
      {
        signal,
        idleTimeoutMs: this.opts.listIdleTimeoutMs,
        onContinue: (token) => {
          const next = this.fetchPage(token, aheadSignal, aheadSignal);
          // Its failure counts only if it is awaited.
          next.page.catch(() => undefined);
          fetch.next = { token, fetch: next };
        },
      },
    );
    return fetch;
  }

  /** A streaming list; on success leaves the watch open in `this.openWatch` for {@link watchLoop}. */
  private async streamingList(signal: AbortSignal): Promise<void> {
    const stream = await this.openStreamingList(signal);
    this.watches++;
    this.metrics?.watchStarted(this.metricsName);
    const iterator = stream.batches()[Symbol.asyncIterator]();
    const initial = new Map<string, T>();
    const slice = new TimeSlice(ingestSliceMs, () => this.clock.now());
    try {
      for (;;) {
        const turn = slice.next();
        if (turn !== undefined) await turn;
        let next: IteratorResult<WatchEvent<T & KubeObject>[]>;
        try {
          next = await iterator.next();
        } catch (err) {
          if (err instanceof IdleTimeoutError) throw new InitialEventsTimeout(`no initial events for ${this.opts.initialEventsIdleTimeoutMs} ms`);
          throw err;
        }
        if (next.done) throw new KubeError('InternalError', 'the streaming list ended before its initial-events-end bookmark');
        const batch = next.value;
        for (let i = 0; i < batch.length; i++) {
          const event = batch[i];
          switch (event.type) {
            case 'ADDED':
            case 'MODIFIED': {
              const obj = this.applyTransform(event.object);
              initial.set(objectKey(obj), obj);
              break;
            }
            case 'DELETED':
              initial.delete(objectKey(event.object));
              break;
            case 'BOOKMARK': {
              const annotations = event.object.metadata?.annotations;
              if (annotations?.[initialEventsEndAnnotation] !== 'true') break;
              this.streaming = 'supported';
              stream.setIdleTimeout(this.opts.idleTimeoutMs);
              this.completeSync([...initial.values()], event.object.metadata?.resourceVersion ?? '');
              this.openWatch = { stream, iterator, pending: batch.slice(i + 1) };
              return;
            }
            case 'ERROR':
              throw KubeError.fromStatus(event.object);
          }
        }
      }
    } catch (err) {
      stream.close();
      throw err;
    }
  }

  private async openStreamingList(signal: AbortSignal): Promise<WatchStreamLike<T>> {
    try {
      return await this.lw.watch(
        {
          sendInitialEvents: true,
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: true,
          timeoutSeconds: this.watchTimeoutSeconds(),
          labelSelector: this.labelSelector,
          fieldSelector: this.fieldSelector,
        },
        { signal, idleTimeoutMs: this.opts.initialEventsIdleTimeoutMs },
      );
    } catch (err) {
      if (err instanceof IdleTimeoutError) throw new InitialEventsTimeout(`no answer to a streaming list for ${this.opts.initialEventsIdleTimeoutMs} ms`);
      throw err;
    }
  }

  private completeSync(items: T[], resourceVersion: string): void {
    this.checkResourceVersion = false;
    this.target.replace(items, resourceVersion);
    this.metrics?.listed(this.metricsName, this.syncs > 0);
    this.reportSize();
    this.backoff.healthy();
    this.rv = resourceVersion;
    this.needSync = false;
    this.synced = true;
    this.syncs++;
    this.lastError = undefined;
    this.permanentFailures = 0;
    this.permanentError = undefined;
    this.emit('status', this.status);
  }

  private watchTimeoutSeconds(): number {
    return Math.floor(this.opts.minWatchTimeoutSeconds * (1 + this.random()));
  }

  /**
   * Watches from the last resource version until an error. A watch that ends — the server's
   * `timeoutSeconds`, or its connection closed or reset under it — is resumed at once from the last
   * resource version, unless it lasted under a second without any event (a failure: the backoff
   * applies), as client-go's `Reflector.watch` and `handleAnyWatch` (tools/cache/reflector.go) with
   * apimachinery's `StreamWatcher.receive` (pkg/watch/streamwatcher.go), which ends a stream without an
   * error on io.EOF, io.ErrUnexpectedEOF and `net.IsProbableEOF` errors (connection reset, closed).
   */
  private async watchLoop(signal: AbortSignal): Promise<void> {
    for (;;) {
      let open = this.openWatch;
      this.openWatch = undefined;
      // As client-go, the clock starts before the request: some proxies send no header until the first event.
      let started = this.clock.now();
      if (open === undefined) {
        this.setPhase('connecting');
        if (this.checkResourceVersion) {
          // The last watch saw no byte, not even a bookmark, for idleTimeoutMs. A server whose store
          // went back in time (etcd restored; an in-memory server restarted) keeps a watch from a
          // version it has not reached open and silent, as kube-apiserver does: without this check the
          // informer would wait on it forever. A one-item list not older than our version answers
          // 504 "Too large resource version" from such a server (then: relist), else goes on.
          this.checkResourceVersion = false;
          await this.lw.list(
            { labelSelector: this.labelSelector, fieldSelector: this.fieldSelector, limit: 1, resourceVersion: this.rv, resourceVersionMatch: 'NotOlderThan' },
            { signal, idleTimeoutMs: this.opts.listIdleTimeoutMs },
          );
          started = this.clock.now();
        }
        const stream = await this.lw.watch(
          {
            resourceVersion: this.rv,
            allowWatchBookmarks: true,
            timeoutSeconds: this.watchTimeoutSeconds(),
            labelSelector: this.labelSelector,
            fieldSelector: this.fieldSelector,
          },
          { signal, idleTimeoutMs: this.opts.idleTimeoutMs },
        );
        this.watches++;
        this.metrics?.watchStarted(this.metricsName);
        this.backoff.healthy();
        open = { stream, iterator: stream.batches()[Symbol.asyncIterator](), pending: [] };
      }
      this.openWatch = open;
      this.setPhase('watching');
      let events = this.handleEvents(open.pending);
      const slice = new TimeSlice(ingestSliceMs, () => this.clock.now());
      let broken: { loss: ConnectionLoss; cause: unknown } | undefined;
      for (;;) {
        let next: IteratorResult<WatchEvent<T & KubeObject>[]>;
        try {
          next = await open.iterator.next();
        } catch (err) {
          // A silent watch: before the next one, ask whether the server is at our version at all. (Only
          // a watch's silence: the check's own failure must not lead to another check, or a server
          // slow to answer lists would be checked forever and never watched.)
          if (err instanceof IdleTimeoutError && this.rv !== undefined && this.rv !== '') this.checkResourceVersion = true;
          const loss = signal.aborted ? undefined : connectionLoss(err);
          if (loss === undefined) throw err;
          broken = { loss, cause: err };
          break;
        }
        if (next.done) break;
        events += this.handleEvents(next.value);
        const turn = slice.next();
        if (turn !== undefined) await turn;
      }
      this.closeOpenWatch();
      // A watch that ends at once, again and again, must not become a busy loop: a very short watch is a failure.
      const durationMs = this.clock.now() - started;
      const veryShort = events === 0 && durationMs < veryShortWatchMs;
      if (broken !== undefined) {
        const { loss, cause } = broken;
        const closed = new WatchClosedError(loss.how, { connectionCode: loss.code, events, durationMs, resourceVersion: this.rv, resumed: !veryShort }, cause);
        if (veryShort) throw closed;
        this.watchResumed(closed);
      } else if (veryShort) {
        throw new KubeError('InternalError', 'the watch ended immediately without sending any event');
      }
    }
  }

  /** A healthy watch whose connection broke: no failure; reported, and the next watch starts at once. */
  private watchResumed(closed: WatchClosedError): void {
    this.lastWatchClose = closed;
    this.watchesResumed++;
    this.logger.info(closed.message, { events: closed.events, durationMs: Math.round(closed.durationMs), resourceVersion: closed.resourceVersion, code: closed.connectionCode });
  }

  /** Applies a batch of watch events; returns how many were objects or bookmarks. Throws on `ERROR`. */
  private handleEvents(batch: WatchEvent<T & KubeObject>[]): number {
    let n = 0;
    for (const event of batch) {
      switch (event.type) {
        case 'ADDED':
        case 'MODIFIED':
        case 'DELETED': {
          const rv = event.object.metadata?.resourceVersion;
          this.target.apply({ type: event.type, object: this.applyTransform(event.object) });
          this.metrics?.event(this.metricsName, event.type);
          if (rv) this.rv = rv;
          n++;
          break;
        }
        case 'BOOKMARK': {
          const rv = event.object.metadata?.resourceVersion;
          if (rv) this.rv = rv;
          n++;
          break;
        }
        case 'ERROR':
          throw KubeError.fromStatus(event.object);
      }
    }
    if (n > 0) this.reportSize();
    if (n > 0 && (this.lastError !== undefined || this.permanentError !== undefined)) {
      this.lastError = undefined;
      this.permanentFailures = 0;
      this.permanentError = undefined;
      this.emit('status', this.status);
    }
    return n;
  }

  private reportSize(): void {
    if (this.metrics !== undefined && this.target.size !== undefined) this.metrics.cacheSize(this.metricsName, this.target.size());
  }

  private applyTransform(obj: T): T {
    if (this.transform === undefined) return obj;
    try {
      return this.transform(obj);
    } catch (err) {
      const error = new KubeError('InternalError', `the transform failed for ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}: ${describe(err)}; keeping the object as received`, { cause: err });
      this.logger.error(error.message);
      this.emitError(error);
      return obj;
    }
  }

  private closeOpenWatch(): void {
    if (this.openWatch !== undefined) {
      this.openWatch.stream.close();
      this.openWatch = undefined;
    }
  }
}

/**
 * A list page's items, each checked to be an object with a name (`null` or absent items: none, as
 * Go decodes them); anything else fails the list with what was wrong (it is retried, as client-go
 * retries a list it cannot decode).
 */
function listItemsOf<T>(page: { items?: unknown }): T[] {
  const items = page.items;
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw new KubeError('InternalError', `unable to decode the list: its items are ${jsonTypeName(items)}; expected an array`);
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new KubeError('InternalError', `unable to decode the list: items[${i}] is ${jsonTypeName(item)}; expected an object`);
    }
    const meta = (item as { metadata?: { name?: unknown; namespace?: unknown } }).metadata;
    if (typeof meta?.name !== 'string' || meta.name === '' || (meta.namespace != null && typeof meta.namespace !== 'string')) {
      try {
        objectKey(item as KubeObject);
      } catch (err) {
        throw new KubeError('InternalError', `unable to decode the list: items[${i}]: ${(err as Error).message}`, { cause: err });
      }
    }
  }
  return items as T[];
}
