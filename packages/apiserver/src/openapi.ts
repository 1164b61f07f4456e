/**
 * OpenAPI v3: `/openapi/v3` (the index of group-version documents, each with a content hash) and
 * `/openapi/v3/apis/<group>/<version>` (paths and schemas). Custom resource documents come from
 * `@kubekit/crd` (one per CRD, merged per group-version) with `x-kubernetes-group-version-kind` and,
 * while the `CustomResourceFieldSelectors` gate is on, `x-kubernetes-selectable-fields`; built-in kinds
 * get paths here and the schemas the apiserver publishes for them (builtinSchemas.ts; a kind without a
 * published schema gets a permissive one).
 *
 * kubectl reads these documents: `apply` looks for the PATCH operation of a kind (by its
 * `x-kubernetes-group-version-kind`) and its `fieldValidation` parameter to decide on server-side
 * field validation; `explain` renders the kind's schema.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { stringifyJSON } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';
import type { ResourceCatalog } from './catalog.js';
import { CustomResourceType } from './customResourceHandler.js';
import { apiextensionsV1Prefix, customResourceDefinitionSchemas } from './internal/crdSchemas.js';
import { sendText } from './internal/http.js';
import { metaSchemas, objectMetaRef } from './internal/metaSchemas.js';
import { openAPIV3Schema } from './internal/semantics.js';
import type { ResourceType } from './resourceType.js';
import { builtinSchemaClosure, builtinSchemaName } from './builtinSchemas.js';

const scaleSchema = 'io.k8s.api.autoscaling.v1.Scale';

/**
 * The component name of a kind: a built-in kind's published name (`io.k8s.api.apps.v1.Deployment`), else
 * the reversed group, the version and the kind (`com.example.stable.v1.CronTab`).
 */
export function definitionName(group: string, version: string, kind: string): string {
  const published = builtinSchemaName({ group, version, kind });
  if (published !== undefined) return published;
  const item = kind.endsWith('List') ? builtinSchemaName({ group, version, kind: kind.slice(0, -'List'.length) }) : undefined;
  if (item !== undefined) return `${item}List`;
  if (group === '') return `io.k8s.api.core.${version}.${kind}`;
  if (group === 'apiextensions.k8s.io' && version === 'v1') return `${apiextensionsV1Prefix}.${kind}`;
  if (group.endsWith('.k8s.io')) return `io.k8s.api.${group.slice(0, -'.k8s.io'.length).split('.').reverse().join('.')}.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function ref(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

function param(name: string, type: 'string' | 'boolean' | 'integer', description: string, where: 'query' | 'path' = 'query'): Record<string, unknown> {
  return { name, in: where, description, ...(where === 'path' ? { required: true } : {}), schema: { type, uniqueItems: true } };
}

const listParams = [
  param('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK".'),
  param('continue', 'string', 'The continue option should be set when retrieving more results from the server.'),
  param('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  param('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  param('limit', 'integer', 'limit is a maximum number of responses to return for a list call.'),
  param('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from.'),
  param('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls.'),
  param('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`.'),
  param('timeoutSeconds', 'integer', 'Timeout for the list/watch call.'),
  param('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.'),
];
const writeParams = [
  param('dryRun', 'string', 'When present, indicates that modifications should not be persisted.'),
  param('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes.'),
  param('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: Ignore, Warn, Strict.'),
];
const patchParams = [...writeParams, param('force', 'boolean', 'Force is going to "force" Apply requests.')];

/** An operation's tag: its group (dots as underscores, `core` for the core group) and version. */
function tagOf(n: ResourceType['names']): string {
  return n.group === '' ? `core_${n.version}` : `${n.group.replace(/\./g, '_')}_${n.version}`;
}

/** The kind part of an operation id (`CoreV1NamespacedPod`; across all namespaces without `Namespaced`). */
function idBaseOf(n: ResourceType['names'], namespaced: boolean): string {
  return `${n.group === '' ? 'Core' : n.group.split('.').map(cap).join('')}${cap(n.version)}${namespaced ? 'Namespaced' : ''}${n.kind}`;
}

const prettyParam = (): Record<string, unknown> => param('pretty', 'string', "If 'true', then the output is pretty printed.");

function operation(t: ResourceType, action: string, id: string, params: Record<string, unknown>[], responseSchema: string, body?: string[], kindOverride?: { group: string; version: string; kind: string }): Record<string, unknown> {
  const n = t.names;
  const op: Record<string, unknown> = {
    tags: [tagOf(n)],
    description: `${action} ${n.kind}`,
    operationId: id,
    parameters: params,
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: ref(responseSchema) }, 'application/yaml': { schema: ref(responseSchema) } } },
      401: { description: 'Unauthorized' },
    },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': kindOverride ?? { group: n.group, version: n.version, kind: n.kind },
  };
  if (body !== undefined) {
    op.requestBody = { content: Object.fromEntries(body.map((ct) => [ct, { schema: ref(responseSchema === 'io.k8s.apimachinery.pkg.apis.meta.v1.Status' ? 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' : body.includes('application/json-patch+json') ? 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch' : responseSchema) }])), required: true };
  }
  return op;
}

function pathsOf(t: ResourceType): Record<string, unknown> {
  const n = t.names;
  const prefix = n.group === '' ? `/api/${n.version}` : `/apis/${n.group}/${n.version}`;
  const ns = n.namespaced ? '/namespaces/{namespace}' : '';
  const kindDef = definitionName(n.group, n.version, n.kind);
  const listDef = definitionName(n.group, n.version, n.listKind);
  const idBase = idBaseOf(n, n.namespaced);
  const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml', ...(t.strategicMergePatch ? ['application/strategic-merge-patch+json'] : [])];
  const nsParam = n.namespaced ? [param('namespace', 'string', 'object name and auth scope, such as for teams and projects', 'path')] : [];
  const nameParam = param('name', 'string', `name of the ${n.kind}`, 'path');
  if (!n.verbs.includes('get')) {
    // A kind that is only created (the reviews): its collection's POST, nothing else.
    return {
      [`${prefix}${ns}/${n.resource}`]: {
        post: operation(t, 'post', `create${idBase}`, writeParams, kindDef, ['application/json', 'application/yaml']),
        parameters: [...nsParam, prettyParam()],
      },
    };
  }
  const paths: Record<string, unknown> = {
    [`${prefix}${ns}/${n.resource}`]: {
      get: operation(t, 'list', `list${idBase}`, listParams, listDef),
      post: operation(t, 'post', `create${idBase}`, writeParams, kindDef, ['application/json', 'application/yaml']),
      delete: operation(t, 'deletecollection', `deletecollection${idBase}`, listParams, 'io.k8s.apimachinery.pkg.apis.meta.v1.Status', ['application/json']),
      parameters: [...nsParam, prettyParam()],
    },
    [`${prefix}${ns}/${n.resource}/{name}`]: {
      get: operation(t, 'get', `read${idBase}`, [param('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from.')], kindDef),
      put: operation(t, 'put', `replace${idBase}`, writeParams, kindDef, ['application/json', 'application/yaml']),
      patch: operation(t, 'patch', `patch${idBase}`, patchParams, kindDef, patchTypes),
      delete: operation(t, 'delete', `delete${idBase}`, [param('dryRun', 'string', 'When present, indicates that modifications should not be persisted.')], 'io.k8s.apimachinery.pkg.apis.meta.v1.Status', ['application/json']),
      parameters: [nameParam, ...nsParam, prettyParam()],
    },
  };
  // Only the routes of the kind's verbs (a Namespace has no deletecollection, a ComponentStatus only get and list).
  const collectionVerbs: Record<string, string> = { get: 'list', post: 'create', delete: 'deletecollection' };
  const objectVerbs: Record<string, string> = { get: 'get', put: 'update', patch: 'patch', delete: 'delete' };
  for (const [path, verbs] of [[`${prefix}${ns}/${n.resource}`, collectionVerbs], [`${prefix}${ns}/${n.resource}/{name}`, objectVerbs]] as const) {
    const item = paths[path] as Record<string, unknown>;
    for (const [method, verb] of Object.entries(verbs)) if (!n.verbs.includes(verb)) delete item[method];
  }
  if (n.namespaced) {
    // The list across namespaces (`kubectl get deployments -A`).
    paths[`${prefix}/${n.resource}`] = {
      get: operation(t, 'list', `list${idBaseOf(n, false)}ForAllNamespaces`, listParams, listDef),
      parameters: [prettyParam()],
    };
  }
  if (n.verbs.includes('watch')) Object.assign(paths, watchPathsOf(t, prefix, nsParam, nameParam, idBase));
  if (n.status) {
    paths[`${prefix}${ns}/${n.resource}/{name}/status`] = {
      get: operation(t, 'get', `read${idBase}Status`, [], kindDef),
      put: operation(t, 'put', `replace${idBase}Status`, writeParams, kindDef, ['application/json', 'application/yaml']),
      patch: operation(t, 'patch', `patch${idBase}Status`, patchParams, kindDef, patchTypes),
      parameters: [nameParam, ...nsParam],
    };
  }
  if (n.scale !== undefined) {
    const scale = { group: 'autoscaling', version: 'v1', kind: 'Scale' };
    paths[`${prefix}${ns}/${n.resource}/{name}/scale`] = {
      get: operation(t, 'get', `read${idBase}Scale`, [], 'io.k8s.api.autoscaling.v1.Scale', undefined, scale),
      put: operation(t, 'put', `replace${idBase}Scale`, writeParams, 'io.k8s.api.autoscaling.v1.Scale', ['application/json'], scale),
      patch: operation(t, 'patch', `patch${idBase}Scale`, patchParams, 'io.k8s.api.autoscaling.v1.Scale', patchTypes, scale),
      parameters: [nameParam, ...nsParam],
    };
  }
  return paths;
}

const watchEvent = 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent';
const watchMediaTypes = ['application/json', 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/yaml'];

/**
 * The deprecated watch paths the installer still registers for a kind that watches ("DEPRECATED in 1.11"):
 * `watch/` before its collection (in a namespace, and across all of them for a namespaced kind) and before
 * one object, each a GET of WatchEvents whose parameters (the list options, the path's, `pretty`) are
 * published on the path, sorted by name.
 */
function watchPathsOf(t: ResourceType, prefix: string, nsParam: Record<string, unknown>[], nameParam: Record<string, unknown>, idBase: string): Record<string, unknown> {
  const n = t.names;
  const ns = n.namespaced ? '/namespaces/{namespace}' : '';
  const pretty = prettyParam();
  const byName = (params: Record<string, unknown>[]): Record<string, unknown>[] => [...params].sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  const watchOperation = (id: string, action: 'watch' | 'watchlist', description: string): Record<string, unknown> => ({
    tags: [tagOf(n)],
    description: `${description}. deprecated: use the 'watch' parameter with a list operation instead${action === 'watch' ? ", filtered to a single item with the 'fieldSelector' parameter" : ''}.`,
    operationId: id,
    responses: {
      200: { description: 'OK', content: Object.fromEntries(watchMediaTypes.map((m) => [m, { schema: ref(watchEvent) }])) },
      401: { description: 'Unauthorized' },
    },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': { group: n.group, version: n.version, kind: n.kind },
  });
  const paths: Record<string, unknown> = {
    [`${prefix}/watch${ns}/${n.resource}`]: {
      get: watchOperation(`watch${idBase}List`, 'watchlist', `watch individual changes to a list of ${n.kind}`),
      parameters: byName([...listParams, ...nsParam, pretty]),
    },
    [`${prefix}/watch${ns}/${n.resource}/{name}`]: {
      get: watchOperation(`watch${idBase}`, 'watch', `watch changes to an object of kind ${n.kind}`),
      parameters: byName([...listParams, nameParam, ...nsParam, pretty]),
    },
  };
  if (n.namespaced) {
    paths[`${prefix}/watch/${n.resource}`] = {
      get: watchOperation(`watch${idBaseOf(n, false)}ListForAllNamespaces`, 'watchlist', `watch individual changes to a list of ${n.kind}`),
      parameters: byName([...listParams, pretty]),
    };
  }
  return paths;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function builtinKindSchema(t: ResourceType): Record<string, unknown> {
  const n = t.names;
  return {
    type: 'object',
    description: `${n.kind} (stored by the embedded API server as sent).`,
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { allOf: [objectMetaRef], description: "Standard object's metadata." },
    },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-group-version-kind': [{ group: n.group, kind: n.kind, version: n.version }],
  };
}

/** The OpenAPI v3 document of one group-version, or undefined when nothing is served there. */
export function groupVersionDocument(catalog: ResourceCatalog, group: string, version: string, selectableFieldsGate: boolean): Record<string, unknown> | undefined {
  const types = catalog.all().filter((t) => t.names.group === group && t.names.version === version);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { ...metaSchemas() };
  for (const t of types) {
    if (t instanceof CustomResourceType) {
      // The CRD's own document (paths, kind and list schemas, meta/v1 references) from @kubekit/crd.
      const doc = openAPIV3Schema(t.runtime.crd as CustomResourceDefinition, t.version);
      Object.assign(paths, doc.paths);
      for (const [name, schema] of Object.entries(doc.components.schemas)) {
        const copy = { ...(schema as Record<string, unknown>) };
        if (!selectableFieldsGate) delete copy['x-kubernetes-selectable-fields'];
        schemas[name] = copy;
      }
      continue;
    }
    Object.assign(paths, pathsOf(t));
    const n = t.names;
    if (n.group === 'apiextensions.k8s.io' && n.version === 'v1' && n.kind === 'CustomResourceDefinition') {
      // Typed like the apiserver's, so kubectl apply can compute its strategic merge patch.
      Object.assign(schemas, customResourceDefinitionSchemas());
      continue;
    }
    const published = builtinSchemaName(n);
    if (published !== undefined) {
      // The schemas the apiserver publishes (kind, list, Scale and the meta/v1 types they use).
      Object.assign(schemas, builtinSchemaClosure([published, `${published}List`, ...(n.scale === undefined ? [] : [scaleSchema])]));
      continue;
    }
    const kindDef = definitionName(n.group, n.version, n.kind);
    schemas[kindDef] = builtinKindSchema(t);
    schemas[definitionName(n.group, n.version, n.listKind)] = {
      description: `${n.listKind} is a list of ${n.kind}`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        items: { type: 'array', items: ref(kindDef), description: `List of ${n.resource}.` },
        kind: { type: 'string' },
        metadata: { allOf: [ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta')] },
      },
      'x-kubernetes-group-version-kind': [{ group: n.group, kind: n.listKind, version: n.version }],
    };
  }
  // The WatchEvent of the deprecated watch paths, where a built-in kind watches.
  if (types.some((t) => !(t instanceof CustomResourceType) && t.names.verbs.includes('watch'))) Object.assign(schemas, builtinSchemaClosure([watchEvent]));
  // The apiserver publishes the autoscaling Scale schemas only where a scale subresource refers to them.
  if (!types.some((t) => t.names.scale !== undefined)) {
    for (const name of Object.keys(schemas)) if (name.startsWith('io.k8s.api.autoscaling.v1.Scale')) delete schemas[name];
  }
  const title = types.some((t) => t instanceof CustomResourceType) ? 'Kubernetes CRD Swagger' : 'Kubernetes';
  return { openapi: '3.0.0', info: { title, version: 'v0.1.0' }, paths, components: { schemas } };
}

function hashOf(doc: unknown): string {
  return createHash('sha512').update(stringifyJSON(doc)).digest('hex').toUpperCase();
}

/** Serves `/openapi/v3...`; returns false when the path names no document. */
export function serveOpenAPI(catalog: ResourceCatalog, path: string, query: URLSearchParams, res: ServerResponse, selectableFieldsGate: boolean): boolean {
  const rest = path.replace(/^\/openapi\/v3\/?/, '');
  if (rest === '') {
    const paths: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const t of catalog.all()) {
      const key = t.names.group === '' ? `api/${t.names.version}` : `apis/${t.names.group}/${t.names.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const doc = groupVersionDocument(catalog, t.names.group, t.names.version, selectableFieldsGate);
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hashOf(doc)}` };
    }
    sendText(res, 200, stringifyJSON({ paths }));
    return true;
  }
  const parts = rest.split('/');
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length === 2) [group, version] = ['', parts[1]];
  else if (parts[0] === 'apis' && parts.length === 3) [group, version] = [parts[1], parts[2]];
  else return false;
  const doc = groupVersionDocument(catalog, group, version, selectableFieldsGate);
  if (doc === undefined) return false;
  const hash = hashOf(doc);
  const wanted = query.get('hash');
  if (wanted !== null && wanted !== hash) {
    res.writeHead(301, { Location: `/openapi/v3/${rest}?hash=${hash}` });
    res.end();
    return true;
  }
  res.setHeader('Etag', `"${hash}"`);
  if (wanted !== null) res.setHeader('Cache-Control', 'public, immutable');
  res.setHeader('Vary', 'Accept');
  const text = stringifyJSON(doc);
  const buf = Buffer.from(text);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': buf.length });
  res.end(buf);
  return true;
}
