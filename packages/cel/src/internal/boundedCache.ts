/**
 * The compile caches' store: least recently used first out, bounded by the number of entries and by
 * their total weight (the caller's measure of an entry's size, such as the length of its key or
 * source), so that a process which sees many large inputs (a server through many CRD updates) keeps
 * a bounded amount of memory, whatever the size of each input.
 */
export class BoundedCache<TValue> {
  private readonly entries = new Map<string, { value: TValue; weight: number }>();
  private total = 0;

  /** An entry heavier than `maxWeight` on its own is not kept. */
  constructor(private readonly maxEntries: number, private readonly maxWeight: number) {}

  /** The number of entries kept. */
  get size(): number {
    return this.entries.size;
  }

  /** The total weight of the entries kept. */
  get weight(): number {
    return this.total;
  }

  /** The value of `key`, which becomes the most recently used; `undefined` when absent. */
  get(key: string): TValue | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Keeps `value` as the most recently used entry, and forgets the least recently used past either bound. */
  set(key: string, value: TValue, weight: number): void {
    const prev = this.entries.get(key);
    if (prev !== undefined) {
      this.entries.delete(key);
      this.total -= prev.weight;
    }
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxWeight) break;
      this.entries.delete(k);
      this.total -= e.weight;
    }
  }
}
