/**
 * Splits a byte stream into newline-terminated lines, whatever the chunk boundaries: a line may span
 * any number of chunks and a multi-byte UTF-8 character may be cut anywhere, because lines are cut
 * on bytes and decoded only when whole.
 */
export class LineSplitter {
  private carry: Buffer[] = [];
  private carryBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The number of bytes of an unfinished line held back. */
  get pendingBytes(): number {
    return this.carryBytes;
  }

  /**
   * Feeds a chunk and calls `onLine` with each completed line (without its `\n` or a trailing `\r`),
   * in order. Blank lines are skipped. Returns `false` when a line exceeded `maxLineBytes`; the
   * splitter then holds nothing and the stream should be abandoned.
   */
  push(chunk: Buffer, onLine: (line: string) => void): boolean {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      if (this.carryBytes > 0) {
        this.carry.push(chunk.subarray(start, nl));
        const line = Buffer.concat(this.carry, this.carryBytes + (nl - start));
        this.carry = [];
        this.carryBytes = 0;
        emit(line, 0, line.length, onLine);
      } else {
        // The common case: decode straight from the chunk, without a view per line.
        emit(chunk, start, nl, onLine);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.carryBytes += rest.length;
      if (this.carryBytes > this.maxLineBytes) {
        this.carry = [];
        this.carryBytes = 0;
        return false;
      }
      // Copy: the caller's buffer may be reused once we return.
      this.carry.push(Buffer.from(rest));
    }
    return true;
  }

  /** Drops any unfinished line and returns how many bytes it had. */
  reset(): number {
    const n = this.carryBytes;
    this.carry = [];
    this.carryBytes = 0;
    return n;
  }
}

/** Calls `onLine` with bytes [start, end) as text, without a trailing `\r`, unless blank. */
function emit(buf: Buffer, start: number, end: number, onLine: (line: string) => void): void {
  if (end > start && buf[end - 1] === 13) end--;
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 32 && c !== 9 && c !== 13) {
      onLine(buf.toString('utf8', start, end));
      return;
    }
  }
}
