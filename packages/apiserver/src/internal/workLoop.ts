// The queue and loop the background controllers share (CRD and namespace finalization, the garbage
// collector): keys queued without duplicates, worked off one at a time off the write path, a turn of
// the event loop yielded every few items, and a close that waits for the item in flight.

/** How many queued items one turn of the event loop works off before yielding to I/O. */
export const defaultItemsPerTurn = 64;

/**
 * A deduplicating queue of keys worked off one at a time by `work`. A key queued while it waits is
 * queued once; a key queued while it is being worked on is worked on again afterwards. An error of
 * `work` drops the item (the controllers requeue from the store's events). After {@link close}, keys
 * are ignored and no item starts.
 */
export class WorkLoop {
  private readonly queue = new Set<string>();
  private running: Promise<void> | undefined;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly work: (key: string) => Promise<void>, private readonly itemsPerTurn = defaultItemsPerTurn) {}

  /** Queues `key` and starts the loop on the next turn if it is not running. */
  enqueue(key: string): void {
    if (this.closed) return;
    this.queue.add(key);
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run());
  }

  /** Whether no work is queued or running. */
  isIdle(): boolean {
    return this.running === undefined && this.queue.size === 0;
  }

  /** Resolves once no work is queued or running (at once when closed). */
  idle(): Promise<void> {
    if (this.isIdle() || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops the queued keys and resolves once the item in flight, if any, has finished. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    await this.running;
  }

  private async run(): Promise<void> {
    let done = 0;
    while (this.queue.size > 0 && !this.closed) {
      const key = this.queue.values().next().value as string;
      this.queue.delete(key);
      try {
        await this.work(key);
      } catch {
        // A conflict with a concurrent write: that write's event queues the key again.
      }
      if (++done % this.itemsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.running = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
