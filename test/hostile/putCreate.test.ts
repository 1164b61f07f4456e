// A PUT of an object that does not exist, on both servers: the kinds whose strategy says AllowCreateOnUpdate
// (core/v1 Services, Endpoints, Events and LimitRanges, events.k8s.io/v1 Events, coordination.k8s.io/v1 Leases and the four
// RBAC kinds; a Service's /status too) create it, as registry/generic/registry/store.go's Update does when GuaranteedUpdate finds
// nothing: 201, the system fields filled (rest.FillObjectMetaSystemFields) but not wiped (the update handler
// never runs rest.WipeObjectMetaSystemFields, so a deletionTimestamp sent is kept), the create strategy, the
// create validation, admission as a CREATE, the resourceVersion sent ignored, a uid sent a failed
// precondition. Every other kind answers 404 as before. Every expected answer is kube-apiserver 1.34.4's
// (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Send } from './sender.js';

const L = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, rest: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, ...meta }, ...rest });
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const roleRef = (kind: string, name: string): Record<string, string> => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

interface Meta {
  name: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string; generation?: number; generateName?: string;
  deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[]; managedFields?: { manager: string; operation: string; fieldsV1: unknown; subresource?: string }[];
}
interface Obj { kind: string; metadata: Meta; spec?: Record<string, unknown> }

/** The managed fields without their times: manager, operation and field set of each entry. */
const managed = (o: Obj): unknown => (o.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.fieldsV1]);

async function run(s: Send): Promise<void> {
  // A Lease: created, with the managed fields of an Update by the request's manager.
  const a = answered<Obj>(await s('PUT', `${L}/a`, lease('a', { spec: { holderIdentity: 'x' } })), 201);
  expect([a.metadata.namespace, a.spec, managed(a)]).to.deep.equal(['default', { holderIdentity: 'x' }, [['unknown', 'Update', { 'f:spec': { 'f:holderIdentity': {} } }]]]);
  expect(a.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
  expect(answered<Obj>(await s('GET', `${L}/a`)).metadata.uid).to.equal(a.metadata.uid);
  // Once it exists, a PUT is an update: a resourceVersion is needed and must be the current one.
  const again = await s('PUT', `${L}/a`, lease('a', { spec: { holderIdentity: 'x' } }));
  refused(again, 'leases.coordination.k8s.io "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  const stale = await s('PUT', `${L}/a`, lease('a', {}, { resourceVersion: '1' }));
  expect([stale.status, stale.message]).to.deep.equal([409, 'Operation cannot be fulfilled on leases.coordination.k8s.io "a": the object has been modified; please apply your changes to the latest version and try again']);
  const updated = answered<Obj>(await s('PUT', `${L}/a`, lease('a', { spec: { holderIdentity: 'y' } }, { resourceVersion: a.metadata.resourceVersion })));
  expect([updated.spec, updated.metadata.uid]).to.deep.equal([{ holderIdentity: 'y' }, a.metadata.uid]);

  // The resourceVersion sent is ignored (0 or any other); a uid sent is a precondition nothing meets.
  for (const [name, rv] of [['b', '5'], ['b0', '0']]) {
    const b = answered<Obj>(await s('PUT', `${L}/${name}`, lease(name, {}, { resourceVersion: rv })), 201);
    expect(answered<Obj>(await s('GET', `${L}/${name}`)).metadata.resourceVersion).to.equal(b.metadata.resourceVersion);
  }
  const uid = await s('PUT', `${L}/c`, lease('c', {}, { uid: 'u1' }));
  expect([uid.status, uid.message]).to.deep.equal([409, 'Operation cannot be fulfilled on leases.coordination.k8s.io "c": StorageError: invalid object, Code: 4, Key: /registry/leases/default/c, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u1, UID in object meta: ']);
  expect((await s('GET', `${L}/c`)).status).to.equal(404);

  // The system fields are filled, not wiped: generateName, generation, the deletion fields and the managed
  // fields sent stay (the request's Update entry added after them); uid and creationTimestamp are the server's.
  const m = answered<Obj>(await s('PUT', `${L}/m`, lease('m', {}, {
    generateName: 'g-', creationTimestamp: '2020-01-01T00:00:00Z', generation: 7, selfLink: 'x', deletionGracePeriodSeconds: 5,
    managedFields: [{ manager: 'zz', operation: 'Apply', apiVersion: 'coordination.k8s.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
  })), 201);
  expect([m.metadata.generateName, m.metadata.generation, m.metadata.deletionGracePeriodSeconds, managed(m)]).to.deep.equal(['g-', 7, 5, [
    ['zz', 'Apply', { 'f:spec': {} }], ['unknown', 'Update', { 'f:metadata': { 'f:deletionGracePeriodSeconds': {}, 'f:generateName': {} } }],
  ]]);
  expect(m.metadata.creationTimestamp).to.not.equal('2020-01-01T00:00:00Z');
  expect(m.metadata).to.not.have.property('selfLink');
  const d = answered<Obj>(await s('PUT', `${L}/k`, lease('k', {}, { deletionTimestamp: '2020-01-01T00:00:00Z', finalizers: ['a/b'] })), 201);
  expect([d.metadata.deletionTimestamp, d.metadata.finalizers]).to.deep.equal(['2020-01-01T00:00:00Z', ['a/b']]);
  // Its last finalizer gone, it is deleted: a deletion with no grace period is one of 0 (ShouldDeleteDuringUpdate).
  answered<Obj>(await s('PATCH', `${L}/k`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json'));
  expect((await s('GET', `${L}/k`)).status).to.equal(404);
  answered<Obj>(await s('PUT', `${L}/k0`, lease('k0', {}, { deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 0, finalizers: ['a/b'] })), 201);
  answered<Obj>(await s('PATCH', `${L}/k0`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json'));
  expect((await s('GET', `${L}/k0`)).status).to.equal(404);

  // A dry run answers the object and stores nothing.
  const dry = answered<Obj>(await s('PUT', `${L}/dry?dryRun=All`, lease('dry')), 201);
  expect(dry.metadata.resourceVersion).to.equal(undefined);
  expect((await s('GET', `${L}/dry`)).status).to.equal(404);

  // The create's checks: the namespace (NamespaceLifecycle), validation, the name and namespace of the URL.
  const nope = await s('PUT', '/apis/coordination.k8s.io/v1/namespaces/nope/leases/e', lease('e'));
  expect([nope.status, nope.message]).to.deep.equal([404, 'namespaces "nope" not found']);
  refused(await s('PUT', `${L}/f`, lease('f', { spec: { leaseDurationSeconds: -1 } })), 'Lease.coordination.k8s.io "f" is invalid: spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0');
  const other = await s('PUT', `${L}/h`, lease('zz'));
  expect([other.status, other.message]).to.deep.equal([400, 'the name of the object (zz) does not match the name on the URL (h)']);
  const unnamed = await s('PUT', `${L}/h`, JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { generateName: 'x-' } }));
  expect([unnamed.status, unnamed.message]).to.deep.equal([400, 'the name of the object (h based on URL) was undeterminable: name must be provided']);
  const strict = await s('PUT', `${L}/z?fieldValidation=Strict`, lease('z', { bogus: 1 }));
  expect([strict.status, strict.message]).to.deep.equal([400, 'Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "bogus"']);
  const warned = await s('PUT', `${L}/z`, lease('z', { bogus: 1 }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, ['unknown field "bogus"']]);
  // In a namespace being deleted: the lifecycle plugin's refusal of a CREATE.
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ending' }, spec: { finalizers: ['x/y'] } })), 201);
  answered(await s('DELETE', '/api/v1/namespaces/ending'));
  const ending = await s('PUT', '/apis/coordination.k8s.io/v1/namespaces/ending/leases/a', lease('a'));
  expect([ending.status, ending.message]).to.deep.equal([403, 'leases.coordination.k8s.io "a" is forbidden: unable to create new content in namespace ending because it is being terminated']);
  expect(JSON.parse(ending.text).details).to.deep.equal({ name: 'a', group: 'coordination.k8s.io', kind: 'leases', causes: [{ reason: 'NamespaceTerminating', message: 'namespace ending is being terminated', field: 'metadata.namespace' }] });
  // The same refusal of a POST names the object, or its generateName when it has no name.
  for (const [meta, name] of [[{ name: 'late' }, 'late'], [{ generateName: 'late-' }, 'late-']] as const) {
    const late = await s('POST', '/api/v1/namespaces/ending/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta }));
    expect([late.status, late.message]).to.deep.equal([403, `configmaps "${name}" is forbidden: unable to create new content in namespace ending because it is being terminated`]);
  }

  // A Service: the create's allocations (a cluster IP; a node port for type NodePort), its status dropped.
  const svc = answered<{ spec: { clusterIP?: string; clusterIPs?: string[]; ports: { nodePort?: number }[]; type: string }; status: unknown }>(await s('PUT', '/api/v1/namespaces/default/services/q', JSON.stringify({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'q' }, spec: { ports: [{ port: 80 }], type: 'NodePort' }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } },
  })), 201);
  expect(svc.spec.clusterIP).to.match(/^10\.\d+\.\d+\.\d+$/);
  expect(svc.spec.clusterIPs).to.deep.equal([svc.spec.clusterIP]);
  expect(svc.spec.ports[0].nodePort).to.be.within(30000, 32767);
  expect(svc.status).to.deep.equal({ loadBalancer: {} });
  refused(await s('PUT', '/api/v1/namespaces/default/services/t', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 't' }, spec: {} })), 'Service "t" is invalid: spec.ports: Required value');

  // A Service's /status creates too (its status store shares the strategy, AllowCreateOnUpdate), but without
  // the allocations of the resource store's hooks: no cluster IP, no node port, no IP families; the create
  // strategy drops the status; the managed fields are the status subresource's (spec reset). An apply
  // creates the same way; a merge patch is a 404; a pod's /status never creates. A later update of the
  // resource allocates what its type needs (a node port), still no cluster IP.
  type Svc = Obj & { spec: Record<string, unknown> & { ports: Record<string, unknown>[] }; status: unknown };
  const viaStatus = JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'st', labels: { a: 'b' } }, spec: { ports: [{ port: 80 }], type: 'NodePort' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
  const fromStatus = answered<Svc>(await s('PUT', '/api/v1/namespaces/default/services/st/status', viaStatus), 201);
  expect([fromStatus.spec, fromStatus.status, fromStatus.metadata.managedFields?.map((e) => [e.manager, e.operation, e.subresource, e.fieldsV1])]).to.deep.equal([
    { ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }], type: 'NodePort', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' },
    { loadBalancer: {} },
    [['unknown', 'Update', 'status', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } }, 'f:status': { 'f:loadBalancer': { 'f:ingress': {} } } }]],
  ]);
  expect(answered<Svc>(await s('GET', '/api/v1/namespaces/default/services/st')).metadata.uid).to.equal(fromStatus.metadata.uid);
  expect(answered<Svc>(await s('PUT', '/api/v1/namespaces/default/services/dry/status?dryRun=All', viaStatus.replace('"st"', '"dry"')), 201).spec.ports[0]).to.not.have.property('nodePort');
  expect((await s('GET', '/api/v1/namespaces/default/services/dry')).status).to.equal(404);
  // The normalization of cluster IPs is the allocator's too: a clusterIP alone is missing its list.
  refused(await s('PUT', '/api/v1/namespaces/default/services/ip/status', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ip' }, spec: { ports: [{ port: 80 }], clusterIP: 'bogus' } })), 'Service "ip" is invalid: spec.clusterIPs: Required value');
  const applied = answered<Svc>(await s('PATCH', '/api/v1/namespaces/default/services/ap/status?fieldManager=m', viaStatus.replace('"st"', '"ap"'), 'application/apply-patch+yaml'), 201);
  expect([applied.spec.clusterIP, applied.metadata.managedFields?.map((e) => [e.manager, e.operation, e.subresource])]).to.deep.equal([undefined, [['m', 'Apply', 'status']]]);
  const merged = await s('PATCH', '/api/v1/namespaces/default/services/mp/status', viaStatus.replace('"st"', '"mp"'), 'application/merge-patch+json');
  expect([merged.status, merged.message]).to.deep.equal([404, 'services "mp" not found']);
  const podStatus = await s('PATCH', '/api/v1/namespaces/default/pods/ps/status?fieldManager=m', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ps' }, spec: { containers: [{ name: 'c', image: 'i' }] } }), 'application/apply-patch+yaml');
  expect([podStatus.status, podStatus.message]).to.deep.equal([404, 'pods "ps" not found']);
  const relabelled = answered<Svc>(await s('PATCH', '/api/v1/namespaces/default/services/st', JSON.stringify({ metadata: { labels: { x: 'y' } } }), 'application/merge-patch+json'));
  expect([relabelled.spec.clusterIP, relabelled.spec.ipFamilies]).to.deep.equal([undefined, ['IPv4']]);
  expect(relabelled.spec.ports[0].nodePort).to.be.within(30000, 32767);
  expect((await s('DELETE', '/api/v1/namespaces/default/services/st')).status).to.equal(200);

  // The other kinds that allow it; their answers as the reference prints them.
  const created: [string, string, Record<string, unknown>][] = [
    ['/api/v1/namespaces/default/endpoints/a', 'Endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'a' } }],
    ['/api/v1/namespaces/default/limitranges/lr', 'LimitRange', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' } }] } }],
    ['/api/v1/namespaces/default/events/a', 'Event', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'a' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' } }],
    ['/apis/events.k8s.io/v1/namespaces/default/events/b', 'Event', {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'b' }, eventTime: '2020-01-01T00:00:00.000000Z', reportingController: 'c', reportingInstance: 'i',
      action: 'a', reason: 'r', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    }],
    [`${RBAC}/namespaces/default/roles/a`, 'Role', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'a' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
    [`${RBAC}/clusterroles/zz`, 'ClusterRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'zz' }, rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }] }],
    [`${RBAC}/clusterrolebindings/zz`, 'ClusterRoleBinding', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'zz' }, roleRef: roleRef('ClusterRole', 'zz') }],
    [`${RBAC}/namespaces/default/rolebindings/zz`, 'RoleBinding', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'zz' }, roleRef: roleRef('Role', 'a') }],
  ];
  for (const [path, kind, body] of created) {
    const o = answered<Obj>(await s('PUT', path, JSON.stringify(body)), 201);
    expect([o.kind, o.metadata.name]).to.deep.equal([kind, (body.metadata as Meta).name]);
    expect(answered<Obj>(await s('GET', path)).metadata.uid).to.equal(o.metadata.uid);
  }
  expect(answered<{ eventTime: string; reportingComponent: string }>(await s('GET', '/api/v1/namespaces/default/events/b'))).to.include({ eventTime: '2020-01-01T00:00:00.000000Z', reportingComponent: 'c' });

  // Kinds whose strategy does not allow it answer 404, as before (ConfigMaps, PriorityClasses, a subresource
  // of a kind that allows it other than status, and custom resources).
  const cm = await s('PUT', '/api/v1/namespaces/default/configmaps/a', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }));
  expect([cm.status, cm.message]).to.deep.equal([404, 'configmaps "a" not found']);
  const pc = await s('PUT', '/apis/scheduling.k8s.io/v1/priorityclasses/a', JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'a' }, value: 1 }));
  expect([pc.status, pc.message]).to.deep.equal([404, 'priorityclasses.scheduling.k8s.io "a" not found']);
  const dep = await s('PUT', '/apis/apps/v1/namespaces/default/deployments/a', JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' } }));
  expect([dep.status, dep.message]).to.deep.equal([404, 'deployments.apps "a" not found']);

  // Leases and the webhook configurations take no unconditional update (AllowUnconditionalUpdate false): a PUT,
  // or a patch that clears the resourceVersion, without one is refused.
  const W = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
  answered(await s('POST', W, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w' } })), 201);
  const noRV = 'validatingwebhookconfigurations.admissionregistration.k8s.io "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update';
  refused(await s('PUT', `${W}/w`, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w', labels: { a: 'b' } } })), noRV);
  refused(await s('PATCH', `${W}/w`, JSON.stringify({ metadata: { resourceVersion: null, labels: { a: 'c' } } }), 'application/merge-patch+json'), noRV);
  refused(await s('PATCH', `${L}/a`, JSON.stringify({ metadata: { resourceVersion: null } }), 'application/merge-patch+json'), 'leases.coordination.k8s.io "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  expect(answered<Obj>(await s('PATCH', `${L}/a`, JSON.stringify({ metadata: { labels: { a: 'c' } } }), 'application/merge-patch+json')).spec).to.deep.equal({ holderIdentity: 'y' });
}

describeOnBothServers('PUT of an object that does not exist (AllowCreateOnUpdate)', async (s) => run(s));
