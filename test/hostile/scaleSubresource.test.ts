// Writes through a custom resource's scale subresource, as kube-apiserver 1.34.4 answers them (the hostile
// differential suite's scale family, seed 20270401):
// - a PUT whose body does not decode into autoscaling/v1 Scale (another version or kind, a replicas that is
//   not an int32, under Strict an unknown field) is a 400: the custom resource's typer does not know the Go
//   type when the handler words the decode error (handlers/update.go transformDecodeError);
// - a patch whose result does not decode is the patcher's 422 on `patch`, quoting the patched Scale;
// - the managed fields go through managedfields.ScaleHandler, quirks included: a write through /scale takes
//   the replicas from the parent entry that owned them and gives them to an entry of the same manager
//   without a time, even when it changes nothing (a new resourceVersion), and a second write finds no owner;
// - a server-side apply that changes the Scale fails with the field manager's 500 (it converts the Scale with
//   the custom resource's converter), after the version check and the conflicts; one that changes nothing is taken.
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Answer, type Send } from './sender.js';

const G = 'scaleval.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const unregistered = 'no kind is registered for the type v1.Scale in scheme "pkg/runtime/scheme.go:110"';

interface Entry { manager?: string; operation?: string; time?: string; subresource?: string; fieldsV1?: Record<string, unknown> }
interface Obj { metadata: { resourceVersion: string; uid: string; creationTimestamp: string; managedFields?: Entry[] }; spec?: { replicas?: number } }

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, { type: 'object', properties: { replicas: { type: 'integer', minimum: 0 }, size: { type: 'integer' } } }, {
    statusSchema: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
  });
  const create = async (name: string): Promise<Obj> => {
    const a = await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name }, spec: { replicas: 1, size: 3 } }));
    expect(a.status, a.text).to.equal(201);
    return JSON.parse(a.text) as Obj;
  };
  const get = async (name: string): Promise<Obj> => JSON.parse((await s('GET', `${W}/${name}`)).text) as Obj;
  const put = (name: string, body: Record<string, unknown>, query = ''): Promise<Answer> => s('PUT', `${W}/${name}/scale${query}`, JSON.stringify({ metadata: { name }, ...body }));
  const putText = (name: string, text: string): Promise<Answer> => s('PUT', `${W}/${name}/scale`, text);

  // PUT: a body that does not decode into the Scale.
  await create('p1');
  for (const [label, answer] of [
    ['another version', await put('p1', { apiVersion: 'autoscaling/v2', kind: 'Scale', spec: { replicas: 2 } })],
    ['another kind', await put('p1', { apiVersion: 'autoscaling/v1', kind: 'Deployment', spec: { replicas: 2 } })],
    ['a core Scale', await put('p1', { apiVersion: 'v1', kind: 'Scale', spec: { replicas: 2 } })],
    ['replicas as a string', await put('p1', { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: '2' } })],
    ['replicas beyond int32', await put('p1', { kind: 'Scale', spec: { replicas: 2147483648 } })],
    ['replicas fractional', await put('p1', { spec: { replicas: 1.5 } })],
    ['replicas written as a float', await putText('p1', '{"kind":"Scale","metadata":{"name":"p1"},"spec":{"replicas":2.0}}')],
    ['an unknown field under Strict', await put('p1', { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 }, extra: 1 }, '?fieldValidation=Strict')],
  ] as const) {
    expect(answer.status, `${label}: ${answer.text}`).to.equal(400);
    expect(answer.message, label).to.equal(unregistered);
  }
  // Either half of the type may be left out; an unknown field is a warning by default.
  for (const body of [{ kind: 'Scale' }, { apiVersion: 'autoscaling/v1' }, {}, { apiVersion: 'autoscaling/v1', kind: 'Scale', extra: 1 }]) {
    const a = await put('p1', { ...body, spec: { replicas: 2 } });
    expect(a.status, a.text).to.equal(200);
  }
  expect((await get('p1')).spec?.replicas).to.equal(2);

  // A patch whose result does not decode: the 422 quotes the patched Scale (sorted members, the live metadata as encoded).
  await create('p2');
  const quoted = async (body: string, contentType: string, why: string): Promise<void> => {
    const o = await get('p2');
    const a = await s('PATCH', `${W}/p2/scale`, body, contentType);
    expect(a.status, a.text).to.equal(422);
    const scale = `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"p2","namespace":"default","uid":"${o.metadata.uid}","resourceVersion":"${o.metadata.resourceVersion}","creationTimestamp":"${o.metadata.creationTimestamp}"},"spec":{"replicas":"x"},"status":{"replicas":0}}`;
    expect(a.message).to.equal(` "" is invalid: patch: Invalid value: ${JSON.stringify(scale)}: ${why}`);
  };
  // (The harness's requests carry no User-Agent: the create's manager is "unknown"; the live Scale gets its entry.)
  const created = await get('p2');
  expect(created.metadata.managedFields?.map((e) => e.manager)).to.deep.equal(['unknown']);
  // The Scale's managed fields are in the quote only while someone owns the replicas: clear them first with a no-op.
  await s('PATCH', `${W}/p2/scale`, '{"status":{"replicas":5}}', 'application/merge-patch+json');
  await s('PATCH', `${W}/p2/scale`, '{"spec":{"replicas":1}}', 'application/merge-patch+json');
  expect((await get('p2')).metadata.managedFields?.some((e) => JSON.stringify(e.fieldsV1).includes('f:replicas'))).to.equal(false);
  await quoted('{"spec":{"replicas":"x"}}', 'application/merge-patch+json', 'json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
  await quoted('[{"op":"replace","path":"/spec/replicas","value":"x"}]', 'application/json-patch+json', 'json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32');
  const other = await s('PATCH', `${W}/p2/scale`, '{"kind":"Other"}', 'application/merge-patch+json');
  expect(other.status, other.text).to.equal(422);
  expect(other.message).to.match(/: no kind "Other" is registered for version "autoscaling\/v1" in scheme "pkg\/runtime\/scheme.go:110"$/);

  // Managed fields through /scale: a write that changes nothing still moves the replicas to a new entry.
  const m1 = await create('m1');
  const noop = await s('PATCH', `${W}/m1/scale`, '{"status":{"replicas":9}}', 'application/merge-patch+json');
  expect(noop.status, noop.text).to.equal(200);
  const after = await get('m1');
  expect(after.metadata.resourceVersion).to.not.equal(m1.metadata.resourceVersion);
  const entries = after.metadata.managedFields ?? [];
  expect(entries.map((e) => [e.manager, e.operation, e.subresource ?? '', e.time === undefined ? 'no time' : 'time', e.fieldsV1])).to.deep.equal([
    ['unknown', 'Update', '', 'no time', { 'f:spec': { 'f:replicas': {} } }],
    ['unknown', 'Update', '', 'time', { 'f:spec': { '.': {}, 'f:size': {} } }],
  ]);
  // Both entries have one identifier: the next write reads the later one only, and the replicas lose their owner.
  const scaled = await s('PATCH', `${W}/m1/scale`, '{"spec":{"replicas":4}}', 'application/merge-patch+json');
  expect(scaled.status, scaled.text).to.equal(200);
  expect((await get('m1')).metadata.managedFields?.map((e) => e.fieldsV1)).to.deep.equal([{ 'f:spec': { '.': {}, 'f:size': {} } }]);

  // An object without replicas: a read of its Scale is the store's 500, a write through /scale must set them.
  await create('e1');
  expect((await s('PATCH', `${W}/e1`, '[{"op":"remove","path":"/spec/replicas"}]', 'application/json-patch+json')).status).to.equal(200);
  const read = await s('GET', `${W}/e1/scale`);
  expect([read.status, read.message]).to.deep.equal([500, 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist']);
  const unset = await s('PATCH', `${W}/e1/scale`, '{"metadata":{"labels":{"x":"y"}}}', 'application/merge-patch+json');
  expect([unset.status, unset.message]).to.deep.equal([400, 'the spec replicas field ".spec.replicas" cannot be empty']);
  expect((await s('PATCH', `${W}/e1/scale`, '{"spec":{"replicas":2}}', 'application/merge-patch+json')).status).to.equal(200);
  expect((await get('e1')).spec?.replicas).to.equal(2);

  // Server-side apply through /scale.
  await create('a1');
  const applyScale = (yaml: string, query = '?fieldManager=scaler'): Promise<Answer> => s('PATCH', `${W}/a1/scale${query}`, yaml, 'application/apply-patch+yaml');
  const scaleYAML = (replicas: number, head = 'apiVersion: autoscaling/v1\nkind: Scale\n'): string => `${head}metadata:\n  name: a1\nspec:\n  replicas: ${replicas}\n`;
  const wrongVersion = await applyScale(scaleYAML(2, 'apiVersion: autoscaling/v2\nkind: Scale\n'));
  expect([wrongVersion.status, wrongVersion.message]).to.deep.equal([400, 'invalid object type: autoscaling/v2, Kind=Scale']);
  const untyped = await applyScale(scaleYAML(2, ''));
  expect([untyped.status, untyped.message]).to.deep.equal([400, 'invalid object type: /, Kind=']);
  const withManaged = await applyScale('apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: a1\n  managedFields:\n  - manager: x\n    operation: Apply\nspec:\n  replicas: 2\n');
  expect([withManaged.status, withManaged.message]).to.deep.equal([400, 'metadata.managedFields must be nil']);
  // Another manager owns the replicas: without force, the conflict comes first.
  const conflict = await applyScale(scaleYAML(2));
  expect(conflict.status, conflict.text).to.equal(409);
  expect(conflict.message).to.equal('Apply failed with 1 conflict: conflict with "unknown" using autoscaling/v1: .spec.replicas');
  const forced = await applyScale(scaleYAML(2), '?fieldManager=scaler&force=true');
  expect(forced.status, forced.text).to.equal(500);
  expect(forced.message).to.equal('failed to convert new object (/a1; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1');
  expect((await get('a1')).spec?.replicas).to.equal(1);
  // An apply that changes nothing is taken.
  const same = await applyScale(scaleYAML(1));
  expect(same.status, same.text).to.equal(200);
  expect((JSON.parse(same.text) as { spec: { replicas: number } }).spec.replicas).to.equal(1);
}

describeOnBothServers('hostile input: writes through the scale subresource of a custom resource, kubekit and the real kube-apiserver', run);
