// Permanent errors are permanent: a list the server rejects with 400/403/404 fails waitForSync with the
// server's message after `permanentErrorAttempts` attempts, and the informer keeps retrying so that a
// CRD change brings it in sync. Against the embedded API server over real HTTP. The 400 text is the
// apiserver's for a field that is not a selectable field of the CRD (customresource_handler.go,
// "field label not supported: %s"), as in integration/015 of fieldselector_test.go.
import { expect } from 'chai';
import { noopLogger, type KubeObject } from '@kubekit/core';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { Informer } from '../src/informer.js';
import { loadKubeConfig, type KubeConfigLike } from '../src/kubeConfig.js';
import { Kube } from './helpers/kube.js';
import { until } from './helpers/until.js';

type Crd = KubeObject & { spec: { group: string; scope: string; versions: ({ name: string; selectableFields?: { jsonPath: string }[] } & Record<string, unknown>)[]; names: { plural: string; singular: string; kind: string } } };

describe('Informer permanent errors', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let kube: Kube;
  let kc: KubeConfigLike;
  const stop = new AbortController();
  const runs: Promise<void>[] = [];
  const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shirts.stable.example.com';
  const crd: Crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
      versions: [{
        name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: '.spec.color' }],
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, version: { type: 'string' } } } } } },
      }],
    },
  };
  const fast = { backoff: { initialMs: 20, maxMs: 100 }, logger: noopLogger, streamingList: 'never' as const };

  before(async () => {
    server = await startApiServer({ bookmarkIntervalMs: 50 });
    kube = new Kube(server.url);
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    await kube.createCRD(server, crd);
    await kube.ok('POST', '/apis/stable.example.com/v1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'a' }, spec: { color: 'blue', version: 'v2' } });
  });

  after(async () => {
    stop.abort();
    await Promise.all(runs);
    await server.close();
  });

  it('does fail waitForSync with the server\'s 400 after three attempts, report it in status, and sync once the CRD makes the field selectable', async () => {
    const informer = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector: 'spec.version=v2', ...fast });
    const errors: Error[] = [];
    informer.on('error', (e) => errors.push(e));
    runs.push(informer.start(stop.signal));
    const err = await informer.waitForSync().then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.equal('field label not supported: spec.version');
    expect(err).to.have.property('code', 400);
    expect(errors).to.have.length(3);
    expect(informer.status.permanentError).to.equal(err);
    expect(informer.hasSynced()).to.equal(false);
    // Asked again, it fails at once with the same error.
    expect(await informer.waitForSync().then(() => undefined, (e: unknown) => e)).to.equal(err);
    // The CRD changes: the informer, still retrying, syncs with server-side selection.
    const current = await kube.ok<Crd>('GET', crdPath);
    current.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.version' }];
    await kube.ok('PUT', crdPath, current);
    await informer.waitForSync().catch(async () => { await until(() => informer.hasSynced(), 'sync after the CRD change', 15_000); });
    await until(() => informer.hasSynced(), 'sync after the CRD change', 15_000);
    expect(informer.status.permanentError).to.equal(undefined);
    expect(informer.status.selection).to.equal('server');
    expect(informer.list().map((o) => o.metadata.name)).to.deep.equal(['a']);
    // Undo, for the next cases.
    const again = await kube.ok<Crd>('GET', crdPath);
    again.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }];
    await kube.ok('PUT', crdPath, again);
    await server.idle();
  });

  it('does fail waitForSync in clientSideSelection fallback mode when the field cannot be selected here either, with one error per attempt', async () => {
    const lines: string[] = [];
    const logger = { error: (m: string) => lines.push(`error ${m}`), warn: (m: string) => lines.push(`warn ${m}`), info() {}, debug() {}, child() { return logger; } };
    const informer = new Informer(kc, {
      apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector: 'spec.size=M', clientSideSelection: 'fallback', ...fast, logger,
    });
    const errors: string[] = [];
    informer.on('error', (e) => errors.push(e.message));
    runs.push(informer.start(stop.signal));
    const err = await informer.waitForSync().then(() => undefined, (e: unknown) => e);
    expect((err as Error).message).to.equal('field label not supported: spec.size');
    expect(err).to.have.property('code', 400);
    const attempts = (): number => lines.filter((l) => l.startsWith('warn list failed')).length;
    await until(() => attempts() >= 6, 'six attempts', 10_000);
    // The client-side fallback was tried once (the CRD does not declare spec.size selectable), not once per attempt.
    expect(lines.filter((l) => l.startsWith('error cannot select client-side'))).to.deep.equal(['error cannot select client-side: field label not supported: spec.size']);
    expect(errors.length).to.equal(attempts() + 1);
    expect(informer.status.selection).to.equal('server');
    expect(informer.status.permanentError).to.equal(err);
  });

  it('does fail waitForSync with the server\'s 404 for a resource it does not serve', async () => {
    const informer = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'trousers', namespace: 'default', ...fast });
    runs.push(informer.start(stop.signal));
    const err = await informer.waitForSync().then(() => undefined, (e: unknown) => e);
    expect(err).to.have.property('code', 404);
    expect(informer.status.permanentError).to.equal(err);
  });
});
