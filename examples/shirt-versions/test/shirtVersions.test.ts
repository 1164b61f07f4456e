// KEP-4358's conformance scenario end to end (apiextensions-apiserver test/integration/
// fieldselector_test.go, TestFieldSelector with its conversion webhook): a Shirt with v1 (spec.color
// selectable) and v1beta1 (spec.hue selectable), converted by a kubekit webhook. Field-selected lists
// and watches on either version return the same shirts; a shirt that changes colour leaves both
// selections. Runs against the embedded API server, and against the reference kube-apiserver
// (@kubekit/envtest) when Go is on PATH (the webhook listens on https://127.0.0.1 with its generated CA).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startApiServer } from '@kubekit/apiserver';
import { runCli } from '@kubekit/cli';
import { KubeError, type KubeObject } from '@kubekit/core';
import { customResourceDefinitions } from '@kubekit/decorators';
import { startReferenceApiServer } from '@kubekit/envtest';
import { Informer, KubeClient, loadKubeConfig, type KubeConfigLike } from '@kubekit/informer';
import { webhookConfigurations, type RunningWebhookServer } from '@kubekit/webhook';
import { ShirtV1, ShirtV1beta1 } from '../src/shirt.js';
import { startShirtWebhook } from '../src/webhook.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Backend { kubeconfig: string; close(): Promise<unknown> }

const backends: { name: string; start: () => Promise<Backend>; timeoutMs: number }[] = [{ name: 'the embedded API server', start: () => startApiServer(), timeoutMs: 120_000 }];
// The reference kube-apiserver when Go can build it (as examples/shirts does); it calls the webhook at
// https://127.0.0.1 with the webhook's generated CA as caBundle.
if (spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version']).status === 0 && process.env.KUBEKIT_BACKENDS !== 'embedded') {
  backends.push({ name: 'the reference kube-apiserver (@kubekit/envtest)', start: () => startReferenceApiServer(), timeoutMs: 30 * 60_000 });
}

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const names = (objects: readonly KubeObject[]): string[] => objects.map((o) => o.metadata.name ?? '').sort();

describe('examples/shirt-versions', function () {
  this.timeout(120_000);

  it('has its generated CRD committed and up to date (kubekit crd generate --check, with the service reference)', async () => {
    let stderr = '';
    const code = await runCli(['crd', 'generate', 'examples/shirt-versions/src/shirt.ts', '--out', 'examples/shirt-versions/crd', '--conversion-webhook-service', 'shirts/shirts-webhook:9443', '--check'], {
      cwd: root, env: {}, stdout: { write: () => undefined }, stderr: { write: (t: string) => { stderr += t; } }, readStdin: () => Promise.resolve(''),
    });
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
  });

  for (const backend of backends) {
    describe(`against ${backend.name}`, function () {
      this.timeout(backend.timeoutMs);
      let server: Backend | undefined;
      let webhook: RunningWebhookServer;
      let kc: KubeConfigLike;
      let client: KubeClient;
      const stop = new AbortController();
      const v1 = { apiVersion: 'versions.example.com/v1', plural: 'shirts' };
      const v1beta1 = { apiVersion: 'versions.example.com/v1beta1', plural: 'shirts' };

      before(async () => {
        server = await backend.start();
        webhook = await startShirtWebhook();
        kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
        client = new KubeClient(kc);
        const [crd] = customResourceDefinitions([ShirtV1, ShirtV1beta1], { conversionWebhook: { url: `${webhook.url}/convert`, caBundle: webhook.caBundle } });
        await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
        await until('the CRD to be established', async () => {
          const got = (await client.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`)) as { status?: { conditions?: { type: string; status: string }[] } };
          return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
        });
        // Validation for v1 only: matchPolicy Equivalent sends v1beta1 requests converted to v1.
        const [validating] = webhookConfigurations({
          name: 'shirts.versions.example.com', clientConfig: { url: webhook.url, caBundle: webhook.caBundle }, mutatePath: false,
          rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['versions.example.com'], apiVersions: ['v1'], resources: ['shirts'] }],
        });
        await client.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', validating);
        const shirts = client.resource(v1);
        const betaShirts = client.resource(v1beta1);
        await shirts.create({ apiVersion: v1.apiVersion, kind: 'Shirt', metadata: { name: 'shirt1', namespace: 'default' }, spec: { color: 'blue', size: 'S' } });
        await betaShirts.create({ apiVersion: v1beta1.apiVersion, kind: 'Shirt', metadata: { name: 'shirt2', namespace: 'default' }, spec: { hue: 'blue', size: 'M' } });
        await shirts.create({ apiVersion: v1.apiVersion, kind: 'Shirt', metadata: { name: 'shirt3', namespace: 'default' }, spec: { color: 'green', size: 'L' } });
      });

      after(async () => {
        stop.abort();
        if (server === undefined) return;
        client.close();
        await webhook.close();
        await server.close();
      });

      it('stores a shirt created in v1beta1 as v1, with the colour under spec.color', async () => {
        const stored = await client.resource(v1).get('shirt2', { namespace: 'default' });
        expect(stored.spec).to.deep.equal({ color: 'blue', size: 'M' });
        const beta = await client.resource(v1beta1).get('shirt1', { namespace: 'default' });
        expect(beta).to.deep.include({ apiVersion: 'versions.example.com/v1beta1', kind: 'Shirt' });
        expect(beta.spec).to.deep.equal({ hue: 'blue', size: 'S' });
      });

      it('lists the same shirts with spec.color=blue on v1 and spec.hue=blue on v1beta1', async () => {
        const blue = await client.resource(v1).list({ fieldSelector: 'spec.color=blue' });
        const hueBlue = await client.resource(v1beta1).list({ fieldSelector: 'spec.hue=blue' });
        expect(names(blue.items)).to.deep.equal(['shirt1', 'shirt2']);
        expect(names(hueBlue.items)).to.deep.equal(['shirt1', 'shirt2']);
        expect(hueBlue.items.map((s) => s.apiVersion)).to.deep.equal(['versions.example.com/v1beta1', 'versions.example.com/v1beta1']);
        expect(names((await client.resource(v1beta1).list({ fieldSelector: 'spec.hue=green' })).items)).to.deep.equal(['shirt3']);
      });

      it('refuses the other version\'s field label, as the apiserver does', async () => {
        const err = await client.resource(v1).list({ fieldSelector: 'spec.hue=blue' }).then(() => undefined, (e: unknown) => e);
        expect(err).to.be.instanceOf(KubeError);
        expect((err as KubeError).message).to.equal('field label not supported: spec.hue');
      });

      it('watches both versions: a shirt that changes colour leaves both selections, one that turns blue enters both', async () => {
        const informers = [new Informer(kc, { ...v1, fieldSelector: 'spec.color=blue' }), new Informer(kc, { ...v1beta1, fieldSelector: 'spec.hue=blue' })];
        const seen: string[][] = [[], []];
        informers.forEach((informer, i) => {
          informer.on('add', (s) => seen[i].push(`add ${s.metadata.name} ${String(s.apiVersion)}`));
          informer.on('delete', (s, { reason }) => seen[i].push(`delete ${s.metadata.name} ${reason}`));
          void informer.start(stop.signal);
        });
        await Promise.all(informers.map((i) => i.waitForSync()));
        expect(informers.map((i) => names(i.list()))).to.deep.equal([['shirt1', 'shirt2'], ['shirt1', 'shirt2']]);
        seen.forEach((s) => s.splice(0));
        await client.resource(v1).patch('shirt2', { spec: { color: 'red' } }, { namespace: 'default', type: 'merge' });
        await client.resource(v1beta1).patch('shirt3', { spec: { hue: 'blue' } }, { namespace: 'default', type: 'merge' });
        await until('both informers to see the changes', () => informers.every((i) => names(i.list()).join() === 'shirt1,shirt3') || undefined);
        await until('both informers to report the departure and the arrival', () => seen.every((s) => s.length >= 2) || undefined);
        expect(seen[0]).to.deep.equal(['delete shirt2 leftSelection', 'add shirt3 versions.example.com/v1']);
        expect(seen[1]).to.deep.equal(['delete shirt2 leftSelection', 'add shirt3 versions.example.com/v1beta1']);
      });

      it('validates v1beta1 writes with the v1 validating webhook (matchPolicy Equivalent)', async () => {
        const err = await client.resource(v1beta1).create({ apiVersion: v1beta1.apiVersion, kind: 'Shirt', metadata: { name: 'big', namespace: 'default' }, spec: { hue: 'red', size: 'XXL' } })
          .then(() => undefined, (e: unknown) => e);
        expect(err).to.be.instanceOf(KubeError);
        expect((err as KubeError).code).to.equal(422);
        expect((err as KubeError).message).to.equal('admission webhook "validate.shirts.versions.example.com" denied the request: size XXL is not sold (shirt big)');
      });

      it('converted through the kubekit webhook, as its metrics show', async () => {
        const metrics = await webhook.server.metrics.registry.getSingleMetricAsString('kubekit_webhook_reviews_total');
        expect(metrics).to.match(/kubekit_webhook_reviews_total\{webhook="\/convert",result="converted"\} [1-9]/);
        expect(metrics).to.match(/kubekit_webhook_reviews_total\{webhook="\/validate",result="denied"\} 1/);
      });
    });
  }
});
