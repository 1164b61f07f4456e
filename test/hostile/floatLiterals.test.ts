// An integer written as a float (`1.0`, `1e2`) is a float64 to Go's JSON decoder, so a schema type error names
// its type `number` (or its format `float64`), where an integer literal is an `integer` (`int64`): for a create,
// an update, a merge patch and a JSON patch, wherever its operations leave the value (kube-apiserver 1.34.4, hostile
// differential seeds 20270217, 20270221, 20270224). kube-openapi walks properties in Go's map order, so the
// causes are compared as a set.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const G = 'floats.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const crd = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${G}` },
  spec: {
    group: G, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
      a: { type: 'string' }, d: { type: 'string', format: 'date' }, b: { type: 'boolean' }, l: { type: 'array', items: { type: 'string' } },
      m: { type: 'object', additionalProperties: { type: 'string' } }, i: { type: 'integer', maximum: 5 }, e: { type: 'integer', enum: [1, 2] },
    } } } } } }],
  },
});
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
  expect((await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).to.equal(201);
  for (let i = 0; i < 100 && (await s('GET', W)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
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

describeOnBothServers('hostile input: integers written as floats in type errors, kubekit and the real kube-apiserver', run);
