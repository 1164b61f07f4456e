// An integer written as a float (`1.0`, `1e2`) is a float64 to Go's JSON decoder, so a schema type error names
// its type `number` (or its format `float64`), where an integer literal is an `integer` (`int64`): for a create,
// an update, a merge patch and a JSON patch, wherever its operations leave the value (kube-apiserver 1.34.4, hostile
// differential seeds 20270217, 20270221, 20270224). kube-openapi walks properties in Go's map order, so the
// causes are compared as a set.
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Send } from './sender.js';

const G = 'floats.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const specSchema = { type: 'object', properties: {
  a: { type: 'string' }, d: { type: 'string', format: 'date' }, b: { type: 'boolean' }, l: { type: 'array', items: { type: 'string' } },
  m: { type: 'object', additionalProperties: { type: 'string' } }, i: { type: 'integer', maximum: 5 }, e: { type: 'integer', enum: [1, 2] },
} };
const spec = '{"a":1e2,"b":1.0,"d":2.0,"l":["x",3.0,4],"m":{"k":5.0,"j":6},"i":7.0,"e":3.0}';
const expected = [
  'spec.a: Invalid value: "number": spec.a in body must be of type string: "number"',
  'spec.b: Invalid value: "number": spec.b in body must be of type boolean: "number"',
  'spec.d: Invalid value: "float64": spec.d in body must be of type date: "float64"',
  'spec.e: Unsupported value: 3: supported values: "1", "2"',
  'spec.i: Invalid value: 7: spec.i in body should be less than or equal to 5',
  'spec.l[1]: Invalid value: "number": spec.l[1] in body must be of type string: "number"',
  'spec.l[2]: Invalid value: "integer": spec.l[2] in body must be of type string: "integer"',
  'spec.m.j: Invalid value: "integer": spec.m.j in body must be of type string: "integer"',
  'spec.m.k: Invalid value: "number": spec.m.k in body must be of type string: "number"',
];

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, specSchema);
  const created = await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { a: 'x' } }));
  expect(created.status).to.equal(201);
  const rv = (JSON.parse(created.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const causes = (text: string): string[] => ((JSON.parse(text) as { details?: { causes?: { field: string; message: string }[] } }).details?.causes ?? []).map((c) => `${c.field}: ${c.message}`).sort();
  for (const [label, answer] of [
    ['create', s('POST', W, `{"apiVersion":"${G}/v1","kind":"Widget","metadata":{"name":"n"},"spec":${spec}}`)],
    ['update', s('PUT', `${W}/w`, `{"apiVersion":"${G}/v1","kind":"Widget","metadata":{"name":"w","resourceVersion":"${rv}"},"spec":${spec}}`)],
    ['merge patch', s('PATCH', `${W}/w`, `{"spec":${spec}}`, 'application/merge-patch+json')],
    ['JSON patch', s('PATCH', `${W}/w`, `[{"op":"replace","path":"/spec","value":${spec}}]`, 'application/json-patch+json')],
  ] as const) {
    const a = await answer;
    expect(a.status, `${label}: ${a.text}`).to.equal(422);
    expect(causes(a.text), label).to.deep.equal(expected);
  }
  // A JSON patch's float goes wherever its operations leave it: appended, shifted, moved, copied.
  const sl = (i: number): string => `spec.l[${i}]: Invalid value: "number": spec.l[${i}] in body must be of type string: "number"`;
  const field = (f: string, type = 'number'): string => `spec.${f}: Invalid value: "${type}": spec.${f} in body must be of type string: "${type}"`;
  expect((await s('PATCH', `${W}/w`, '[{"op":"add","path":"/spec/l","value":["p","q"]}]', 'application/json-patch+json')).status).to.equal(200);
  for (const [label, ops, want] of [
    ['append', '[{"op":"add","path":"/spec/l/-","value":2.0}]', [sl(2)]],
    ['insert before it', '[{"op":"add","path":"/spec/l/0","value":2.0},{"op":"add","path":"/spec/l/0","value":"z"}]', [sl(1)]],
    ['remove before it', '[{"op":"add","path":"/spec/l/2","value":5.0},{"op":"remove","path":"/spec/l/0"}]', [sl(1)]],
    ['move', '[{"op":"add","path":"/spec/m","value":{"k":3.0}},{"op":"move","from":"/spec/m/k","path":"/spec/a"}]', [field('a')]],
    ['copy', '[{"op":"add","path":"/spec/m","value":{"k":3.0,"j":4}},{"op":"copy","from":"/spec/m/k","path":"/spec/a"}]', [field('a'), field('m.j', 'integer'), field('m.k')]],
  ] as const) {
    const a = await s('PATCH', `${W}/w`, ops, 'application/json-patch+json');
    expect(a.status, `${label}: ${a.text}`).to.equal(422);
    expect(causes(a.text), label).to.deep.equal([...want].sort());
  }
}

// A number beyond float64 (`1e400`) that a patch under fieldValidation=Ignore puts in a custom resource fails
// the decoding of the patched document, whatever the schema says of it (a 422 on `patch`, never a stored
// null); a strategic merge patch's decoding fails on it at once; a typed decoder names it as written
// (hostile differential seed 20270225).
async function beyondFloat64(s: Send): Promise<void> {
  await createWidgets(s, G, specSchema);
  expect((await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { a: 'x', m: { k: 'v' } } }))).status).to.equal(201);
  const D = '/apis/apps/v1/namespaces/default/deployments';
  const CM = '/api/v1/namespaces/default/configmaps';
  expect((await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }))).status).to.equal(201);
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
  expect((await s('POST', D, JSON.stringify(deployment))).status).to.equal(201);
  const patchQuote = (error: string): RegExp => new RegExp(`^ "" is invalid: patch: Invalid value: "\\{.*\\}": ${error.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 's');
  const decodeFloat = (n: string): string => `json: cannot unmarshal number ${n} into Go value of type float64`;
  for (const [label, answer, status, message] of [
    ['JSON patch into a string map', s('PATCH', `${W}/w?fieldValidation=Ignore&dryRun=All`, '[{"op":"add","path":"/spec/m/q","value":1e400}]', 'application/json-patch+json'), 422, patchQuote(decodeFloat('1e400'))],
    ['JSON patch beside a type error', s('PATCH', `${W}/w?fieldValidation=Ignore&dryRun=All`, '[{"op":"replace","path":"/spec/a","value":{}},{"op":"add","path":"/spec/m/q","value":1e400}]', 'application/json-patch+json'), 422, patchQuote(decodeFloat('1e400'))],
    // An integer literal too large for a float64 needs no `.` or `e`.
    ['JSON patch of a 400-digit integer', s('PATCH', `${W}/w?fieldValidation=Ignore&dryRun=All`, `[{"op":"add","path":"/spec/m/q","value":${'9'.repeat(400)}}]`, 'application/json-patch+json'), 422, patchQuote(decodeFloat('9'.repeat(400)))],
    ['JSON patch, then removed', s('PATCH', `${W}/w?fieldValidation=Ignore&dryRun=All`, '[{"op":"add","path":"/spec/m/q","value":1e400},{"op":"remove","path":"/spec/m/q"}]', 'application/json-patch+json'), 200, ''],
    ['merge patch', s('PATCH', `${W}/w?fieldValidation=Ignore&dryRun=All`, '{"spec":{"m":{"q":1e400}}}', 'application/merge-patch+json'), 422, patchQuote(decodeFloat('1e400'))],
    ['strategic merge patch, Ignore', s('PATCH', `${CM}/cm?fieldValidation=Ignore&dryRun=All`, '{"zzz":1e400}', 'application/strategic-merge-patch+json'), 400, decodeFloat('1e400')],
    ['strategic merge patch, Strict', s('PATCH', `${D}/d?fieldValidation=Strict&dryRun=All`, '{"spec":{"replicas":-1e400}}', 'application/strategic-merge-patch+json'), 400, decodeFloat('-1e400')],
    ['typed merge patch', s('PATCH', `${D}/d?fieldValidation=Ignore&dryRun=All`, '{"spec":{"replicas":-1e400}}', 'application/merge-patch+json'), 422, patchQuote('json: cannot unmarshal number -1e400 into Go struct field DeploymentSpec.spec.replicas of type int32')],
    ['typed update', s('PUT', `${D}/d?dryRun=All`, JSON.stringify({ ...deployment, spec: { ...deployment.spec, replicas: 1 } }).replace('"replicas":1', '"replicas":1E+400')), 400,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1E+400 into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ] as const) {
    const a = await answer;
    expect(a.status, `${label}: ${a.text}`).to.equal(status);
    if (typeof message === 'string') expect(a.message, label).to.equal(message);
    else expect(a.message, label).to.match(message);
  }
  // The patched object a merge patch's 422 quotes has the patch's numbers as it wrote them (json-patch keeps
  // its values as text): `1e400`, not a null (hostile differential seed 20261206, case 216), and `1.0`.
  const quoted = async (path: string, body: string): Promise<string> => {
    const a = await s('PATCH', path, body, 'application/merge-patch+json');
    expect(a.status, a.text).to.equal(422);
    return a.message ?? '';
  };
  // A JSON snippet as %q quotes it inside the message.
  const q = (json: string): string => json.replace(/"/g, '\\"');
  expect(await quoted(`${W}/w?fieldValidation=Ignore&dryRun=All`, '{"spec":{"m":{"q":1e400},"b":{"c":2.50,"d":[1.0,1E+400]}}}'))
    .to.include(q('"spec":{"a":"x","b":{"c":2.50,"d":[1.0,1E+400]},"m":{"k":"v","q":1e400}}'));
  expect(await quoted(`${D}/d?fieldValidation=Ignore&dryRun=All`, '{"spec":{"replicas":-1e400,"minReadySeconds":5.0}}')).to.include(q('"minReadySeconds":5.0'));
}

describeOnBothServers('hostile input: integers written as floats in type errors, kubekit and the real kube-apiserver', run);
describeOnBothServers('hostile input: numbers beyond float64 in patches and typed objects, kubekit and the real kube-apiserver', beyondFloat64);
