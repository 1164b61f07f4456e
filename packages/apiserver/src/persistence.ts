/**
 * Durable storage for the embedded API server: a snapshot plus a write-ahead log in a data directory.
 *
 * Every write is appended to the log as one JSON line and the log is fsynced before the write is
 * acknowledged (group commit: writes arriving while an fsync is in flight share the next one). On
 * open, the snapshot is loaded and the log replayed; a torn last line (a crash in the middle of an
 * append, which was therefore never acknowledged) is ignored. The log is folded into a new snapshot
 * on open and whenever it grows past `compactAfterBytes`.
 *
 * Files: `snapshot.jsonl` (a header line `{"rv":N}`, then one record per object) and
 * `wal.<startRV>.log` segments.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { parseJSON, stringifyJSON, type KubeObject } from '@kubekit/core';

/** One persisted change: the new object under a key, or its deletion (no `object`). */
export interface PersistedRecord {
  rv: number;
  bucket: string;
  key: string;
  object?: KubeObject;
}

/** Where the store sends writes before acknowledging them. */
export interface Persistence {
  /** Appends a record; resolves once it is durable. */
  append(record: PersistedRecord): Promise<void>;
  /** Resolves once every appended record is durable. */
  flush(): Promise<void>;
  /** Flushes and closes the files. */
  close(): Promise<void>;
}

/** The current state, for compaction: the resourceVersion and every object. */
export type SnapshotSource = () => { rv: number; entries: Iterable<{ bucket: string; key: string; object: KubeObject }> };

/** Options of {@link FilePersistence.open}. */
export interface FilePersistenceOptions {
  /** Fold the log into a snapshot once it is larger than this. @defaultValue 64 MiB */
  compactAfterBytes?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A snapshot + write-ahead log in a directory; see the file comment. */
export class FilePersistence implements Persistence {
  private lines: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private scheduled = false;
  private segmentBytes = 0;
  private lastRV: number;
  private snapshotSource: SnapshotSource | undefined;
  private compacting = false;
  private closed = false;

  private constructor(
    private readonly dir: string,
    private handle: FileHandle,
    rv: number,
    private readonly compactAfterBytes: number,
  ) {
    this.lastRV = rv;
  }

  /**
   * Opens (or creates) a data directory: loads its state, writes it back as a fresh snapshot and
   * starts a new log segment.
   */
  static async open(dir: string, options: FilePersistenceOptions = {}): Promise<{ persistence: FilePersistence; records: PersistedRecord[]; rv: number }> {
    mkdirSync(dir, { recursive: true });
    const state = new Map<string, PersistedRecord>();
    let rv = 0;
    const snapshotPath = join(dir, 'snapshot.jsonl');
    let snapshotText: string | undefined;
    try {
      snapshotText = readFileSync(snapshotPath, 'utf8');
    } catch {
      snapshotText = undefined;
    }
    if (snapshotText !== undefined) {
      const lines = snapshotText.split('\n');
      const header = parseJSON(lines[0]) as { rv: number };
      rv = header.rv;
      for (let i = 1; i < lines.length; i++) {
        if (lines[i] === '') continue;
        const r = parseJSON(lines[i]) as PersistedRecord;
        state.set(`${r.bucket}\u0000${r.key}`, r);
      }
    }
    const segments = listSegments(dir);
    for (const seg of segments) {
      const text = readFileSync(join(dir, seg.file), 'utf8');
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line === '') continue;
        let r: PersistedRecord;
        try {
          r = parseJSON(line) as PersistedRecord;
        } catch {
          // A torn write at the end of the log: it was never acknowledged.
          if (i >= lines.length - 2) break;
          throw new Error(`corrupt write-ahead log ${seg.file} at line ${i + 1}`);
        }
        if (r.rv <= rv) continue;
        rv = r.rv;
        const k = `${r.bucket}\u0000${r.key}`;
        if (r.object === undefined) state.delete(k);
        else state.set(k, r);
      }
    }
    const records = [...state.values()];
    writeSnapshot(dir, rv, records);
    for (const seg of segments) rmSync(join(dir, seg.file), { force: true });
    const handle = await openSegment(dir, rv);
    const persistence = new FilePersistence(dir, handle, rv, options.compactAfterBytes ?? 64 * 1024 * 1024);
    return { persistence, records, rv };
  }

  /** Lets the persistence take snapshots of the live state when the log grows. */
  setSnapshotSource(source: SnapshotSource): void {
    this.snapshotSource = source;
  }

  append(record: PersistedRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('persistence is closed'));
    this.lastRV = record.rv;
    this.lines.push(stringifyJSON(record));
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  async flush(): Promise<void> {
    while (this.writing !== undefined || this.lines.length > 0) {
      if (this.writing !== undefined) await this.writing.catch(() => undefined);
      else await this.drain();
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.handle.close();
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.writing !== undefined) return;
    let done!: () => void;
    this.writing = new Promise<void>((resolve) => { done = resolve; });
    try {
      while (this.lines.length > 0) {
        const lines = this.lines;
        const waiters = this.waiters;
        this.lines = [];
        this.waiters = [];
        const data = Buffer.from(lines.join('\n') + '\n', 'utf8');
        try {
          await this.handle.write(data);
          await this.handle.datasync();
          this.segmentBytes += data.length;
          for (const w of waiters) w.resolve();
        } catch (err) {
          for (const w of waiters) w.reject(err);
        }
        if (this.segmentBytes > this.compactAfterBytes) await this.compact();
      }
    } finally {
      this.writing = undefined;
      done();
    }
  }

  /** Starts a new segment, writes a snapshot of the live state and drops the older segments. */
  private async compact(): Promise<void> {
    if (this.compacting || this.snapshotSource === undefined) return;
    this.compacting = true;
    try {
      const { rv, entries } = this.snapshotSource();
      // Only records up to `rv` are written so far (the caller drains in order), so the new segment
      // starts exactly after the snapshot.
      const old = listSegments(this.dir);
      const previous = this.handle;
      this.handle = await openSegment(this.dir, rv);
      this.segmentBytes = 0;
      await previous.close();
      const records: PersistedRecord[] = [];
      for (const e of entries) records.push({ rv, bucket: e.bucket, key: e.key, object: e.object });
      writeSnapshot(this.dir, rv, records);
      for (const seg of old) if (seg.start < rv) rmSync(join(this.dir, seg.file), { force: true });
    } finally {
      this.compacting = false;
    }
  }

  /** The resourceVersion of the last appended record. */
  get resourceVersion(): number {
    return this.lastRV;
  }
}

function listSegments(dir: string): { file: string; start: number }[] {
  return readdirSync(dir)
    .map((file) => ({ file, m: /^wal\.(\d+)\.log$/.exec(file) }))
    .filter((x): x is { file: string; m: RegExpExecArray } => x.m !== null)
    .map((x) => ({ file: x.file, start: Number(x.m[1]) }))
    .sort((a, b) => a.start - b.start);
}

async function openSegment(dir: string, startRV: number): Promise<FileHandle> {
  const handle = await open(join(dir, `wal.${startRV}.log`), 'a');
  syncDir(dir);
  return handle;
}

function writeSnapshot(dir: string, rv: number, records: readonly PersistedRecord[]): void {
  const tmp = join(dir, 'snapshot.jsonl.tmp');
  const fd = openSync(tmp, 'w');
  try {
    const parts: string[] = [stringifyJSON({ rv })];
    let size = 0;
    const write = (): void => {
      writeSync(fd, parts.join('\n') + '\n');
      parts.length = 0;
      size = 0;
    };
    for (const r of records) {
      const line = stringifyJSON({ rv: r.rv, bucket: r.bucket, key: r.key, object: r.object });
      parts.push(line);
      size += line.length;
      if (size > 1 << 20) write();
    }
    if (parts.length > 0) write();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, 'snapshot.jsonl'));
  syncDir(dir);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
