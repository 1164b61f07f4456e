/**
 * Request routing: the apiserver's `RequestInfo` — which resource, namespace, name and subresource a
 * URL path names, and which verb the HTTP method and query mean.
 *
 * @see https://github.com/kubernetes/apiserver/blob/master/pkg/endpoints/request/requestinfo.go
 */
import { queryBool } from './internal/queryBool.js';

/** The verbs of resource requests. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** What a request is about, decoded from its method, path and query. */
export interface RequestInfo {
  /** Whether the path names a resource (`/api/v1/...`, `/apis/g/v/...` with a resource). */
  isResourceRequest: boolean;
  /** The URL path without the query. */
  path: string;
  /** The verb (resource requests: `''` for a method without one) or the lower-cased HTTP method (other requests). */
  verb: Verb | string;
  /** `api` or `apis` for resource requests. */
  apiPrefix: string;
  /** The API group (`''` for the core group). */
  group: string;
  /** The API version. */
  version: string;
  /** The namespace (`''` for none). */
  namespace: string;
  /** The resource (plural). */
  resource: string;
  /** The subresource (`status`, `scale`), `''` for none. */
  subresource: string;
  /** The object name (`''` for collection requests). */
  name: string;
  /** Whether the path has segments after the subresource (`widgets/w/status/x`). */
  extraSegments?: boolean;
  /**
   * Whether the verb came from a deprecated path prefix (`/api/v1/watch/…`, `/api/v1/proxy/…`): such a
   * request is authorized and classified with that verb, whatever its method. Built-in kinds serve only
   * `GET` of `watch/` (collections and objects, no subresources); custom resources take either verb for
   * any method, serving the watch and refusing the proxy.
   */
  verbViaPathPrefix?: boolean;
  /**
   * Set when requestinfo.go cannot decode the path (a special verb with nothing after it, `/api/v1/watch`):
   * kube-apiserver answers such a request with a 500 before it authenticates it.
   */
  undecodable?: true;
}

/** Subresources of a namespace that are not resources in their own right. */
const namespaceSubresources = new Set(['status', 'finalize']);

/**
 * Decodes a request as the apiserver's `RequestInfoFactory` does. Paths that are not resource paths
 * (`/version`, `/apis`, `/apis/g/v`, `/openapi/v3`) come back with `isResourceRequest: false`.
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', group: '', version: '',
    namespace: '', resource: '', subresource: '', name: '',
  };
  // requestinfo.go's splitPath: the slashes at both ends are trimmed, an empty segment between two
  // slashes stays (`widgets//x` names no object, `x` is its subresource).
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  let parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.length === 0 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0];
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 3) return info; // /apis, /apis/g, /apis/g/v: discovery
    info.group = parts[0];
    parts = parts.slice(1);
  } else if (parts.length < 2) {
    return info; // /api, /api/v1: discovery
  }
  info.version = parts[0];
  parts = parts.slice(1);
  info.isResourceRequest = true;

  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    // requestinfo.go's special verbs.
    if (parts.length < 2) {
      info.undecodable = true;
      return info;
    }
    info.verb = parts[0];
    info.verbViaPathPrefix = true;
    parts = parts.slice(1);
  } else {
    switch (method) {
      case 'POST': info.verb = 'create'; break;
      case 'GET': case 'HEAD': info.verb = 'get'; break;
      case 'PUT': info.verb = 'update'; break;
      case 'PATCH': info.verb = 'patch'; break;
      case 'DELETE': info.verb = 'delete'; break;
      // requestinfo.go leaves the verb of any other method (OPTIONS, TRACE, …) empty.
      default: info.verb = '';
    }
  }

  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1];
    if (parts.length > 2 && !namespaceSubresources.has(parts[2])) parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  if (parts.length >= 2) info.name = parts[1];
  // A proxy path's segments after the name are the proxied path, not a subresource.
  if (parts.length >= 3 && info.verb !== 'proxy') info.subresource = parts[2];
  // More segments than resource, name and subresource: requestinfo.go keeps them in `Parts`, which the
  // custom resource handler never reads; go-restful has no route for them.
  if (parts.length > 3) info.extraSegments = true;

  // Only a collection's GET reads `watch`: on an object's URL it is a plain get, whatever its value
  // (requestinfo.go decodes ListOptions only without a name; the handlers serve GetResource).
  if (info.name === '') {
    if (info.verb === 'get') info.verb = isTrue(query.get('watch')) ? 'watch' : 'list';
    else if (info.verb === 'delete') info.verb = 'deletecollection';
  }
  return info;
}

/** A collection's `watch` parameter, converted as ListOptions.Watch is (runtime.Convert_Slice_string_To_bool). */
function isTrue(v: string | null): boolean {
  return queryBool(v) === true;
}
