/**
 * Fan-out of store events to watch streams: one subscription to the store, watchers grouped by
 * storage bucket, each event handed to the watchers of its bucket in resourceVersion order.
 */
import type { KubeObject } from '@kubekit/core';
import type { ObjectStore, StoreEvent } from './storage/objectStore.js';
import type { Watcher } from './watcher.js';

/** See the file comment. */
export class WatchHub {
  private readonly byBucket = new Map<string, Set<Watcher>>();
  private readonly unsubscribe: () => void;
  private readonly encodeCaches = new Map<object, WeakMap<KubeObject, string>>();

  constructor(private readonly store: ObjectStore) {
    this.unsubscribe = store.subscribe((e) => this.dispatch(e));
  }

  /** How many watchers are open. */
  get size(): number {
    let n = 0;
    for (const s of this.byBucket.values()) n += s.size;
    return n;
  }

  /** Adds a watcher, first replaying the history events after its starting resourceVersion. */
  add(watcher: Watcher, replay: readonly StoreEvent[]): void {
    for (const e of replay) if (e.bucket === watcher.bucket) watcher.enqueue(e);
    if (watcher.isStopped) return;
    let set = this.byBucket.get(watcher.bucket);
    if (set === undefined) {
      set = new Set();
      this.byBucket.set(watcher.bucket, set);
    }
    set.add(watcher);
  }

  /** Removes a watcher (called when it stops). */
  remove(watcher: Watcher): void {
    const set = this.byBucket.get(watcher.bucket);
    set?.delete(watcher);
    if (set?.size === 0) this.byBucket.delete(watcher.bucket);
  }

  /** Stops every watcher of a bucket (its resource went away or changed shape). */
  stopBucket(bucket: string): void {
    for (const w of [...(this.byBucket.get(bucket) ?? [])]) w.stop('server');
  }

  /**
   * A cache of encoded objects shared by all watchers with the same `owner` (a resource type and
   * format), so that an event is serialised once however many watchers receive it.
   */
  encodeCache(owner: object): WeakMap<KubeObject, string> {
    let cache = this.encodeCaches.get(owner);
    if (cache === undefined) {
      cache = new WeakMap();
      this.encodeCaches.set(owner, cache);
    }
    return cache;
  }

  /** Forgets the caches of an owner that is no longer served. */
  dropEncodeCache(owner: object): void {
    this.encodeCaches.delete(owner);
  }

  /** Stops every watcher and the store subscription. */
  close(): void {
    this.unsubscribe();
    for (const set of [...this.byBucket.values()]) for (const w of [...set]) w.stop('server');
  }

  private dispatch(event: StoreEvent): void {
    const set = this.byBucket.get(event.bucket);
    if (set === undefined) return;
    for (const w of set) w.enqueue(event);
  }

  /** The store watched. */
  get objectStore(): ObjectStore {
    return this.store;
  }
}
