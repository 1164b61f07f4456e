// What the field manager makes of the managed fields a request sends, and of status writes (kube-apiserver
// 1.34.4, the hostile differential suite's managed-fields family, seeds 20270402 to 20270405):
// - an empty list, or one empty entry, clears them (isResetManagedFields), and the update is then not tracked;
//   a custom resource's empty list is no request at all: its metadata is coerced through ObjectMeta, whose
//   omitempty list drops it;
// - entries that do not decode (an operation other than Apply or Update, no apiVersion, no fieldsType) are
//   ignored: the live managed fields stay, and a write that changes nothing else is no write;
// - two entries of one manager are no error: the later one stands;
// - a custom resource's status write records the metadata it sends (the status strategy resets only spec),
//   although the strategy then drops the change; a conflict with such an entry names its subresource;
// - a status write of another kind loses the managed fields (seeds 20270418 and 20270419).
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Answer, type Send } from './sender.js';

const G = 'mfreq.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const CM = '/api/v1/namespaces/default/configmaps';

interface Entry { manager?: string; operation?: string; subresource?: string; fieldsV1?: Record<string, unknown> }
interface Obj { metadata: { resourceVersion: string; labels?: Record<string, string>; managedFields?: Entry[] } }

const parse = (a: Answer): Obj => {
  expect(a.status, a.text).to.be.oneOf([200, 201]);
  return JSON.parse(a.text) as Obj;
};

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, { type: 'object', properties: { a: { type: 'string' } } }, {
    statusSchema: { type: 'object', properties: { phase: { type: 'string' } } }, subresources: { status: {} },
  });
  const widget = async (name: string): Promise<Obj> => parse(await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name, labels: { app: 'x' } }, spec: { a: '1' } })));
  const configMap = async (name: string): Promise<Obj> => parse(await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } })));
  const merge = (path: string, body: unknown): Promise<Answer> => s('PATCH', path, JSON.stringify(body), 'application/merge-patch+json');

  // Clearing: one empty entry, for both kinds; an empty list for a ConfigMap only.
  for (const [label, path, created] of [['custom resource', `${W}/r1`, await widget('r1')], ['ConfigMap', `${CM}/r1`, await configMap('r1')]] as const) {
    const cleared = parse(await merge(path, { metadata: { managedFields: [{}] } }));
    expect(cleared.metadata.managedFields, label).to.equal(undefined);
    expect(cleared.metadata.resourceVersion, label).to.not.equal(created.metadata.resourceVersion);
    // Not tracked from then on.
    expect(parse(await merge(path, { metadata: { annotations: { n: '1' } } })).metadata.managedFields, label).to.equal(undefined);
  }
  await configMap('r2');
  expect(parse(await merge(`${CM}/r2`, { metadata: { managedFields: [] } })).metadata.managedFields).to.equal(undefined);
  const w2 = await widget('r2');
  const kept = parse(await merge(`${W}/r2`, { metadata: { managedFields: [] } }));
  expect(kept.metadata.managedFields).to.deep.equal(w2.metadata.managedFields);
  expect(kept.metadata.resourceVersion).to.equal(w2.metadata.resourceVersion);

  // Entries that do not decode are ignored: nothing changes.
  const w3 = await widget('r3');
  for (const entries of [
    [{ manager: 'p' }],
    [{ manager: 'x', operation: 'Bogus', apiVersion: `${G}/v1`, fieldsType: 'FieldsV1' }],
    [{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: {} }],
    [{ manager: 'x', operation: 'Update', apiVersion: `${G}/v1` }],
    [{ manager: 'x', operation: 'Update', apiVersion: `${G}/v1`, fieldsType: 'FieldsV2' }],
    [{ manager: 'x', operation: 'Update', apiVersion: `${G}/v1`, fieldsType: 'FieldsV1', fieldsV1: { bogus: {} } }],
  ]) {
    const after = parse(await merge(`${W}/r3`, { metadata: { managedFields: entries } }));
    expect(after.metadata.resourceVersion, JSON.stringify(entries)).to.equal(w3.metadata.resourceVersion);
    expect(after.metadata.managedFields, JSON.stringify(entries)).to.deep.equal(w3.metadata.managedFields);
  }
  // Two entries of one manager: the later one stands.
  const twice = parse(await merge(`${W}/r3`, { metadata: { managedFields: [
    { manager: 'a', operation: 'Update', apiVersion: `${G}/v1`, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:a': {} } } },
    { manager: 'a', operation: 'Update', apiVersion: `${G}/v1`, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
  ] } }));
  expect(twice.metadata.managedFields?.map((e) => [e.manager, e.fieldsV1])).to.deep.equal([['a', { 'f:metadata': { 'f:labels': { 'f:app': {} } } }]]);

  // A status write records the labels it sends, which the status strategy drops.
  const w4 = await widget('r4');
  const status = parse(await s('PATCH', `${W}/r4/status`, '[{"op":"add","path":"/metadata/labels/s","value":"1"},{"op":"add","path":"/status","value":{"phase":"Up"}}]', 'application/json-patch+json'));
  expect(status.metadata.labels).to.deep.equal({ app: 'x' });
  expect(status.metadata.resourceVersion).to.not.equal(w4.metadata.resourceVersion);
  const statusEntry = status.metadata.managedFields?.find((e) => e.subresource === 'status');
  expect(statusEntry?.fieldsV1).to.deep.equal({ 'f:metadata': { 'f:labels': { 'f:s': {} } }, 'f:status': { '.': {}, 'f:phase': {} } });
  // A spec sent through the status is not recorded (reset): a write of it alone changes nothing.
  const spec = parse(await merge(`${W}/r4/status`, { spec: { a: 'changed' } }));
  expect(spec.metadata.resourceVersion).to.equal(status.metadata.resourceVersion);
  // An apply that conflicts with the status writer names its subresource.
  const conflict = await s('PATCH', `${W}/r4/status?fieldManager=applier`, `apiVersion: ${G}/v1\nkind: Widget\nmetadata:\n  name: r4\nstatus:\n  phase: Down\n`, 'application/apply-patch+yaml');
  expect(conflict.status, conflict.text).to.equal(409);
  expect(conflict.message).to.equal(`Apply failed with 1 conflict: conflict with "unknown" with subresource "status" using ${G}/v1: .status.phase`);

  // A status write that says it is another kind: the strategy turns the kind back, and the field manager,
  // which typed the object by the kind it said, failed and dropped the managed fields.
  const w5 = await widget('r5');
  const otherKind = parse(await merge(`${W}/r5/status`, { kind: 'Gadget' }));
  expect(otherKind.metadata.managedFields).to.equal(undefined);
  expect(otherKind.metadata.resourceVersion).to.not.equal(w5.metadata.resourceVersion);
  expect((JSON.parse((await s('GET', `${W}/r5`)).text) as { kind: string }).kind).to.equal('Widget');
}

describeOnBothServers('hostile input: managed fields a request sends, and status writes, kubekit and the real kube-apiserver', run);
