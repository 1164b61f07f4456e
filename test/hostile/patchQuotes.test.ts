// The patched object a merge patch's 422 quotes (`patch: Invalid value: "<json>"`), for a built-in kind: evanphx
// json-patch's MergePatch re-marshals the members of every object the patch reaches in sorted order and keeps
// the rest as the apiserver encoded it from the Go type, so a managed fields entry keeps its struct's order,
// `manager` first (kube-apiserver 1.34.4, hostile differential seeds 20270403 and 20270427). And the scheme's
// error for a kind it does not know, which quotes with Go's %q.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const CM = '/api/v1/namespaces/default/configmaps';

interface Entry { manager: string; operation: string; apiVersion: string; time: string; fieldsType: string; fieldsV1: unknown }
interface Obj { metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp: string; managedFields: Entry[] } }

async function run(s: Send): Promise<void> {
  const created = await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'q1', labels: { z: '1', a: '2' } }, data: { b: '1', a: '2' } }));
  expect(created.status, created.text).to.equal(201);
  const o = JSON.parse(created.text) as Obj;
  const m = o.metadata;
  const e = m.managedFields[0];
  const answer = await s('PATCH', `${CM}/q1?fieldValidation=Strict`, '{"metadata":{"x":"y"}}', 'application/merge-patch+json');
  expect(answer.status, answer.text).to.equal(422);
  // The root and the metadata are re-marshalled (sorted); data, labels (maps: sorted either way) and the
  // managed fields entry (a struct) are as stored.
  const entry = `{"manager":"${e.manager}","operation":"Update","apiVersion":"v1","time":"${e.time}","fieldsType":"FieldsV1","fieldsV1":${JSON.stringify(e.fieldsV1)}}`;
  const quoted = `{"apiVersion":"v1","data":{"a":"2","b":"1"},"kind":"ConfigMap","metadata":{"creationTimestamp":"${m.creationTimestamp}","labels":{"a":"2","z":"1"},"managedFields":[${entry}],"name":"q1","namespace":"default","resourceVersion":"${m.resourceVersion}","uid":"${m.uid}","x":"y"}}`;
  expect(answer.message).to.equal(` "" is invalid: patch: Invalid value: ${JSON.stringify(quoted)}: strict decoding error: unknown field "metadata.x"`);
  // A list the patch places: json-patch's MergePatch parses every object in it (pruneNulls) and writes it
  // sorted, at any depth, keeping the scalars' texts (hostile seed 20261218, cases 104, 232, 332).
  const placed = await s('PATCH', `${CM}/q1?fieldValidation=Strict`, '{"metadata":{"finalizers":null,"ownerReferences":[{"uid":"u","name":"n","kind":"K","apiVersion":"v1","blockOwnerDeletion":true,"x":{"b":1.50,"a":[{"z":1,"y":2}]}}]}}', 'application/merge-patch+json');
  expect(placed.status, placed.text).to.equal(422);
  const refs = '[{"apiVersion":"v1","blockOwnerDeletion":true,"kind":"K","name":"n","uid":"u","x":{"a":[{"y":2,"z":1}],"b":1.50}}]';
  expect(placed.message.includes(`"name":"q1","namespace":"default","ownerReferences":${refs},"resourceVersion":`) || placed.message.includes(JSON.stringify(`"ownerReferences":${refs}`).slice(1, -1)), placed.message).to.equal(true);
  expect(placed.message.endsWith(': strict decoding error: unknown field "metadata.ownerReferences[0].x"'), placed.message).to.equal(true);
  // A copy of a list an earlier operation walked into: json-patch's deepCopy marshals it, each element with its
  // own text, the walked one sorted, the other in the Service's struct order (hostile seed 20261202, case 140).
  const SV = '/api/v1/namespaces/default/services';
  expect((await s('POST', SV, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'q2' }, spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }, { name: 'metrics', port: 9090, targetPort: 9090 }] } }))).status).to.equal(201);
  const copied = await s('PATCH', `${SV}/q2`, '[{"op":"replace","path":"/spec/ports/1/targetPort","value":-1},{"op":"copy","from":"/spec/ports","path":"/spec/ipFamilies"}]', 'application/json-patch+json');
  expect(copied.status, copied.text).to.equal(422);
  expect(copied.message).to.include(JSON.stringify('"ipFamilies":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080},{"name":"metrics","port":9090,"protocol":"TCP","targetPort":-1}]').slice(1, -1));
  expect(copied.message.endsWith(': json: cannot unmarshal object into Go struct field ServiceSpec.spec.ipFamilies of type v1.IPFamily'), copied.message).to.equal(true);
  // A kind the scheme does not know, named with Go's %q (a NUL as \x00; hostile seed 20270436).
  const nul = await s('PATCH', `${CM}/q1`, '[{"op":"add","path":"/kind","value":"\\u0000"}]', 'application/json-patch+json');
  expect(nul.status, nul.text).to.equal(422);
  expect(nul.message.endsWith(': no kind "\\x00" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"'), nul.message).to.equal(true);
}

describeOnBothServers('hostile input: the patched object a merge patch of a built-in kind quotes, kubekit and the real kube-apiserver', run);
