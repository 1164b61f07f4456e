import { KubeError, type Clock, type KubeList, type KubeObject, type Logger, type TimerHandle } from '@kubekit/core';
import { escapeFieldValue } from '@kubekit/selectors';
import type { DeleteReason } from '../events.js';
import type { ListOptions, RequestOptions } from '../listerWatcher.js';
import { describe } from './errors.js';
import type { KubeObjectLike } from '../types.js';

/** The requests the resolver confirms with: a metadata-only GET by name, or a list restricted to one name. */
export interface NameLookup {
  get(name: string, request?: RequestOptions): Promise<KubeObjectLike | undefined>;
  list(options: ListOptions, request?: RequestOptions): Promise<KubeList<KubeObjectLike & KubeObject>>;
}

/**
 * How an informer confirms delete reasons with the server (see `Informer`, Deletes): a budget of
 * lookups, one per departure at most.
 */
export interface DeleteReasonOptions {
  /** Lookups per second, sustained (a token bucket). @defaultValue 50 */
  qps?: number;
  /** Lookups that may start at once after a quiet period (the bucket's size). @defaultValue 500 */
  burst?: number;
  /**
   * Lookups in flight at once. They are pipelined on one connection, which the server answers one
   * request after another, so this is how many wait there, not how many the server works on at once;
   * GETs that cannot be pipelined (a proxy, a server refusing pipelining) go as ordinary requests,
   * at most 8 at once. @defaultValue 256
   */
  concurrency?: number;
  /**
   * A departure whose lookup could not start within this long of the departure (the budget is
   * spent) gets the reason `'unknown'`, at once when that can be foreseen. @defaultValue 5000
   */
  maxWaitMs?: number;
  /**
   * How long a departure waits before its lookup may be sent, in ms: the object coming back within
   * this window (re-entering the selection, or re-created) settles the reason without a request.
   * Only that object's notifications wait meanwhile (per-object order); others go on. Must be less
   * than `maxWaitMs`. @defaultValue 0 (look up at once: objects rarely come back that soon, and the
   * window delays every confirmed delete by that much)
   */
  graceMs?: number;
}

/**
 * The reason of a delete that is being confirmed: `value` once known (set synchronously when a later
 * event settles it), and a promise of it. Never rejects.
 */
export class PendingReason {
  private settled: DeleteReason | undefined;
  private resolvePromise!: (reason: DeleteReason) => void;
  /** Resolves with the reason once known. */
  readonly promise = new Promise<DeleteReason>((resolve) => (this.resolvePromise = resolve));

  /** The reason, once known. */
  get value(): DeleteReason | undefined {
    return this.settled;
  }

  /** Sets the reason; later calls are ignored. */
  settle(reason: DeleteReason): void {
    if (this.settled !== undefined) return;
    this.settled = reason;
    this.resolvePromise(reason);
  }
}

interface Lookup {
  key: string;
  name: string;
  namespace: string | undefined;
  uid: string;
  /** The departure's resource version: the lookup reads a state at least that fresh. */
  resourceVersion: string;
  reason: PendingReason;
  queuedAt: number;
  /** Times the server asked for this lookup again later (429, or 5xx with `Retry-After`). */
  retries: number;
}

/** client-go's limit on retries of one request the server asked to retry (`rest.Request`'s maxRetries). */
const maxRetries = 10;

/**
 * Tells a real deletion from a departure from the selection, for `DELETED` events of a server-side
 * selected watch (the apiserver sends `DELETED` for both, carrying the last state that matched).
 *
 * Contract:
 * - At most one request per departure, and never a list of the whole resource: a metadata-only GET
 *   by name (`PartialObjectMetadata`); after a 403 on it, a list restricted to `metadata.name` (list
 *   permission suffices) from then on; either reads a state at least as fresh as the departure
 *   (its resource version: the apiserver answers from its watch cache, not with a quorum read from
 *   etcd). Absent, or present with another `uid` ⇒ `deleted`; present with the same `uid` ⇒
 *   `leftSelection`. The answer describes the object when it was checked, so an
 *   object that left the selection and was deleted right after reads as `deleted`.
 * - Coalesced per object: an object of the same name that comes back (re-enters the selection, or is
 *   re-created) before its lookup is answered settles the question without the server (same `uid` ⇒
 *   `leftSelection`, another ⇒ `deleted`): its lookup is not sent, or its answer ignored. With
 *   `graceMs`, no lookup is sent before a departure is that old, so that more of them settle so.
 * - Bounded: `concurrency` lookups in flight, a token bucket of `qps`/`burst`; a departure whose
 *   lookup could not start within `maxWaitMs` gets `'unknown'`, as does one whose lookup failed
 *   (a failure is reported, not guessed over) or was forbidden (403 on both forms). A lookup the
 *   server asks to send again later (429, or a 5xx with `Retry-After`, as API Priority and Fairness
 *   answers under load) is sent again after that wait, as client-go's rest client does, at most 10
 *   times and only while it still starts within `maxWaitMs`; each retry takes a token.
 * - {@link DeleteReasonResolver.stop} settles every pending reason as `'unknown'` and sends nothing
 *   more; lookups in flight end with the informer's signal.
 */
export class DeleteReasonResolver {
  private readonly waiting: Lookup[] = [];
  private waitingHead = 0;
  private readonly byKey = new Map<string, Lookup>();
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  /** Timers of lookups waiting to be sent again, as the server asked (cancelled on stop). */
  private readonly retryTimers = new Set<TimerHandle>();
  private tokens: number;
  private tokensAt: number;
  private timer: TimerHandle | undefined;
  private timerAt = 0;
  private useList = false;
  private forbidden = false;
  private stopped = false;
  private readonly qps: number;
  private readonly burst: number;
  private readonly concurrency: number;
  private readonly maxWaitMs: number;
  private readonly graceMs: number;
  /** Requests sent, and reasons reported as `'unknown'` (for status and tests). */
  readonly counts = { lookups: 0, unknown: 0, settledLocally: 0, retries: 0 };

  constructor(
    private readonly lookup: NameLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly signal: () => AbortSignal | undefined,
    options: DeleteReasonOptions = {},
  ) {
    this.qps = positive(options.qps, 50, 'qps');
    this.burst = Math.max(1, positive(options.burst, 500, 'burst'));
    this.concurrency = Math.max(1, Math.floor(positive(options.concurrency, 256, 'concurrency')));
    this.maxWaitMs = positive(options.maxWaitMs, 5000, 'maxWaitMs');
    this.graceMs = options.graceMs === undefined || options.graceMs === 0 ? 0 : positive(options.graceMs, 0, 'graceMs');
    if (this.graceMs >= this.maxWaitMs) throw KubeError.badRequest(`deleteReasons.graceMs must be less than deleteReasons.maxWaitMs (${this.maxWaitMs}), got ${this.graceMs}`);
    this.tokens = this.burst;
    this.tokensAt = clock.now();
  }

  /** The number of departures waiting for or in a lookup. */
  get pending(): number {
    return this.byKey.size;
  }

  /**
   * The reason the object with `key` (which just left the cache in state `obj`) left it, once the
   * server confirmed it. Returns the pending reason at once.
   */
  resolve(key: string, obj: KubeObjectLike): PendingReason {
    const reason = new PendingReason();
    if (this.stopped || this.forbidden) {
      this.unknown(reason);
      return reason;
    }
    // A second departure under the same key means the object came back meanwhile (settled already).
    const previous = this.byKey.get(key);
    if (previous !== undefined) this.unknown(previous.reason);
    const meta = obj.metadata ?? {};
    const lookup: Lookup = { key, name: meta.name ?? '', namespace: meta.namespace || undefined, uid: meta.uid ?? '', resourceVersion: meta.resourceVersion ?? '', reason, queuedAt: this.clock.now(), retries: 0 };
    // Foreseeably late (more waiting than the budget allows within maxWaitMs): unknown now, not later.
    const ahead = this.waiting.length - this.waitingHead;
    if (this.startDelayMs(ahead + 1) > this.maxWaitMs) {
      this.unknown(reason);
      return reason;
    }
    this.byKey.set(key, lookup);
    this.waiting.push(lookup);
    this.pump();
    return reason;
  }

  /**
   * An object with `key` and `uid` entered the cache: settles a pending reason of the same key
   * without asking the server. A lookup not sent yet is not sent; the answer of one in flight is
   * ignored (aborting it would cost its keep-alive connection).
   */
  settle(key: string, uid: string | undefined): void {
    const lookup = this.byKey.get(key);
    if (lookup === undefined) return;
    this.byKey.delete(key);
    this.counts.settledLocally++;
    lookup.reason.settle((uid ?? '') === lookup.uid ? 'leftSelection' : 'deleted');
  }

  /** Settles every pending reason as `'unknown'` and sends nothing more; lookups in flight end with the informer's signal. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    for (const t of this.retryTimers) t.cancel();
    this.retryTimers.clear();
    // Lookups in flight end with the informer's signal.
    for (const lookup of this.byKey.values()) this.unknown(lookup.reason);
    this.byKey.clear();
    this.waiting.length = 0;
    this.waitingHead = 0;
  }

  /** Resolves once no lookup is in flight (after {@link DeleteReasonResolver.stop}, once the signal ended them). */
  async drained(): Promise<void> {
    // Nothing starts once stopped, so this ends after one round; bounded all the same.
    for (let i = 0; i < 100 && this.running.size > 0; i++) await Promise.all([...this.running]);
  }

  private unknown(reason: PendingReason): void {
    if (reason.value === undefined) this.counts.unknown++;
    reason.settle('unknown');
  }

  /** The wait, in ms, before the `n`-th lookup from now can take a token. */
  private startDelayMs(n: number): number {
    this.refill();
    const short = n - this.tokens;
    return short <= 0 ? 0 : (short / this.qps) * 1000;
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.tokensAt) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.tokensAt) * this.qps) / 1000);
      this.tokensAt = now;
    }
  }

  /**
   * Starts lookups while there are slots and tokens, and gives up on those that waited past
   * `maxWaitMs`; otherwise arms a timer for the next token or the first waiting lookup's deadline,
   * whichever comes first (a slot that frees sooner pumps again).
   */
  private pump(): void {
    while (!this.stopped) {
      const lookup = this.firstWaiting();
      if (lookup === undefined) return;
      const now = this.clock.now();
      const deadline = lookup.queuedAt + this.maxWaitMs;
      if (now > deadline) {
        this.shiftWaiting();
        this.byKey.delete(lookup.key);
        this.unknown(lookup.reason);
        continue;
      }
      let wait = deadline + 1 - now;
      // In its grace window still (the queue is in departure order, so every later one is too).
      const sendableAt = lookup.queuedAt + this.graceMs;
      if (now < sendableAt) {
        wait = sendableAt - now;
      } else if (this.inFlight < this.concurrency) {
        this.refill();
        if (this.tokens >= 1) {
          this.shiftWaiting();
          this.tokens -= 1;
          const done = this.run(lookup);
          this.running.add(done);
          void done.finally(() => this.running.delete(done));
          continue;
        }
        wait = Math.min(wait, Math.ceil(((1 - this.tokens) / this.qps) * 1000));
      }
      // One timer, at the earliest time wanted (a slot that freed may bring the next token first).
      if (this.timer !== undefined && this.timerAt <= now + wait) return;
      this.timer?.cancel();
      this.timerAt = now + wait;
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wait);
      return;
    }
  }

  /** The first waiting lookup not settled meanwhile (the object came back: no request), left in the queue. */
  private firstWaiting(): Lookup | undefined {
    while (this.waitingHead < this.waiting.length) {
      const lookup = this.waiting[this.waitingHead];
      if (this.byKey.get(lookup.key) === lookup) return lookup;
      this.shiftWaiting();
    }
    this.waiting.length = 0;
    this.waitingHead = 0;
    return undefined;
  }

  /** Takes the first waiting lookup off the queue, compacting it now and then. */
  private shiftWaiting(): void {
    this.waitingHead++;
    if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
      this.waiting.splice(0, this.waitingHead);
      this.waitingHead = 0;
    }
  }

  private async run(lookup: Lookup): Promise<void> {
    this.inFlight++;
    const signal = this.signal();
    let again = false;
    try {
      const reason = await this.ask(lookup, signal);
      if (this.byKey.get(lookup.key) === lookup) lookup.reason.settle(reason);
    } catch (err) {
      again = this.byKey.get(lookup.key) === lookup && signal?.aborted !== true && this.retryLater(lookup, err);
      if (!again) {
        if (this.byKey.get(lookup.key) === lookup && signal?.aborted !== true) {
          this.logger.warn(`could not confirm why ${lookup.namespace === undefined ? '' : `${lookup.namespace}/`}${lookup.name} left the cache; reporting the reason as unknown`, { error: describe(err) });
        }
        this.unknown(lookup.reason);
      }
    } finally {
      if (!again && this.byKey.get(lookup.key) === lookup) this.byKey.delete(lookup.key);
      this.inFlight--;
      this.pump();
    }
  }

  /**
   * Sends `lookup` again after the wait the server asked for, as client-go's rest client does (a 429, or
   * a 5xx with `Retry-After`; at most {@link maxRetries} times), if that still starts within
   * `maxWaitMs` of the departure. The retry takes a token like any lookup. Returns whether it will.
   */
  private retryLater(lookup: Lookup, err: unknown): boolean {
    if (this.stopped || !(err instanceof KubeError) || lookup.retries >= maxRetries) return false;
    const seconds = err.details?.retryAfterSeconds;
    if (!(err.code === 429 || err.code >= 500) || seconds === undefined) return false;
    const waitMs = seconds * 1000;
    if (this.clock.now() + waitMs > lookup.queuedAt + this.maxWaitMs) return false;
    lookup.retries++;
    this.counts.retries++;
    const timer = this.clock.setTimeout(() => {
      this.retryTimers.delete(timer);
      // Settled meanwhile (the object came back), or stopped: nothing to send.
      if (this.stopped || this.byKey.get(lookup.key) !== lookup) return;
      this.waiting.push(lookup);
      this.pump();
    }, waitMs);
    this.retryTimers.add(timer);
    return true;
  }

  /** One request (a second only the first time a GET is forbidden, in the list form). */
  private async ask(lookup: Lookup, signal: AbortSignal | undefined): Promise<DeleteReason> {
    if (!this.useList) {
      try {
        this.counts.lookups++;
        const found = await this.lookup.get(lookup.name, { signal, namespace: lookup.namespace, metadataOnly: true, pipelined: true, resourceVersion: lookup.resourceVersion || undefined });
        return this.verdict(found, lookup);
      } catch (err) {
        if (!(err instanceof KubeError && err.code === 403)) throw err;
        this.useList = true;
        this.logger.info('the informer may not get objects by name; confirming delete reasons with lists restricted to metadata.name');
      }
    }
    try {
      this.counts.lookups++;
      const fresh = lookup.resourceVersion === '' ? {} : { resourceVersion: lookup.resourceVersion, resourceVersionMatch: 'NotOlderThan' as const };
      const list = await this.lookup.list({ fieldSelector: `metadata.name=${escapeFieldValue(lookup.name)}`, labelSelector: '', ...fresh }, { signal, namespace: lookup.namespace, metadataOnly: true });
      return this.verdict(list.items.find((o) => o.metadata?.name === lookup.name), lookup);
    } catch (err) {
      if (err instanceof KubeError && err.code === 403 && !this.forbidden) {
        this.forbidden = true;
        this.logger.warn('the informer may neither get objects nor list them by name; the reasons of server-side deletes are reported as unknown', { error: describe(err) });
      }
      throw err;
    }
  }

  private verdict(found: KubeObjectLike | undefined, lookup: Lookup): DeleteReason {
    if (found === undefined) return 'deleted';
    return (found.metadata?.uid ?? '') === lookup.uid ? 'leftSelection' : 'deleted';
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value)) throw KubeError.badRequest(`deleteReasons.${name} must be a positive number, got ${String(value)}`);
  return value;
}
