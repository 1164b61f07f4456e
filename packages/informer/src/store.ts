import { KubeError, objectKey, type KubeObject } from '@kubekit/core';
import type { KubeObjectLike } from './types.js';

/**
 * Computes the index values of an object: the object is listed under each returned value. An empty
 * array leaves the object out of the index. Must be pure and cheap; it runs on every change.
 *
 * @see https://github.com/kubernetes/client-go/blob/master/tools/cache/index.go (IndexFunc)
 */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** Computes an object's key in a {@link Store}. */
export type KeyFunc<T> = (obj: T) => string;

/** Named index functions, as client-go's `Indexers`. */
export type Indexers<T> = Record<string, IndexFunc<T>>;

/** The name of the index {@link metaNamespaceIndexFunc} maintains. */
export const namespaceIndex = 'namespace';

/** The name of the index {@link labelsIndexFunc} maintains. */
export const labelsIndex = 'labels';

/** Indexes an object by `metadata.namespace` (`''` for cluster-scoped objects), as client-go's `MetaNamespaceIndexFunc`. */
export function metaNamespaceIndexFunc(obj: KubeObjectLike): readonly string[] {
  return [obj.metadata?.namespace ?? ''];
}

/** Indexes an object by each of its labels, as the value `key=value`. */
export function labelsIndexFunc(obj: KubeObjectLike): readonly string[] {
  const labels = obj.metadata?.labels;
  if (labels === undefined || labels === null) return [];
  const out: string[] = [];
  for (const key in labels) out.push(`${key}=${labels[key]}`);
  return out;
}

/** Options of a {@link Store}. */
export interface StoreOptions<T> {
  /** How objects are keyed. @defaultValue `namespace/name` (`objectKey` of @kubekit/core) */
  keyFunc?: KeyFunc<T>;
  /** Indexes maintained from the start. @defaultValue none */
  indexers?: Indexers<T>;
}

interface IndexState<T> {
  fn: IndexFunc<T>;
  byValue: Map<string, Set<string>>;
}

const noValues: readonly string[] = [];

/**
 * A keyed object cache with secondary indexes, as client-go's `cache.Indexer` (a `threadSafeMap`
 * with indices).
 *
 * Contract:
 * - Keys are unique; storing an object under an existing key replaces the previous object.
 * - Every index is updated in the same synchronous call as the object, so a read never sees an index
 *   that disagrees with the objects (JavaScript runs one call at a time; there is no lock to take).
 * - {@link Store.replace} swaps the whole content in one call: readers see either the old set or the new.
 * - Objects are stored by reference and handed out by reference; treat them as immutable. Mutating a
 *   stored object corrupts the indexes that were computed from it.
 * - Lookups return arrays in no particular order.
 */
export class Store<T extends KubeObjectLike = KubeObject> {
  private items = new Map<string, T>();
  private readonly indices = new Map<string, IndexState<T>>();
  /** The key function in use. */
  readonly keyFunc: KeyFunc<T>;

  constructor(options: StoreOptions<T> = {}) {
    this.keyFunc = options.keyFunc ?? (objectKey as KeyFunc<T>);
    if (options.indexers !== undefined) this.addIndexers(options.indexers);
  }

  /** The number of objects. */
  get size(): number {
    return this.items.size;
  }

  /** Stores `obj` under its key (computed unless given) and returns the object it replaced, if any. */
  upsert(obj: T, key: string = this.keyFunc(obj)): T | undefined {
    const old = this.items.get(key);
    this.items.set(key, obj);
    if (this.indices.size > 0) this.reindex(key, old, obj);
    return old;
  }

  /** Alias of {@link Store.upsert}, as client-go's `Add`. */
  add(obj: T): T | undefined {
    return this.upsert(obj);
  }

  /** Alias of {@link Store.upsert}, as client-go's `Update`. */
  update(obj: T): T | undefined {
    return this.upsert(obj);
  }

  /** Removes the object with the key of `objOrKey` and returns it, if it was there. */
  delete(objOrKey: T | string): T | undefined {
    const key = typeof objOrKey === 'string' ? objOrKey : this.keyFunc(objOrKey);
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    if (this.indices.size > 0) this.reindex(key, old, undefined);
    return old;
  }

  /** The object stored under `key`. */
  get(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Whether an object is stored under `key`. */
  has(key: string): boolean {
    return this.items.has(key);
  }

  /** A snapshot array of every object. */
  list(): T[] {
    return [...this.items.values()];
  }

  /** A snapshot array of every key. */
  listKeys(): string[] {
    return [...this.items.keys()];
  }

  /** Iterates over `[key, object]` pairs without copying; do not modify the store while iterating. */
  entries(): IterableIterator<[string, T]> {
    return this.items.entries();
  }

  /**
   * Replaces the whole content with `objects` in one synchronous step and rebuilds every index, as
   * client-go's `Replace`. Returns the previous content, keyed.
   */
  replace(objects: Iterable<T>): Map<string, T> {
    const previous = this.items;
    const next = new Map<string, T>();
    for (const obj of objects) next.set(this.keyFunc(obj), obj);
    this.items = next;
    for (const state of this.indices.values()) this.rebuild(state);
    return previous;
  }

  /**
   * Adds indexes. Unlike client-go, this is allowed at any time: a new index is built from the current
   * content at once.
   *
   * @throws KubeError (`BadRequest`) when an index of that name exists already.
   */
  addIndexers(indexers: Indexers<T>): void {
    for (const name of Object.keys(indexers)) {
      if (this.indices.has(name)) throw KubeError.badRequest(`indexer conflict: ${name}`);
    }
    for (const [name, fn] of Object.entries(indexers)) {
      const state: IndexState<T> = { fn, byValue: new Map() };
      this.indices.set(name, state);
      this.rebuild(state);
    }
  }

  /** Whether an index named `name` exists. */
  hasIndex(name: string): boolean {
    return this.indices.has(name);
  }

  /** The names of the indexes. */
  indexNames(): string[] {
    return [...this.indices.keys()];
  }

  /**
   * The objects listed under `value` in the index `name`.
   *
   * @throws KubeError (`BadRequest`) when there is no such index.
   */
  byIndex(name: string, value: string): T[] {
    const keys = this.indexState(name).byValue.get(value);
    if (keys === undefined) return [];
    const out: T[] = [];
    for (const key of keys) out.push(this.items.get(key)!);
    return out;
  }

  /** The keys listed under `value` in the index `name`. @throws KubeError (`BadRequest`) when there is no such index. */
  indexKeys(name: string, value: string): string[] {
    const keys = this.indexState(name).byValue.get(value);
    return keys === undefined ? [] : [...keys];
  }

  /** Every value of the index `name` that lists at least one object. @throws KubeError (`BadRequest`) when there is no such index. */
  indexValues(name: string): string[] {
    return [...this.indexState(name).byValue.keys()];
  }

  /** The objects that share at least one value of index `name` with `obj`, as client-go's `Index`. */
  index(name: string, obj: T): T[] {
    const state = this.indexState(name);
    const values = state.fn(obj);
    if (values.length === 1) return this.byIndex(name, values[0]);
    const keys = new Set<string>();
    for (const v of values) for (const k of state.byValue.get(v) ?? []) keys.add(k);
    return [...keys].map((k) => this.items.get(k)!);
  }

  private indexState(name: string): IndexState<T> {
    const state = this.indices.get(name);
    if (state === undefined) throw KubeError.badRequest(`Index with name ${name} does not exist`);
    return state;
  }

  private rebuild(state: IndexState<T>): void {
    state.byValue = new Map();
    for (const [key, obj] of this.items) {
      for (const v of state.fn(obj)) addTo(state.byValue, v, key);
    }
  }

  private reindex(key: string, old: T | undefined, obj: T | undefined): void {
    for (const state of this.indices.values()) {
      const before = old === undefined ? noValues : state.fn(old);
      const after = obj === undefined ? noValues : state.fn(obj);
      if (before.length === 1 && after.length === 1 && before[0] === after[0]) continue;
      for (const v of before) {
        if (!after.includes(v)) removeFrom(state.byValue, v, key);
      }
      for (const v of after) {
        if (!before.includes(v)) addTo(state.byValue, v, key);
      }
    }
  }
}

function addTo(index: Map<string, Set<string>>, value: string, key: string): void {
  const set = index.get(value);
  if (set === undefined) index.set(value, new Set([key]));
  else set.add(key);
}

function removeFrom(index: Map<string, Set<string>>, value: string, key: string): void {
  const set = index.get(value);
  if (set === undefined) return;
  set.delete(key);
  if (set.size === 0) index.delete(value);
}
