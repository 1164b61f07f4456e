/**
 * `watch=true` requests: where a watch starts (resourceVersion rules, `sendInitialEvents`), and the
 * wiring of a {@link Watcher} to the store's fan-out.
 *
 * - `resourceVersion` unset or `0`: the current state as ADDED events, then changes.
 * - `resourceVersion=N`: every change after N (a `410 Expired` ERROR event when N is older than the
 *   history). When the server has not reached N yet, the stream opens and stays silent (no error, no
 *   bookmark) until it passes N, then sends the changes after N: the apiserver's cacher does not wait
 *   for a plain watch ("clients can wait for events without unnecessary blocking"), and its cache
 *   watcher sends only events newer than N.
 * - `sendInitialEvents=true` (with `resourceVersionMatch=NotOlderThan`): the current state, a BOOKMARK
 *   annotated `k8s.io/initial-events-end` when bookmarks are allowed (1.34 no longer requires them),
 *   then changes. With N not reached yet, the response waits for it (headers included) up to 3 s, as
 *   the cacher's waitUntilWatchCacheFreshAndForceAllEvents, then gives the state once there, or the
 *   `504 Too large resource version` as an ERROR event (at once for a resource without a watch cache,
 *   Events, as etcd's watcher refuses it).
 *
 * @see https://github.com/kubernetes/apiserver/blob/v0.34.4/pkg/storage/cacher/cacher.go (Cacher.Watch)
 */
import type { ServerResponse } from 'node:http';
import { KubeError, stringifyJSON, type KubeObject } from '@kubekit/core';
import { requestSignal } from './internal/http.js';
import { parseResourceVersion, type ListOptions, type Selection } from './listing.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import type { StoreEvent } from './storage/objectStore.js';
import { tooLargeResourceVersion } from './storage/resourceVersionWaiter.js';
import { buildTable, type IncludeObject } from './table.js';
import { Watcher } from './watcher.js';

/** The representation of a watch's objects. */
export interface WatchFormat {
  table: boolean;
  includeObject: IncludeObject;
  /** The Tables' apiVersion (`meta.k8s.io/v1` or `meta.k8s.io/v1beta1`). @defaultValue 'meta.k8s.io/v1' */
  tableVersion?: string;
  /** The apiVersion of the PartialObjectMetadata sent in place of each object (`meta.k8s.io/v1`), when asked for. */
  metadataOnly?: string;
  /** Whether the stream is protobuf (`application/vnd.kubernetes.protobuf;stream=watch`). */
  protobuf?: boolean;
  /** Whether each object was asked for as a PartialObjectMetadataList (see the Watcher's `listsOnly`). */
  listsOnly?: boolean;
}

/**
 * Starts a watch stream on `res`: responds with headers at once (after the wait for the resourceVersion
 * of `sendInitialEvents`, if any); events follow. Resolves with the watcher, or undefined when the
 * client went away during that wait.
 *
 * @throws KubeError `TooManyRequests` (429) when too many reads wait already.
 */
export async function serveWatch(ctx: ServerContext, res: ServerResponse, type: ResourceType, selection: Selection, opts: ListOptions, format: WatchFormat): Promise<Watcher | undefined> {
  const { store, hub, clock, limits } = ctx;
  let waitError: KubeError | undefined;
  const rvText = opts.resourceVersion;
  if (opts.sendInitialEvents === true && /^[0-9]+$/.test(rvText)) {
    try {
      if (type.watchCache === false) {
        // etcd's watcher (watchChan.startWatching) does not wait: it refuses at once, asking to retry
        // after wait.Jitter(1 s, 3) in whole seconds.
        const wanted = BigInt(rvText);
        if (wanted > BigInt(store.deliveredResourceVersion)) throw tooLargeResourceVersion(wanted, store.deliveredResourceVersion, Math.trunc(1 + Math.random() * 3));
      } else {
        await ctx.resourceVersions.waitUntilFresh(BigInt(rvText), { delivered: true, signal: () => requestSignal(res) });
      }
    } catch (err) {
      if (!(err instanceof KubeError) || err.reason !== 'Timeout') {
        if (res.destroyed) return undefined;
        throw err;
      }
      waitError = err;
    }
  }
  const timeoutMs = opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0
    ? opts.timeoutSeconds * 1000
    : (limits.minRequestTimeoutSeconds * (1 + Math.random())) * 1000;

  const metadataOnly = format.metadataOnly;
  const cache = hub.encodeCache(format.table ? encodingOwner(type, `${format.includeObject} ${format.tableVersion ?? ''}`) : metadataOnly !== undefined ? encodingOwner(type, metadataOnly) : type);
  const encode = (o: KubeObject): string => {
    let text = cache.get(o);
    if (text === undefined) {
      text = format.table
        ? stringifyJSON(buildTable(type, [o], { resourceVersion: o.metadata.resourceVersion, includeObject: format.includeObject, apiVersion: format.tableVersion, now: clock.now() }))
        : metadataOnly !== undefined
          ? stringifyJSON({ kind: 'PartialObjectMetadata', apiVersion: metadataOnly, metadata: o.metadata })
          : stringifyJSON(o);
      // Tables carry ages, which go stale; objects do not.
      if (!format.table) cache.set(o, text);
    }
    return text;
  };

  const current = store.deliveredResourceVersion;
  let fromRV = current;
  let initial: KubeObject[] | undefined;
  let replay: StoreEvent[] = [];
  let error: KubeError | undefined = waitError;
  const legacyInitial = opts.sendInitialEvents === undefined && (rvText === '' || rvText === '0');
  if (error !== undefined) {
    // The wait for the initial events' resourceVersion timed out: only the ERROR event goes out.
  } else if (opts.sendInitialEvents === true || legacyInitial) {
    const state: Iterable<[string, KubeObject]> = current === store.resourceVersion
      ? store.values(type.bucket)
      : [...store.snapshotAt(type.bucket, current)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    initial = [];
    for (const [, stored] of state) {
      if (selection.namespace === '' || stored.metadata.namespace === selection.namespace) initial.push(stored);
    }
  } else if (rvText !== '' && rvText !== '0') {
    fromRV = parseResourceVersion(rvText);
  }
  // From a resourceVersion not reached yet there is nothing to replay: the watcher drops every event
  // up to it and waits, silently, for the ones after.
  if (initial === undefined && error === undefined && fromRV <= store.resourceVersion) {
    try {
      replay = store.eventsSince(fromRV);
    } catch (err) {
      error = err instanceof KubeError ? err : new KubeError('InternalError', String(err));
    }
  }

  const watcher = new Watcher(res, {
    type,
    namespace: selection.namespace,
    matches: selection.matches,
    encode,
    bookmarkAs: metadataOnly === undefined ? undefined : { kind: 'PartialObjectMetadata', apiVersion: metadataOnly },
    protobuf: format.protobuf === true,
    listsOnly: format.listsOnly === true,
    bookmarks: opts.allowWatchBookmarks,
    bookmarkIntervalMs: limits.bookmarkIntervalMs,
    timeoutMs,
    maxQueue: limits.watchMaxQueue,
    maxBufferedBytes: limits.watchMaxBufferedBytes,
    clock,
    currentRV: () => store.deliveredResourceVersion,
    onStop: (w) => hub.remove(w),
  }, fromRV);
  watcher.begin();
  // A negative timeoutSeconds makes the apiserver's watch timer fire at once (handlers/get.go passes
  // it to context.WithTimeout and the watch server's time.NewTimer): the stream ends empty.
  if (opts.timeoutSeconds !== undefined && opts.timeoutSeconds < 0) {
    watcher.stop('timeout');
    return watcher;
  }
  if (error !== undefined) {
    watcher.sendError(error.toStatus());
    return watcher;
  }
  if (initial !== undefined) watcher.queueInitial(initial, opts.sendInitialEvents === true && opts.allowWatchBookmarks ? current : undefined);
  hub.add(watcher, replay);
  return watcher;
}

const encodingOwners = new WeakMap<ResourceType, Map<string, object>>();

/** The key of an encoding cache of a kind's objects in one representation (a Table with `include`, or metadata of an apiVersion). */
function encodingOwner(type: ResourceType, representation: string): object {
  let m = encodingOwners.get(type);
  if (m === undefined) {
    m = new Map();
    encodingOwners.set(type, m);
  }
  let o = m.get(representation);
  if (o === undefined) {
    o = {};
    m.set(representation, o);
  }
  return o;
}
