// CRD validation rules on hostile data: a custom resource whose rule runs find/findAll/matches with a
// pattern that makes a backtracking engine take exponential time (kube-apiserver runs Go's RE2, linear
// in the text), and the error texts of patterns Go cannot compile. Each create must get the same status
// and message from kubekit's embedded server and from the real kube-apiserver v1.34.4 (@kubekit/envtest,
// when Go is on PATH); the embedded server answering at all is the point of the first cases: on a
// backtracking engine they would hold its only thread for years. Then quantities with exponents far beyond
// ±1000, which kubekit's quantity() used to refuse.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const P = '/apis/cel.example.com/v1/namespaces/default/probes';
const str = { type: 'string', maxLength: 100 };
/** Each rule applies when `spec.e` is its number, so one custom resource exercises one rule. */
const rules = [
  'self.e != 0 || self.s.find(self.p) == self.want',
  'self.e != 1 || size(self.s.findAll(self.p)) == int(self.want)',
  'self.e != 2 || self.s.matches(self.p)',
  "self.e != 3 || self.s.find(self.p) == ''",
  'self.e != 4 || self.s.findAll(self.p, 1).size() == 0',
  "self.e != 5 || quantity(self.want).isGreaterThan(quantity('1'))",
  'self.e != 6 || !quantity(self.want).isInteger()',
];
const crd = (name: string, validations: { rule: string }[]): string => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${name}s.cel.example.com` },
  spec: {
    group: 'cel.example.com', scope: 'Namespaced',
    names: { plural: `${name}s`, singular: name, kind: name[0].toUpperCase() + name.slice(1), listKind: `${name[0].toUpperCase()}${name.slice(1)}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: {
      spec: { type: 'object', properties: { s: str, p: str, want: str, e: { type: 'integer' } }, 'x-kubernetes-validations': validations },
    } } } }],
  },
});

interface Case { label: string; spec: Record<string, unknown>; status: number; message?: string }
const invalid = (name: string, detail: string, rule: number): string =>
  `Probe.cel.example.com "${name}" is invalid: spec: Invalid value: "object": ${detail} evaluating rule: ${rules[rule]}`;

const cases: Case[] = [
  { label: 'find (a+)+$ on 40 a and !', spec: { e: 0, s: `${'a'.repeat(40)}!`, p: '(a+)+$', want: '' }, status: 201 },
  { label: 'find (a+)+$ on 40 a and ! (a wrong expectation)', spec: { e: 0, s: `${'a'.repeat(40)}!`, p: '(a+)+$', want: 'x' }, status: 422,
    message: `Probe.cel.example.com "c1" is invalid: spec: Invalid value: "object": failed rule: ${rules[0]}` },
  { label: 'findAll (x+x+)+y on 46 x', spec: { e: 1, s: 'x'.repeat(46), p: '(x+x+)+y', want: '0' }, status: 201 },
  { label: 'matches ^(\\w+\\s?)*$ on 10 words and !', spec: { e: 2, s: `${'word '.repeat(10)}!`, p: '^(\\w+\\s?)*$' }, status: 422,
    message: `Probe.cel.example.com "c3" is invalid: spec: Invalid value: "object": failed rule: ${rules[2]}` },
  { label: 'findAll a* on text with an emoji (empty matches as Go)', spec: { e: 1, s: 'baaab😀', p: 'a*', want: '4' }, status: 201 },
  { label: 'findAll with a group name used twice', spec: { e: 1, s: 'abab', p: '(?P<n>a)(?P<n>b)', want: '2' }, status: 201 },
  { label: 'find with an unclosed group', spec: { e: 3, s: 'x', p: '(' }, status: 422,
    message: invalid('c6', 'Illegal regex: error parsing regexp: missing closing ): `(`', 3) },
  { label: 'findAll with a trailing backslash', spec: { e: 4, s: 'x', p: '\\' }, status: 422,
    message: invalid('c7', 'Illegal regex: error parsing regexp: trailing backslash at end of expression: ``', 4) },
  { label: 'matches with a possessive quantifier', spec: { e: 2, s: 'x', p: 'a++' }, status: 422,
    message: invalid('c8', 'error parsing regexp: invalid nested repetition operator: `++`', 2) },
  // quantity() takes every exponent resource.ParseQuantity does (kubekit refused beyond ±1000).
  { label: 'quantity 1e2000 > 1', spec: { e: 5, want: '1e2000' }, status: 201 },
  { label: 'quantity 1e-2000 > 1 (rounded up to 1n)', spec: { e: 5, want: '1e-2000' }, status: 422,
    message: `Probe.cel.example.com "c10" is invalid: spec: Invalid value: "object": failed rule: ${rules[5]}` },
  { label: 'quantity 1e10000000 > 1', spec: { e: 5, want: '1e10000000' }, status: 201 },
  { label: '1000m is not an integer to AsInt64 (an int64Amount at scale -3)', spec: { e: 6, want: '1000m' }, status: 201 },
  { label: '1k is an integer', spec: { e: 6, want: '1k' }, status: 422,
    message: `Probe.cel.example.com "c13" is invalid: spec: Invalid value: "object": failed rule: ${rules[6]}` },
];

async function run(send: Send, backend: string): Promise<void> {
  const created = await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('probe', rules.map((rule) => ({ rule }))));
  expect(created.status, `${backend}: ${created.text.slice(0, 500)}`).to.equal(201);
  for (let i = 0; i < 120 && (await send('GET', P)).status !== 200; i++) await new Promise((r) => setTimeout(r, 250));
  for (const [i, c] of cases.entries()) {
    const body = JSON.stringify({ apiVersion: 'cel.example.com/v1', kind: 'Probe', metadata: { name: `c${i}` }, spec: c.spec });
    const a = await send('POST', P, body);
    expect(a.status, `${backend}: ${c.label}: ${a.text.slice(0, 500)}`).to.equal(c.status);
    if (c.message !== undefined) expect(a.message, `${backend}: ${c.label}`).to.equal(c.message);
  }
  // A constant pattern is compiled when the CRD is written: a repeated group name is fine, a trailing
  // backslash is not.
  expect((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('dup', [{ rule: "self.s.find('(?P<n>a)(?P<n>b)') == 'ab'" }]))).status).to.equal(201);
  const bad = await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('bad', [{ rule: "self.s.find('\\\\') == ''" }]));
  expect(bad.status, backend).to.equal(422);
  expect(bad.message, backend).to.equal('CustomResourceDefinition.apiextensions.k8s.io "bads.cel.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: ' +
    'Invalid value: {"Rule":"self.s.find(\'\\\\\\\\\') == \'\'","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: ' +
    'program instantiation failed: error parsing regexp: trailing backslash at end of expression: ``');
}

describeOnBothServers('hostile CEL rules: kubekit and the real kube-apiserver', run);
