/**
 * An index of one bucket's objects by the value of one field: value → keys. Lists with an exact-match
 * field selector on an indexed field read only the matching keys instead of scanning the bucket.
 *
 * Built on first use from the current objects and kept up to date from the store's commits, so it
 * always agrees with reads of the current state.
 */
import type { KubeObject } from '@kubekit/core';
import type { StoreEvent } from './objectStore.js';

/** See the file comment. */
export class FieldIndex {
  private readonly byValue = new Map<string, Set<string>>();
  private readonly valueOf = new Map<string, string>();

  /** @param extract the field's value of a stored object */
  constructor(private readonly extract: (stored: KubeObject) => string) {}

  /** Adds every object of a bucket. */
  build(objects: Iterable<[string, KubeObject]>): void {
    for (const [key, o] of objects) this.put(key, o);
  }

  /** The keys whose field equals `value` (an empty set when none). */
  lookup(value: string): ReadonlySet<string> {
    return this.byValue.get(value) ?? emptySet;
  }

  /** Applies a store event. */
  apply(event: StoreEvent): void {
    if (event.type === 'DELETED') this.remove(event.key);
    else this.put(event.key, event.object);
  }

  private put(key: string, o: KubeObject): void {
    const value = this.extract(o);
    const old = this.valueOf.get(key);
    if (old === value) return;
    if (old !== undefined) this.byValue.get(old)?.delete(key);
    this.valueOf.set(key, value);
    let set = this.byValue.get(value);
    if (set === undefined) {
      set = new Set();
      this.byValue.set(value, set);
    }
    set.add(key);
  }

  private remove(key: string): void {
    const old = this.valueOf.get(key);
    if (old === undefined) return;
    this.valueOf.delete(key);
    const set = this.byValue.get(old);
    set?.delete(key);
    if (set?.size === 0) this.byValue.delete(old);
  }
}

const emptySet: ReadonlySet<string> = new Set();
