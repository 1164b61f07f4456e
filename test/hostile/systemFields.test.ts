// What the field manager records of the system fields of ObjectMeta a client sends: handlers/create.go wipes
// creationTimestamp, uid, deletionTimestamp and deletionGracePeriodSeconds (rest.WipeObjectMetaSystemFields)
// before the field manager sees a created object, so none is ever a managed field of a create; an update of
// a custom resource with the zero time as deletionTimestamp is taken (the store reads none), and the field
// manager, which saw the member, records it for the request's manager, which makes a new resourceVersion
// (kube-apiserver 1.34.4, hostile differential seeds 20270201 and 20270209). Not copied: the store keeps
// such a value as sent and a read drops it, so a later patch from one such value to another makes a new
// resourceVersion there; kubekit stores none, and the object stays as it was.
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Send } from './sender.js';

const G = 'sysfields.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const CM = '/api/v1/namespaces/default/configmaps';

interface Obj { metadata: { resourceVersion: string; deletionTimestamp?: string; managedFields?: { manager?: string; fieldsV1: Record<string, unknown> }[] } }
const widget = (name: string, metadata: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name, ...metadata }, spec: { a: 1 } });
const configMap = (name: string, metadata: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data: { a: '1' } });
const fields = (o: Obj): unknown => o.metadata.managedFields?.map((m) => m.fieldsV1);

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  const post = async (path: string, body: string): Promise<Obj> => {
    const a = await s('POST', path, body);
    expect(a.status, a.text).to.equal(201);
    return JSON.parse(a.text) as Obj;
  };

  // A create: the system fields are wiped before the field manager runs, whatever their value.
  const system = { deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 30, creationTimestamp: '2020-01-01T00:00:00Z', uid: 'b1e0c5f4-0000-4000-8000-000000000000' };
  for (const [label, path, body, own] of [['custom resource', W, widget('c1', system), { 'f:spec': { '.': {}, 'f:a': {} } }], ['ConfigMap', CM, configMap('c1', system), { 'f:data': { '.': {}, 'f:a': {} } }]] as const) {
    const created = await post(path, body);
    expect(fields(created), label).to.deep.equal([own]);
    expect(created.metadata.deletionTimestamp, label).to.equal(undefined);
  }

  // An update of a custom resource with the zero time: taken, recorded, and not stored.
  const w = await post(W, widget('u1'));
  const updated = await s('PUT', `${W}/u1`, widget('u1', { resourceVersion: w.metadata.resourceVersion, deletionTimestamp: '0001-01-01T00:00:00Z' }));
  expect(updated.status, updated.text).to.equal(200);
  const u = JSON.parse(updated.text) as Obj;
  expect(u.metadata.resourceVersion).to.not.equal(w.metadata.resourceVersion);
  expect(u.metadata.deletionTimestamp).to.equal(undefined);
  expect(fields(u)).to.deep.equal([{ 'f:metadata': { 'f:deletionTimestamp': {} }, 'f:spec': { '.': {}, 'f:a': {} } }]);
  // A request without a User-Agent (as these are sent) is the manager "unknown" (buildManagerInfo).
  expect(u.metadata.managedFields?.map((m) => m.manager)).to.deep.equal(['unknown']);
  const read = JSON.parse((await s('GET', `${W}/u1`)).text) as Obj;
  expect(read.metadata.deletionTimestamp).to.equal(undefined);
  expect(fields(read)).to.deep.equal(fields(u));
  // The same from a merge patch; null removes the member instead, which changes nothing.
  const p = await post(W, widget('p1'));
  const patched = await s('PATCH', `${W}/p1`, '{"metadata":{"deletionTimestamp":"0001-01-01T00:00:00Z"}}', 'application/merge-patch+json');
  expect(patched.status, patched.text).to.equal(200);
  expect(fields(JSON.parse(patched.text) as Obj)).to.deep.equal([{ 'f:metadata': { 'f:deletionTimestamp': {} }, 'f:spec': { '.': {}, 'f:a': {} } }]);
  expect((JSON.parse(patched.text) as Obj).metadata.resourceVersion).to.not.equal(p.metadata.resourceVersion);
  const n = await post(W, widget('n1'));
  const nulled = JSON.parse((await s('PATCH', `${W}/n1`, '{"metadata":{"deletionTimestamp":null}}', 'application/merge-patch+json')).text) as Obj;
  expect(nulled.metadata.resourceVersion).to.equal(n.metadata.resourceVersion);
  // A ConfigMap (a typed object) holds the zero time as a time that is set: an update refuses it.
  const cm = await post(CM, configMap('u1'));
  const refused = await s('PUT', `${CM}/u1`, configMap('u1', { resourceVersion: cm.metadata.resourceVersion, deletionTimestamp: '0001-01-01T00:00:00Z' }));
  expect(refused.status).to.equal(422);
  expect(refused.message).to.equal('ConfigMap "u1" is invalid: metadata.deletionTimestamp: Invalid value: null: field is immutable');
}

describeOnBothServers('hostile input: the system fields of ObjectMeta and the field manager, kubekit and the real kube-apiserver', run);
