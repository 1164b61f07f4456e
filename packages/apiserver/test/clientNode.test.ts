// @kubernetes/client-node (1.4) against the embedded API server: its CustomObjectsApi lists with a field
// selector, and its own ListWatch informer with a field selector sees exactly the selected objects,
// including objects that move into and out of the selection; its CoreV1Api evicts a pod, which its
// PodDisruptionBudget protects once no disruption is left.
import { expect } from 'chai';
import { CoreV1Api, CustomObjectsApi, KubeConfig, ListWatch, PolicyV1Api, Watch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, shirtCRD, shirts, start, type Client } from './internal/client.js';

const group = 'stable.example.com';
const version = 'v1';
const plural = 'shirts';

function names(objects: readonly KubernetesObject[]): string[] {
  return objects.map((o) => o.metadata?.name ?? '').sort();
}

describe('startApiServer with @kubernetes/client-node', () => {
  let server: ApiServer;
  let client: Client;
  let api: CustomObjectsApi;
  let kc: KubeConfig;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, shirtCRD());
    kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    api = kc.makeApiClient(CustomObjectsApi);
    for (const s of shirts()) await api.createNamespacedCustomObject({ group, version, namespace: 'default', plural, body: s });
  });

  after(async () => {
    await server.close();
  });

  it('lists with a fieldSelector through CustomObjectsApi', async () => {
    const blue = await api.listNamespacedCustomObject({ group, version, namespace: 'default', plural, fieldSelector: 'spec.color=blue' }) as KubernetesListObject<KubernetesObject>;
    expect(names(blue.items)).to.deep.equal(['example1', 'example2']);
    const both = await api.listNamespacedCustomObject({ group, version, namespace: 'default', plural, fieldSelector: 'spec.color=green,spec.size=M' }) as KubernetesListObject<KubernetesObject>;
    expect(names(both.items)).to.deep.equal(['example3']);
  });

  it('rejects an unknown field label with the apiserver\'s 400', async () => {
    let caught: unknown;
    try {
      await api.listNamespacedCustomObject({ group, version, namespace: 'default', plural, fieldSelector: 'spec.colour=blue' });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.have.property('code', 400);
    expect(String((caught as { body?: unknown }).body)).to.contain('field label not supported: spec.colour');
  });

  it('feeds a ListWatch informer with exactly the selected objects', async () => {
    const path = `/apis/${group}/${version}/namespaces/default/${plural}`;
    const fieldSelector = 'spec.color=blue';
    const listFn = () => api.listNamespacedCustomObject({ group, version, namespace: 'default', plural, fieldSelector }) as Promise<KubernetesListObject<KubernetesObject>>;
    const informer = new ListWatch<KubernetesObject>(path, new Watch(kc), listFn, false, undefined, fieldSelector);
    const seen: string[] = [];
    const waiters: { want: string; resolve: () => void }[] = [];
    const record = (what: string) => (o: KubernetesObject) => {
      const line = `${what} ${o.metadata?.name ?? ''}`;
      seen.push(line);
      for (const w of waiters.filter((x) => x.want === line)) w.resolve();
    };
    const expectEvent = (want: string) => new Promise<void>((resolve, reject) => {
      if (seen.includes(want)) { resolve(); return; }
      const t = setTimeout(() => reject(new Error(`no "${want}" event; saw ${seen.join(', ')}`)), 5000);
      waiters.push({ want, resolve: () => { clearTimeout(t); resolve(); } });
    });
    informer.on('add', record('add'));
    informer.on('update', record('update'));
    informer.on('delete', record('delete'));
    await informer.start();
    try {
      expect(names(informer.list('default'))).to.deep.equal(['example1', 'example2']);
      await expectEvent('add example2');

      // example3 turns blue: it enters the selection (ADDED).
      await client.patch(`${path}/example3`, { spec: { color: 'blue' } });
      await expectEvent('add example3');
      // example1 turns red: it leaves the selection (DELETED with its previous state).
      await client.patch(`${path}/example1`, { spec: { color: 'red' } });
      await expectEvent('delete example1');
      // example2 changes size and stays blue (MODIFIED).
      await client.patch(`${path}/example2`, { spec: { size: 'L' } });
      await expectEvent('update example2');

      expect(names(informer.list('default'))).to.deep.equal(['example2', 'example3']);
      expect(informer.get('example2', 'default')).to.have.nested.property('spec.size', 'L');
      expect(seen.filter((s) => s.includes('example1'))).to.deep.equal(['add example1', 'delete example1']);
    } finally {
      await informer.stop();
    }
  });
  it('evicts pods through CoreV1Api, as their PodDisruptionBudget allows', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const policy = kc.makeApiClient(PolicyV1Api);
    for (const name of ['web-1', 'web-2']) {
      await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name, labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] } } });
      // What a kubelet would report.
      await client.patch(`/api/v1/namespaces/default/pods/${name}/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    }
    await policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } } });
    await client.patch('/apis/policy/v1/namespaces/default/poddisruptionbudgets/web/status', { status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 } });

    // (client-node reads the answer, a Status of success, as a V1Eviction: only its resolving is checked.)
    await core.createNamespacedPodEviction({ name: 'web-1', namespace: 'default', body: { metadata: { name: 'web-1', namespace: 'default' } } });
    const evicted = await core.readNamespacedPod({ name: 'web-1', namespace: 'default' });
    expect(evicted.metadata?.deletionGracePeriodSeconds).to.equal(30);
    expect(evicted.status?.conditions?.map((c) => c.type)).to.include('DisruptionTarget');

    const refused = await core.createNamespacedPodEviction({ name: 'web-2', namespace: 'default', body: { metadata: { name: 'web-2', namespace: 'default' } } }).then(() => undefined, (err: unknown) => err as { code?: number; body?: string });
    expect(refused?.code).to.equal(429);
    expect(JSON.parse(refused?.body ?? '{}')).to.nested.include({ 'details.causes[0].message': 'The disruption budget web needs 1 healthy pods and has 2 currently' });
    expect((await core.readNamespacedPod({ name: 'web-2', namespace: 'default' })).metadata?.deletionTimestamp).to.equal(undefined);
  });
});
