import type { DeleteReason } from '../events.js';
import type { PendingReason } from './deleteReasons.js';
import { TimeSlice } from './timeSlice.js';

/** One pending notification for a handler; `to` limits it to one listener of a shared registration. */
export type Notification<T> =
  | { kind: 'add'; obj: T; to?: unknown }
  | { kind: 'update'; obj: T; old: T }
  | { kind: 'delete'; obj: T; reason: DeleteReason | PendingReason }
  | { kind: 'synced'; to?: unknown };

/** What a registration delivers to. */
export interface Deliverer<T> {
  add?(obj: T, to?: unknown): unknown;
  update?(obj: T, old: T): unknown;
  delete?(obj: T, info: { reason: DeleteReason }): unknown;
  synced?(to?: unknown): unknown;
}

interface Entry<T> {
  key: string | symbol;
  /** `undefined` once merged away (an add then a delete the handler never saw). */
  n: Notification<T> | undefined;
}

/** The notifications of one object held behind a delete whose reason is not known yet. */
interface Held<T> {
  entries: Entry<T>[];
  /** Whether its first entry's reason is known, so the chain can be delivered. */
  ready: boolean;
}

const syncedKey = Symbol('synced');

/** How long a drain may run synchronous handlers before yielding to I/O, in ms. */
const sliceMs = 10;

/**
 * A handler's queue of notifications.
 *
 * Order is per object, not global: a delete whose reason is still being confirmed holds back that
 * object's later notifications only; other objects' notifications go past it. Once the reason is
 * known, the held notifications are delivered, in order, before anything else.
 *
 * Buffering policy (documented on `Informer`): up to `exactLimit` pending notifications are kept as
 * they are — every state, in order. Beyond that the handler is lagging, and a new notification for
 * an object that already has one pending is merged into it, so that the handler sees a subsequence of
 * the object's states, in order, ending with the latest: add+update ⇒ add(latest); update+update ⇒
 * update(latest, the state the handler last saw); add+delete ⇒ nothing; update+delete ⇒ delete;
 * delete+add ⇒ both. Memory is therefore bounded by `exactLimit` plus twice the number of objects,
 * however far the handler lags, and the watch stream never waits for a handler. A notification of a
 * kind the handler does not handle (`add` without an add handler, …) is not queued at all.
 */
export class HandlerQueue<T> {
  private entries: Entry<T>[] = [];
  private head = 0;
  /** Each object's latest pending notification, kept only from the time the handler lags until the queue is empty. */
  private readonly last = new Map<string | symbol, Entry<T>>();
  private tracking = false;
  private readonly held = new Map<string | symbol, Held<T>>();
  private readonly readyKeys: (string | symbol)[] = [];
  private heldCount = 0;
  private draining = false;
  private stopped = false;
  private syncedDelivered = false;
  private idleWaiters: (() => void)[] = [];

  /**
   * @param waitsForReasons - whether a delete whose reason is being confirmed waits for it (else it
   *   is delivered at once, with `'unknown'` until known)
   */
  constructor(
    private readonly handler: Deliverer<T>,
    private readonly onError: (err: unknown) => void,
    private readonly exactLimit = 10_000,
    private readonly waitsForReasons = true,
  ) {}

  /** Whether the `synced` notification has been delivered. */
  get hasSynced(): boolean {
    return this.syncedDelivered;
  }

  /** Whether this registration waits for delete reasons: it has a `delete` handler and wants them. */
  get wantsDeleteReasons(): boolean {
    return this.waitsForReasons && this.handler.delete !== undefined;
  }

  /** The number of pending notifications (held ones included). */
  get size(): number {
    return this.entries.length - this.head + this.heldCount;
  }

  /** Stops delivering; pending notifications are dropped. A handler call in progress finishes. */
  stop(): void {
    this.stopped = true;
    this.tracking = false;
    this.last.clear();
    this.held.clear();
    this.readyKeys.length = 0;
    this.heldCount = 0;
    this.entries = [];
    this.head = 0;
    this.resolveIdle();
  }

  /** Resolves once nothing is pending (held notifications included) or being delivered. */
  idle(): Promise<void> {
    if (!this.draining && this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Queues `synced` behind everything pending now (`to`: for one listener of a shared registration). */
  synced(to?: unknown): void {
    this.enqueue(syncedKey, to === undefined ? { kind: 'synced' } : { kind: 'synced', to });
  }

  /** Queues a notification for the object with `key`; merges it with one pending when the handler lags. */
  enqueue(key: string | symbol, n: Notification<T>): void {
    if (this.stopped) return;
    // A kind the registration has no handler for is never queued (`synced` always is: it marks hasSynced).
    if (n.kind !== 'synced' && this.handler[n.kind] === undefined) return;
    if (!this.tracking && this.size < this.exactLimit) {
      // Never lagged since the queue was last empty: no per-object bookkeeping at all.
      this.entries.push({ key, n });
    } else {
      // Lagging (or not yet caught up since): each object's latest pending notification is tracked,
      // and once lagging a new one merges into it.
      if (!this.tracking) this.startTracking();
      const pending = this.size >= this.exactLimit ? this.last.get(key) : undefined;
      if (pending === undefined) {
        this.track(key, n);
      } else if (pending.n === undefined) {
        pending.n = n;
      } else {
        const merged = merge(pending.n, n);
        if (merged === 'both') this.track(key, n);
        else pending.n = merged;
      }
    }
    if (!this.draining) {
      this.draining = true;
      queueMicrotask(() => void this.drain());
    }
  }

  /** Lagging begins: every pending notification is tracked as its object's latest (held ones are the older). */
  private startTracking(): void {
    this.tracking = true;
    for (const held of this.held.values()) for (const entry of held.entries) this.last.set(entry.key, entry);
    for (let i = this.head; i < this.entries.length; i++) this.last.set(this.entries[i].key, this.entries[i]);
  }

  /** Queues a notification as the object's latest pending one (lagging: later ones merge into it). */
  private track(key: string | symbol, n: Notification<T>): void {
    const entry: Entry<T> = { key, n };
    this.entries.push(entry);
    this.last.set(key, entry);
  }

  /** Forgets `entry` as its object's latest pending notification, if it is. */
  private untrack(entry: Entry<T>): void {
    if (this.last.size > 0 && this.last.get(entry.key) === entry) this.last.delete(entry.key);
  }

  /** The next notification to deliver: held ones whose reason is now known first, then the queue's. */
  private next(): Notification<T> | undefined {
    const fromHeld = this.nextHeld();
    if (fromHeld !== undefined) return fromHeld;
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head++];
      if (this.head > 1024 && this.head * 2 > this.entries.length) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
      if (entry.n === undefined) {
        this.untrack(entry);
        continue;
      }
      const held = this.held.size === 0 ? undefined : this.held.get(entry.key);
      if (held !== undefined) {
        held.entries.push(entry);
        this.heldCount++;
        continue;
      }
      if (this.waitsForReasons && isUnsettledDelete(entry.n)) {
        this.hold(entry);
        continue;
      }
      this.untrack(entry);
      return entry.n;
    }
    this.entries = [];
    this.head = 0;
    return undefined;
  }

  /** Holds `entry` (a delete whose reason is pending) and what follows for its object until the reason is known. */
  private hold(entry: Entry<T>): void {
    const held: Held<T> = { entries: [entry], ready: false };
    this.held.set(entry.key, held);
    this.heldCount++;
    this.waitFor(entry, held);
  }

  private waitFor(entry: Entry<T>, held: Held<T>): void {
    const reason = (entry.n as Extract<Notification<T>, { kind: 'delete' }>).reason as PendingReason;
    void reason.promise.then(() => {
      if (this.stopped || this.held.get(entry.key) !== held) return;
      held.ready = true;
      this.readyKeys.push(entry.key);
      if (!this.draining) {
        this.draining = true;
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private nextHeld(): Notification<T> | undefined {
    while (this.readyKeys.length > 0) {
      const key = this.readyKeys[0];
      const held = this.held.get(key);
      if (held === undefined || !held.ready) {
        this.readyKeys.shift();
        continue;
      }
      const entry = held.entries[0];
      if (entry === undefined) {
        this.held.delete(key);
        this.readyKeys.shift();
        continue;
      }
      if (entry.n !== undefined && isUnsettledDelete(entry.n)) {
        // Another departure behind a re-entry, still being confirmed: hold on.
        held.ready = false;
        this.readyKeys.shift();
        this.waitFor(entry, held);
        continue;
      }
      held.entries.shift();
      this.heldCount--;
      this.untrack(entry);
      if (held.entries.length === 0) {
        this.held.delete(key);
        this.readyKeys.shift();
      }
      if (entry.n !== undefined) return entry.n;
    }
    return undefined;
  }

  private async drain(): Promise<void> {
    const slice = new TimeSlice(sliceMs);
    try {
      for (;;) {
        if (this.stopped) return;
        const n = this.next();
        if (n === undefined) return;
        // Await only real promises: a synchronous handler costs no microtask turn.
        const pending = this.deliver(n);
        if (pending !== undefined) await pending;
        const turn = slice.next();
        if (turn !== undefined) await turn;
      }
    } finally {
      this.draining = false;
      if (!this.stopped && (this.head < this.entries.length || this.readyKeys.length > 0)) {
        this.draining = true;
        queueMicrotask(() => void this.drain());
      } else if (this.size === 0) {
        // Caught up: no bookkeeping until the handler lags again.
        this.tracking = false;
        this.last.clear();
        this.resolveIdle();
      }
    }
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Calls the handler; awaits only when it returns a promise. */
  private deliver(n: Notification<T>): Promise<void> | undefined {
    if (n.kind === 'delete' && typeof n.reason !== 'string') {
      return this.call({ kind: 'delete', obj: n.obj, reason: n.reason.value ?? 'unknown' });
    }
    return this.call(n);
  }

  private call(n: Notification<T>): Promise<void> | undefined {
    let result: unknown;
    try {
      switch (n.kind) {
        case 'add': result = n.to === undefined ? this.handler.add?.(n.obj) : this.handler.add?.(n.obj, n.to); break;
        case 'update': result = this.handler.update?.(n.obj, n.old); break;
        case 'delete': result = this.handler.delete?.(n.obj, { reason: n.reason as DeleteReason }); break;
        case 'synced':
          this.syncedDelivered = true;
          result = n.to === undefined ? this.handler.synced?.() : this.handler.synced?.(n.to);
          break;
      }
    } catch (err) {
      this.onError(err);
      return undefined;
    }
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      return Promise.resolve(result as PromiseLike<unknown>).then(
        () => undefined,
        (err: unknown) => this.onError(err),
      );
    }
    return undefined;
  }
}

/**
 * Merges a new notification into a pending one for the same object: the merged notification, or
 * `undefined` when they cancel out, or `'both'` when both must be delivered (a re-creation after a delete).
 */
function merge<T>(pending: Notification<T>, n: Notification<T>): Notification<T> | undefined | 'both' {
  // A notification for one listener (a replay) never merges with one for all.
  if (targeted(pending) || targeted(n)) return 'both';
  switch (pending.kind) {
    case 'add':
      if (n.kind === 'update' || n.kind === 'add') return { kind: 'add', obj: n.obj };
      if (n.kind === 'delete') return undefined;
      return pending;
    case 'update':
      if (n.kind === 'update' || n.kind === 'add') return { kind: 'update', obj: n.obj, old: pending.old };
      if (n.kind === 'delete') return n;
      return pending;
    case 'delete':
      return n.kind === 'delete' ? pending : 'both';
    case 'synced':
      return 'both';
  }
}

function targeted<T>(n: Notification<T>): boolean {
  return (n.kind === 'add' || n.kind === 'synced') && n.to !== undefined;
}

function isUnsettledDelete<T>(n: Notification<T>): boolean {
  return n.kind === 'delete' && typeof n.reason !== 'string' && n.reason.value === undefined;
}
