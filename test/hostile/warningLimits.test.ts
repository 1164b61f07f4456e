// How many warnings a write gets, on both servers (kube-apiserver 1.34.4):
// - the warning recorder (k8s.io/apiserver filters/warning.go) writes each text once, and once the texts would
//   pass 4,096 runes in all it cuts every one to 256 runes and adds none past 4,096. kubekit wrote every
//   warning whole: a custom resource with a few hundred unknown fields had a `Warning` header block no Node
//   client reads (HPE_HEADER_OVERFLOW past its 16 KiB), kubekit's own included.
// - sigs.k8s.io/json's strict decoder keeps at most 100 problems (saveStrictError): a built-in kind written
//   as JSON or YAML, or merge-patched, is warned of (or refused with) its first 100 unknown fields; a
//   strategic merge patch's (the unstructured converter's) and a custom resource's pruned fields are all
//   reported.
// Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, MERGE, STRATEGIC, type Send } from './sender.js';

const CM = '/api/v1/namespaces/default/configmaps';
const group = 'warnings.example.com';
const W = `/apis/${group}/v1/namespaces/default/widgets`;

const fields = (n: number, prefix = 'u'): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(3, '0')}`, 1]));

async function run(s: Send): Promise<void> {
  // Built-in kinds: the first 100.
  const warned = await s('POST', `${CM}?fieldValidation=Warn`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warned' }, ...fields(150) }));
  expect([warned.status, warned.warnings.length, warned.warnings[0], warned.warnings.at(-1)]).to.deep.equal([201, 100, 'unknown field "u000"', 'unknown field "u099"']);
  const refused = await s('POST', `${CM}?fieldValidation=Strict`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'refused' }, ...fields(150) }));
  expect([refused.status, refused.message.split('unknown field').length - 1, refused.message.endsWith('unknown field "u099"')]).to.deep.equal([400, 100, true]);
  const yaml = await s('POST', `${CM}?fieldValidation=Strict`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\n${Object.keys(fields(150)).map((k) => `${k}: 1\n`).join('')}`, 'application/yaml');
  expect([yaml.status, yaml.message.split('unknown field').length - 1]).to.deep.equal([400, 100]);
  const merged = await s('PATCH', `${CM}/warned?fieldValidation=Warn`, JSON.stringify(fields(150, 'm')), MERGE);
  expect([merged.status, merged.warnings.length, merged.warnings.at(-1)]).to.deep.equal([200, 100, 'unknown field "m099"']);
  // The converter's (a strategic merge patch's): all of them.
  const strategic = await s('PATCH', `${CM}/warned?fieldValidation=Warn`, JSON.stringify(fields(150, 's')), STRATEGIC);
  expect([strategic.status, strategic.warnings.length, strategic.warnings.at(-1)]).to.deep.equal([200, 150, 'unknown field "s149"']);

  // A custom resource: every pruned field, up to the recorder's 4,096 runes.
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
    spec: { group, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }] },
  })), 201);
  for (let i = 0; i < 100 && (await s('GET', W)).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const widget = (name: string, spec: Record<string, unknown>, top: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, spec, ...top });
  const many = await s('POST', `${W}?fieldValidation=Warn`, widget('many', { a: 'x', ...fields(300) }));
  // 4,096 runes of `unknown field "spec.uNNN"` (25 runes each): the 164th would pass them, and is the last.
  expect([many.status, many.warnings.length, many.warnings.at(-1)]).to.deep.equal([201, 164, 'unknown field "spec.u163"']);
  // Long ones: each cut to 256 runes once they would pass 4,096 runes together.
  const long = await s('POST', `${W}?fieldValidation=Warn`, widget('long', { a: 'x' }, fields(3, 'L'.repeat(3000))));
  expect([long.status, long.warnings.map((w) => w.length), long.warnings[0]]).to.deep.equal([201, [256, 256, 256], `unknown field "${'L'.repeat(241)}`]);
  // Each text once.
  const twice = await s('POST', `${W}?fieldValidation=Warn`, widget('twice', { a: 'x', b: 1 }).replace('"spec"', '"b":1,"b":2,"spec"'));
  expect([twice.status, twice.warnings]).to.deep.equal([201, ['duplicate field "b"', 'unknown field "b"', 'unknown field "spec.b"']]);
}

describeOnBothServers('warnings: each once, 4,096 runes in all, and the strict decoder\'s 100 problems', run);
