/**
 * A resource request and the ways to answer one with an object.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KubeError, stringifyJSON, type KubeObject } from '@kubekit/core';
import { requestSignal, responseFormat, responseIsProtobuf, responseMetaVersion, sendJSON, sendText } from './internal/http.js';
import type { RequestContext } from './internal/requestContext.js';
import { goMapKeys } from './internal/goMapKeys.js';
import { listItemJSON } from './listing.js';
import { notAcceptableConversion } from './internal/goTypeNames.js';
import type { ResourceType } from './resourceType.js';
import type { RequestInfo } from './router.js';
import type { ServerContext } from './serverContext.js';
import type { UserInfo } from './rbacAuthorizer.js';
import { storeKey } from './storage/objectStore.js';
import { buildTable, parseIncludeObject, type IncludeObject, type Table } from './table.js';

/** One resource request. */
export interface RestRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  query: URLSearchParams;
  type: ResourceType;
  /** Who the request acts as (the server's own identity, or the user it impersonates). @defaultValue {@link serverUser} */
  user?: UserInfo;
  /**
   * The request's deadline (`performance.now()` time; see internal/requestContext.ts): the admission
   * webhooks it calls get what is left of it, and nothing is stored once it has passed. None for a
   * long-running request (a watch).
   */
  deadline?: number;
}

/**
 * The request's context for the work it does: its deadline, and a signal aborted when its client goes before
 * the answer is written (each call watches the connection anew: call it once per request).
 */
export function requestContext(r: RestRequest): RequestContext {
  return { deadline: r.deadline, signal: requestSignal(r.res) };
}

/** Reads the current object under the request's name, shown in the request's version (`fresh`: see {@link ResourceType.fromStorage}). */
export async function currentObject(ctx: ServerContext, type: ResourceType, namespace: string, name: string, fresh = false): Promise<KubeObject> {
  const stored = ctx.store.get(type.bucket, storeKey(namespace, name));
  if (stored === undefined) throw KubeError.notFound(type.groupResource, name);
  return type.fromStorage(stored, fresh);
}

/**
 * How an answer that is not one of the kind's objects (a subresource's: the Scale) is shown: its Table and
 * the Go type `transformResponseObject` names in its 406.
 */
export interface AnswerShape {
  table(object: KubeObject, include: IncludeObject, apiVersion: string, now: number): Table;
  goType: string;
}

/**
 * Writes one object in the negotiated format (the object, a one-row Table, or its metadata). Asking an
 * object for a PartialObjectMetadataList is the apiserver's 406 (`transformResponseObject`), after the
 * request has done its work, as there. `shape`: how an object of another kind than the resource's (a
 * Scale) is shown.
 */
export function respondObject(ctx: ServerContext, r: RestRequest, code: number, view: KubeObject, shape?: AnswerShape): void {
  const f = responseFormat(r.res);
  const metaVersion = `meta.k8s.io/${responseMetaVersion(r.res)}`;
  if (f === 'table') {
    const include = parseIncludeObject(r.query.get('includeObject'));
    const now = ctx.clock.now();
    const table = shape !== undefined ? shape.table(view, include, metaVersion, now) : buildTable(r.type, [view], { resourceVersion: view.metadata.resourceVersion, includeObject: include, apiVersion: metaVersion, now });
    sendJSON(r.res, code, table);
  } else if (f === 'partialObjectMetadata') {
    sendJSON(r.res, code, { kind: 'PartialObjectMetadata', apiVersion: metaVersion, metadata: view.metadata });
  } else if (f === 'partialObjectMetadataList') {
    throw notAcceptableConversion(r.type, 'PartialObjectMetadataList', false, shape?.goType);
  } else {
    sendJSON(r.res, code, view);
  }
}

/** A list's metadata: its resourceVersion, and where a page ends, its continue token and what remains. */
export interface ListMeta {
  resourceVersion: string;
  continueToken: string;
  remainingItemCount?: number;
}

/**
 * Writes a list in the negotiated format (the kind's list, a Table, or a PartialObjectMetadataList): a
 * list's GET and the list a DELETE of a collection answers (transformResponseObject serves both). Asking
 * a list for one object's metadata is the apiserver's 406, after the request has done its work.
 */
export function respondList(ctx: ServerContext, r: RestRequest, items: readonly KubeObject[], meta: ListMeta): void {
  const { type } = r;
  const format = responseFormat(r.res);
  if (format === 'table') {
    const table = buildTable(type, items, {
      resourceVersion: meta.resourceVersion, continueToken: meta.continueToken, remainingItemCount: meta.remainingItemCount,
      includeObject: parseIncludeObject(r.query.get('includeObject')), apiVersion: `meta.k8s.io/${responseMetaVersion(r.res)}`, now: ctx.clock.now(),
    });
    sendJSON(r.res, 200, table);
    return;
  }
  // transformResponseObject: the metadata of one object is not what a list is.
  if (format === 'partialObjectMetadata') throw notAcceptableConversion(type, 'PartialObjectMetadata', true);
  const metadata: Record<string, unknown> = { resourceVersion: meta.resourceVersion };
  // A custom resource list is unstructured: its store sets `continue` even when it is empty, where a
  // built-in kind's typed ListMeta omits it.
  if (meta.continueToken !== '' || (type.customResource === true && format === 'object')) metadata.continue = meta.continueToken;
  if (meta.remainingItemCount !== undefined) metadata.remainingItemCount = meta.remainingItemCount;
  if (format === 'partialObjectMetadataList') {
    sendJSON(r.res, 200, partialObjectMetadataList(`meta.k8s.io/${responseMetaVersion(r.res)}`, metadata, items));
    return;
  }
  const { names } = type;
  const apiVersion = names.group === '' ? names.version : `${names.group}/${names.version}`;
  // The items are shared, immutable objects: serialise the envelope around them without copying. A
  // custom resource list is an unstructured map, written with sorted keys (its items before its
  // metadata); a built-in kind's list is a Go struct, written in field order.
  if (type.customResource === true) {
    const written = items.map((o) => stringifyJSON(o)).join(',');
    sendText(r.res, 200, `{"apiVersion":${stringifyJSON(apiVersion)},"items":[${written}],"kind":${stringifyJSON(names.listKind)},"metadata":${stringifyJSON(Object.fromEntries(goMapKeys(metadata).map((k) => [k, metadata[k]])))}}`);
    return;
  }
  if (responseIsProtobuf(r.res)) {
    sendJSON(r.res, 200, { kind: names.listKind, apiVersion, metadata, items });
    return;
  }
  const head = stringifyJSON({ kind: names.listKind, apiVersion, metadata });
  sendText(r.res, 200, `${head.slice(0, -1)},"items":[${items.map(listItemJSON).join(',')}]}`);
}

/**
 * asPartialObjectMetadataList: each item's metadata, the list's own, and `items: null` when there is none
 * (the list's Items slice is appended to, never made).
 */
export function partialObjectMetadataList(apiVersion: string, metadata: Record<string, unknown>, items: readonly KubeObject[]): Record<string, unknown> {
  return { kind: 'PartialObjectMetadataList', apiVersion, metadata, items: items.length === 0 ? null : items.map((o) => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata })) };
}
