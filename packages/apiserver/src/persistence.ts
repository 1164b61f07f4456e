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
 *
 * The directory is made private (0700) and every file is created 0600. No file in it is opened
 * through a symbolic link (`O_NOFOLLOW`), and the snapshot's temporary file is created exclusively
 * after removing whatever had its name, so a link planted in the directory cannot redirect a write.
 * A damaged snapshot or log stops the open with a {@link DataDirectoryError} that names the file, the
 * line and how to recover; nothing in the directory is changed then.
 */
import { chmodSync, closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeError, parseJSON, stringifyJSON, type KubeObject } from '@kubekit/core';

/** A data directory that cannot be used as it is: a damaged file, a symbolic link, a wrong type. */
export class DataDirectoryError extends KubeError {
  override name = 'DataDirectoryError';

  /**
   * @param message what is wrong and how to recover
   * @param file the file concerned
   * @param line its 1-based line, when the problem is in one
   */
  constructor(message: string, readonly file: string, readonly line?: number, options: { cause?: unknown } = {}) {
    super('InternalError', message, options);
  }
}

const fileMode = 0o600;
const dirMode = 0o700;
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW;

/** Reads a file without following a symbolic link at its name; undefined when there is none. */
function readPrivateFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, readFlags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw new DataDirectoryError(`${file} is a symbolic link; kubekit does not follow links in its data directory. Replace it with the file itself.`, file, undefined, { cause: err });
    throw new DataDirectoryError(`cannot read ${file}: ${(err as Error).message}`, file, undefined, { cause: err });
  }
  try {
    if (!fstatSync(fd).isFile()) throw new DataDirectoryError(`${file} is not a regular file`, file);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Creates (0700) or tightens the data directory; refuses a path that is not a directory. */
function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: dirMode });
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) {
    // The directory named by the user may be a link to where they keep data; what is inside is not followed.
    if (!statSync(dir).isDirectory()) throw new DataDirectoryError(`${dir} is not a directory`, dir);
  } else if (!st.isDirectory()) {
    throw new DataDirectoryError(`${dir} is not a directory`, dir);
  }
  chmodSync(dir, dirMode);
}

function damaged(file: string, line: number, detail: string, recovery: string, cause?: unknown): DataDirectoryError {
  return new DataDirectoryError(`${file} is damaged at line ${line}: ${detail}. The server did not start; the files were left as they were. ${recovery}`, file, line, { cause });
}

const snapshotRecovery = 'To recover, restore this file from a backup; or move it out of the directory to start from the write-ahead log segments alone (objects only the snapshot held are then lost).';
const logRecovery = 'To recover, restore this file from a backup; or truncate it before this line to keep the writes before it (the later writes are then lost).';

/** Checks one parsed record line of the snapshot or the log. */
function isRecord(r: unknown, needsObject: boolean): r is PersistedRecord {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return false;
  const o = r as Record<string, unknown>;
  if (typeof o.rv !== 'number' || !Number.isSafeInteger(o.rv) || o.rv < 0 || typeof o.bucket !== 'string' || typeof o.key !== 'string') return false;
  if (o.object === undefined) return !needsObject;
  return o.object !== null && typeof o.object === 'object' && !Array.isArray(o.object);
}

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
    preparePrivateDir(dir);
    const state = new Map<string, PersistedRecord>();
    let rv = 0;
    const snapshotPath = join(dir, 'snapshot.jsonl');
    const snapshotText = readPrivateFile(snapshotPath);
    if (snapshotText !== undefined) {
      const lines = snapshotText.split('\n');
      let header: unknown;
      try {
        header = parseJSON(lines[0]);
      } catch (err) {
        throw damaged(snapshotPath, 1, lines[0] === '' ? 'the file is empty or its header line is missing' : `the header line is not JSON (${(err as Error).message})`, snapshotRecovery, err);
      }
      const headerRV = (header as { rv?: unknown } | null)?.rv;
      if (typeof headerRV !== 'number' || !Number.isSafeInteger(headerRV) || headerRV < 0) throw damaged(snapshotPath, 1, 'the header line is not {"rv":N}', snapshotRecovery);
      rv = headerRV;
      if (lines[lines.length - 1] !== '') throw damaged(snapshotPath, lines.length, 'the last line is cut off (the file is truncated)', snapshotRecovery);
      for (let i = 1; i < lines.length - 1; i++) {
        let r: unknown;
        try {
          r = parseJSON(lines[i]);
        } catch (err) {
          throw damaged(snapshotPath, i + 1, `the line is not JSON (${(err as Error).message})`, snapshotRecovery, err);
        }
        if (!isRecord(r, true)) throw damaged(snapshotPath, i + 1, 'the line is not a {"rv","bucket","key","object"} record', snapshotRecovery);
        state.set(`${r.bucket}\u0000${r.key}`, r);
      }
    }
    const segments = listSegments(dir);
    for (const seg of segments) {
      const file = join(dir, seg.file);
      const text = readPrivateFile(file) ?? '';
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line === '') continue;
        let r: unknown;
        try {
          r = parseJSON(line);
        } catch (err) {
          // A torn write at the end of the log: it was never acknowledged.
          if (i >= lines.length - 2) break;
          throw damaged(file, i + 1, `the line is not JSON (${(err as Error).message})`, logRecovery, err);
        }
        if (!isRecord(r, false)) throw damaged(file, i + 1, 'the line is not a {"rv","bucket","key"} record', logRecovery);
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
  const file = join(dir, `wal.${startRV}.log`);
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, fileMode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new DataDirectoryError(`${file} is a symbolic link; kubekit does not follow links in its data directory. Remove it.`, file, undefined, { cause: err });
    throw err;
  }
  await handle.chmod(fileMode);
  syncDir(dir);
  return handle;
}

/**
 * Writes the snapshot through a temporary file: whatever has the temporary name (a left-over file or
 * a planted link) is removed first, and the file is created exclusively, never following a link.
 */
function writeSnapshot(dir: string, rv: number, records: readonly PersistedRecord[]): void {
  const tmp = join(dir, 'snapshot.jsonl.tmp');
  try {
    unlinkSync(tmp);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, fileMode);
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
