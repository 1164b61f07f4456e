import { jsonTypeName, parseJSON, type KubeObject, type Status, type WatchEvent } from '@kubekit/core';
import { LineSplitter } from './internal/lineSplitter.js';
import { skipManagedFieldsInEvent } from './internal/skipManagedFields.js';

/** `parseJSON`'s options for a line whose text holds no long digit run. */
const checked = { digitsChecked: true } as const;

/** The `type` values of a watch event that kubekit understands. */
const eventTypes = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Options of {@link WatchDecoder} and {@link decodeWatchStream}. */
export interface WatchDecoderOptions {
  /** The longest line accepted, in bytes; a longer one ends the stream with an `ERROR` event. @defaultValue 67108864 (64 MiB) */
  maxLineBytes?: number;
  /**
   * Leave out each event object's `metadata.managedFields` while decoding (cut from the text before
   * it is parsed, so they cost no parsing); through a `ListerWatcher`, list items' and got objects'
   * too. The informer does this when its transform is the default, which drops them anyway.
   * @defaultValue false
   */
  skipManagedFields?: boolean;
}

/**
 * A `Status` standing for a problem on the client's side of a watch stream (an undecodable line, a
 * truncated stream), in the shape client-go's `StreamWatcher` reports it: reason `InternalError`, code 500.
 */
export function watchStreamFailure(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 };
}

/**
 * Decodes a watch response body (`application/json`: one JSON event per line) incrementally.
 *
 * Contract: events come out in stream order. A line that is not a watch event becomes an `ERROR`
 * event (`InternalError`, `unable to decode an event from the watch stream: …`) and decoding goes on
 * with the next line; the consumer decides whether to stop. {@link WatchDecoder.end} reports a
 * truncated last line as an `ERROR` event too (`unexpected EOF`). JSON is parsed with @kubekit/core's
 * `parseJSON`, so integers beyond 2^53 stay exact.
 */
export class WatchDecoder<T extends KubeObject = KubeObject> {
  private readonly splitter: LineSplitter;
  private failed = false;
  private readonly skipManagedFields: boolean;

  constructor(options: WatchDecoderOptions = {}) {
    this.splitter = new LineSplitter(options.maxLineBytes ?? 64 * 1024 * 1024);
    this.skipManagedFields = options.skipManagedFields === true;
  }

  /** Feeds a chunk; calls `onEvent` for each event completed by it. */
  push(chunk: Buffer, onEvent: (event: WatchEvent<T>) => void): void {
    if (this.failed) return;
    const skip = this.skipManagedFields;
    // Cutting managedFields joins text at structural characters only, so it makes no new digit run.
    const ok = this.splitter.push(chunk, (line, digitsChecked) => onEvent(decodeLine<T>(skip ? skipManagedFieldsInEvent(line) : line, digitsChecked)));
    if (!ok) {
      this.failed = true;
      onEvent({ type: 'ERROR', object: watchStreamFailure('unable to decode an event from the watch stream: line too long') });
    }
  }

  /** Ends the stream; calls `onEvent` with an `ERROR` event if a partial line was left over. */
  end(onEvent: (event: WatchEvent<T>) => void): void {
    const pending = this.splitter.reset();
    if (pending > 0 && !this.failed) {
      onEvent({ type: 'ERROR', object: watchStreamFailure(`unable to decode an event from the watch stream: unexpected EOF (${pending} bytes of an unfinished event)`) });
    }
  }
}

/** Decodes one line of a watch stream into an event, or an `ERROR` event saying why it could not. */
export function decodeWatchLine<T extends KubeObject = KubeObject>(line: string): WatchEvent<T> {
  return decodeLine<T>(line, false);
}

/** {@link decodeWatchLine}, told whether the line's digits were checked already (see `parseJSON`). */
function decodeLine<T extends KubeObject>(line: string, digitsChecked: boolean): WatchEvent<T> {
  let value: unknown;
  try {
    value = parseJSON(line, digitsChecked ? checked : undefined);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return { type: 'ERROR', object: watchStreamFailure(`unable to decode an event from the watch stream: ${detail}`) };
  }
  let problem: string;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { type, object } = value as { type?: unknown; object?: unknown };
    if (typeof type === 'string' && eventTypes.has(type) && typeof object === 'object' && object !== null && !Array.isArray(object)) {
      return value as WatchEvent<T>;
    }
    // client-go's words for a type it does not know (rest/watch/decoder.go, Decoder.Decode).
    if (typeof type !== 'string' || !eventTypes.has(type)) problem = `got invalid watch event type: ${typeof type === 'string' ? type : type === undefined ? '' : JSON.stringify(type)}`;
    else problem = object === undefined ? `the ${type} event has no object` : `the ${type} event's object is ${jsonTypeName(object)}; expected an object`;
  } else {
    problem = `expected an event (an object with "type" and "object"), got ${jsonTypeName(value)}`;
  }
  return { type: 'ERROR', object: watchStreamFailure(`unable to decode an event from the watch stream: ${problem}`) };
}

/**
 * Decodes a watch response body into its events. Errors inside the stream (undecodable or truncated
 * lines) come out as `ERROR` events; an error of the underlying stream itself (a reset connection) is
 * thrown from the iteration after the events that preceded it.
 *
 * @example
 * ```ts
 * for await (const event of decodeWatchStream(response)) {
 *   if (event.type === 'ERROR') break;
 *   console.log(event.type, event.object.metadata.name);
 * }
 * ```
 */
export async function* decodeWatchStream<T extends KubeObject = KubeObject>(
  body: AsyncIterable<Uint8Array | string>,
  options: WatchDecoderOptions = {},
): AsyncGenerator<WatchEvent<T>, void, undefined> {
  const decoder = new WatchDecoder<T>(options);
  const batch: WatchEvent<T>[] = [];
  const collect = (e: WatchEvent<T>): void => {
    batch.push(e);
  };
  for await (const chunk of body) {
    decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), collect);
    if (batch.length > 0) {
      const ready = batch.splice(0);
      yield* ready;
    }
  }
  decoder.end(collect);
  yield* batch;
}
