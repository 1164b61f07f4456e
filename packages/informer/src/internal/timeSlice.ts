/**
 * Work that runs in slices of at most `ms` of wall time, yielding to I/O between them: a stream
 * whose socket always has more data, or a queue that is never empty, would otherwise hold the event
 * loop for as long as it lasts (timers, other sockets and `setImmediate` callbacks all waiting).
 */
export class TimeSlice {
  private start: number;

  /** @param now - the time in ms (an injected clock's, in tests) */
  constructor(private readonly ms: number, private readonly now: () => number = () => performance.now()) {
    this.start = now();
  }

  /**
   * `undefined` while the slice lasts (no await needed), else a promise that resolves once the event
   * loop has been round (after its next check phase); the next slice starts then.
   */
  next(): Promise<void> | undefined {
    if (this.now() - this.start <= this.ms) return undefined;
    return new Promise((resolve) => {
      setImmediate(() => {
        this.start = this.now();
        resolve();
      });
    });
  }
}
