import type { DeleteReason } from '../events.js';

/** One pending notification for a handler. */
export type Notification<T> =
  | { kind: 'add'; obj: T }
  | { kind: 'update'; obj: T; old: T }
  | { kind: 'delete'; obj: T; reason: DeleteReason | Promise<DeleteReason> }
  | { kind: 'synced' };

/** What a registration delivers to. */
export interface Deliverer<T> {
  add?(obj: T): unknown;
  update?(obj: T, old: T): unknown;
  delete?(obj: T, info: { reason: DeleteReason }): unknown;
  synced?(): unknown;
}

type Entry<T> = Notification<T> | readonly [Notification<T>, Notification<T>];

const syncedKey = Symbol('synced');
/** A key that is queued but whose notifications cancelled out (an add then a delete, never seen). */
const tombstone: Entry<never> = Object.freeze({ kind: 'synced' }) as Entry<never>;

/** How long a drain may run synchronous handlers before yielding to I/O, in ms. */
const sliceMs = 10;

/**
 * A handler's queue of notifications, coalesced per object key.
 *
 * Buffering policy (documented on `Informer`): each object key holds at most one pending
 * notification (two when a delete is followed by a re-creation), merged so that the handler sees a
 * subsequence of the object's states, in order, ending with the latest: add+update ⇒ add(latest);
 * update+update ⇒ update(latest, the state the handler last saw); add+delete ⇒ nothing;
 * update+delete ⇒ delete. Memory is therefore bounded by the number of objects, however far the
 * handler lags, and the watch stream is never paused for it. Keys are delivered in the order they
 * first became pending.
 */
export class HandlerQueue<T> {
  private keys: (string | symbol)[] = [];
  private head = 0;
  private readonly pending = new Map<string | symbol, Entry<T>>();
  private draining = false;
  private stopped = false;
  private syncedDelivered = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handler: Deliverer<T>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Whether the `synced` notification has been delivered. */
  get hasSynced(): boolean {
    return this.syncedDelivered;
  }

  /** The number of keys with pending notifications. */
  get size(): number {
    return this.pending.size;
  }

  /** Stops delivering; pending notifications are dropped. A handler call in progress finishes. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.keys = [];
    this.head = 0;
    this.resolveIdle();
  }

  /** Resolves once nothing is pending or being delivered. */
  idle(): Promise<void> {
    if (!this.draining && this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Queues `synced` behind everything pending now. */
  synced(): void {
    this.enqueue(syncedKey, { kind: 'synced' });
  }

  /** Queues a notification for the object with `key`, merging it with one pending for that key. */
  enqueue(key: string | symbol, n: Notification<T>): void {
    if (this.stopped) return;
    const existing = this.pending.get(key);
    if (existing === undefined) {
      this.pending.set(key, n);
      this.keys.push(key);
    } else if (existing === tombstone) {
      this.pending.set(key, n);
    } else {
      const merged = merge(existing, n);
      this.pending.set(key, merged ?? tombstone);
    }
    if (!this.draining) {
      this.draining = true;
      queueMicrotask(() => void this.drain());
    }
  }

  private next(): Entry<T> | undefined {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head++];
      if (this.head > 1024 && this.head * 2 > this.keys.length) {
        this.keys = this.keys.slice(this.head);
        this.head = 0;
      }
      const entry = this.pending.get(key);
      this.pending.delete(key);
      if (entry !== undefined && entry !== tombstone) return entry;
    }
    this.keys = [];
    this.head = 0;
    return undefined;
  }

  private async drain(): Promise<void> {
    let sliceStart = performance.now();
    try {
      for (;;) {
        if (this.stopped) return;
        const entry = this.next();
        if (entry === undefined) return;
        if (isPair(entry)) {
          const first = this.deliver(entry[0]);
          if (first !== undefined) await first;
          const second = this.stopped ? undefined : this.deliver(entry[1]);
          if (second !== undefined) await second;
        } else {
          // Await only real promises: a synchronous handler costs no microtask turn.
          const pending = this.deliver(entry);
          if (pending !== undefined) await pending;
        }
        if (performance.now() - sliceStart > sliceMs) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    } finally {
      this.draining = false;
      if (!this.stopped && this.pending.size > 0) {
        this.draining = true;
        queueMicrotask(() => void this.drain());
      } else {
        this.resolveIdle();
      }
    }
  }

  private resolveIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Calls the handler; awaits only when it returns a promise (or a delete's reason is pending). */
  private deliver(n: Notification<T>): Promise<void> | undefined {
    if (n.kind === 'delete' && typeof n.reason !== 'string') {
      return n.reason.then(
        (reason) => (this.stopped ? undefined : this.call({ kind: 'delete', obj: n.obj, reason })),
        (err: unknown) => {
          this.onError(err);
          return this.stopped ? undefined : this.call({ kind: 'delete', obj: n.obj, reason: 'deleted' });
        },
      );
    }
    return this.call(n);
  }

  private call(n: Notification<T>): Promise<void> | undefined {
    let result: unknown;
    try {
      switch (n.kind) {
        case 'add': result = this.handler.add?.(n.obj); break;
        case 'update': result = this.handler.update?.(n.obj, n.old); break;
        case 'delete': result = this.handler.delete?.(n.obj, { reason: n.reason as DeleteReason }); break;
        case 'synced':
          this.syncedDelivered = true;
          result = this.handler.synced?.();
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

function isPair<T>(entry: Entry<T>): entry is readonly [Notification<T>, Notification<T>] {
  return Array.isArray(entry);
}

/** Merges a new notification into a pending entry; `undefined` when they cancel out. */
function merge<T>(existing: Entry<T>, n: Notification<T>): Entry<T> | undefined {
  if (isPair(existing)) {
    // [delete, add]: the handler will see the old object go and the new one arrive.
    const [del] = existing;
    if (n.kind === 'delete') return del;
    if (n.kind === 'add' || n.kind === 'update') return [del, { kind: 'add', obj: n.obj }];
    return existing;
  }
  switch (existing.kind) {
    case 'add':
      if (n.kind === 'update' || n.kind === 'add') return { kind: 'add', obj: n.obj };
      if (n.kind === 'delete') return undefined;
      return existing;
    case 'update':
      if (n.kind === 'update' || n.kind === 'add') return { kind: 'update', obj: n.obj, old: existing.old };
      if (n.kind === 'delete') return n;
      return existing;
    case 'delete':
      if (n.kind === 'add' || n.kind === 'update') return [existing, { kind: 'add', obj: n.obj }];
      return existing;
    case 'synced':
      return existing;
  }
}
