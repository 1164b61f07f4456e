// core/v1 ComponentStatuses (`kubectl get componentstatuses`, `kubectl get cs`) on both servers: computed on
// each request, not stored (pkg/registry/core/componentstatus). With no scheduler or controller-manager
// listening on 127.0.0.1, both are Unhealthy with Go's `connection refused` error, and the storage (`etcd-0`)
// is Healthy. get and list only, each answer with the deprecation warning; a watch is the REST's
// MethodNotSupported; writes have no route. Every expected answer is kube-apiserver 1.34.4's to the same
// request (the reference server runs the same test). The items' order is not fixed on the reference (it
// asks the components concurrently and lists them as they answer), so lists are compared by name.
import { expect } from 'chai';
import { encodeProtobuf } from '../../packages/apiserver/src/internal/protobufEncode.js';
import { PROTOBUF, TABLE, answerBytes, describeOnBothServers, type Answer, type Send } from './sender.js';

const CS = '/api/v1/componentstatuses';
const deprecated = ['v1 ComponentStatus is deprecated in v1.19+'];
const refused = (port: number): string => `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;
const statuses: Record<string, unknown> = {
  'controller-manager': { metadata: { name: 'controller-manager' }, conditions: [{ type: 'Healthy', status: 'False', message: refused(10257) }] },
  'etcd-0': { metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
  scheduler: { metadata: { name: 'scheduler' }, conditions: [{ type: 'Healthy', status: 'False', message: refused(10259) }] },
};
const metaAccept = (as: string): string => `application/json;as=${as};v=v1;g=meta.k8s.io`;

interface Item { metadata: { name: string } }
interface List { kind: string; apiVersion: string; metadata: unknown; items: Item[] }

/** A list answer: its envelope, and its items by name (sorted). */
function listed(a: Answer): [string, unknown, Record<string, unknown>] {
  expect(a.status, a.text).to.equal(200);
  expect(a.warnings).to.deep.equal(deprecated);
  const l = JSON.parse(a.text) as List;
  const items = [...l.items].sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : 1));
  return [`${l.kind} ${l.apiVersion}`, l.metadata, Object.fromEntries(items.map((i) => [i.metadata.name, i]))];
}
const names = async (s: Send, query: string): Promise<string[]> => Object.keys(listed(await s('GET', `${CS}?${query}`))[2]);
/** An error answer: status, its Status body's reason, message and details, and the warnings. */
const failure = (a: Answer): unknown => {
  const st = JSON.parse(a.text) as { reason?: string; message: string; details?: unknown };
  return [a.status, st.reason, st.message, st.details, a.warnings];
};

describeOnBothServers('componentstatuses (computed, read-only, deprecated)', async (s) => {
  // list and get: the three components, nothing but a name in their metadata, a list's metadata empty.
  expect(listed(await s('GET', CS))).to.deep.equal(['ComponentStatusList v1', {}, statuses]);
  for (const name of Object.keys(statuses)) {
    const a = await s('GET', `${CS}/${name}`);
    expect([a.status, a.warnings, JSON.parse(a.text)], name).to.deep.equal([200, deprecated, { kind: 'ComponentStatus', apiVersion: 'v1', ...(statuses[name] as object) }]);
  }
  // `limit`, `continue` and `resourceVersion` change nothing (the REST's List reads only the selectors).
  expect(listed(await s('GET', `${CS}?limit=1&resourceVersion=abc`))[2]).to.deep.equal(statuses);
  expect(listed(await s('GET', `${CS}?continue=zzz`))[2]).to.deep.equal(statuses);
  expect(failure(await s('GET', `${CS}/nope`))).to.deep.equal([404, 'NotFound', 'componentstatus "nope" not found', { name: 'nope', kind: 'componentstatus' }, deprecated]);

  // Selectors: the names, a namespace that is empty, no labels; other fields are the default conversion's 400.
  expect(await names(s, 'fieldSelector=metadata.name%3Detcd-0')).to.deep.equal(['etcd-0']);
  expect(await names(s, 'fieldSelector=metadata.name!%3Detcd-0')).to.deep.equal(['controller-manager', 'scheduler']);
  expect(await names(s, 'fieldSelector=metadata.namespace%3Ddefault')).to.deep.equal([]);
  expect(await names(s, 'fieldSelector=metadata.namespace%3D')).to.have.length(3);
  expect(await names(s, 'labelSelector=a%3Db')).to.deep.equal([]);
  expect(await names(s, 'labelSelector=!a')).to.have.length(3);
  expect(failure(await s('GET', `${CS}?fieldSelector=spec.x%3Dy`))).to.deep.equal([400, 'BadRequest', '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"', undefined, deprecated]);
  expect(failure(await s('GET', `${CS}?labelSelector=a%3D%3D%3D`))).to.deep.equal([400, 'BadRequest', "unable to parse requirement: found '=', expected: identifier", undefined, deprecated]);
  expect(failure(await s('GET', `${CS}?timeoutSeconds=x`))).to.deep.equal([400, 'BadRequest', 'strconv.ParseInt: parsing "x": invalid syntax', undefined, deprecated]);

  // A watch: the list options validated first, then the REST's MethodNotSupported.
  const noWatch = [405, 'MethodNotAllowed', 'watch is not supported on resources of kind "componentstatuses"', { kind: 'componentstatuses' }, deprecated];
  expect(failure(await s('GET', `${CS}?watch=true`))).to.deep.equal(noWatch);
  expect(failure(await s('GET', `${CS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`))).to.deep.equal(noWatch);
  const rvm = await s('GET', `${CS}?watch=true&resourceVersionMatch=Exact`);
  expect([rvm.status, rvm.warnings]).to.deep.equal([422, deprecated]);
  // On an object's URL `watch` is not read: a get.
  expect((await s('GET', `${CS}/etcd-0?watch=true`)).status).to.equal(200);

  // No other route: writes are the generic 405, other paths 404s, none with the warning.
  const noMethod = [405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}, []];
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } });
  expect(failure(await s('POST', CS, body))).to.deep.equal(noMethod);
  expect(failure(await s('PUT', `${CS}/etcd-0`, body))).to.deep.equal(noMethod);
  expect(failure(await s('PATCH', `${CS}/etcd-0`, '{}', 'application/merge-patch+json'))).to.deep.equal(noMethod);
  expect(failure(await s('DELETE', `${CS}/etcd-0`))).to.deep.equal(noMethod);
  expect(failure(await s('DELETE', CS))).to.deep.equal(noMethod);
  expect(failure(await s('OPTIONS', CS))).to.deep.equal(noMethod);
  const notFound = [404, 'NotFound', 'the server could not find the requested resource', {}, []];
  expect(failure(await s('GET', '/api/v1/namespaces/default/componentstatuses'))).to.deep.equal(notFound);
  expect(failure(await s('GET', `${CS}/etcd-0/status`))).to.deep.equal(notFound);
  expect(failure(await s('GET', '/api/v1/watch/componentstatuses'))).to.deep.equal(notFound);

  // Tables (Name, Status, Message, Error; no Age), metadata only, YAML, protobuf.
  const t = JSON.parse((await s('GET', CS, undefined, undefined, TABLE)).text) as { metadata: unknown; columnDefinitions: { name: string; type: string; format: string; priority: number }[]; rows: { cells: string[]; object: unknown }[] };
  expect([t.metadata, t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}:${c.priority}`)]).to.deep.equal([{}, ['Name:string:name:0', 'Status:string::0', 'Message:string::0', 'Error:string::0']]);
  expect(t.rows.map((r) => [r.cells, r.object]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1))).to.deep.equal([
    [['controller-manager', 'Unhealthy', refused(10257), ''], { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'controller-manager' } }],
    [['etcd-0', 'Healthy', 'ok', ''], { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'etcd-0' } }],
    [['scheduler', 'Unhealthy', refused(10259), ''], { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'scheduler' } }],
  ]);
  const one = JSON.parse((await s('GET', `${CS}/etcd-0?includeObject=None`, undefined, undefined, TABLE)).text) as { metadata: unknown; rows: unknown[] };
  expect([one.metadata, one.rows]).to.deep.equal([{}, [{ cells: ['etcd-0', 'Healthy', 'ok', ''], object: null }]]);
  expect(JSON.parse((await s('GET', `${CS}/etcd-0`, undefined, undefined, metaAccept('PartialObjectMetadata'))).text)).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'etcd-0' } });
  const metas = JSON.parse((await s('GET', CS, undefined, undefined, metaAccept('PartialObjectMetadataList'))).text) as { metadata: unknown; items: Item[] };
  expect([metas.metadata, metas.items.map((i) => i.metadata.name).sort()]).to.deep.equal([{}, ['controller-manager', 'etcd-0', 'scheduler']]);
  expect((await s('GET', `${CS}/etcd-0`, undefined, undefined, 'application/yaml')).text).to.equal('apiVersion: v1\nconditions:\n- message: ok\n  status: "True"\n  type: Healthy\nkind: ComponentStatus\nmetadata:\n  name: etcd-0\n');
  const pb = await s('GET', `${CS}/etcd-0`, undefined, undefined, PROTOBUF);
  expect([pb.status, pb.warnings]).to.deep.equal([200, deprecated]);
  const json = JSON.parse((await s('GET', `${CS}/etcd-0`)).text) as Record<string, unknown>;
  expect(answerBytes(pb).bytes.toString('hex'), "kubekit's encoding of the JSON answer").to.equal(encodeProtobuf(json)?.toString('hex'));
  const html = await s('GET', CS, undefined, undefined, 'text/html');
  expect([html.status, html.warnings]).to.deep.equal([406, []]);

  // Discovery: get and list, the short name, no storage version (nothing is stored).
  const v1 = JSON.parse((await s('GET', '/api/v1')).text) as { resources: Record<string, unknown>[] };
  expect(v1.resources.find((r) => r.name === 'componentstatuses')).to.deep.equal({ name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'] });
  const openapi = JSON.parse((await s('GET', '/openapi/v3/api/v1', undefined, undefined, 'application/json')).text) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
  const ops = Object.entries(openapi.paths).filter(([p]) => p.includes('componentstatuses')).map(([p, item]) => `${p} ${Object.keys(item).filter((k) => k !== 'parameters').join(',')}`);
  expect(ops).to.deep.equal(['/api/v1/componentstatuses get', '/api/v1/componentstatuses/{name} get']);
  expect(Object.keys(openapi.components.schemas).filter((k) => k.includes('Component'))).to.have.members(['io.k8s.api.core.v1.ComponentCondition', 'io.k8s.api.core.v1.ComponentStatus', 'io.k8s.api.core.v1.ComponentStatusList']);
});
