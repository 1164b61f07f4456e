// The deprecated watch paths (`/api/v1/watch/…`, `/apis/<g>/<v>/watch/…`, "DEPRECATED in 1.11") on both
// servers. requestinfo.go reads the prefix as the verb `watch` whatever the method; the built-in kinds'
// installer registers `GET watch/<collection>` (in a namespace, across all namespaces, cluster-scoped) and
// `GET watch/<collection>/{name}` for a kind that watches, with no subresource, and the custom resource handler
// serves the verb for any method. Both end in handlers/get.go's ListResource with forceWatch: a watch whatever
// `watch=` says, its list options validated by that parameter, a name in the path a `metadata.name` field
// selector that a request's own field selector must not contradict. The `/proxy/` prefix has no built-in route,
// and the custom resource handler refuses its verb. Every expected answer is kube-apiserver 1.34.4's to the same
// request (the reference server runs the same test).
import { expect } from 'chai';
import { TABLE, answered, describeOnBothServers, eventually, type Answer, type Send } from './sender.js';

const NS = '/api/v1/namespaces/wp';
const W = '/api/v1/watch/namespaces/wp/configmaps';
const T = 'timeoutSeconds=1';
const G = '/apis/wp.example.com/v1';

interface WatchEvent {
  type: string;
  object: { kind: string; message?: string; metadata?: { name?: string }; rows?: { cells: unknown[] }[] };
}

/** A watch stream's events as `TYPE Kind name` (a Table's names are its rows'). */
function events(a: Answer): string[] {
  expect(a.status, a.text).to.equal(200);
  return a.text.split('\n').filter((l) => l !== '').map((l) => {
    const { type, object } = JSON.parse(l) as WatchEvent;
    const name = object.kind === 'Table' ? (object.rows ?? []).map((r) => String(r.cells[0])).join(',') : object.metadata?.name ?? '';
    return `${type} ${object.kind} ${name}`;
  });
}

/** An error answer: status, the Status body's reason and message (the whole text when it is no Status). */
function failure(a: Answer): [number, string | undefined, string] {
  try {
    const st = JSON.parse(a.text) as { reason?: string; message: string };
    return [a.status, st.reason, st.message];
  } catch {
    return [a.status, undefined, a.text];
  }
}

const notFound: [number, string, string] = [404, 'NotFound', 'the server could not find the requested resource'];
const noMethod: [number, string, string] = [405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'];
const nameMismatch: [number, string, string] = [400, 'BadRequest', "fieldSelector metadata.name doesn't match requested name"];

const cm = (name: string, labels: Record<string, string> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });
const crd = (plural: string, kind: string, scope: string): string => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.wp.example.com` },
  spec: {
    group: 'wp.example.com', scope, names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, subresources: { status: {} } }],
  },
});

async function builtinWatches(s: Send): Promise<void> {
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'wp' } })), 201);
  for (const n of ['a', 'b']) answered(await s('POST', `${NS}/configmaps`, cm(n, { l: n })), 201);
  answered(await s('POST', '/api/v1/namespaces/default/configmaps', cm('a')), 201);

  // A collection in a namespace, across all namespaces, a cluster-scoped kind; one object by name (an absent
  // one is a stream that stays empty), a namespace by its own URL.
  expect(events(await s('GET', `${W}?${T}`))).to.deep.equal(['ADDED ConfigMap a', 'ADDED ConfigMap b']);
  expect(events(await s('GET', `/api/v1/watch/configmaps?${T}&labelSelector=l`))).to.deep.equal(['ADDED ConfigMap a', 'ADDED ConfigMap b']);
  expect(events(await s('GET', `/api/v1/watch/namespaces?${T}&fieldSelector=metadata.name%3Dwp`))).to.deep.equal(['ADDED Namespace wp']);
  expect(events(await s('GET', `${W}/a?${T}`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await s('GET', `${W}/zz?${T}`))).to.deep.equal([]);
  expect(events(await s('GET', `/api/v1/watch/namespaces/wp?${T}`))).to.deep.equal(['ADDED Namespace wp']);
  expect(events(await s('GET', `/apis/apps/v1/watch/namespaces/wp/deployments?${T}`))).to.deep.equal([]);

  // Changes after a resourceVersion: one object's, or the collection's.
  const rv = answered<{ metadata: { resourceVersion: string } }>(await s('GET', `${NS}/configmaps`)).metadata.resourceVersion;
  answered(await s('POST', `${NS}/configmaps`, cm('c')), 201);
  answered(await s('PATCH', `${NS}/configmaps/c`, '{"data":{"k":"v"}}', 'application/merge-patch+json'));
  answered(await s('POST', `${NS}/configmaps`, cm('d')), 201);
  answered(await s('DELETE', `${NS}/configmaps/c`));
  expect(events(await s('GET', `${W}/c?${T}&resourceVersion=${rv}`))).to.deep.equal(['ADDED ConfigMap c', 'MODIFIED ConfigMap c', 'DELETED ConfigMap c']);
  expect(events(await s('GET', `${W}?${T}&resourceVersion=${rv}`))).to.deep.equal(['ADDED ConfigMap c', 'MODIFIED ConfigMap c', 'ADDED ConfigMap d', 'DELETED ConfigMap c']);
  // A resourceVersion not reached yet: the stream stays silent.
  expect(events(await s('GET', `${W}/a?${T}&resourceVersion=999999999`))).to.deep.equal([]);

  // The name with selectors: a label selector narrows it; a field selector must select exactly that name.
  expect(events(await s('GET', `${W}/a?${T}&labelSelector=l%3Da`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await s('GET', `${W}/a?${T}&labelSelector=l%3Db`))).to.deep.equal([]);
  expect(events(await s('GET', `${W}/a?${T}&fieldSelector=metadata.name%3Da`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await s('GET', `${W}/a?${T}&fieldSelector=metadata.name%3D%3Da,metadata.namespace%3Dwp`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await s('GET', `${W}?${T}&fieldSelector=metadata.name%3Db`))).to.deep.equal(['ADDED ConfigMap b']);
  expect(failure(await s('GET', `${W}/a?${T}&fieldSelector=metadata.name%3Db`))).to.deep.equal(nameMismatch);
  expect(failure(await s('GET', `${W}/a?${T}&fieldSelector=metadata.namespace%3Dwp`))).to.deep.equal(nameMismatch);
  expect(failure(await s('GET', `${W}/a?${T}&fieldSelector=metadata.name!%3Da`))).to.deep.equal(nameMismatch);
  // An unknown field label is refused first, by the conversion of the field labels.
  expect(failure(await s('GET', `${W}/a?${T}&fieldSelector=spec.x%3Da`))).to.deep.equal([400, 'BadRequest', '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"']);

  // A watch whatever `watch=` says; the list options are validated as a list's unless `watch` is true, so
  // `sendInitialEvents` is refused and `continue`, `limit` and `resourceVersionMatch` pass and change nothing.
  expect(events(await s('GET', `${W}?${T}&watch=false`))).to.deep.equal(['ADDED ConfigMap a', 'ADDED ConfigMap b', 'ADDED ConfigMap d']);
  expect(events(await s('GET', `${W}/a?${T}&watch=0&resourceVersion=0`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await s('GET', `${W}?${T}&continue=abc&limit=1`))).to.deep.equal(['ADDED ConfigMap a', 'ADDED ConfigMap b', 'ADDED ConfigMap d']);
  expect(events(await s('GET', `${W}?${T}&resourceVersionMatch=Exact&resourceVersion=${rv}`))).to.have.length(4);
  // Bookmarks allowed: no initial-events-end bookmark, as `sendInitialEvents` is not defaulted for a list.
  expect(events(await s('GET', `${W}?${T}&allowWatchBookmarks=true`))).to.deep.equal(['ADDED ConfigMap a', 'ADDED ConfigMap b', 'ADDED ConfigMap d']);
  const listOnly = failure(await s('GET', `${W}?${T}&sendInitialEvents=true`));
  expect(listOnly).to.deep.equal([422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
  expect(failure(await s('GET', `${W}?${T}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`))).to.deep.equal([422, 'Invalid',
    'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list]']);
  expect(failure(await s('GET', `${W}?${T}&watch=true&continue=abc`))[0]).to.equal(422);

  // Representations: a Table per event, the metadata only; a watch stream's 406.
  expect(events(await s('GET', `${W}/a?${T}`, undefined, undefined, TABLE))).to.deep.equal(['ADDED Table a']);
  expect(events(await s('GET', `${W}?${T}`, undefined, undefined, 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io')))
    .to.deep.equal(['ADDED PartialObjectMetadata a', 'ADDED PartialObjectMetadata b', 'ADDED PartialObjectMetadata d']);
  expect(events(await s('GET', `${W}?${T}`, undefined, undefined, 'application/json;stream=watch'))).to.have.length(3);
  const yaml = await s('GET', `${W}?${T}`, undefined, undefined, 'application/yaml');
  expect([yaml.status, yaml.headers['content-type']]).to.deep.equal([406, 'application/yaml']);
  expect(yaml.text).to.include('only the following media types are accepted: application/json;stream=watch,');
  // A deprecated kind's warning, as on its other routes.
  expect((await s('GET', `/api/v1/watch/namespaces/wp/endpoints?${T}`)).warnings).to.deep.equal(['v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice']);

  // Routes: GET only; no object without its namespace; no subresource (status, scale, log, binding,
  // eviction, token, proxy); no kind that does not watch (computed, review, bindings); unknown resources.
  for (const [method, path] of [['HEAD', W], ['POST', W], ['DELETE', W], ['OPTIONS', W], ['PUT', `${W}/a`], ['PATCH', `${W}/a`], ['DELETE', `${W}/a`]]) {
    const a = await s(method, `${path}?${T}`, method === 'PUT' || method === 'PATCH' ? '{}' : undefined);
    if (method === 'HEAD') expect([a.status, a.text], path).to.deep.equal([405, '']);
    else expect(failure(a), `${method} ${path}`).to.deep.equal(noMethod);
  }
  answered(await s('POST', `${NS}/pods`, JSON.stringify({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } })), 201);
  for (const path of [
    '/api/v1/watch/configmaps/a', `${W}/a/x`, `${W}/a/x/y`, '/api/v1/watch/namespaces/wp/pods/p/status', '/api/v1/watch/namespaces/wp/pods/p/log',
    '/api/v1/watch/namespaces/wp/pods/p/binding', '/api/v1/watch/namespaces/wp/pods/p/eviction', '/api/v1/watch/namespaces/wp/pods/p/proxy',
    '/api/v1/watch/namespaces/wp/serviceaccounts/default/token', '/apis/apps/v1/watch/namespaces/wp/deployments/d/scale',
    '/api/v1/watch/componentstatuses', '/api/v1/watch/componentstatuses/etcd-0', '/apis/authorization.k8s.io/v1/watch/subjectaccessreviews',
    '/apis/authorization.k8s.io/v1/watch/namespaces/wp/localsubjectaccessreviews', '/api/v1/watch/namespaces/wp/bindings',
    '/api/v1/watch/namespaces/wp/nopes', '/api/v1/watch/nopes', '/apis/apps/v1/watch/nopes',
  ]) expect(failure(await s('GET', `${path}?${T}`)), path).to.deep.equal(notFound);
  expect(failure(await s('POST', `/apis/authorization.k8s.io/v1/watch/subjectaccessreviews?${T}`, '{}'))).to.deep.equal(notFound);
  const unknownGroup = await s('GET', `/apis/nope.example.com/v1/watch/nopes?${T}`);
  expect([unknownGroup.status, unknownGroup.text]).to.deep.equal([404, '404 page not found\n']);
  // The prefix alone: requestinfo.go cannot decode it.
  const bare = await s('GET', '/api/v1/watch');
  expect([bare.status, bare.text]).to.deep.equal([500, 'Internal Server Error: "/api/v1/watch": failed to create RequestInfo: unable to determine kind and namespace from url, /api/v1/watch\n']);
  // The proxy prefix has no built-in route.
  for (const path of ['/api/v1/proxy/namespaces/wp/pods/p', '/api/v1/proxy/namespaces/wp/configmaps/a', '/api/v1/proxy/nodes/n']) {
    expect(failure(await s('GET', path)), path).to.deep.equal(notFound);
  }
}

async function customResourceWatches(s: Send): Promise<void> {
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('widgets', 'Widget', 'Namespaced')), 201);
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('gadgets', 'Gadget', 'Cluster')), 201);
  await eventually(() => s('GET', `${G}/widgets`), (a) => a.status === 200);
  await eventually(() => s('GET', `${G}/gadgets`), (a) => a.status === 200);
  for (const n of ['a', 'b']) answered(await s('POST', `${G}/namespaces/wp/widgets`, JSON.stringify({ apiVersion: 'wp.example.com/v1', kind: 'Widget', metadata: { name: n } })), 201);
  answered(await s('POST', `${G}/gadgets`, JSON.stringify({ apiVersion: 'wp.example.com/v1', kind: 'Gadget', metadata: { name: 'g' } })), 201);
  const CW = `${G}/watch/namespaces/wp/widgets`;

  expect(events(await s('GET', `${CW}?${T}`))).to.deep.equal(['ADDED Widget a', 'ADDED Widget b']);
  expect(events(await s('GET', `${G}/watch/widgets?${T}`))).to.deep.equal(['ADDED Widget a', 'ADDED Widget b']);
  // One object: in its namespace, or (the handler takes a watch across namespaces) without one.
  expect(events(await s('GET', `${CW}/a?${T}`))).to.deep.equal(['ADDED Widget a']);
  expect(events(await s('GET', `${G}/watch/widgets/a?${T}`))).to.deep.equal(['ADDED Widget a']);
  expect(events(await s('GET', `${CW}/a?${T}&watch=false`))).to.deep.equal(['ADDED Widget a']);
  expect(failure(await s('GET', `${CW}/a?${T}&fieldSelector=metadata.name%3Db`))).to.deep.equal(nameMismatch);
  expect(failure(await s('GET', `${CW}/a?${T}&fieldSelector=metadata.namespace%3Dwp`))).to.deep.equal(nameMismatch);
  expect(events(await s('GET', `${G}/watch/gadgets?${T}`))).to.deep.equal(['ADDED Gadget g']);
  expect(events(await s('GET', `${G}/watch/gadgets/g?${T}`))).to.deep.equal(['ADDED Gadget g']);
  expect(events(await s('GET', `${CW}?${T}`, undefined, undefined, TABLE))).to.deep.equal(['ADDED Table a', 'ADDED Table b']);
  expect(events(await s('GET', `/apis/apiextensions.k8s.io/v1/watch/customresourcedefinitions/widgets.wp.example.com?${T}`)))
    .to.deep.equal(['ADDED CustomResourceDefinition widgets.wp.example.com']);

  // The custom resource handler serves the verb for any method.
  for (const [method, path] of [['POST', CW], ['DELETE', CW], ['OPTIONS', CW], ['DELETE', `${CW}/a`], ['PUT', `${CW}/a`]]) {
    const a = await s(method, `${path}?${T}`, method === 'POST' || method === 'PUT' ? '{}' : undefined);
    expect(events(a), `${method} ${path}`).to.deep.equal(path === CW ? ['ADDED Widget a', 'ADDED Widget b'] : ['ADDED Widget a']);
  }
  const head = await s('HEAD', `${CW}?${T}`);
  expect([head.status, head.text]).to.deep.equal([200, '']);
  // Its status does not watch; any other subresource names no object; out of the CRD's scope, the mux's 404.
  const statusWatch: [number, string, string] = [405, 'MethodNotAllowed', 'watch is not supported on resources of kind "widgets.wp.example.com"'];
  expect(failure(await s('GET', `${CW}/a/status?${T}`))).to.deep.equal(statusWatch);
  expect(failure(await s('GET', `${CW}/a/status/x?${T}`))).to.deep.equal(statusWatch);
  for (const sub of ['scale', 'x']) expect(failure(await s('GET', `${CW}/a/${sub}?${T}`))).to.deep.equal([404, 'NotFound', 'widgets.wp.example.com "a" not found']);
  for (const path of [`${G}/watch/namespaces/wp/gadgets`, `${G}/watch/namespaces/wp/gadgets/g`, `${G}/watch/nopes`]) {
    const a = await s('GET', `${path}?${T}`);
    expect([a.status, a.text], path).to.deep.equal([404, '404 page not found\n']);
  }
  // The proxy verb: the handler's MethodNotSupported, for any method.
  const noProxy = (plural: string): [number, string, string] => [405, 'MethodNotAllowed', `proxy is not supported on resources of kind "${plural}.wp.example.com"`];
  expect(failure(await s('GET', `${G}/proxy/namespaces/wp/widgets/a`))).to.deep.equal(noProxy('widgets'));
  expect(failure(await s('POST', `${G}/proxy/namespaces/wp/widgets`, '{}'))).to.deep.equal(noProxy('widgets'));
  expect(failure(await s('GET', `${G}/proxy/gadgets`))).to.deep.equal(noProxy('gadgets'));
}

async function authorization(s: Send): Promise<void> {
  const alice = (method: string, path: string): Promise<Answer> => s(method, path, undefined, undefined, undefined, { 'Impersonate-User': 'alice' });
  const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/wp';
  expect(failure(await alice('GET', `${W}/a?${T}`))).to.deep.equal([403, 'Forbidden', 'configmaps "a" is forbidden: User "alice" cannot watch resource "configmaps" in API group "" in the namespace "wp"']);
  expect(failure(await alice('GET', `/api/v1/watch/configmaps?${T}`))).to.deep.equal([403, 'Forbidden', 'configmaps is forbidden: User "alice" cannot watch resource "configmaps" in API group "" at the cluster scope']);
  expect(failure(await alice('GET', `${G}/watch/namespaces/wp/widgets/a?${T}`)))
    .to.deep.equal([403, 'Forbidden', 'widgets.wp.example.com "a" is forbidden: User "alice" cannot watch resource "widgets" in API group "wp.example.com" in the namespace "wp"']);
  // Allowed to watch one ConfigMap by name: its URL under the prefix; the prefix's field selector names no
  // object for the authorizer (requestinfo.go reads selectors of neither), the list URL's does.
  answered(await s('POST', `${rbac}/roles`, JSON.stringify({ metadata: { name: 'watch-a' }, rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['watch'] }] })), 201);
  answered(await s('POST', `${rbac}/rolebindings`, JSON.stringify({
    metadata: { name: 'watch-a' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'watch-a' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
  })), 201);
  expect(events(await eventually(() => alice('GET', `${W}/a?${T}`), (a) => a.status === 200))).to.deep.equal(['ADDED ConfigMap a']);
  expect(events(await alice('GET', `${NS}/configmaps?watch=true&${T}&fieldSelector=metadata.name%3Da`))).to.deep.equal(['ADDED ConfigMap a']);
  expect(failure(await alice('GET', `${W}?${T}&fieldSelector=metadata.name%3Da`))).to.deep.equal([403, 'Forbidden', 'configmaps is forbidden: User "alice" cannot watch resource "configmaps" in API group "" in the namespace "wp"']);
  expect(failure(await alice('GET', `${W}/b?${T}`))).to.deep.equal([403, 'Forbidden', 'configmaps "b" is forbidden: User "alice" cannot watch resource "configmaps" in API group "" in the namespace "wp"']);
}

describeOnBothServers('the deprecated /watch/ and /proxy/ paths', async (s) => {
  await builtinWatches(s);
  await customResourceWatches(s);
  await authorization(s);
});
