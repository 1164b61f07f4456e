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
      let line: Buffer;
      if (this.carryBytes > 0) {
        this.carry.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.carry, this.carryBytes + (nl - start));
        this.carry = [];
        this.carryBytes = 0;
      } else {
        line = chunk.subarray(start, nl);
      }
      start = nl + 1;
      let end = line.length;
      if (end > 0 && line[end - 1] === 13) end--;
      if (end === 0 || isBlank(line, end)) continue;
      onLine(line.toString('utf8', 0, end));
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

function isBlank(line: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = line[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
