// The CronTab operator against the embedded API server: defaults from the CRD, job records that follow
// spec.replicas (also through the scale subresource), status, and cleanup through a finalizer.
import { expect } from 'chai';
import { customResourceDefinition } from '@kubekit/decorators';
import { KubeClient, loadKubeConfig, type KubeConfigLike, type ResourceClient } from '@kubekit/informer';
import { CronTab } from '../src/crontab.js';
import { cronTabFinalizer, cronTabOperator, type CronTabObject } from '../src/operator.js';
import { testBackends, type TestServer } from '../../../packages/informer/test/helpers/backends.js';

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const backend of testBackends()) describe(`examples/crontab operator (${backend.name} API server)`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 60_000);
  let server: TestServer;
  let kc: KubeConfigLike;
  let client: KubeClient;
  let cronTabs: ResourceClient<CronTabObject>;

  before(async () => {
    server = await backend.start();
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    client = new KubeClient(kc);
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', customResourceDefinition(CronTab));
    cronTabs = client.resource<CronTabObject>({ apiVersion: 'stable.example.com/v1', plural: 'crontabs' });
    // A real apiserver serves a new CRD's resource a moment after accepting it.
    await until('crontabs served', () => client.request('GET', '/apis/stable.example.com/v1/crontabs').then(() => true, () => false));
  });
  after(async () => { client.close(); await server.close(); });

  it('keeps spec.replicas job records, scales through the scale subresource, and cleans up through its finalizer', async () => {
    const operator = cronTabOperator({ kubeConfig: kc });
    const ac = new AbortController();
    const run = operator.manager.start(ac.signal);
    const jobs = async (): Promise<string[]> => ((await client.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=crontab%3Dmy-new-cron-object') as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name));
    try {
      const created = await cronTabs.create({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { namespace: 'default', name: 'my-new-cron-object' }, spec: { image: 'my-awesome-cron-image' } });
      expect(created.spec).to.deep.equal({ cronSpec: '5 0 * * *', image: 'my-awesome-cron-image', replicas: 1 });
      await until('one job record and the finalizer', async () => (await jobs()).length === 1 &&
        ((await cronTabs.get('my-new-cron-object', { namespace: 'default' })).metadata.finalizers ?? []).includes(cronTabFinalizer));
      await until('status.replicas 1', async () => (await cronTabs.get('my-new-cron-object', { namespace: 'default' })).status?.replicas === 1);

      const scalePath = '/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object/scale';
      const scale = await client.request('GET', scalePath) as { spec: { replicas: number }; status: { replicas: number; selector: string } };
      expect(scale.status).to.deep.equal({ replicas: 1, selector: 'crontab=my-new-cron-object' });
      await client.request('PATCH', scalePath, { spec: { replicas: 3 } }, { contentType: 'application/merge-patch+json' });
      await until('three job records', async () => (await jobs()).length === 3);
      await until('status.replicas 3 through /scale', async () => ((await client.request('GET', scalePath)) as typeof scale).status.replicas === 3);

      const owned = await client.request('GET', '/api/v1/namespaces/default/configmaps?labelSelector=crontab%3Dmy-new-cron-object') as { items: { metadata: { ownerReferences: { kind: string; name: string; controller: boolean }[] } }[] };
      expect(owned.items.every((i) => i.metadata.ownerReferences[0].kind === 'CronTab' && i.metadata.ownerReferences[0].controller)).to.equal(true);

      await cronTabs.delete('my-new-cron-object', { namespace: 'default' });
      await until('the CronTab to go after its finalizer ran', async () => (await cronTabs.tryGet('my-new-cron-object', { namespace: 'default' })) === undefined);
      expect(await jobs()).to.deep.equal([]);
    } finally {
      ac.abort();
      await run;
      operator.client.close();
    }
  });

  it('is refused by the server when the spec breaks the CRD\'s validation', async () => {
    let error: unknown;
    try {
      await cronTabs.create({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { namespace: 'default', name: 'bad' }, spec: { cronSpec: '* * * *', replicas: 15 } });
    } catch (err) { error = err; }
    // The real apiserver lists schema errors in Go map order (it varies), so the two are checked as a set.
    const cron = 'spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'';
    const replicas = 'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10';
    expect([
      `CronTab.stable.example.com "bad" is invalid: [${cron}, ${replicas}]`,
      `CronTab.stable.example.com "bad" is invalid: [${replicas}, ${cron}]`,
    ]).to.include((error as Error).message);
  });
});
