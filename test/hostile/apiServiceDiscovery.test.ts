// Discovery as kube-aggregator answers it, on both servers: legacy `/apis` is listed from the APIServices
// (kube-aggregator's apisHandler and helper.SortedByGroupAndVersion: apiregistration.k8s.io first, then by
// group priority and APIService name, versions by version priority and then kube-aware version), so a
// service-backed group is listed whether or not its service answers, a local APIService's group whether or
// not it is served, and a built-in group whose APIService was deleted is not; `/apis/<group>` answers an
// APIGroup for each of them (apiGroupHandler); aggregated discovery (the merged discovery handler) lists a
// service-backed group-version `Stale` without resources, orders groups by their highest priority and then
// name, and keeps a built-in group whose APIService was deleted. Every expectation is kube-apiserver
// 1.34.4's answer to the same requests; the group kubekit does not serve (flowcontrol.apiserver.k8s.io) is
// left out of the reference's lists.
import { expect } from 'chai';
import { answered, describeOnBothServers, eventually, type Answer, type Send } from './sender.js';

const A = '/apis/apiregistration.k8s.io/v1/apiservices';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const unserved = new Set(['flowcontrol.apiserver.k8s.io']);

interface GroupList { groups: { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion: { version: string } }[] }
interface AggregatedList { items: { metadata: { name: string }; versions: { version: string; freshness: string; resources?: unknown[] }[] }[] }

const apiService = (group: string, version: string, groupPriorityMinimum: number, versionPriority: number, service?: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `${version}.${group}` }, spec: { group, version, groupPriorityMinimum, versionPriority, ...(service === undefined ? {} : { insecureSkipTLSVerify: true, service }) } });
const crd = (group: string, versions: string[]): string => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `things.${group}` },
  spec: { group, scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions: versions.map((name, i) => ({ name, served: true, storage: i === 0, schema: { openAPIV3Schema: { type: 'object' } } })) },
});

/** Legacy `/apis` as `group[versions]` (the preferred version first), without the groups kubekit does not serve. */
const legacy = (a: Answer): string[] => (JSON.parse(a.text) as GroupList).groups.filter((g) => !unserved.has(g.name)).map((g) => {
  expect(g.preferredVersion.version).to.equal(g.versions[0].version);
  return `${g.name}[${g.versions.map((v) => v.version).join(',')}]`;
});
/** Aggregated `/apis` as `group[version:freshness:resources]`. */
const aggregated = (a: Answer): string[] => (JSON.parse(a.text) as AggregatedList).items.filter((g) => !unserved.has(g.metadata.name))
  .map((g) => `${g.metadata.name}[${g.versions.map((v) => `${v.version}:${v.freshness}:${v.resources === undefined ? '-' : v.resources.length}`).join(',')}]`);

const builtinLegacy = ['apiregistration.k8s.io[v1]', 'apps[v1]', 'events.k8s.io[v1]', 'authentication.k8s.io[v1]', 'authorization.k8s.io[v1]', 'autoscaling[v2,v1]', 'batch[v1]', 'certificates.k8s.io[v1]',
  'networking.k8s.io[v1]', 'policy[v1]', 'rbac.authorization.k8s.io[v1]', 'storage.k8s.io[v1]', 'admissionregistration.k8s.io[v1]', 'apiextensions.k8s.io[v1]', 'scheduling.k8s.io[v1]',
  'coordination.k8s.io[v1]', 'node.k8s.io[v1]', 'discovery.k8s.io[v1]', 'resource.k8s.io[v1]'];

async function run(s: Send): Promise<void> {
  // At start: kube-apiserver's priorities (apiregistration first, then apps 17800, events 17750, …).
  expect(legacy(await s('GET', '/apis'))).to.deep.equal(builtinLegacy);
  expect(aggregated(await s('GET', '/apis', undefined, undefined, AGGREGATED)).map((g) => g.replace(/\[.*/, ''))).to.deep.equal(builtinLegacy.map((g) => g.replace(/\[.*/, '')));

  // Service-backed group-versions (the service has no endpoints), a local one nobody serves, two CRD groups
  // whose legacy order follows their APIServices' names (v1.b… before v1.local… before v2.a…), not their
  // groups' names; a built-in APIService deleted.
  answered(await s('POST', '/api/v1/namespaces/default/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics' }, spec: { ports: [{ port: 443, targetPort: 8443 }] } })), 201);
  const svc = { namespace: 'default', name: 'metrics', port: 443 };
  answered(await s('POST', A, apiService('metrics.example.com', 'v1beta1', 100, 100, svc)), 201);
  answered(await s('POST', A, apiService('metrics.example.com', 'v1', 100, 200, svc)), 201);
  answered(await s('POST', A, apiService('metrics.example.com', 'v2', 100, 200, svc)), 201);
  answered(await s('POST', A, apiService('other.example.com', 'v1', 2000, 5, svc)), 201);
  answered(await s('POST', A, apiService('local.example.com', 'v1', 1000, 5)), 201);
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('a.example.org', ['v2'])), 201);
  answered(await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('b.example.org', ['v1beta1', 'v1', 'v3alpha1'])), 201);
  answered(await s('DELETE', `${A}/v1.node.k8s.io`));

  const expectedLegacy = [...builtinLegacy.filter((g) => g !== 'node.k8s.io[v1]'), 'other.example.com[v1]', 'b.example.org[v1,v1beta1,v3alpha1]', 'local.example.com[v1]', 'a.example.org[v2]', 'metrics.example.com[v2,v1,v1beta1]'];
  // The reference's aggregator reads APIServices and CRDs through informers: asked again until they are in.
  const apis = await eventually(() => s('GET', '/apis'), (a) => JSON.stringify(legacy(a)) === JSON.stringify(expectedLegacy));
  expect(legacy(apis)).to.deep.equal(expectedLegacy);
  const expectedAggregated = ['apiregistration.k8s.io[v1:Current:1]', 'apps[v1:Current:5]', 'events.k8s.io[v1:Current:1]', 'authentication.k8s.io[v1:Current:2]', 'authorization.k8s.io[v1:Current:4]',
    'autoscaling[v2:Current:1,v1:Current:1]', 'batch[v1:Current:2]', 'certificates.k8s.io[v1:Current:1]', 'networking.k8s.io[v1:Current:5]', 'policy[v1:Current:1]', 'rbac.authorization.k8s.io[v1:Current:4]',
    'storage.k8s.io[v1:Current:6]', 'admissionregistration.k8s.io[v1:Current:4]', 'apiextensions.k8s.io[v1:Current:1]', 'scheduling.k8s.io[v1:Current:1]', 'coordination.k8s.io[v1:Current:1]',
    'node.k8s.io[v1:Current:1]', 'discovery.k8s.io[v1:Current:1]', 'resource.k8s.io[v1:Current:4]', 'other.example.com[v1:Stale:-]', 'a.example.org[v2:Current:1]', 'b.example.org[v1:Current:1,v1beta1:Current:1,v3alpha1:Current:1]',
    'metrics.example.com[v2:Stale:-,v1:Stale:-,v1beta1:Stale:-]'];
  const agg = await eventually(() => s('GET', '/apis', undefined, undefined, AGGREGATED), (a) => JSON.stringify(aggregated(a)) === JSON.stringify(expectedAggregated));
  expect(aggregated(agg)).to.deep.equal(expectedAggregated);
  // A stale version is its version and freshness alone.
  expect((JSON.parse(agg.text) as AggregatedList).items.find((g) => g.metadata.name === 'other.example.com')).to.deep.equal({ metadata: { name: 'other.example.com' }, versions: [{ version: 'v1', freshness: 'Stale' }] });

  // /apis/<group>: every group an APIService names, and a served one whose APIService is gone; below a
  // service-backed group-version the aggregator's proxy cannot reach the service; nobody serves local.example.com/v1.
  expect(answered(await s('GET', '/apis/metrics.example.com'))).to.deep.equal({
    kind: 'APIGroup', apiVersion: 'v1', name: 'metrics.example.com',
    versions: [{ groupVersion: 'metrics.example.com/v2', version: 'v2' }, { groupVersion: 'metrics.example.com/v1', version: 'v1' }, { groupVersion: 'metrics.example.com/v1beta1', version: 'v1beta1' }],
    preferredVersion: { groupVersion: 'metrics.example.com/v2', version: 'v2' },
  });
  expect(answered(await s('GET', '/apis/local.example.com'))).to.deep.equal({ kind: 'APIGroup', apiVersion: 'v1', name: 'local.example.com', versions: [{ groupVersion: 'local.example.com/v1', version: 'v1' }], preferredVersion: { groupVersion: 'local.example.com/v1', version: 'v1' } });
  expect(answered(await s('GET', '/apis/node.k8s.io'))).to.deep.equal({ kind: 'APIGroup', apiVersion: 'v1', name: 'node.k8s.io', versions: [{ groupVersion: 'node.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'node.k8s.io/v1', version: 'v1' } });
  expect(answered<{ kind: string }>(await s('GET', '/apis/node.k8s.io/v1/runtimeclasses')).kind).to.equal('RuntimeClassList');
  for (const path of ['/apis/metrics.example.com/v1', '/apis/other.example.com/v1/things']) {
    const a = await s('GET', path);
    expect([a.status, a.text], path).to.deep.equal([503, 'service unavailable\n']);
  }
  for (const path of ['/apis/local.example.com/v1', '/apis/nobody.example.com']) {
    const a = await s('GET', path);
    expect([a.status, a.text], path).to.deep.equal([404, '404 page not found\n']);
  }

  // The service-backed APIServices deleted: their groups are gone from both lists.
  for (const name of ['v1beta1.metrics.example.com', 'v1.metrics.example.com', 'v2.metrics.example.com', 'v1.other.example.com']) answered(await s('DELETE', `${A}/${name}`));
  const gone = (list: string[]): boolean => !list.some((g) => g.startsWith('metrics.') || g.startsWith('other.'));
  expect(gone(legacy(await eventually(() => s('GET', '/apis'), (a) => gone(legacy(a)))))).to.equal(true);
  expect(gone(aggregated(await eventually(() => s('GET', '/apis', undefined, undefined, AGGREGATED), (a) => gone(aggregated(a)))))).to.equal(true);
  const nothing = await eventually(() => s('GET', '/apis/metrics.example.com'), (a) => a.status === 404);
  expect([nothing.status, nothing.text]).to.deep.equal([404, '404 page not found\n']);
}

describeOnBothServers('discovery of APIServices: legacy and aggregated /apis as kube-aggregator lists them, kubekit and the real kube-apiserver', run);
