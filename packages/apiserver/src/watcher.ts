/**
 * One watch stream: a `watch=true` response that writes one JSON event per line.
 *
 * Contract (as the apiserver's cache watcher):
 * - Events are written in resourceVersion order, each selected on this watcher's namespace, label and
 *   field selectors, evaluated on both the new and the previous state: an object that starts matching
 *   arrives as ADDED, one that keeps matching as MODIFIED, one that stops matching as DELETED carrying
 *   its previous state with the event's resourceVersion, and a deleted object as DELETED.
 * - A slow reader never blocks writers nor grows memory without bound: when more than `maxQueue`
 *   events wait or more than `maxBufferedBytes` sit unsent in the socket, the watch is closed (the
 *   client re-watches from its last resourceVersion, as after any disconnect).
 * - With bookmarks, a BOOKMARK with the latest resourceVersion is sent every `bookmarkIntervalMs`, once
 *   the server has reached the resourceVersion the watch started from.
 * - The stream ends after `timeoutMs`, or when the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { parseJSON, stringifyJSON, type Clock, type KubeObject, type Status, type TimerHandle } from '@kubekit/core';
import type { ResourceType } from './resourceType.js';
import type { StoreEvent } from './storage/objectStore.js';
import { onClientGone } from './internal/http.js';
import { encodeProtobufWatchEvent, protobufWatchMediaType } from './internal/protobufEncode.js';

/** Options of a {@link Watcher}. */
export interface WatcherOptions {
  type: ResourceType;
  /** Only objects of this namespace (`''` for all). */
  namespace: string;
  /** Whether an external object is selected. */
  matches: (object: KubeObject) => boolean;
  /** Encodes an external object as the event's `object` JSON (the object itself, or a Table). */
  encode: (object: KubeObject) => string;
  /** The kind and apiVersion of bookmark objects when not the watched kind's (PartialObjectMetadata, which has no creationTimestamp then). */
  bookmarkAs?: { kind: string; apiVersion: string };
  /**
   * Whether the client asked for each object as a list (PartialObjectMetadataList), which no event's
   * object is: the apiserver's watch encoder fails to convert the first object or bookmark, and the
   * stream ends without a byte of it (an ERROR event's Status still passes). @defaultValue false
   */
  listsOnly?: boolean;
  /** Whether events are written as protobuf frames (each encoded from the event's JSON) rather than JSON lines. @defaultValue false */
  protobuf?: boolean;
  /** Whether to send periodic bookmarks. */
  bookmarks: boolean;
  /** The interval of bookmarks. @defaultValue 60000 */
  bookmarkIntervalMs?: number;
  /** When the stream ends. */
  timeoutMs: number;
  /** The most events that may wait to be written. */
  maxQueue: number;
  /** The most bytes that may sit unsent in the response. */
  maxBufferedBytes: number;
  clock: Clock;
  /** The latest resourceVersion delivered to watchers (for bookmarks). */
  currentRV: () => number;
  /** Called once the watcher stops, whatever the reason. */
  onStop: (watcher: Watcher) => void;
}

type QueueItem =
  | { kind: 'event'; event: StoreEvent }
  | { kind: 'initial'; stored: KubeObject }
  | { kind: 'bookmark'; rv: number; initialEventsEnd: boolean };

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown }).then === 'function';
}

/** See the file comment for the contract. */
export class Watcher {
  private readonly queue: QueueItem[] = [];
  private queuedEvents = 0;
  private pumping = false;
  private stopped = false;
  private lastRV: number;
  private timers: TimerHandle[] = [];
  /** Why the watcher stopped: `timeout`, `client`, `slow`, `server`. */
  stopReason = '';

  constructor(private readonly res: ServerResponse, private readonly options: WatcherOptions, fromRV: number) {
    this.lastRV = fromRV;
    onClientGone(res, () => this.stop('client'));
  }

  /** The bucket this watcher follows. */
  get bucket(): string {
    return this.options.type.bucket;
  }

  /** Whether the watcher has stopped. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Sends the response headers at once (kubectl waits for them) and starts the timers. */
  begin(): void {
    this.res.writeHead(200, { 'Content-Type': this.options.protobuf === true ? protobufWatchMediaType : 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    this.res.flushHeaders();
    const { clock } = this.options;
    this.timers.push(clock.setTimeout(() => this.stop('timeout'), this.options.timeoutMs));
    if (this.options.bookmarks) this.scheduleBookmark();
  }

  private scheduleBookmark(): void {
    const interval = this.options.bookmarkIntervalMs ?? 60_000;
    this.timers.push(this.options.clock.setTimeout(() => {
      if (this.stopped) return;
      // A watch from a resourceVersion the server has not reached gets no bookmark until it has.
      const current = this.options.currentRV();
      if (this.queue.length === 0 && !this.pumping && current >= this.lastRV) this.sendBookmark(current);
      this.scheduleBookmark();
    }, interval));
  }

  /**
   * Queues the initial state: stored objects sent as ADDED when selected (after conversion), then,
   * with `bookmarkRV`, a BOOKMARK marking the end of the initial events.
   */
  queueInitial(stored: readonly KubeObject[], bookmarkRV?: number): void {
    for (const o of stored) this.queue.push({ kind: 'initial', stored: o });
    if (bookmarkRV !== undefined) this.queue.push({ kind: 'bookmark', rv: bookmarkRV, initialEventsEnd: true });
    if (!this.pumping) this.pump();
  }

  /** Writes a BOOKMARK with `rv`; `initialEventsEnd` marks the end of `sendInitialEvents`. */
  sendBookmark(rv: number, initialEventsEnd = false): void {
    const { names } = this.options.type;
    const as = this.options.bookmarkAs;
    const metadata: Record<string, unknown> = as === undefined ? { resourceVersion: String(rv), creationTimestamp: null } : { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const apiVersion = names.group === '' ? names.version : `${names.group}/${names.version}`;
    this.write('BOOKMARK', stringifyJSON({ kind: as?.kind ?? names.kind, apiVersion: as?.apiVersion ?? apiVersion, metadata }));
  }

  /** Writes an ERROR event with a `Status` and ends the stream. */
  sendError(status: Status): void {
    this.write('ERROR', stringifyJSON(status));
    this.stop('server');
  }

  /** Queues a store event for this watcher. */
  enqueue(event: StoreEvent): void {
    if (this.stopped || event.rv <= this.lastRV) return;
    if (this.options.namespace !== '' && (event.object.metadata.namespace ?? '') !== this.options.namespace) return;
    if (this.queuedEvents >= this.options.maxQueue) {
      this.stop('slow');
      return;
    }
    this.queuedEvents++;
    this.queue.push({ kind: 'event', event });
    if (!this.pumping) this.pump();
  }

  private pump(): void {
    this.pumping = true;
    while (this.queue.length > 0 && !this.stopped) {
      const item = this.queue[0];
      const result = this.process(item);
      if (result !== undefined) {
        result.then(
          () => { this.dequeue(); this.pump(); },
          () => this.stop('server'),
        );
        return;
      }
      this.dequeue();
    }
    this.pumping = false;
  }

  private dequeue(): void {
    const item = this.queue.shift();
    if (item?.kind === 'event') this.queuedEvents--;
  }

  private process(item: QueueItem): void | Promise<void> {
    const { type } = this.options;
    if (item.kind === 'bookmark') {
      this.sendBookmark(item.rv, item.initialEventsEnd);
      return;
    }
    if (item.kind === 'initial') {
      const view = type.fromStorage(item.stored);
      if (isPromise(view)) return view.then((v) => { if (this.options.matches(v)) this.write('ADDED', this.options.encode(v)); });
      if (this.options.matches(view)) this.write('ADDED', this.options.encode(view));
      return;
    }
    const event = item.event;
    const cur = event.type === 'DELETED' ? undefined : type.fromStorage(event.object);
    const prev = event.prevObject === undefined ? undefined : type.fromStorage(event.prevObject);
    if ((cur !== undefined && isPromise(cur)) || (prev !== undefined && isPromise(prev))) {
      return Promise.all([cur, prev]).then(([c, p]) => this.emit(event, c, p));
    }
    this.emit(event, cur as KubeObject | undefined, prev as KubeObject | undefined);
  }

  private emit(event: StoreEvent, cur: KubeObject | undefined, prev: KubeObject | undefined): void {
    this.lastRV = event.rv;
    const curPasses = cur !== undefined && this.options.matches(cur);
    const prevPasses = prev !== undefined && this.options.matches(prev);
    if (curPasses) {
      this.write(prevPasses ? 'MODIFIED' : 'ADDED', this.options.encode(cur));
    } else if (prevPasses) {
      const departed = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(event.rv) } };
      this.write('DELETED', this.options.encode(departed));
    }
  }

  private write(type: string, objectJSON: string): void {
    if (this.stopped) return;
    if (this.options.listsOnly === true && type !== 'ERROR') {
      this.stop('server');
      return;
    }
    const frame = this.options.protobuf === true ? encodeProtobufWatchEvent(type, parseJSON(objectJSON) as Record<string, unknown>) : undefined;
    if (frame !== undefined) this.res.write(frame);
    else this.res.write(`{"type":"${type}","object":${objectJSON}}\n`);
    if (this.res.writableLength > this.options.maxBufferedBytes) this.stop('slow');
  }

  /** Ends the stream and releases the watcher. */
  stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopReason = reason;
    for (const t of this.timers) t.cancel();
    this.queue.length = 0;
    this.queuedEvents = 0;
    if (reason === 'slow') this.res.destroy();
    else this.res.end();
    this.options.onStop(this);
  }
}
