import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { createCRD, start, yamlFixture, type Client } from './internal/client.js';

const v2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('serveDiscovery', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, yamlFixture('crontab-crd.yaml')[0]);
  });

  after(async () => {
    await server.close();
  });

  it('lists the core group\'s resources with their subresources', async () => {
    const r = await client.get('/api/v1');
    expect(r.body).to.include({ kind: 'APIResourceList', groupVersion: 'v1' });
    const byName = new Map((r.body.resources as { name: string }[]).map((x) => [x.name, x]));
    expect(byName.get('configmaps')).to.deep.include({ singularName: 'configmap', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'] });
    expect(byName.get('pods/status')).to.deep.include({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('namespaces')).to.deep.include({ namespaced: false, shortNames: ['ns'] });
    // kube-apiserver 1.34.4's entries (nodes/proxy, not served here, is left out).
    expect(byName.get('nodes')).to.deep.equal({ name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['no'], storageVersionHash: 'XwShjMxG9Fs=' });
    expect(byName.get('nodes/status')).to.deep.equal({ name: 'nodes/status', singularName: '', namespaced: false, kind: 'Node', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('endpoints')).to.deep.equal({ name: 'endpoints', singularName: 'endpoints', namespaced: true, kind: 'Endpoints', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ep'], storageVersionHash: 'fWeeMqaN/OA=' });
    // kube-apiserver 1.34.4's entries.
    expect(byName.get('resourcequotas')).to.deep.equal({ name: 'resourcequotas', singularName: 'resourcequota', namespaced: true, kind: 'ResourceQuota', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['quota'], storageVersionHash: '8uhSgffRX6w=' });
    expect(byName.get('resourcequotas/status')).to.deep.equal({ name: 'resourcequotas/status', singularName: '', namespaced: true, kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('limitranges')).to.deep.equal({ name: 'limitranges', singularName: 'limitrange', namespaced: true, kind: 'LimitRange', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['limits'], storageVersionHash: 'EBKMFVe6cwo=' });
  });

  it('lists groups with preferred versions in kube-aggregator\'s order: apiregistration first, then by APIService priority (custom resources 1000)', async () => {
    const r = await client.get('/apis');
    expect(r.body.kind).to.equal('APIGroupList');
    const groups = (r.body.groups as { name: string; preferredVersion: { groupVersion: string } }[]);
    expect(groups.map((g) => g.name)).to.deep.equal(['apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch', 'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io', 'resource.k8s.io', 'flowcontrol.apiserver.k8s.io', 'stable.example.com']);
    expect(groups.find((g) => g.name === 'stable.example.com')?.preferredVersion).to.deep.equal({ groupVersion: 'stable.example.com/v1', version: 'v1' });
    // kube-apiserver 1.34.4 serves autoscaling in two versions and prefers v2, its storage version.
    expect(groups[5]).to.deep.equal({ name: 'autoscaling', versions: [{ groupVersion: 'autoscaling/v2', version: 'v2' }, { groupVersion: 'autoscaling/v1', version: 'v1' }], preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' } });
    const group = await client.get('/apis/stable.example.com');
    expect(group.body).to.deep.include({ kind: 'APIGroup', name: 'stable.example.com' });
    expect(group.body.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v1', 'v1beta1']);
  });

  it('lists a custom resource with short names, categories and its status and scale subresources', async () => {
    const r = await client.get('/apis/stable.example.com/v1');
    const resources = r.body.resources as Record<string, unknown>[];
    expect(resources.map((x) => x.name)).to.deep.equal(['crontabs', 'crontabs/status', 'crontabs/scale']);
    expect(resources[0]).to.deep.include({ singularName: 'crontab', namespaced: true, kind: 'CronTab', shortNames: ['ct'], categories: ['all'] });
    expect(resources[2]).to.deep.include({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });

  it('lists scheduling.k8s.io/v1 PriorityClasses, cluster-scoped, with the pc short name', async () => {
    const r = await client.get('/apis/scheduling.k8s.io/v1');
    expect(r.body.resources).to.deep.equal([{ name: 'priorityclasses', singularName: 'priorityclass', namespaced: false, kind: 'PriorityClass', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['pc'], storageVersionHash: '1QwjyaZjj3Y=' }]);
  });

  it('lists events.k8s.io/v1 Events, with the storage version hash of the core/v1 Events they are stored as', async () => {
    const r = await client.get('/apis/events.k8s.io/v1');
    expect(r.body.resources).to.deep.equal([{ name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ev'], storageVersionHash: 'r2yiGXH7wu8=' }]);
  });

  it('lists discovery.k8s.io/v1 EndpointSlices, namespaced, without short names', async () => {
    const r = await client.get('/apis/discovery.k8s.io/v1');
    // kube-apiserver 1.34.4's answer.
    expect(r.body.resources).to.deep.equal([{ name: 'endpointslices', singularName: 'endpointslice', namespaced: true, kind: 'EndpointSlice', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'qgS0xkrxYAI=' }]);
  });

  it('gives CRDs the crd and crds short names', async () => {
    const r = await client.get('/apis/apiextensions.k8s.io/v1');
    expect(r.body.resources[0]).to.deep.include({ name: 'customresourcedefinitions', shortNames: ['crd', 'crds'] });
  });

  it('serves aggregated discovery v2 when asked, with its media type', async () => {
    const r = await client.get('/apis', { Accept: `${v2},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json` });
    expect(r.headers.get('content-type')).to.equal(v2);
    expect(r.body).to.include({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    const stable = (r.body.items as { metadata: { name: string }; versions: { version: string; resources: Record<string, unknown>[]; freshness: string }[] }[])
      .find((g) => g.metadata.name === 'stable.example.com')!;
    expect(stable.versions.map((v) => v.version)).to.deep.equal(['v1', 'v1beta1']);
    expect(stable.versions[0].freshness).to.equal('Current');
    expect(stable.versions[0].resources[0]).to.deep.include({
      resource: 'crontabs', responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }, scope: 'Namespaced',
      singularResource: 'crontab', shortNames: ['ct'], categories: ['all'],
    });
    expect(stable.versions[0].resources[0].subresources).to.deep.equal([
      { subresource: 'status', responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
    ]);
    const core = await client.get('/api', { Accept: v2 });
    expect(core.body.items).to.have.length(1);
    expect(core.body.items[0].versions[0].version).to.equal('v1');
  });

  it('falls back to the legacy form for clients that do not ask for aggregation', async () => {
    const r = await client.get('/api', { Accept: 'application/json' });
    expect(r.body).to.include({ kind: 'APIVersions' });
    expect(r.body.versions).to.deep.equal(['v1']);
  });

  it('drops a CRD\'s resources when it is deleted', async () => {
    const crd = yamlFixture('shirt-resource-definition.yaml')[0];
    await createCRD(server, client, crd);
    expect((await client.get('/apis/stable.example.com/v1')).body.resources.map((x: { name: string }) => x.name)).to.include('shirts');
    expect((await client.delete('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shirts.stable.example.com')).status).to.equal(200);
    await server.idle();
    expect((await client.get('/apis/stable.example.com/v1')).body.resources.map((x: { name: string }) => x.name)).to.not.include('shirts');
    expect((await client.get('/apis/stable.example.com/v1/namespaces/default/shirts')).status).to.equal(404);
  });
});

describe('serveOpenAPI', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, yamlFixture('shirt-resource-definition.yaml')[0]);
  });

  after(async () => {
    await server.close();
  });

  it('indexes the group-version documents with their hashes', async () => {
    const r = await client.get('/openapi/v3');
    expect(Object.keys(r.body.paths)).to.include.members(['api/v1', 'apis/apiextensions.k8s.io/v1', 'apis/stable.example.com/v1']);
    const url = r.body.paths['apis/stable.example.com/v1'].serverRelativeURL as string;
    expect(url).to.match(/^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await client.get(url);
    expect(doc.status).to.equal(200);
    expect(doc.headers.get('cache-control')).to.equal('public, immutable');
  });

  it('redirects a stale hash to the current one', async () => {
    const res = await fetch(`${server.url}/openapi/v3/apis/stable.example.com/v1?hash=STALE`, { redirect: 'manual' });
    expect(res.status).to.equal(301);
    expect(res.headers.get('location')).to.match(/^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=[0-9A-F]{128}$/);
  });

  it('publishes the autoscaling/v1 Scale schemas only in group-versions with a scale subresource', async () => {
    const crontabs = yamlFixture('crontab-crd.yaml')[0] as KubeObject & { spec: { group: string } };
    crontabs.metadata.name = 'crontabs.scaled.example.com';
    crontabs.spec.group = 'scaled.example.com';
    await createCRD(server, client, crontabs);
    const has = async (gv: string): Promise<boolean> => {
      const doc = (await client.get(`/openapi/v3/${gv}`)).body as { components: { schemas: Record<string, unknown> } };
      return Object.hasOwn(doc.components.schemas, 'io.k8s.api.autoscaling.v1.Scale');
    };
    const got = { crontabs: await has('apis/scaled.example.com/v1'), shirts: await has('apis/stable.example.com/v1'), apps: await has('apis/apps/v1'), core: await has('api/v1'), rbac: await has('apis/rbac.authorization.k8s.io/v1') };
    // core/v1 has one since ReplicationControllers (kube-apiserver 1.34.4's /openapi/v3/api/v1 publishes it).
    expect(got).to.deep.equal({ crontabs: true, shirts: false, apps: true, core: true, rbac: false });
  });

  it('publishes a PATCH operation with the GVK and the fieldValidation parameter (what kubectl apply looks for)', async () => {
    for (const gv of ['apis/stable.example.com/v1', 'apis/apiextensions.k8s.io/v1', 'api/v1']) {
      const doc = (await client.get(`/openapi/v3/${gv}`)).body as { paths: Record<string, { patch?: { parameters: { name: string; in: string }[]; 'x-kubernetes-group-version-kind': unknown } }> };
      const patches = Object.values(doc.paths).filter((p) => p.patch !== undefined).map((p) => p.patch!);
      expect(patches.length, gv).to.be.greaterThan(0);
      for (const p of patches) {
        expect(p['x-kubernetes-group-version-kind'], gv).to.be.an('object');
        expect(p.parameters.some((x) => x.name === 'fieldValidation' && x.in === 'query'), gv).to.equal(true);
      }
    }
  });
});
