// A namespace's `/finalize` subresource, on both servers: the way a client removes the spec finalizers that
// keep a terminating namespace (the well-known `kubectl replace --raw /api/v1/namespaces/x/finalize -f -`).
// kube-apiserver 1.34.4 serves it with FinalizeREST (pkg/registry/core/namespace/storage): PUT only (no
// getter, so no GET and no PATCH), the namespace finalize strategy (namespaceStrategy with the status kept
// and spec.finalizers taken from the request; its Canonicalize puts the metadata.name label back),
// ValidateNamespaceFinalizeUpdate (the metadata update, then each finalizer at its index), no Table. A
// terminating namespace whose last spec finalizer goes is deleted by that update
// (ShouldDeleteNamespaceDuringUpdate). The namespace's own DELETE (REST.Delete) sets a deletionTimestamp
// and no deletionGracePeriodSeconds. Every expected answer is the reference's own.
//
// The reference runs no namespace controller, so its `kubernetes` finalizer stays until a client removes
// it; kubekit's controller empties the namespace and removes it. The test removes it on the reference
// itself, as the controller would, and waits for kubekit's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Answer, type Send } from './sender.js';

const N = '/api/v1/namespaces';
interface Namespace {
  metadata: { name: string; resourceVersion?: string; labels?: Record<string, string>; deletionTimestamp?: string; deletionGracePeriodSeconds?: number;
    managedFields?: { manager: string; operation: string; fieldsV1: unknown; subresource?: string }[] };
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}
const get = async (s: Send, name: string): Promise<Namespace> => answered<Namespace>(await s('GET', `${N}/${name}`));
const reason = (a: Answer): unknown => (JSON.parse(a.text) as { reason?: string }).reason;
const put = (s: Send, o: Namespace, query = ''): ReturnType<Send> => s('PUT', `${N}/${o.metadata.name}/finalize${query}`, JSON.stringify(o));

describeOnBothServers('a namespace\'s /finalize', async (s, backend) => {
  // In discovery, legacy and aggregated (kubekit served it without listing it).
  const resources = (answered<{ resources: { name: string; verbs: string[]; kind: string }[] }>(await s('GET', '/api/v1'))).resources;
  expect(resources.filter((r) => r.name.startsWith('namespaces/'))).to.deep.equal([
    { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
    { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
  ]);
  const aggregated = answered<{ items: { versions: { resources: { resource: string; subresources: unknown[] }[] }[] }[] }>(await s('GET', '/api', undefined, undefined, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'));
  expect(aggregated.items[0].versions[0].resources.find((r) => r.resource === 'namespaces')?.subresources).to.deep.equal([
    { subresource: 'finalize', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['update'] },
    { subresource: 'status', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['get', 'patch', 'update'] },
  ]);
  answered(await s('POST', N, JSON.stringify({ metadata: { name: 'fin' }, spec: { finalizers: ['example.com/x'] } })), 201);

  // PUT only: FinalizeREST has no getter, and the subresource takes no POST or DELETE.
  for (const [method, body, type] of [['GET'], ['PATCH', '{"spec":{"finalizers":[]}}', 'application/merge-patch+json'], ['POST', '{}'], ['DELETE']] as const) {
    const a = await s(method, `${N}/fin/finalize`, body, type);
    expect([method, a.status, reason(a), a.message]).to.deep.equal([method, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource']);
  }
  expect((await get(s, 'fin')).spec).to.deep.equal({ finalizers: ['example.com/x', 'kubernetes'] });

  // A live namespace: spec.finalizers and the metadata are written, the status is kept, and the
  // metadata.name label comes back whatever the request says (Canonicalize).
  const live = await get(s, 'fin');
  const written = answered<Namespace>(await put(s, {
    ...live, metadata: { ...live.metadata, labels: { a: 'b' } }, spec: { finalizers: ['kubernetes', 'example.com/y'] }, status: { phase: 'Terminating' },
  }, '?fieldManager=cleaner'));
  expect([written.metadata.labels, written.spec, written.status]).to.deep.equal([
    { a: 'b', 'kubernetes.io/metadata.name': 'fin' }, { finalizers: ['kubernetes', 'example.com/y'] }, { phase: 'Active' },
  ]);
  expect((written.metadata.managedFields ?? []).filter((e) => e.manager === 'cleaner').map((e) => [e.operation, e.subresource, e.fieldsV1])).to.deep.equal([
    ['Update', 'finalize', { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:finalizers': {} } }],
  ]);
  // The regular update keeps spec.finalizers (they change only here).
  const kept = answered<Namespace>(await s('PUT', `${N}/fin`, JSON.stringify({ ...written, spec: { finalizers: [] } })));
  expect(kept.spec).to.deep.equal({ finalizers: ['kubernetes', 'example.com/y'] });

  // Each finalizer is checked at its index (ValidateNamespace, on create, reports them without one).
  const bad = await put(s, { ...kept, spec: { finalizers: ['bad', 'x/y/z', 'kubernetes'] } });
  expect([bad.status, bad.message]).to.deep.equal([422, 'Namespace "fin" is invalid: [spec.finalizers[0]: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified, '
    + 'spec.finalizers[1]: Invalid value: "x/y/z": a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character '
    + '(e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')]']);
  const created = await s('POST', N, JSON.stringify({ metadata: { name: 'fin2' }, spec: { finalizers: ['bad'] } }));
  expect([created.status, created.message]).to.deep.equal([422, 'Namespace "fin2" is invalid: spec.finalizers: Invalid value: "bad": name is neither a standard finalizer name nor is it fully qualified']);
  // The metadata update rules come first, and the URL's name must be the object's.
  const renamed = await s('PUT', `${N}/fin/finalize`, JSON.stringify({ ...kept, metadata: { ...kept.metadata, name: 'other' } }));
  expect([renamed.status, renamed.message]).to.deep.equal([400, 'the name of the object (other) does not match the name on the URL (fin)']);
  const stale = await put(s, { ...kept, metadata: { ...kept.metadata, resourceVersion: '1' } });
  expect([stale.status, stale.message]).to.deep.equal([409, 'Operation cannot be fulfilled on namespaces "fin": the object has been modified; please apply your changes to the latest version and try again']);
  const missing = await put(s, { metadata: { name: 'nope' }, spec: {} });
  expect([missing.status, missing.message]).to.deep.equal([404, 'namespaces "nope" not found']);
  const garbage = await s('PUT', `${N}/fin/finalize`, '{"metadata":{"name":"fin"},"spec":{"finalizers":5}}');
  expect([garbage.status, garbage.message]).to.deep.equal([400, 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName']);
  const proto = await s('PUT', `${N}/fin/finalize`, '{"metadata":{"name":"fin","__proto__":{"x":1}},"spec":{"finalizers":["kubernetes"],"__proto__":{"finalizers":[]}}}');
  expect(proto.status, proto.text).to.equal(200);
  expect((await get(s, 'fin')).spec).to.deep.equal({ finalizers: ['kubernetes'] });
  // Without a resourceVersion the update is unconditional; a dry run changes nothing.
  const dry = answered<Namespace>(await put(s, { metadata: { name: 'fin' }, spec: { finalizers: ['kubernetes', 'example.com/z'] } }, '?dryRun=All'));
  expect(dry.spec).to.deep.equal({ finalizers: ['kubernetes', 'example.com/z'] });
  expect((await get(s, 'fin')).spec).to.deep.equal({ finalizers: ['kubernetes'] });
  const unconditional = answered<Namespace>(await put(s, { metadata: { name: 'fin', labels: { a: 'b' } }, spec: { finalizers: ['example.com/x', 'kubernetes', 'example.com/y'] } }));
  expect(unconditional.spec).to.deep.equal({ finalizers: ['example.com/x', 'kubernetes', 'example.com/y'] });
  // Not a Table (FinalizeREST is no TableConvertor).
  const table = await s('PUT', `${N}/fin/finalize`, JSON.stringify(unconditional), 'application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io');
  expect([table.status, reason(table)]).to.deep.equal([406, 'NotAcceptable']);

  // Deleting it: a deletionTimestamp, no grace period, Terminating; the spec finalizers keep it.
  answered(await s('POST', `${N}/fin/configmaps`, JSON.stringify({ metadata: { name: 'c' } })), 201);
  const deleting = answered<Namespace>(await s('DELETE', `${N}/fin`));
  expect([typeof deleting.metadata.deletionTimestamp, deleting.metadata.deletionGracePeriodSeconds, deleting.status]).to.deep.equal(['string', undefined, { phase: 'Terminating' }]);
  if (backend === 'reference') {
    // What the namespace controller does once the content is gone.
    answered(await s('DELETE', `${N}/fin/configmaps/c`));
    const ns = await get(s, 'fin');
    answered(await put(s, { ...ns, spec: { finalizers: ns.spec?.finalizers?.filter((f) => f !== 'kubernetes') } }));
  }
  let terminating = await get(s, 'fin');
  for (let i = 0; i < 100 && (terminating.spec?.finalizers ?? []).includes('kubernetes'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    terminating = await get(s, 'fin');
  }
  expect([terminating.spec, terminating.status?.phase, terminating.metadata.deletionGracePeriodSeconds]).to.deep.equal([{ finalizers: ['example.com/x', 'example.com/y'] }, 'Terminating', undefined]);
  expect((await s('GET', `${N}/fin/configmaps/c`)).status).to.equal(404);
  // A finalizer may still be added while it terminates; each removal but the last leaves it.
  const added = answered<Namespace>(await put(s, { ...terminating, spec: { finalizers: ['example.com/w', ...terminating.spec?.finalizers ?? []] } }));
  expect(added.spec).to.deep.equal({ finalizers: ['example.com/w', 'example.com/x', 'example.com/y'] });
  const fewer = answered<Namespace>(await put(s, { ...added, spec: { finalizers: ['example.com/y'] } }));
  expect([fewer.spec, fewer.status]).to.deep.equal([{ finalizers: ['example.com/y'] }, { phase: 'Terminating' }]);
  // The last one: the update answers the namespace as written, and it is gone.
  const last = answered<Namespace>(await put(s, { ...fewer, spec: { finalizers: [] } }));
  expect([last.spec, last.metadata.resourceVersion]).to.deep.equal([{}, fewer.metadata.resourceVersion]);
  expect((await s('GET', `${N}/fin`)).status).to.equal(404);
  // Only the core Namespaces have /status and /finalize under `namespaces/{name}`: a cluster-scoped custom
  // resource also named `namespaces` is read as one under a namespace there, which it is not (404).
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'namespaces.x.example.com' }, spec: { group: 'x.example.com', scope: 'Cluster',
    names: { plural: 'namespaces', singular: 'namespace', kind: 'XNamespace' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, subresources: { status: {} } }] } };
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd)), 201);
  for (let i = 0; i < 100 && (await s('GET', '/apis/x.example.com/v1/namespaces')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  const xns = JSON.stringify({ apiVersion: 'x.example.com/v1', kind: 'XNamespace', metadata: { name: 'n' } });
  answered(await s('POST', '/apis/x.example.com/v1/namespaces', xns), 201);
  for (const [method, sub] of [['GET', 'finalize'], ['PUT', 'finalize'], ['GET', 'status']] as const) {
    expect([method, sub, (await s(method, `/apis/x.example.com/v1/namespaces/n/${sub}`, method === 'PUT' ? xns : undefined)).status]).to.deep.equal([method, sub, 404]);
  }
  // A namespace being deleted with a metadata finalizer stays until that goes too.
  answered(await s('POST', N, JSON.stringify({ metadata: { name: 'fin3', finalizers: ['example.com/m'] } })), 201);
  const orphaning = answered<Namespace>(await s('DELETE', `${N}/fin3`, '{"propagationPolicy":"Orphan"}'));
  expect([orphaning.metadata.deletionGracePeriodSeconds, (orphaning as { metadata: { finalizers?: string[] } }).metadata.finalizers?.slice().sort()]).to.deep.equal([undefined, ['example.com/m', 'orphan']]);
});
