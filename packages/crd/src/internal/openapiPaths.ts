/**
 * The paths of a CRD's OpenAPI v3 document, as apiextensions-apiserver's builder registers routes
 * (pkg/controller/openapi/builder) and kube-openapi's builder3 turns them into path items:
 * parameters shared by every operation of a path move to the path, the rest stay on the operation,
 * both sorted by name; operation IDs and tags as apiserver's `GetOperationIDAndTags` makes them.
 */
import { deleteOptionsName, patchName, ref, scaleName, statusName } from './openapiMeta.js';
import type { OpenAPIObject } from './openapiMeta.js';

/** What the routes need to know about the resource. */
export interface ResourceNames {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  namespaced: boolean;
  status: boolean;
  scale: boolean;
  /** The definition names of the kind and its list. */
  kindModel: string;
  listModel: string;
}

interface Param {
  name: string;
  in: 'query' | 'path';
  description: string;
  type: string;
}

const dryRun = 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed';
const fieldManager = 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.';
const fieldValidation = 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.';
const resourceVersion = 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset';

const q = (name: string, type: string, description: string): Param => ({ name, in: 'query', type, description });

/** The query parameters `AddObjectParams` derives from each options type (with their SwaggerDoc). */
const optionParams: Record<string, Param[]> = {
  get: [q('resourceVersion', 'string', resourceVersion)],
  list: [
    q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
    q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
    q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
    q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.'),
    q('resourceVersion', 'string', resourceVersion),
    q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
    q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
    q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.'),
    q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.'),
    q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as "data at least as new as the provided `resourceVersion`"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as "consistent read" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=""` or `resourceVersion="0"` (for backward compatibility reasons) and to false otherwise.'),
  ],
  post: [q('dryRun', 'string', dryRun), q('fieldManager', 'string', fieldManager), q('fieldValidation', 'string', fieldValidation)],
  put: [q('dryRun', 'string', dryRun), q('fieldManager', 'string', fieldManager), q('fieldValidation', 'string', fieldValidation)],
  patch: [
    q('dryRun', 'string', dryRun),
    q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
    q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).'),
    q('fieldValidation', 'string', fieldValidation),
  ],
  delete: [
    q('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.'),
    q('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.'),
    q('propagationPolicy', 'string', 'Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: \'Orphan\' - orphan the dependents; \'Background\' - allow the garbage collector to delete the dependents in the background; \'Foreground\' - a cascading policy that deletes all dependents in the foreground.'),
    q('dryRun', 'string', dryRun),
    q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean', 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it'),
  ],
};
optionParams.deletecollection = optionParams.list;

const pretty = q('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).");

/** apiserver's `ToValidOperationID`. */
function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const c of s) {
    if (/\p{L}/u.test(c) || c === '_' || (i !== 0 && /\p{Nd}/u.test(c))) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i += c.length;
  }
  return out;
}

const verbs = ['get', 'log', 'read', 'replace', 'patch', 'delete', 'deletecollection', 'watch', 'connect', 'proxy', 'list', 'create'];

/** `GetOperationIDAndTags`: the shortest verb prefix, then group and version, then the rest. */
function operationIdAndTags(operation: string, path: string): [string, string[]] {
  let prefix = '';
  for (let n = 1; n <= operation.length && prefix === ''; n++) if (verbs.includes(operation.slice(0, n))) prefix = operation.slice(0, n);
  const op = operation.slice(prefix.length);
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  const tags: string[] = [];
  if (parts.length >= 2 && parts[0] === 'apis') {
    const trimmed = parts[1].endsWith('.k8s.io') ? parts[1].slice(0, -'.k8s.io'.length) : parts[1];
    prefix += toValidOperationID(trimmed, prefix !== '');
    let tag = toValidOperationID(trimmed, false);
    if (parts.length > 2) {
      prefix += toValidOperationID(parts[2], prefix !== '');
      tag += `_${toValidOperationID(parts[2], false)}`;
    }
    tags.push(tag);
  }
  return [prefix + toValidOperationID(op, prefix !== ''), tags];
}

function article(noun: string): string {
  return noun.length > 0 && 'aeiou'.includes(noun[0].toLowerCase()) ? ' an ' : ' a ';
}

function subresourceOf(path: string): string {
  const parts = path.split('/');
  return parts.length === 3 ? parts[2] : '';
}

/** The builder's `descriptionFor`. */
function descriptionFor(kind: string, path: string, verb: string): string {
  let sub = subresourceOf(path);
  if (sub.length > 0) sub = ` ${sub} of`;
  const art = verb === 'list' ? ' objects of kind ' : verb === 'read' || verb === 'replace' || verb === 'patch' ? ' the specified '
    : verb === 'create' || verb === 'delete' ? article(kind) : '';
  if (verb === 'patch') return `partially update${sub}${art}${kind}`;
  if (verb === 'deletecollection') return `delete collection of${sub.length > 0 ? `${sub} a` : ''} ${kind}`;
  return `${verb}${sub}${art}${kind}`;
}

interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  root: string;
  path: string;
  action: string;
  verb: string;
  model: string;
  operation?: string;
  body?: string;
}

function paramObject(p: Param): OpenAPIObject {
  const o: OpenAPIObject = { name: p.name, in: p.in, description: p.description };
  if (p.in === 'path') o.required = true;
  o.schema = { type: p.type, uniqueItems: true };
  return o;
}

function sortParams(ps: Param[]): Param[] {
  return ps.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.in < b.in ? -1 : a.in > b.in ? 1 : 0));
}

function content(types: readonly string[], model: string): OpenAPIObject {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: ref(model) } }]));
}

/** The `paths` object and the definition names the operations refer to. */
export function buildPaths(r: ResourceNames): { paths: Record<string, OpenAPIObject>; models: string[] } {
  const routes: Route[] = [];
  let root = `/apis/${r.group}/${r.version}/${r.plural}`;
  if (r.namespaced) {
    routes.push({ method: 'get', root, path: '', action: 'list', verb: 'list', model: r.listModel, operation: `list${r.kind}ForAllNamespaces` });
    root = `/apis/${r.group}/${r.version}/namespaces/{namespace}/${r.plural}`;
  }
  routes.push({ method: 'get', root, path: '', action: 'list', verb: 'list', model: r.listModel });
  routes.push({ method: 'post', root, path: '', action: 'post', verb: 'create', model: r.kindModel, body: r.kindModel });
  routes.push({ method: 'delete', root, path: '', action: 'deletecollection', verb: 'deletecollection', model: statusName });
  routes.push({ method: 'get', root, path: '/{name}', action: 'get', verb: 'read', model: r.kindModel });
  routes.push({ method: 'put', root, path: '/{name}', action: 'put', verb: 'replace', model: r.kindModel, body: r.kindModel });
  routes.push({ method: 'delete', root, path: '/{name}', action: 'delete', verb: 'delete', model: statusName, body: deleteOptionsName });
  routes.push({ method: 'patch', root, path: '/{name}', action: 'patch', verb: 'patch', model: r.kindModel, body: patchName });
  for (const [enabled, sub, model] of [[r.status, 'status', r.kindModel], [r.scale, 'scale', scaleName]] as const) {
    if (!enabled) continue;
    routes.push({ method: 'get', root, path: `/{name}/${sub}`, action: 'get', verb: 'read', model });
    routes.push({ method: 'put', root, path: `/{name}/${sub}`, action: 'put', verb: 'replace', model, body: model });
    routes.push({ method: 'patch', root, path: `/{name}/${sub}`, action: 'patch', verb: 'patch', model, body: patchName });
  }

  const byPath = new Map<string, Route[]>();
  for (const route of routes) {
    const full = route.root + route.path;
    byPath.set(full, [...(byPath.get(full) ?? []), route]);
  }
  const models = new Set<string>();
  const paths: Record<string, OpenAPIObject> = {};
  for (const [full, group] of byPath) {
    const paramsOf = (route: Route): Param[] => {
      const ps = [pretty];
      if (full.includes('{namespace}')) ps.push({ name: 'namespace', in: 'path', type: 'string', description: 'object name and auth scope, such as for teams and projects' });
      if (full.includes('{name}')) ps.push({ name: 'name', in: 'path', type: 'string', description: `name of the ${r.kind}` });
      return [...ps, ...(optionParams[route.action] ?? [])];
    };
    const key = (p: Param): string => `${p.name}\u0000${p.in}`;
    const counts = new Map<string, number>();
    for (const route of group) for (const p of paramsOf(route)) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
    const common = new Set([...counts].filter(([, n]) => n === group.length).map(([k]) => k));
    const commonParams = new Map<string, Param>();
    const item: OpenAPIObject = {};
    for (const route of group) {
      const namespaced = r.namespaced ? 'Namespaced' : '';
      const sub = subresourceOf(route.path);
      const operation = route.operation ?? `${route.verb}${namespaced}${r.kind}${sub.length > 0 ? sub[0].toUpperCase() + sub.slice(1).toLowerCase() : ''}`;
      const [operationId, tags] = operationIdAndTags(operation, full);
      const ps = paramsOf(route);
      for (const p of ps) if (common.has(key(p))) commonParams.set(key(p), p);
      const ok = { description: 'OK', content: content(['application/json', 'application/yaml'], route.model) };
      const responses: OpenAPIObject = { 200: ok };
      if (route.action === 'post') {
        responses[201] = { description: 'Created', content: ok.content };
        responses[202] = { description: 'Accepted', content: ok.content };
      } else if (route.action === 'delete') {
        responses[202] = { description: 'Accepted', content: ok.content };
      } else if (route.action === 'put') {
        responses[201] = { description: 'Created', content: ok.content };
      }
      responses[401] = { description: 'Unauthorized' };
      models.add(route.model);
      const op: OpenAPIObject = { tags, description: descriptionFor(r.kind, route.path, route.verb), operationId };
      const own = sortParams(ps.filter((p) => !common.has(key(p))));
      if (own.length > 0) op.parameters = own.map(paramObject);
      if (route.body !== undefined) {
        models.add(route.body);
        const consumes = route.method === 'patch'
          ? ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']
          : ['application/json', 'application/yaml'];
        op.requestBody = route.action === 'delete' ? { content: content(consumes, route.body) } : { content: content(consumes, route.body), required: true };
      }
      op.responses = responses;
      op['x-kubernetes-action'] = route.action;
      op['x-kubernetes-group-version-kind'] = { group: r.group, version: r.version, kind: r.kind };
      item[route.method] = op;
    }
    item.parameters = sortParams([...commonParams.values()]).map(paramObject);
    paths[full] = item;
  }
  return { paths, models: [...models] };
}
