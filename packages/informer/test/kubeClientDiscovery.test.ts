// Regression for issue #16: KubeClient.resource() assumed every resource namespaced, so creating a CRD (or
// a Namespace) through it was a bare 404 unless `namespaced: false` was passed. The scope now comes from
// the discovery document, as kubectl's RESTMapper reads it.
import { expect } from 'chai';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { KubeError, type KubeObject } from '@kubekit/core';
import { KubeClient, loadKubeConfig } from '@kubekit/informer';

const widgetCRD = (scope: 'Namespaced' | 'Cluster'): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope, names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
} as KubeObject);

describe('KubeClient scope discovery', () => {
  let server: ApiServer;
  let client: KubeClient;

  before(async () => {
    server = await startApiServer();
    client = new KubeClient(await loadKubeConfig({ kind: 'string', text: server.kubeconfig }));
  });
  after(async () => { client.close(); await server.close(); });

  it('creates and reads cluster-scoped objects without being told their scope', async () => {
    const crds = client.resource({ apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' });
    const created = await crds.create(widgetCRD('Cluster'));
    expect(created.metadata.name).to.equal('widgets.example.com');
    expect(created.metadata.namespace).to.equal(undefined);
    expect((await crds.get('widgets.example.com')).metadata.uid).to.equal(created.metadata.uid);
    const namespaces = client.resource({ apiVersion: 'v1', plural: 'namespaces' });
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    expect((await namespaces.list()).items.map((n) => n.metadata.name)).to.include('team-a');
    expect(await namespaces.namespaced()).to.equal(false);
  });

  it('reads discovery again for a resource its cached document does not list yet (a CRD created since)', async () => {
    const configMaps = client.resource({ apiVersion: 'v1', plural: 'configmaps' });
    expect(await configMaps.namespaced()).to.equal(true);
    await configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } as KubeObject);
    expect((await configMaps.get('c', { namespace: 'default' })).metadata.namespace).to.equal('default');
    // example.com/v1 is discovered (and cached) with widgets only; gadgets arrive later.
    const widgets = client.resource({ apiVersion: 'example.com/v1', plural: 'widgets' });
    expect(await widgets.namespaced()).to.equal(false);
    const crds = client.resource({ apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions' });
    const gadgets = widgetCRD('Namespaced') as KubeObject & { spec: { names: Record<string, string> } };
    gadgets.metadata.name = 'gadgets.example.com';
    gadgets.spec.names = { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' };
    await crds.create(gadgets);
    await server.idle();
    const g = await client.resource({ apiVersion: 'example.com/v1', plural: 'gadgets' }).create({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } });
    expect(g.metadata.namespace).to.equal('default');
    const w = await widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
    expect(w.metadata.namespace).to.equal(undefined);
  });

  it('says the server does not have a resource it does not serve, instead of a bare 404', async () => {
    const err = await client.resource({ apiVersion: 'example.com/v1', plural: 'sprockets' }).list().then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).reason).to.equal('NotFound');
    expect((err as KubeError).message).to.equal('the server doesn\'t have a resource type "sprockets" in example.com/v1');
    const missingGroup = await client.isNamespaced('nothing.example.com/v1', 'things').then(() => undefined, (e: unknown) => e);
    expect((missingGroup as KubeError).message).to.equal('the server doesn\'t have a resource type "things" in nothing.example.com/v1');
  });

  it('keeps an explicit namespaced option without asking the server', async () => {
    expect(await client.resource({ apiVersion: 'nothing.example.com/v1', plural: 'things', namespaced: false }).namespaced()).to.equal(false);
  });

  it('does not fail a caller because another caller waiting for the same discovery gave up', async () => {
    const fresh = new KubeClient(await loadKubeConfig({ kind: 'string', text: server.kubeconfig }));
    try {
      const impatient = new AbortController();
      const first = fresh.isNamespaced('v1', 'configmaps', impatient.signal);
      const second = fresh.isNamespaced('v1', 'configmaps');
      const reason = new Error('gave up');
      impatient.abort(reason);
      expect(await first.then(() => undefined, (e: unknown) => e)).to.equal(reason);
      expect(await second).to.equal(true);
      expect(await fresh.isNamespaced('v1', 'configmaps')).to.equal(true);
    } finally {
      fresh.close();
    }
  });
});
