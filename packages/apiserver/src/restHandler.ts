/**
 * The generic REST handler: every verb on a {@link ResourceType} — get, list, watch, create, update,
 * patch, delete, deletecollection, and the `status` and `scale` subresources — with the apiserver's
 * response codes and bodies. Writes are in `writeHandler.ts`.
 */
import { KubeError, goQuote } from '@kubekit/core';
import { isReviewType } from './accessReviews.js';
import { componentStatusDeprecation, isComponentStatusType, type ComponentStatusType } from './componentStatuses.js';
import { addWarning, contentType, methodNotAllowed, requestSignal, responseIsProtobuf, responseFormat, responseMetaVersion, sendJSON, setResponseOutput } from './internal/http.js';
import { protobufMessageOf } from './internal/protobufEncode.js';
import { checkRouteAccepts, checkStream, negotiateOutput, resourceRestrictions, routeProduces, type OutputMediaType } from './internal/negotiation.js';
import { notAcceptableConversion } from './internal/goTypeNames.js';
import { patchTypeOf } from './patch.js';
import { evictPod } from './podEviction.js';
import { bindPod } from './podBinding.js';
import { requestToken } from './serviceAccountTokens.js';
import { queryBool } from './internal/queryBool.js';
import type { FieldSelector } from './internal/semantics.js';
import { checkKeyName } from './objectMeta.js';
import { listObjects, parseListOptions, resourceVersionProblem, selectionOf } from './listing.js';
import type { ResourceType } from './resourceType.js';
import type { ServerContext } from './serverContext.js';
import { buildTable, parseIncludeObject } from './table.js';
import { serveWatch } from './watchHandler.js';
import { currentObject, partialObjectMetadataList, respondList, respondObject, type RestRequest } from './restRequest.js';
import { deleteCollection, deleteObject } from './deleteHandler.js';
import { handleWrite } from './writeHandler.js';
import { isPodConnectSubresource, servePodConnect } from './podConnect.js';
import { isProxyRequest, proxyMethods, serveProxy } from './proxySubresources.js';
import { readScale, scaleAnswerShape } from './scaleSubresource.js';

const notFoundMessage = 'the server could not find the requested resource';

/** The 404 of a path that names nothing the server serves. */
export function resourceNotFound(): KubeError {
  return new KubeError('NotFound', notFoundMessage, { details: {} });
}

/** Whether a Content-Type is a patch type the kind takes. */
function patchable(type: ResourceType, ct: string): boolean {
  const pt = patchTypeOf(ct);
  return pt !== undefined && (pt !== 'strategic' || type.strategicMergePatch);
}

/**
 * A namespaced built-in kind's URL without a namespace serves only lists and watches across namespaces:
 * there is a GET route for the collection and no route for an object. (A custom resource's request out of
 * its CRD's scope never gets here: the server answers the mux's plain 404.)
 */
function namespacelessPath(verb: string, name: string): void {
  if (verb === 'list' || verb === 'watch') return;
  throw name === '' ? methodNotAllowed() : resourceNotFound();
}

/**
 * The built-in kinds' routes under a deprecated path prefix (installer.go, "DEPRECATED in 1.11"): only
 * `GET watch/…`, of a kind that watches — its collection in a namespace, across all namespaces, or without
 * one for a cluster-scoped kind, and one of its objects in its scope. No subresource is watched there and
 * there is no `proxy/` route: those paths are go-restful's 404, another method on a route its 405.
 * (The custom resource handler serves either prefix's verb for any method: crdHandler.serveResource.)
 */
function checkPathPrefixRoute(type: ResourceType, info: RestRequest['info'], method: string | undefined): void {
  const n = type.names;
  if (info.verb !== 'watch' || !n.verbs.includes('watch') || info.subresource !== '' || info.extraSegments === true
    || (n.namespaced && info.namespace === '' && info.name !== '')) throw resourceNotFound();
  if (method !== 'GET') throw methodNotAllowed();
}

/** Handles a resource request; errors are thrown as `KubeError`s for the caller to answer. */
export async function handleResourceRequest(ctx: ServerContext, r: RestRequest): Promise<void> {
  const { info, type } = r;
  if (info.verbViaPathPrefix === true && type.customResource !== true) checkPathPrefixRoute(type, info, r.req.method);
  if (isComponentStatusType(type)) return serveComponentStatuses(ctx, r, type);
  if (type.deprecationWarning !== undefined) addWarning(r.res, type.deprecationWarning);
  // A cluster-scoped kind under a namespace is not served, but for the core Namespaces themselves (requestinfo.go
  // reads `namespaces/{name}` as a namespace of that name, whatever the group).
  const coreNamespaces = type.customResource !== true && type.names.group === '' && type.names.resource === 'namespaces';
  if (type.names.namespaced === false && info.namespace !== '' && !coreNamespaces) throw resourceNotFound();
  // A proxy's path goes on after its subresource (`pods/p/proxy/healthz`).
  if (info.extraSegments === true && type.customResource !== true && !isProxyRequest(type, info.subresource)) throw resourceNotFound();
  // A review kind has one route: POST to its collection (in a namespace, for a namespaced one).
  if (isReviewType(type)) {
    if (info.name !== '' || info.subresource !== '' || (type.names.namespaced && info.namespace === '')) throw resourceNotFound();
    if (info.verb !== 'create') throw methodNotAllowed();
    negotiate(r, false);
    return handleWrite(ctx, r, info.namespace);
  }
  // The legacy bindings collection: only a POST to it, in a namespace (no GET route for an object).
  if (type.names.group === '' && type.names.resource === 'bindings' && type.customResource !== true) {
    if (info.name !== '' || info.subresource !== '' || info.namespace === '') throw resourceNotFound();
    if (info.verb !== 'create') throw methodNotAllowed();
    negotiate(r, false);
    const pods = ctx.resolveType?.('', 'v1', 'pods');
    if (pods === undefined) throw resourceNotFound();
    return bindPod(ctx, r, pods, info.namespace, undefined);
  }
  if (type.names.namespaced && info.namespace === '') namespacelessPath(info.verb, info.name);
  const sub = info.subresource;
  // A Pod's binding: created, as a core/v1 Binding (no other verb has a route).
  if (sub === 'binding' && (type.names.kindSubresources?.some((k) => k.subresource === sub) ?? false)) {
    if (info.verb === 'create') {
      if (info.name === '') throw KubeError.badRequest('name must be provided');
      negotiate(r, false);
      return bindPod(ctx, r, type, info.namespace, info.name);
    }
    if (info.name !== '') throw methodNotAllowed();
  }
  // A Pod's eviction: created, as a policy/v1 Eviction (no other verb has a route).
  if (sub === 'eviction' && (type.names.kindSubresources?.some((k) => k.subresource === sub) ?? false)) {
    if (info.verb === 'create') {
      // The create handler's Namer (errEmptyName) before anything is decoded.
      if (info.name === '') throw KubeError.badRequest('name must be provided');
      negotiate(r, false);
      return evictPod(ctx, r, info.namespace);
    }
    if (info.name !== '') throw methodNotAllowed();
  }
  // The proxy of a pod, a service or a node: what the apiserver answers before it dials (proxySubresources.ts).
  if (isProxyRequest(type, sub)) {
    if (!proxyMethods.includes(r.req.method ?? '')) throw methodNotAllowed();
    refuseDryRun(r);
    return serveProxy(ctx, r, info.namespace, info.name);
  }
  // A Pod's log (GET), exec, attach and port forwarding (GET or POST): what the apiserver answers before it
  // dials the node's kubelet (podConnect.ts).
  if (isPodConnectSubresource(sub) && (type.names.kindSubresources?.some((k) => k.subresource === sub) ?? false)) {
    if (info.name === '') throw resourceNotFound();
    if (info.verb !== 'get' && (sub === 'log' || info.verb !== 'create')) throw methodNotAllowed();
    // A pod's log is read with options (GetterWithOptions), not connected to.
    if (sub !== 'log') refuseDryRun(r);
    return servePodConnect(ctx, r, info.namespace, info.name, sub);
  }
  // A ServiceAccount's token: created, as an authentication.k8s.io/v1 TokenRequest.
  if (sub === 'token' && ctx.serviceAccountTokens !== undefined && (type.names.kindSubresources?.some((k) => k.subresource === sub) ?? false)) {
    if (info.verb === 'create') {
      if (info.name === '') throw KubeError.badRequest('name must be provided');
      negotiate(r, false);
      return requestToken(ctx, r, info.namespace, ctx.serviceAccountTokens);
    }
    if (info.name !== '') throw methodNotAllowed();
  }
  if (sub !== '' && !(sub === 'status' && type.names.status) && !(sub === 'scale' && type.names.scale !== undefined) && !(type.names.objectSubresources?.includes(sub) ?? false)
    && !(coreNamespaces && (sub === 'status' || sub === 'finalize'))) {
    // The custom resource handler answers any other subresource of an object's URL as the object's
    // absence (crdHandler.serveResource's default case), an empty name (`widgets//x`) included; built-in
    // kinds have no route for it.
    if (type.customResource === true) throw KubeError.notFound(type.groupResource, info.name);
    throw resourceNotFound();
  }
  if (info.name === '' && sub !== '' && type.customResource !== true) throw resourceNotFound();
  // The custom resource handler's status and scale serve get, update and patch; other verbs (a GET of
  // `widgets//status` is a list) are its MethodNotSupported (crdHandler.serveStatus/serveScale).
  if (type.customResource === true && sub !== '' && !['get', 'update', 'patch'].includes(info.verb)) throw methodNotSupported(type, info.verb);
  const namespace = type.names.namespaced ? info.namespace : '';
  // A namespace's finalize has only PUT (FinalizeREST has no getter) and no table convertor.
  const finalize = coreNamespaces && sub === 'finalize';
  if (finalize && info.verb !== 'update') throw methodNotAllowed();
  // Neither have a pod's ephemeralcontainers and resize nor a CertificateSigningRequest's approval (their
  // REST types convert no Table, unlike the status ones): a Table is not acceptable there.
  const tables = !finalize && !(type.names.objectSubresources?.includes(sub) ?? false);
  switch (info.verb) {
    case 'get':
      negotiate(r, tables);
      checkKeyName(info.name);
      return get(ctx, r, namespace);
    case 'list':
      // The list handler negotiates once it has validated the list options (handlers/get.go).
      negotiateRoute(r, true);
      return list(ctx, r, namespace);
    case 'watch':
      negotiateRoute(r, true);
      return watch(ctx, r, namespace);
    case 'delete':
      if (sub !== '') throw methodNotAllowed();
      negotiate(r, true);
      return deleteObject(ctx, r, namespace);
    case 'deletecollection':
      // A kind whose storage deletes no collection (Namespaces) has no route for it: go-restful's 405,
      // before anything is listed or deleted.
      if (!type.names.verbs.includes('deletecollection')) throw methodNotAllowed();
      negotiate(r, true);
      return deleteCollection(ctx, r, namespace);
    case 'create':
      // The custom resource handler creates on an object's URL too (handlers.CreateResource: the name
      // comes from the body, the URL's is not compared); built-in kinds have no POST route there, the
      // Namespaces included (kube-apiserver 1.34.4: 405).
      if (info.name !== '' && !(type.customResource === true && sub === '')) throw methodNotAllowed();
      negotiate(r, true);
      return handleWrite(ctx, r, namespace);
    case 'update':
    case 'patch':
      // A collection: the custom resource handler's Update/PatchResource read the name from the URL
      // (ContextBasedNaming.Name: errEmptyName); built-in kinds have no PUT or PATCH route for it.
      if (info.name === '') {
        if (type.customResource === true) throw KubeError.badRequest('name must be provided');
        throw methodNotAllowed();
      }
      if (info.verb === 'patch' && type.customResource !== true && !patchable(type, contentType(r.req))) {
        // go-restful matches a built-in kind's PATCH route by the patch types it consumes: another
        // Content-Type is its 415 (RouterJSR311.detectRoute), before any handler runs.
        throw new KubeError('UnsupportedMediaType', '415: Unsupported Media Type', { details: {} });
      }
      negotiate(r, tables);
      return handleWrite(ctx, r, namespace);
    default:
      // The custom resource handler's MethodNotSupported names the verb, which requestinfo.go leaves
      // empty for other methods; go-restful has no route for them.
      if (type.customResource === true) throw methodNotSupported(type, info.verb);
      throw methodNotAllowed();
  }
}

/**
 * The computed ComponentStatuses (componentStatuses.ts): a get and a list route, with the watch the list
 * route refuses (`NewMethodNotSupported`) and the kind's deprecation warning on each of the three; any other
 * method or path has no route (no warning).
 */
async function serveComponentStatuses(ctx: ServerContext, r: RestRequest, type: ComponentStatusType): Promise<void> {
  const { info } = r;
  if (info.namespace !== '' || info.subresource !== '' || info.extraSegments === true) throw resourceNotFound();
  if (info.verb !== 'get' && info.verb !== 'list' && info.verb !== 'watch') throw methodNotAllowed();
  if (r.req.method === 'HEAD') throw methodNotAllowed();
  // go-restful's 406 comes before the handler, which warns.
  checkRouteAccepts(r.req.headers.accept, routeProduces(info.verb !== 'get'));
  addWarning(r.res, componentStatusDeprecation);
  if (info.verb === 'get') {
    negotiate(r, true);
    respondObject(ctx, r, 200, await type.status(info.name));
    return;
  }
  // The list handler's order: the options validated, the response negotiated, the field labels converted,
  // then the watch its storage cannot serve.
  const opts = parseListOptions(r.query, type, info.verb === 'watch', () => negotiateHandler(r, true));
  if (info.verb === 'watch') {
    throw new KubeError('MethodNotAllowed', `watch is not supported on resources of kind ${goQuote(type.names.resource)}`, { details: { kind: type.names.resource } });
  }
  const selection = selectionOf(type, '', opts);
  const items = (await type.statuses()).filter((o) => selection.matches(o));
  const format = responseFormat(r.res);
  const apiVersion = `meta.k8s.io/${responseMetaVersion(r.res)}`;
  if (format === 'table') {
    sendJSON(r.res, 200, buildTable(type, items, { includeObject: parseIncludeObject(r.query.get('includeObject')), apiVersion, now: ctx.clock.now() }));
  } else if (format === 'partialObjectMetadataList') {
    sendJSON(r.res, 200, partialObjectMetadataList(apiVersion, {}, items));
  } else if (format === 'partialObjectMetadata') {
    throw notAcceptableConversion(type, 'PartialObjectMetadata', true);
  } else {
    sendJSON(r.res, 200, { kind: type.names.listKind, apiVersion: type.names.version, metadata: {}, items: items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest) });
  }
}

/** The connect handler's first check (handlers/rest.go ConnectResource): any `dryRun` parameter, whatever its value. */
function refuseDryRun(r: RestRequest): void {
  if (r.query.has('dryRun')) throw KubeError.badRequest('dryRun is not supported');
}

/**
 * Negotiates the response before the request is read or acted on: a built-in kind's route first (go-restful
 * matches the `Accept` header against what the route produces; a collection GET also produces watch
 * streams), then the handler (`NegotiateOutputMediaType`, and for a watch `NegotiateOutputMediaTypeStream`),
 * a Table allowed where the endpoint has a table convertor. A write that cannot answer in a media type the
 * client accepts is refused before it changes anything.
 */
function negotiate(r: RestRequest, table: boolean): void {
  negotiateRoute(r, false);
  negotiateHandler(r, table);
}

/** go-restful's route match of a built-in kind (a custom resource's handler has no such route). */
function negotiateRoute(r: RestRequest, collection: boolean): void {
  if (r.type.customResource !== true) checkRouteAccepts(r.req.headers.accept, routeProduces(collection));
}

/**
 * The handler's `NegotiateOutputMediaType`, a Table allowed where the endpoint has a table convertor; the
 * output is the response's. (A watch then negotiates a stream: {@link checkStream}.)
 */
function negotiateHandler(r: RestRequest, table: boolean): OutputMediaType {
  const restrictions = resourceRestrictions(table, r.type.customResource !== true && protobufMessageOf(r.type.names.group === '' ? r.type.names.version : `${r.type.names.group}/${r.type.names.version}`, r.type.names.kind) !== undefined);
  const output = negotiateOutput(r.req, restrictions);
  setResponseOutput(r.res, output);
  return output;
}

/** The custom resource handler's 405 for a verb it does not serve (apierrors.NewMethodNotSupported). */
function methodNotSupported(type: ResourceType, verb: string): KubeError {
  return new KubeError('MethodNotAllowed', `${verb} is not supported on resources of kind ${goQuote(`${type.names.resource}.${type.names.group}`)}`, {
    details: { group: type.names.group, kind: type.names.resource },
  });
}

/**
 * GET of one object. A resourceVersion is served as the apiserver's watch cache serves it
 * (CacheDelegator.Get, Cacher.Get): unset or `0`, the current object; N, the current object once the
 * store has reached N, waited for up to 3 s; not an unsigned 64-bit number, the cacher's parse error,
 * which reaches the client as a 500 without a reason. Without a watch cache (Events), etcd's store
 * answers (store.validateMinimumResourceVersion): N not reached is the 504 at once, a bad N the list's 400.
 */
async function get(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const rvText = r.query.get('resourceVersion') ?? '';
  if (rvText !== '' && rvText !== '0') {
    const cached = r.type.watchCache !== false;
    const problem = resourceVersionProblem(rvText);
    if (problem !== undefined) {
      if (!cached) throw KubeError.badRequest(`invalid resource version: ${problem.toString()}`);
      sendJSON(r.res, 500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: problem.toString(), code: 500 });
      return;
    }
    await ctx.resourceVersions.waitUntilFresh(BigInt(rvText), { signal: () => requestSignal(r.res), wait: cached });
  }
  // Without a resourceVersion the object is read from etcd, not the watch cache.
  const view = await currentObject(ctx, r.type, namespace, r.info.name, rvText === '');
  if (r.info.subresource === 'scale') {
    respondObject(ctx, r, 200, readScale(r.type, view), scaleAnswerShape(r.type));
    return;
  }
  respondObject(ctx, r, 200, view);
}

async function list(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const { type, query } = r;
  const opts = parseListOptions(query, type, false, () => negotiateHandler(r, true));
  const selection = selectionOf(type, namespace, opts);
  const candidates = indexCandidates(ctx, type, opts.fieldSelector);
  // A list that waits for its resourceVersion needs to know when its client goes away.
  const result = await listObjects(ctx, type, selection, opts, candidates, () => requestSignal(r.res));
  respondList(ctx, r, result.items, { resourceVersion: String(result.resourceVersion), continueToken: result.continueToken, remainingItemCount: result.remainingItemCount });
}

/** The keys an index on a selectable field offers for a field selector, when one applies. */
function indexCandidates(ctx: ServerContext, type: ResourceType, selector: FieldSelector | undefined): ((rv: number) => ReadonlySet<string> | undefined) | undefined {
  if (!ctx.limits.fieldIndexes || selector === undefined || type.lookupIndex === undefined) return undefined;
  const lookup = type.lookupIndex.bind(type);
  const exact = selector.requirements().filter((req) => req.operator === '=');
  if (exact.length === 0) return undefined;
  // Only the current state is indexed; snapshots of older resourceVersions scan.
  return (rv) => {
    if (rv !== ctx.store.resourceVersion) return undefined;
    for (const req of exact) {
      const keys = lookup(req.field, req.value);
      if (keys !== undefined) return keys;
    }
    return undefined;
  };
}

/**
 * A watch (handlers/get.go ListResource with forceWatch). Under the deprecated `/watch/` prefix the request
 * is a watch whatever its `watch` parameter says, but the list options are validated according to that
 * parameter, as the handler reads them: without `watch=true` they are a list's (`sendInitialEvents` is
 * refused, `continue`, `limit` and `resourceVersionMatch` pass and change nothing). A name in the path
 * selects that object, and a field selector must then select exactly that name.
 */
async function watch(ctx: ServerContext, r: RestRequest, namespace: string): Promise<void> {
  const { type, query, info } = r;
  // Negotiated as a list's answer once the options are valid (a YAML watch passes), as a stream once the
  // request is known to be a watch of what it names (handlers/get.go, then serveWatch).
  let output: OutputMediaType | undefined;
  const opts = parseListOptions(query, type, info.verbViaPathPrefix !== true || queryBool(query.get('watch')) === true, () => { output = negotiateHandler(r, true); });
  if (info.name !== '' && opts.fieldSelector !== undefined && !opts.fieldSelector.isEmpty() && opts.fieldSelector.requiresExactMatch('metadata.name') !== info.name) {
    throw KubeError.badRequest('fieldSelector metadata.name doesn\'t match requested name');
  }
  if (output !== undefined) checkStream(output);
  const format = responseFormat(r.res);
  const selection = selectionOf(type, namespace, opts, info.name);
  await serveWatch(ctx, r.res, type, selection, opts, {
    table: format === 'table', includeObject: parseIncludeObject(query.get('includeObject')), tableVersion: `meta.k8s.io/${responseMetaVersion(r.res)}`,
    metadataOnly: format === 'partialObjectMetadata' ? `meta.k8s.io/${responseMetaVersion(r.res)}` : undefined,
    protobuf: responseIsProtobuf(r.res),
    listsOnly: format === 'partialObjectMetadataList',
  });
}
