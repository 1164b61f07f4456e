// The shirts operator is level-triggered: a shirt left marked Selected although it is no longer blue
// (its departure happened while another instance led, or before a restart, so this instance never saw
// it) is released when the operator starts. Found by the soak test after a leader change.
import { expect } from 'chai';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { customResourceDefinition } from '@kubekit/decorators';
import { KubeClient, loadKubeConfig, type KubeConfigLike, type ResourceClient } from '@kubekit/informer';
import { updateStatus } from '@kubekit/controller';
import { ManagedShirt } from '../src/managedShirt.js';
import { shirtsOperator, type ShirtObject } from '../src/operator.js';

describe('examples/shirts operator after a missed departure', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let kc: KubeConfigLike;
  let client: KubeClient;
  let shirts: ResourceClient<ShirtObject>;

  before(async () => {
    server = await startApiServer();
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    client = new KubeClient(kc);
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', customResourceDefinition(ManagedShirt));
    await server.idle();
    shirts = client.resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
  });
  after(async () => { client.close(); await server.close(); });

  it('releases a green shirt still marked Selected when it starts', async () => {
    for (let i = 0; i < 100; i++) {
      if (await shirts.list({ namespace: 'default' }).then(() => true, () => false)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await shirts.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name: 'stale' }, spec: { color: 'green', size: 'M' } });
    await updateStatus(shirts, 'default', 'stale', (s) => { s.status = { phase: 'Selected', observedGeneration: s.metadata.generation }; });
    const operator = shirtsOperator({ kubeConfig: kc });
    const ac = new AbortController();
    const run = operator.manager.start(ac.signal);
    try {
      const deadline = Date.now() + 15_000;
      while ((await shirts.get('stale', { namespace: 'default' })).status?.phase !== 'Released') {
        if (Date.now() > deadline) throw new Error('the stale shirt was not released');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await shirts.get('stale', { namespace: 'default' })).status?.phase).to.equal('Released');
    } finally {
      ac.abort();
      await run;
      operator.client.close();
    }
  });
});
