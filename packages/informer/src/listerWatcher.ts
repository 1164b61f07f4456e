import { jsonTypeName, KubeError, parseApiVersion, realClock, resourcePath, type Clock, type KubeList, type KubeObject, type WatchEvent } from '@kubekit/core';
import type { KubeConfigLike } from './kubeConfig.js';
import { decodeAnswer, errorFromResponse, RestClient, type HttpResponse } from './internal/restClient.js';
import { skipManagedFieldsInList, skipManagedFieldsInObject } from './internal/skipManagedFields.js';
import { WatchDecoder, type WatchDecoderOptions } from './watchDecoder.js';
import type { KubeObjectLike } from './types.js';

/** The resource a {@link ListerWatcher} reads: an API version, a plural resource name and perhaps a namespace. */
export interface ResourceRef {
  /** `v1` or `<group>/<version>`, e.g. `stable.example.com/v1`. */
  apiVersion: string;
  /** The plural resource name used in URLs, e.g. `shirts`. */
  plural: string;
  /** Only this namespace. @defaultValue all namespaces (or a cluster-scoped resource) */
  namespace?: string;
}

/** Query parameters of a list request (`metav1.ListOptions`), as the apiserver reads them. */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; the server may return fewer and a `continue` token. */
  limit?: number;
  continue?: string;
  /** `''` (unset) reads the most recent state; `'0'` any state; others at least that fresh. */
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
}

/** Query parameters of a watch request. */
export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  /** Ask for `BOOKMARK` events. @defaultValue true */
  allowWatchBookmarks?: boolean;
  /** Streaming list: start with synthetic `ADDED` events of the current state, then a bookmark annotated `k8s.io/initial-events-end`. */
  sendInitialEvents?: boolean;
  /** The server ends the watch after this long. */
  timeoutSeconds?: number;
}

/** Options of a single request of a {@link ListerWatcher}. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Send the request to this namespace instead of the ListerWatcher's. @defaultValue the resource's namespace */
  namespace?: string;
  /** Abort when no byte arrives for this long, in ms. @defaultValue the ListerWatcher's `requestIdleTimeoutMs` */
  idleTimeoutMs?: number;
  /**
   * Ask for metadata only (`PartialObjectMetadata`, or `PartialObjectMetadataList` for a list), with
   * plain JSON as fallback for a server that does not serve it (then whole objects come back).
   * Lists and gets only. @defaultValue false
   */
  metadataOnly?: boolean;
  /**
   * Gets only: send the GET pipelined (HTTP/1.1) with the other pipelined GETs of the same tick, on a
   * connection of their own, falling back to an ordinary request where that is not possible (a proxy,
   * a server or intermediary that does not take pipelined requests). Much cheaper per request when
   * many small GETs are in flight, as the informer's delete-reason lookups are. @defaultValue false
   */
  pipelined?: boolean;
  /**
   * Gets only: read a state at least this fresh (`resourceVersion` on a GET means "not older than"),
   * which the apiserver serves from its watch cache instead of a quorum read from etcd.
   * @defaultValue the most recent state (a quorum read)
   */
  resourceVersion?: string;
  /**
   * Lists only: called with the page's `continue` token as soon as the page's text is in, before it is
   * decoded, so that the caller can ask for the next page while this one is decoded (the reflector
   * does). The token is read from the text, not yet from the decoded list: check it against the
   * list's `metadata.continue`. Not called for the last page, nor for an unsuccessful answer.
   * @defaultValue none
   */
  onContinue?: (token: string) => void;
}

/** The Accept header of a metadata-only get. */
const metadataAccept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json';
/** The Accept header of a metadata-only list. */
const metadataListAccept = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json';

/** Options of a {@link ListerWatcher}. */
export interface ListerWatcherOptions extends WatchDecoderOptions {
  /** Timers for idle timeouts. @defaultValue the real clock of @kubekit/core */
  clock?: Clock;
  /** The `User-Agent` header. @defaultValue `kubekit-informer` */
  userAgent?: string;
  /** Abort a list or get when no byte arrives for this long, in ms. @defaultValue 60000 */
  requestIdleTimeoutMs?: number;
}

/**
 * An open watch: its events, in order, as an async iterable; or, for consumers that care about
 * throughput and liveness, {@link WatchStream.batches}, one array per received chunk (possibly empty:
 * an empty batch still proves the connection is alive).
 *
 * Errors reported by the server (`ERROR` events) and problems decoding the stream (undecodable or
 * truncated lines, also as `ERROR` events) are values in the stream; a broken connection throws from
 * the iteration. Iterate once.
 */
export class WatchStream<T extends KubeObjectLike = KubeObject> implements AsyncIterable<WatchEvent<T & KubeObject>> {
  /** @internal */
  constructor(private readonly response: HttpResponse, private readonly decoderOptions: WatchDecoderOptions) {}

  /** Yields the events of each received chunk as one array. */
  async *batches(): AsyncGenerator<WatchEvent<T & KubeObject>[], void, undefined> {
    const decoder = new WatchDecoder<T & KubeObject>(this.decoderOptions);
    let batch: WatchEvent<T & KubeObject>[] = [];
    const collect = (e: WatchEvent<T & KubeObject>): void => {
      batch.push(e);
    };
    for await (const chunk of this.response.chunks()) {
      decoder.push(chunk, collect);
      const ready = batch;
      batch = [];
      yield ready;
    }
    decoder.end(collect);
    if (batch.length > 0) yield batch;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<T & KubeObject>> {
    for await (const batch of this.batches()) yield* batch;
  }

  /** Changes the idle-read timeout of the connection (0 disables it), counting from now. */
  setIdleTimeout(ms: number): void {
    this.response.setIdleTimeout(ms);
  }

  /** Closes the connection; a pending iteration ends with `err` (or an `AbortError`). */
  close(err?: Error): void {
    this.response.destroy(err);
  }
}

/**
 * Lists and watches one resource over HTTP, as client-go's `cache.ListWatch`: builds the URLs and
 * query strings, applies the `KubeConfig`'s credentials per request, and turns failures into
 * `KubeError`s (with `details.retryAfterSeconds` from a `Retry-After` header).
 *
 * It makes its own requests over keep-alive agents, so it controls timeouts and streaming. It does
 * not retry: that is the {@link Reflector}'s job.
 *
 * @example
 * ```ts
 * const lw = new ListerWatcher(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts' });
 * const page = await lw.list({ limit: 500, fieldSelector: 'spec.color=blue' });
 * ```
 */
export class ListerWatcher<T extends KubeObjectLike = KubeObject> {
  /** The resource. */
  readonly resource: Readonly<ResourceRef>;
  private readonly client: RestClient;
  private readonly collectionPath: string;
  private readonly namespacedPaths = new Map<string, string>();
  private readonly options: ListerWatcherOptions;

  constructor(kubeConfig: KubeConfigLike, resource: ResourceRef, options: ListerWatcherOptions = {}) {
    this.resource = { ...resource };
    this.options = options;
    this.client = new RestClient(kubeConfig, options.clock ?? realClock, options.userAgent);
    const gv = parseApiVersion(resource.apiVersion);
    this.collectionPath = resourcePath({ ...gv, resource: resource.plural }, resource.namespace);
  }

  /** The cluster's server URL. */
  get server(): string {
    return this.client.server.toString();
  }

  /**
   * Lists one page.
   *
   * @throws KubeError for a non-2xx answer (`Expired` (410) for an expired `continue` token,
   *   `BadRequest` for an unsupported field label, …) or the network error.
   */
  async list(options: ListOptions = {}, request: RequestOptions = {}): Promise<KubeList<T & KubeObject>> {
    const query = new URLSearchParams();
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    if (options.limit !== undefined && options.limit > 0) query.set('limit', String(options.limit));
    if (options.continue) query.set('continue', options.continue);
    if (options.resourceVersion !== undefined && options.resourceVersion !== '') query.set('resourceVersion', options.resourceVersion);
    if (options.resourceVersionMatch) query.set('resourceVersionMatch', options.resourceVersionMatch);
    const init = {
      path: this.url(query, request.namespace),
      signal: request.signal,
      idleTimeoutMs: request.idleTimeoutMs ?? this.options.requestIdleTimeoutMs ?? 60_000,
      accept: request.metadataOnly === true ? metadataListAccept : undefined,
    };
    const skip = this.options.skipManagedFields === true ? skipManagedFieldsInList : undefined;
    if (request.onContinue === undefined) return asList<T & KubeObject>(await this.client.requestJSON(init, skip));
    const res = await this.client.request(init);
    const text = await res.text();
    if (res.statusCode >= 200 && res.statusCode <= 299) {
      const token = continueTokenIn(text);
      if (token !== undefined) {
        request.onContinue(token);
        // Let the next page's request go out (its headers are written a few ticks later) before this
        // page is decoded, so that the server answers it meanwhile.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return asList<T & KubeObject>(decodeAnswer(res, text, init, skip));
  }

  /**
   * Opens a watch; resolves once the server accepted it (HTTP 200).
   *
   * @throws KubeError for a non-2xx answer, or the network error.
   */
  async watch(options: WatchOptions = {}, request: RequestOptions = {}): Promise<WatchStream<T>> {
    const query = new URLSearchParams({ watch: 'true' });
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    if (options.resourceVersion !== undefined && options.resourceVersion !== '') query.set('resourceVersion', options.resourceVersion);
    if (options.resourceVersionMatch) query.set('resourceVersionMatch', options.resourceVersionMatch);
    if (options.allowWatchBookmarks ?? true) query.set('allowWatchBookmarks', 'true');
    if (options.sendInitialEvents !== undefined) query.set('sendInitialEvents', String(options.sendInitialEvents));
    if (options.timeoutSeconds !== undefined) query.set('timeoutSeconds', String(Math.round(options.timeoutSeconds)));
    const res = await this.client.request({ path: this.url(query, request.namespace), signal: request.signal, idleTimeoutMs: request.idleTimeoutMs ?? 0 });
    if (res.statusCode < 200 || res.statusCode > 299) {
      const text = await res.text(1 << 20).catch(() => '');
      throw errorFromResponse(res, text);
    }
    return new WatchStream<T>(res, this.options);
  }

  /**
   * Reads one object by name (with `metadataOnly`, its `PartialObjectMetadata`); `undefined` when the
   * server answers 404.
   *
   * @throws KubeError for other non-2xx answers, or the network error.
   */
  async get(name: string, request: RequestOptions = {}): Promise<(T & KubeObject) | undefined> {
    const path = `${this.collectionPathIn(request.namespace ?? this.resource.namespace)}/${encodeURIComponent(name)}${request.resourceVersion ? `?resourceVersion=${encodeURIComponent(request.resourceVersion)}` : ''}`;
    try {
      const init = {
        path,
        signal: request.signal,
        idleTimeoutMs: request.idleTimeoutMs ?? this.options.requestIdleTimeoutMs ?? 60_000,
        accept: request.metadataOnly === true ? metadataAccept : undefined,
      };
      const skip = this.options.skipManagedFields === true ? skipManagedFieldsInObject : undefined;
      if (request.pipelined === true) {
        const res = await this.client.getPipelined(init);
        // Absent: no error object built only to be caught below (lookups answer 404 by the thousand).
        if (res.statusCode === 404) return undefined;
        return decodeAnswer(res, res.text, init, skip) as T & KubeObject;
      }
      return (await this.client.requestJSON(init, skip)) as T & KubeObject;
    } catch (err) {
      if (err instanceof KubeError && err.code === 404) return undefined;
      throw err;
    }
  }

  /**
   * Reads any JSON document of the cluster by absolute path (discovery, OpenAPI, a CRD).
   *
   * @throws KubeError for a non-2xx answer, or the network error.
   */
  async getPath(path: string, request: RequestOptions = {}): Promise<unknown> {
    return this.client.requestJSON({ path, signal: request.signal, idleTimeoutMs: request.idleTimeoutMs ?? this.options.requestIdleTimeoutMs ?? 60_000 });
  }

  /** Closes idle keep-alive connections; open watches end on their own. */
  close(): void {
    this.client.destroy();
  }

  /** The collection's path in `namespace` (all namespaces when `undefined`), computed once per namespace. */
  private collectionPathIn(namespace: string | undefined): string {
    if (namespace === this.resource.namespace) return this.collectionPath;
    let path = this.namespacedPaths.get(namespace ?? '');
    if (path === undefined) {
      // Bounded: a namespace per departure's namespace at most; reset rather than grow without end.
      if (this.namespacedPaths.size >= 1024) this.namespacedPaths.clear();
      path = resourcePath({ ...parseApiVersion(this.resource.apiVersion), resource: this.resource.plural }, namespace);
      this.namespacedPaths.set(namespace ?? '', path);
    }
    return path;
  }

  private url(query: URLSearchParams, namespace?: string): string {
    const q = query.toString();
    const path = namespace === undefined ? this.collectionPath : this.collectionPathIn(namespace);
    return q === '' ? path : `${path}?${q}`;
  }

}

/**
 * A list's `continue` token as its text shows it, found without decoding the list: the last
 * `"continue":"…"` among its last 1024 characters, else the first among its first 1024 (where the
 * apiserver writes `metadata`: after the items for custom resources, keys sorted; before them for
 * built-in kinds). A guess, to be checked against the decoded list; `undefined` when none shows (the
 * last page) or the token has an escape.
 */
export function continueTokenIn(text: string): string | undefined {
  const key = '"continue":"';
  // Searches within the two windows only (substrings of the text, not copies).
  const tailStart = Math.max(0, text.length - 1024);
  let at = text.slice(tailStart).lastIndexOf(key);
  if (at !== -1) at += tailStart;
  else at = text.slice(0, 1024).indexOf(key);
  if (at === -1) return undefined;
  const start = at + key.length;
  const end = text.indexOf('"', start);
  if (end === -1 || end === start) return undefined;
  const token = text.slice(start, end);
  return token.includes('\\') ? undefined : token;
}

/**
 * A list answer, its `items` checked: `null` or absent is none, as Go decodes it (the apiserver writes an
 * empty PartialObjectMetadataList's items as `null`, which is what a lookup by `metadata.name` of a deleted
 * object answers).
 */
function asList<T extends KubeObject>(body: unknown): KubeList<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new KubeError('InternalError', `unable to decode the list: it is ${jsonTypeName(body)}; expected an object`);
  }
  const list = body as KubeList<T>;
  if (list.items === null || list.items === undefined) list.items = [];
  else if (!Array.isArray(list.items)) throw new KubeError('InternalError', `unable to decode the list: its items are ${jsonTypeName(list.items)}; expected an array`);
  if (typeof list.metadata !== 'object' || list.metadata === null) list.metadata = {};
  return list;
}
