// A body of another kind or version than the handler decodes, on both servers: the scheme's codec decodes it
// as the kind it names (packages/apiserver/src/internal/schemeKinds.ts, from the reference's own scheme),
// so a kind the scheme registers but cannot convert is `converting (<Go type>) to (<internal type>):
// unknown conversion` (the options, WatchEvent, lists, Status under any version, another group's kinds),
// one it does not register is `no kind "X" is registered for version "g/v"`, the kind in a version the
// scheme has but the server does not serve is the handler's `the API version in the data (…) does not
// match`, and the prefix names the body's version. kubekit knew only the served kinds: every other
// registered kind was "no kind … is registered", and the prefix named the handler's version. Every expected
// answer is kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

const NS = '/api/v1/namespaces/default';
const D = '/apis/apps/v1/namespaces/default/deployments';
const noKind = (kind: string, apiVersion: string): string => `no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:110"`;
const handled = (kind: string, version: string, as: string, why: string): string => `${kind} in version "${version}" cannot be handled as a ${as}: ${why}`;
const mismatch = (given: string, expected: string): string => `the API version in the data (${given}) does not match the expected API version (${expected})`;
const cm = (apiVersion: string | undefined, kind: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion, kind, metadata: { name: 'x' }, ...extra });

/** [method, path, body, content type, status, message (a 422's: its end, after the quoted patched object)] */
type Case = [string, string, unknown, string | undefined, number, string];
const cases: Case[] = [
  ...(['EventList', 'Status', 'DeleteOptions', 'List', 'WatchEvent', 'APIVersions', 'ListOptions', 'RangeAllocation', 'SerializedReference', 'NodeProxyOptions', 'Pod'] as const)
    .map((k): Case => ['POST', `${NS}/configmaps`, cm('v1', k), undefined, 400, handled(k, 'v1', 'ConfigMap', `converting (v1.${k}) to (core.ConfigMap): unknown conversion`)]),
  ['POST', `${NS}/configmaps`, cm('v1', 'Nope'), undefined, 400, handled('Nope', 'v1', 'ConfigMap', noKind('Nope', 'v1'))],
  ['POST', `${NS}/configmaps`, cm('meta.k8s.io/v1', 'Status'), undefined, 400, handled('Status', 'v1', 'ConfigMap', 'converting (v1.Status) to (core.ConfigMap): unknown conversion')],
  ['POST', `${NS}/configmaps`, cm('apps/v1', 'Deployment'), undefined, 400, handled('Deployment', 'v1', 'ConfigMap', 'converting (v1.Deployment) to (core.ConfigMap): unknown conversion')],
  ['POST', `${NS}/configmaps`, cm('policy/v1beta1', 'Eviction'), undefined, 400, handled('Eviction', 'v1beta1', 'ConfigMap', 'converting (v1beta1.Eviction) to (core.ConfigMap): unknown conversion')],
  // An unversioned kind is found by name in a group version the scheme does not have; another kind is not.
  ['POST', `${NS}/configmaps`, cm('foo.example/v2', 'Widget'), undefined, 400, handled('Widget', 'v2', 'ConfigMap', noKind('Widget', 'foo.example/v2'))],
  ['POST', `${NS}/configmaps`, cm('foo.example/v2', 'Status'), undefined, 400, handled('Status', 'v2', 'ConfigMap', 'converting (v1.Status) to (core.ConfigMap): unknown conversion')],
  ['POST', `${NS}/configmaps`, cm(undefined, 'Secret'), undefined, 400, handled('Secret', 'v1', 'ConfigMap', 'converting (v1.Secret) to (core.ConfigMap): unknown conversion')],
  // The other kind's Go type decodes first: its type errors come before the conversion's.
  ['POST', `${NS}/configmaps`, cm('apps/v1', 'Deployment', { spec: 5 }), undefined, 400, handled('Deployment', 'v1', 'ConfigMap', 'json: cannot unmarshal number into Go struct field Deployment.spec of type v1.DeploymentSpec')],
  ['PUT', `${NS}/configmaps/c`, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'c' } }, undefined, 400, handled('Job', 'v1', 'ConfigMap', 'converting (v1.Job) to (core.ConfigMap): unknown conversion')],
  // A patch's result: the 422 on `patch`.
  ['PATCH', `${NS}/configmaps/c`, { kind: 'Status' }, 'application/merge-patch+json', 422, 'converting (v1.Status) to (core.ConfigMap): unknown conversion'],
  ['PATCH', `${NS}/configmaps/c`, [{ op: 'add', path: '/apiVersion', value: 'apps/v1' }], 'application/json-patch+json', 422, noKind('ConfigMap', 'apps/v1')],
  ['POST', D, cm('apps/v1', 'ReplicaSet'), undefined, 400, handled('ReplicaSet', 'v1', 'Deployment', 'converting (v1.ReplicaSet) to (apps.Deployment): unknown conversion')],
  ['POST', D, cm('apps/v1', 'DeploymentList'), undefined, 400, handled('DeploymentList', 'v1', 'Deployment', 'converting (v1.DeploymentList) to (apps.Deployment): unknown conversion')],
  ['POST', D, cm('apps/v1', 'Scale'), undefined, 400, handled('Scale', 'v1', 'Deployment', noKind('Scale', 'apps/v1'))],
  // The kind in a version the scheme converts from but the server does not serve.
  ['POST', D, cm('extensions/v1beta1', 'Deployment'), undefined, 400, mismatch('extensions/v1beta1', 'apps/v1')],
  ['PUT', `${D}/d`, { apiVersion: 'apps/v1beta2', kind: 'Deployment', metadata: { name: 'd' } }, undefined, 400, mismatch('apps/v1beta2', 'apps/v1')],
  ['POST', `${NS}/events`, cm('events.k8s.io/v1', 'Event'), undefined, 400, mismatch('events.k8s.io/v1', 'v1')],
  ['POST', '/apis/networking.k8s.io/v1/namespaces/default/ingresses', cm('extensions/v1beta1', 'Ingress'), undefined, 400, mismatch('extensions/v1beta1', 'networking.k8s.io/v1')],
  ['POST', '/apis/storage.k8s.io/v1/storageclasses', cm('storage.k8s.io/v1beta1', 'StorageClass', { provisioner: 'a' }), undefined, 400, mismatch('storage.k8s.io/v1beta1', 'storage.k8s.io/v1')],
  // Subresources: /scale decodes an autoscaling/v1 Scale, /eviction an Eviction, /binding a Binding.
  ['PUT', `${D}/d/scale`, { apiVersion: 'apps/v1beta1', kind: 'Scale', metadata: { name: 'd' }, spec: { replicas: 2 } }, undefined, 400, mismatch('apps/v1beta1', 'autoscaling/v1')],
  ['PUT', `${D}/d/scale`, { apiVersion: 'v1', kind: 'Status', metadata: { name: 'd' } }, undefined, 400, handled('Status', 'v1', 'Scale', 'converting (v1.Status) to (autoscaling.Scale): unknown conversion')],
  ['POST', `${NS}/pods/p/eviction`, { apiVersion: 'v1', kind: 'DeleteOptions', metadata: { name: 'p' } }, undefined, 400, handled('DeleteOptions', 'v1', 'Eviction', 'converting (v1.DeleteOptions) to (policy.Eviction): unknown conversion')],
  ['POST', `${NS}/pods/p/binding`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } }, undefined, 400, handled('Eviction', 'v1', 'Binding', 'converting (v1.Eviction) to (core.Binding): unknown conversion')],
  ['POST', `${NS}/pods/p/binding`, { apiVersion: 'v9', kind: 'Binding', metadata: { name: 'p' } }, undefined, 400, handled('Binding', 'v9', 'Binding', noKind('Binding', 'v9'))],
];

async function run(s: Send): Promise<void> {
  answered(await s('POST', `${NS}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })), 201);
  answered(await s('POST', D, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } })), 201);
  answered(await s('POST', `${NS}/pods`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } })), 201);
  for (const [method, path, body, contentType, status, message] of cases) {
    const a = await s(method, path, JSON.stringify(body), contentType);
    const label = `${method} ${path} ${JSON.stringify(body)}`;
    if (status === 422) expect([a.status, a.message?.endsWith(`: ${message}`)], `${label}: ${a.text}`).to.deep.equal([422, true]);
    else expect([a.status, a.message], label).to.deep.equal([status, message]);
  }
  // Nothing was written: the ConfigMap, the Deployment's replicas and the pod's node are as they were.
  expect(answered<{ kind: string; data?: unknown }>(await s('GET', `${NS}/configmaps/c`)).kind).to.equal('ConfigMap');
  expect(answered<{ spec: { replicas: number } }>(await s('GET', `${D}/d`)).spec.replicas).to.equal(1);
  expect(answered<{ spec: { nodeName?: string } }>(await s('GET', `${NS}/pods/p`)).spec.nodeName).to.equal(undefined);
}

describeOnBothServers('a body of another kind or version: the scheme\'s codec', run);
