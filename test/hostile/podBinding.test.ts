// Binding pods to nodes, on both servers: what a scheduler sends. kube-apiserver 1.34.4 serves a core/v1
// Binding at `pods/{name}/binding` (BindingREST) and at the namespace's `bindings` collection
// (LegacyBindingREST): the names must agree, ValidatePodBinding's errors are an aggregate the handler answers
// as a 500 without a reason, the pod is written by the storage's GuaranteedUpdate (the Binding's uid and
// resourceVersion as preconditions; refused while it is deleted, once it has a node, while it has scheduling
// gates) with its nodeName, the Binding's annotations and the PodScheduled condition, and no field manager
// entry. Every expected answer is the reference's own.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Answer, type Send } from './sender.js';

const P = '/api/v1/namespaces/default/pods';
const pod = (name: string, spec: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
const binding = (name: string, target: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Binding', metadata: { name, ...meta }, target });
interface Pod {
  metadata: { resourceVersion: string; uid: string; annotations?: Record<string, string>; labels?: Record<string, string>; managedFields?: { manager: string; operation: string }[] };
  spec: { nodeName?: string };
  status: { conditions?: { type: string; status: string; lastProbeTime: unknown; lastTransitionTime: string }[] };
}
const status = (a: Answer): [number, string, unknown, unknown] => {
  const b = JSON.parse(a.text) as { message?: string; reason?: string; details?: unknown };
  return [a.status, b.message ?? '', b.reason, b.details];
};
const get = async (s: Send, name: string): Promise<Pod> => answered<Pod>(await s('GET', `${P}/${name}`));
const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describeOnBothServers('binding pods to nodes', async (s) => {
  for (const name of ['p1', 'p2', 'p3', 'p4']) answered(await s('POST', P, pod(name)), 201);
  const before = await get(s, 'p1');

  // Bound: the node, the Binding's annotations (not its labels), PodScheduled; the managed fields untouched.
  expect(answered(await s('POST', `${P}/p1/binding`, binding('p1', { kind: 'Node', name: 'n1' }, { annotations: { x: 'y' }, labels: { l: 'v' } })), 201)).to.deep.equal(success);
  const bound = await get(s, 'p1');
  expect([bound.spec.nodeName, bound.metadata.annotations, bound.metadata.labels]).to.deep.equal(['n1', { x: 'y' }, undefined]);
  expect(bound.status.conditions?.map((c) => [c.type, c.status, c.lastProbeTime, typeof c.lastTransitionTime])).to.deep.equal([['PodScheduled', 'True', null, 'string']]);
  expect(bound.metadata.managedFields).to.deep.equal(before.metadata.managedFields);
  // A watch sees the update.
  const watched = await s('GET', `${P}?watch=1&timeoutSeconds=1&resourceVersion=${before.metadata.resourceVersion}&fieldSelector=metadata.name%3Dp1`);
  expect(watched.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: Pod }; return [e.type, e.object.spec.nodeName]; })).to.deep.equal([['MODIFIED', 'n1']]);

  // Once bound, never again.
  expect(status(await s('POST', `${P}/p1/binding`, binding('p1', { kind: 'Node', name: 'n2' })))).to.deep.equal([409, 'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n1"', 'Conflict', { name: 'p1', kind: 'pods/binding' }]);
  // The names, the namespace, the target.
  for (const name of ['other', '']) {
    expect(status(await s('POST', `${P}/p2/binding`, binding(name, { name: 'n1' })))).to.deep.equal([400, 'name in URL does not match name in Binding object', 'BadRequest', undefined]);
  }
  expect(status(await s('POST', `${P}/p2/binding`, binding('p2', { name: 'n1' }, { namespace: 'other' })))).to.deep.equal([400, 'the namespace of the provided object does not match the namespace sent on the request', 'BadRequest', undefined]);
  expect(status(await s('POST', `${P}/p2/binding`, binding('p2', { kind: 'Pod', name: 'n1' })))).to.deep.equal([500, 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"', undefined, undefined]);
  expect(status(await s('POST', `${P}/p2/binding`, binding('p2', { kind: 'Pod' })))).to.deep.equal([500, '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]', undefined, undefined]);
  expect(status(await s('POST', `${P}/nope/binding`, binding('nope', { name: 'n1' })))).to.deep.equal([404, 'pods "nope" not found', 'NotFound', { name: 'nope', kind: 'pods' }]);
  // The Binding's uid and resourceVersion are the write's preconditions.
  const p2 = await get(s, 'p2');
  expect(status(await s('POST', `${P}/p2/binding`, binding('p2', { name: 'n1' }, { uid: 'wrong' })))[1]).to.equal(
    `Operation cannot be fulfilled on pods "p2": StorageError: invalid object, Code: 4, Key: /registry/pods/default/p2, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: wrong, UID in object meta: ${p2.metadata.uid}`);
  expect(status(await s('POST', `${P}/p2/binding`, binding('p2', { name: 'n1' }, { resourceVersion: '1' })))[1]).to.equal(
    `Operation cannot be fulfilled on pods "p2": StorageError: invalid object, Code: 4, Key: /registry/pods/default/p2, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${p2.metadata.resourceVersion}`);
  expect(answered(await s('POST', `${P}/p2/binding`, binding('p2', { name: 'n1' }, { uid: p2.metadata.uid, resourceVersion: p2.metadata.resourceVersion })), 201)).to.deep.equal(success);
  // A dry run writes nothing.
  answered(await s('POST', `${P}/p3/binding?dryRun=All`, binding('p3', { name: 'n1' })), 201);
  expect((await get(s, 'p3')).spec.nodeName).to.equal(undefined);
  // The body as a Binding.
  expect(status(await s('POST', `${P}/p3/binding`, '{"target":5}'))[1]).to.equal('Binding in version "v1" cannot be handled as a Binding: json: cannot unmarshal number into Go struct field Binding.target of type v1.ObjectReference');
  expect(status(await s('POST', `${P}/p3/binding`, pod('p3')))[1]).to.equal('Pod in version "v1" cannot be handled as a Binding: converting (v1.Pod) to (core.Binding): unknown conversion');
  expect(answered(await s('POST', `${P}/p3/binding`, '{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p3","__proto__":{"x":1}},"target":{"name":"n1","__proto__":{"name":"n9"}}}'), 201)).to.deep.equal(success);
  expect((await get(s, 'p3')).spec.nodeName).to.equal('n1');
  // Create only.
  for (const method of ['GET', 'PUT', 'DELETE']) {
    expect(status(await s(method, `${P}/p3/binding`, method === 'PUT' ? binding('p3', { name: 'n1' }) : undefined))[0]).to.equal(405);
  }

  // The legacy collection binds the pod the Binding names; it has nothing to get.
  expect(answered(await s('POST', '/api/v1/namespaces/default/bindings', binding('p4', { kind: 'Node', name: 'n3' })), 201)).to.deep.equal(success);
  expect((await get(s, 'p4')).spec.nodeName).to.equal('n3');
  expect(status(await s('GET', '/api/v1/namespaces/default/bindings'))[0]).to.equal(405);
  expect(status(await s('GET', '/api/v1/namespaces/default/bindings/p4'))[0]).to.equal(404);
  expect(status(await s('POST', '/api/v1/bindings', binding('p4', { name: 'n1' })))[0]).to.equal(404);

  // Not while the pod is being deleted, nor while it has scheduling gates.
  answered(await s('POST', P, JSON.stringify({ ...JSON.parse(pod('p5')) as object, metadata: { name: 'p5', finalizers: ['example.com/f'] } })), 201);
  answered(await s('DELETE', `${P}/p5`));
  expect(status(await s('POST', `${P}/p5/binding`, binding('p5', { name: 'n1' })))).to.deep.equal([409, 'Operation cannot be fulfilled on pods/binding "p5": pod p5 is being deleted, cannot be assigned to a host', 'Conflict', { name: 'p5', kind: 'pods/binding' }]);
  answered(await s('POST', P, pod('p6', { schedulingGates: [{ name: 'example.com/gate' }] })), 201);
  expect(status(await s('POST', `${P}/p6/binding`, binding('p6', { name: 'n1' })))[1]).to.equal('Operation cannot be fulfilled on pods/binding "p6": pod p6 has non-empty .spec.schedulingGates');

  // Discovery: both resources, create only, no storage version.
  const core = answered<{ resources: { name: string; kind: string; verbs: string[]; group?: string; storageVersionHash?: string }[] }>(await s('GET', '/api/v1'));
  expect(core.resources.filter((r) => r.name === 'bindings' || r.name === 'pods/binding')).to.deep.equal([
    { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] },
    { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] },
  ]);
});
