import { hasLongDigitRun } from '@kubekit/core';

/**
 * Called with each line, and whether it holds no run of 16 or more ASCII digits (so no integer beyond
 * 2^53: see `parseJSON`'s `digitsChecked`); the bytes are looked at once per chunk, not per line.
 */
export type OnLine = (line: string, digitsChecked: boolean) => void;

/**
 * Splits a byte stream into newline-terminated lines, whatever the chunk boundaries: a line may span
 * any number of chunks and a multi-byte UTF-8 character may be cut anywhere, because lines are cut
 * on bytes and decoded only when whole.
 *
 * Speed: the complete lines of a chunk are decoded as one string (a newline byte is never part of a
 * multi-byte character, so the text up to a chunk's last newline decodes alone) and the lines are
 * cut from it as substrings, which V8 makes without copying; one decode per chunk instead of one per
 * line.
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
   * in order, and whether the text of the chunk's complete lines holds no long digit run. Blank lines
   * are skipped. Returns `false` when a line exceeded `maxLineBytes`; the splitter then holds nothing
   * and the stream should be abandoned.
   */
  push(chunk: Buffer, onLine: OnLine): boolean {
    const last = chunk.lastIndexOf(10);
    let start = 0;
    if (last !== -1) {
      if (this.carryBytes > 0) {
        // The line begun in earlier chunks ends at this chunk's first newline.
        const nl = chunk.indexOf(10);
        this.carry.push(chunk.subarray(0, nl));
        const line = Buffer.concat(this.carry, this.carryBytes + nl);
        this.carry = [];
        this.carryBytes = 0;
        emitLines(line.toString('utf8'), !hasLongDigitRun(line), onLine);
        start = nl + 1;
      }
      if (start < last) emitLines(chunk.toString('utf8', start, last), !hasLongDigitRun(chunk, start, last), onLine);
      start = last + 1;
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

/** Calls `onLine` with each `\n`-separated line of `text` that is not blank, without a trailing `\r`. */
function emitLines(text: string, digitsChecked: boolean, onLine: OnLine): void {
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    let end = nl === -1 ? text.length : nl;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13) {
        onLine(start === 0 && end === text.length ? text : text.slice(start, end), digitsChecked);
        break;
      }
    }
    if (nl === -1) return;
    start = nl + 1;
  }
}
