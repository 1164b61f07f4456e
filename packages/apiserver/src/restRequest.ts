/**
 * A resource request and the ways to answer one with an object.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KubeError, type KubeObject } from '@kubekit/core';
import { responseFormat, responseMetaVersion, sendJSON } from './internal/http.js';
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
}

/** Reads the current object under the request's name, shown in the request's version. */
export async function currentObject(ctx: ServerContext, type: ResourceType, namespace: string, name: string): Promise<KubeObject> {
  const stored = ctx.store.get(type.bucket, storeKey(namespace, name));
  if (stored === undefined) throw KubeError.notFound(type.groupResource, name);
  return type.fromStorage(stored);
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
