/**
 * The object store: every persisted object of the embedded API server, with one global
 * resourceVersion counter (as etcd's revision), optimistic concurrency, a bounded history of changes
 * for watches and consistent paginated lists, and optional durability through a {@link Persistence}.
 *
 * Contract:
 * - Writes are applied synchronously, in call order; each gets the next resourceVersion, written into
 *   the stored object's `metadata.resourceVersion`. Stored objects are never mutated afterwards: every
 *   reader may share them, and writers always store fresh objects.
 * - A write's {@link StoreWrite.durable} promise resolves once the write is on disk (at once without
 *   persistence). Events reach listeners in resourceVersion order, only after they are durable, so a
 *   watcher never sees a change that a crash could lose.
 * - History keeps the last `historySize` events; older resourceVersions are "too old" (410 Expired).
 */
import { KubeError, type GroupResource, type KubeObject } from '@kubekit/core';
import type { Persistence, PersistedRecord } from '../persistence.js';

/** The type of a change. */
export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change of the store. */
export interface StoreEvent {
  readonly type: StoreEventType;
  /** The resourceVersion of the change. */
  readonly rv: number;
  /** The storage bucket: `<group>/<resource>` (`/namespaces` for the core group). */
  readonly bucket: string;
  /** The object key: `namespace/name` or `name`. */
  readonly key: string;
  /** The new state; for `DELETED`, the last state with the deletion's resourceVersion. */
  readonly object: KubeObject;
  /** The previous state (absent for `ADDED`). */
  readonly prevObject?: KubeObject;
}

/** The result of a write. */
export interface StoreWrite {
  /** The event the write produced. */
  event: StoreEvent;
  /** Resolves once the write is durable. */
  durable: Promise<void>;
}

/** A listener of store events. */
export type StoreListener = (event: StoreEvent) => void;

/** Options of an {@link ObjectStore}. */
export interface ObjectStoreOptions {
  /** Where writes go before they are acknowledged. @defaultValue none (memory only) */
  persistence?: Persistence;
  /** How many events the history keeps. @defaultValue 10000 */
  historySize?: number;
}

interface Bucket {
  objects: Map<string, KubeObject>;
  sorted: string[] | undefined;
}

/** The bucket name of a group-resource. */
export function bucketOf(gr: GroupResource): string {
  return `${gr.group}/${gr.resource}`;
}

/**
 * A group-resource to write, with the bucket it is stored in when that is another resource's: the
 * apiserver stores events.k8s.io Events with the core ones (one etcd prefix, cohabitating resources),
 * while its errors name the resource of the request (`events.events.k8s.io "x" not found`).
 */
export interface StoredResource extends GroupResource {
  /** @defaultValue the group-resource's own bucket ({@link bucketOf}) */
  readonly bucket?: string;
}

/** The object key of an object in a namespace (or cluster-scoped with `''`). */
export function storeKey(namespace: string, name: string): string {
  return namespace === '' ? name : `${namespace}/${name}`;
}

/** See the file comment for the contract. */
export class ObjectStore {
  private rv = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly history: StoreEvent[] = [];
  private readonly historySize: number;
  private readonly listeners = new Set<StoreListener>();
  private readonly commitListeners = new Set<StoreListener>();
  private readonly persistence: Persistence | undefined;
  private readonly pending: StoreEvent[] = [];
  /** The resourceVersion of the oldest change still in the history, minus one: the oldest RV one can start from. */
  private compactedRV = 0;

  constructor(options: ObjectStoreOptions = {}) {
    this.persistence = options.persistence;
    this.historySize = Math.max(1, options.historySize ?? 10_000);
  }

  /** Loads the persisted state (if any) before the store is used. */
  load(records: Iterable<PersistedRecord>, rv: number): void {
    for (const r of records) {
      const bucket = this.bucket(r.bucket);
      if (r.object === undefined) bucket.objects.delete(r.key);
      else bucket.objects.set(r.key, r.object);
      bucket.sorted = undefined;
    }
    this.rv = rv;
    this.compactedRV = rv;
  }

  /** The resourceVersion of the latest write. */
  get resourceVersion(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch or a paginated list can still start from. */
  get oldestResourceVersion(): number {
    return this.compactedRV;
  }

  /** The current object under `key`, or undefined. */
  get(bucket: string, key: string): KubeObject | undefined {
    return this.buckets.get(bucket)?.objects.get(key);
  }

  /** How many objects a bucket holds. */
  size(bucket: string): number {
    return this.buckets.get(bucket)?.objects.size ?? 0;
  }

  /** The keys of a bucket in key order (the order of etcd's keys, which lists follow). */
  keys(bucket: string): readonly string[] {
    const b = this.buckets.get(bucket);
    if (b === undefined) return [];
    if (b.sorted === undefined) b.sorted = [...b.objects.keys()].sort(compareKeys);
    return b.sorted;
  }

  /** The objects of a bucket in key order. */
  *values(bucket: string): Generator<[string, KubeObject]> {
    const b = this.buckets.get(bucket);
    if (b === undefined) return;
    for (const key of this.keys(bucket)) {
      const o = b.objects.get(key);
      if (o !== undefined) yield [key, o];
    }
  }

  /**
   * The state of a bucket as it was at resourceVersion `rv`, rebuilt from the history.
   *
   * @throws KubeError (`Expired`) when the history no longer reaches back to `rv`.
   */
  snapshotAt(bucket: string, rv: number): Map<string, KubeObject> {
    if (rv < this.compactedRV) throw expired(rv, this.compactedRV);
    const state = new Map(this.buckets.get(bucket)?.objects ?? []);
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i];
      if (e.rv <= rv) break;
      if (e.bucket !== bucket) continue;
      if (e.type === 'ADDED') state.delete(e.key);
      else if (e.prevObject !== undefined) state.set(e.key, e.prevObject);
    }
    return state;
  }

  /** The history events after `rv` for a bucket, or throws `Expired` when `rv` is older than the history. */
  eventsSince(rv: number): StoreEvent[] {
    if (rv < this.compactedRV) throw expired(rv, this.compactedRV);
    const out: StoreEvent[] = [];
    for (let i = this.history.length - 1; i >= 0; i--) {
      if (this.history[i].rv <= rv) break;
      out.push(this.history[i]);
    }
    // Events not yet durable are delivered by the listeners later, not from the history.
    const durable = out.reverse();
    const pendingFrom = this.pending.length > 0 ? this.pending[0].rv : Infinity;
    return durable.filter((e) => e.rv < pendingFrom);
  }

  /** The resourceVersion up to which every event has been delivered to listeners. */
  get deliveredResourceVersion(): number {
    return this.pending.length > 0 ? this.pending[0].rv - 1 : this.rv;
  }

  /** Subscribes to events; returns the unsubscribe function. */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Subscribes to writes as they are applied, before they are durable (for indexes that must agree
   * with reads of the current state); returns the unsubscribe function.
   */
  onCommit(listener: StoreListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /**
   * Creates an object under `key`.
   *
   * @throws KubeError (`AlreadyExists`) when the key is taken.
   */
  create(gr: StoredResource, key: string, name: string, object: KubeObject): StoreWrite {
    const bucket = gr.bucket ?? bucketOf(gr);
    if (this.get(bucket, key) !== undefined) throw KubeError.alreadyExists(gr, name);
    return this.commit('ADDED', bucket, key, object, undefined);
  }

  /**
   * Replaces the object under `key`. With `expectedRV`, the current object must have that
   * resourceVersion.
   *
   * @throws KubeError (`NotFound`, `Conflict`)
   */
  update(gr: StoredResource, key: string, name: string, object: KubeObject, expectedRV?: string): StoreWrite {
    const bucket = gr.bucket ?? bucketOf(gr);
    const current = this.get(bucket, key);
    if (current === undefined) throw KubeError.notFound(gr, name);
    if (expectedRV !== undefined && expectedRV !== current.metadata.resourceVersion) throw conflict(gr, name);
    return this.commit('MODIFIED', bucket, key, object, current);
  }

  /**
   * Deletes the object under `key`. With `expectedRV` or `expectedUID`, the current object must match.
   *
   * @throws KubeError (`NotFound`, `Conflict`)
   */
  delete(gr: StoredResource, key: string, name: string, expected: { rv?: string; uid?: string } = {}): StoreWrite {
    const bucket = gr.bucket ?? bucketOf(gr);
    const current = this.get(bucket, key);
    if (current === undefined) throw KubeError.notFound(gr, name);
    if (expected.uid !== undefined && expected.uid !== current.metadata.uid) {
      throw KubeError.conflict(gr, name, `Precondition failed: UID in precondition: ${expected.uid}, UID in object meta: ${current.metadata.uid ?? ''}`);
    }
    if (expected.rv !== undefined && expected.rv !== current.metadata.resourceVersion) {
      throw KubeError.conflict(gr, name, `Precondition failed: ResourceVersion in precondition: ${expected.rv}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
    }
    return this.commit('DELETED', bucket, key, current, current);
  }

  /** Resolves once every write so far is durable. */
  async flush(): Promise<void> {
    await this.persistence?.flush();
  }

  private commit(type: StoreEventType, bucketName: string, key: string, object: KubeObject, prev: KubeObject | undefined): StoreWrite {
    const rv = ++this.rv;
    const stored: KubeObject = { ...object, metadata: { ...object.metadata, resourceVersion: String(rv) } };
    const bucket = this.bucket(bucketName);
    if (type === 'DELETED') bucket.objects.delete(key);
    else bucket.objects.set(key, stored);
    if (type !== 'MODIFIED') bucket.sorted = undefined;
    const event: StoreEvent = prev === undefined ? { type, rv, bucket: bucketName, key, object: stored } : { type, rv, bucket: bucketName, key, object: stored, prevObject: prev };
    this.remember(event);
    for (const l of this.commitListeners) l(event);
    if (this.persistence === undefined) {
      this.deliver(event);
      return { event, durable: Promise.resolve() };
    }
    this.pending.push(event);
    const durable = this.persistence.append({ rv, bucket: bucketName, key, object: type === 'DELETED' ? undefined : stored }).then(() => this.deliverUpTo(rv));
    return { event, durable };
  }

  private remember(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length > this.historySize * 2) {
      const drop = this.history.length - this.historySize;
      this.compactedRV = this.history[drop - 1].rv;
      this.history.splice(0, drop);
    }
  }

  private deliverUpTo(rv: number): void {
    while (this.pending.length > 0 && this.pending[0].rv <= rv) this.deliver(this.pending.shift()!);
  }

  private deliver(event: StoreEvent): void {
    for (const l of this.listeners) l(event);
  }

  private bucket(name: string): Bucket {
    let b = this.buckets.get(name);
    if (b === undefined) {
      b = { objects: new Map(), sorted: undefined };
      this.buckets.set(name, b);
    }
    return b;
  }

  /** Every object of every bucket, for snapshots. */
  *entries(): Generator<{ bucket: string; key: string; object: KubeObject }> {
    for (const [bucket, b] of this.buckets) for (const [key, object] of b.objects) yield { bucket, key, object };
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function expired(rv: number, oldest: number): KubeError {
  return new KubeError('Expired', `too old resource version: ${rv} (${oldest})`);
}

function conflict(gr: GroupResource, name: string): KubeError {
  return KubeError.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
}
