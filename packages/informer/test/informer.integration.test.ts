// The KEP-4358 integration scenario, through informers, against the embedded API server over real
// HTTP, and against the real kube-apiserver (@kubekit/envtest, when Go is on PATH): a CRD with two versions whose selectable field moves between them (v1 `spec.color`, v1beta1
// `spec.hue`, converted by a webhook); single and combined field selectors, with label selectors;
// objects created, deleted and moved out of (and into) the selection. Cases from
// staging/src/k8s.io/apiextensions-apiserver/test/integration/fieldselector_test.go TestSelectableFields
// (fixtures/selectable-fields-integration.json).
import { expect } from 'chai';
import { setMaxListeners } from 'node:events';
import { KubeError, noopLogger, type KubeObject } from '@kubekit/core';
import { selectorMatcher, createCustomResourceFields } from '@kubekit/attrs';
import { Informer } from '../src/informer.js';
import { loadKubeConfig, type KubeConfigLike } from '../src/kubeConfig.js';
import { SharedInformerFactory } from '../src/sharedInformerFactory.js';
import { EventLog } from './helpers/eventLog.js';
import { testBackends, type TestServer } from './helpers/backends.js';
import { Kube, fixture, startConversionWebhook } from './helpers/kube.js';
import { until, untilAsync } from './helpers/until.js';

interface Case {
  id: string;
  name: string;
  apiVersion: string;
  fieldSelector: string;
  labelSelector?: string;
  expected: { list: { names?: string[]; error?: string }; watch: { ADDED?: string[]; DELETED?: string[]; error?: string } };
}

type Crd = KubeObject & { spec: { group: string; scope: string; versions: { name: string; selectableFields?: { jsonPath: string }[] }[]; names: { plural: string }; conversion?: unknown } };

const vectors = fixture<{ crdFixture: Crd; instances: KubeObject[]; cases: Case[] }>('selectable-fields-integration.json');
const labels: Record<string, Record<string, string>> = { shirt1: { tier: 'gold' }, shirt2: { tier: 'gold' }, shirt3: { tier: 'silver' } };

// The upstream cases (the gate-disabled one is run against a server with the gate off, below), plus
// field selectors combined with label selectors.
const cases: Case[] = [
  ...vectors.cases.filter((c) => c.id !== 'integration/015'),
  { id: 'labels/001', name: 'v1 spec.color=blue with tier=gold', apiVersion: 'tests.example.com/v1', fieldSelector: 'spec.color=blue', labelSelector: 'tier=gold', expected: { list: { names: ['shirt1', 'shirt2'] }, watch: { ADDED: ['shirt1', 'shirt2'], DELETED: ['shirt1', 'shirt2'] } } },
  { id: 'labels/002', name: 'v1beta1 spec.quantity=2 with tier=silver', apiVersion: 'tests.example.com/v1beta1', fieldSelector: 'spec.quantity=2', labelSelector: 'tier=silver', expected: { list: { names: ['shirt3'] }, watch: { ADDED: ['shirt3'], DELETED: [] } } },
  { id: 'labels/003', name: 'v1 tier in (gold) alone', apiVersion: 'tests.example.com/v1', fieldSelector: '', labelSelector: 'tier in (gold)', expected: { list: { names: ['shirt1', 'shirt2'] }, watch: { ADDED: ['shirt1', 'shirt2'], DELETED: ['shirt1'] } } },
];

function names(objects: Iterable<KubeObject>): string[] {
  return [...objects].map((o) => o.metadata.name!).sort();
}

function path(apiVersion: string, name = ''): string {
  return `/apis/${apiVersion}/shirts${name === '' ? '' : `/${name}`}`;
}

interface Watched {
  c: Case;
  informer: Informer;
  log: EventLog;
  errors: Error[];
}

/**
 * Waits until an informer has seen every write and delivered it. On the embedded server: up to the
 * server's latest resourceVersion (bookmarks carry it). On the real one, whose resourceVersions also
 * count its own writes elsewhere: until the cache equals `expected` (a fresh list), object versions included.
 */
async function caughtUp(server: TestServer, informer: Informer, expected: () => Promise<KubeObject[]>): Promise<void> {
  if (server.resourceVersion !== undefined) {
    const target = server.resourceVersion();
    await until(() => Number(informer.status.resourceVersion ?? 0) >= target, `${informer.fieldSelector} at ${target}`, 10_000);
  } else {
    const view = (objects: Iterable<KubeObject>) => JSON.stringify([...objects].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort());
    await untilAsync(async () => {
      await new Promise((r) => setTimeout(r, 50));
      return view(informer.list()) === view(await expected());
    }, `${informer.fieldSelector} to equal a fresh list`, 30_000);
  }
  await informer.idle();
}

for (const backend of testBackends()) {
describe(`Informer against the ${backend.name} API server: the KEP-4358 scenario`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 60_000);
  let server: TestServer;
  let kube: Kube;
  let kc: KubeConfigLike;
  let webhook: Awaited<ReturnType<typeof startConversionWebhook>>;
  const stop = new AbortController();
  // Seventeen informers share this signal (one listener each).
  setMaxListeners(50, stop.signal);
  const runs: Promise<void>[] = [];

  async function createShirts(): Promise<void> {
    for (const s of vectors.instances) {
      await kube.ok('POST', path('tests.example.com/v1'), { ...s, metadata: { ...s.metadata, labels: labels[s.metadata.name!] } });
    }
  }

  before(async () => {
    webhook = await startConversionWebhook('tests.example.com');
    server = await backend.start({ bookmarkIntervalMs: 20 });
    kube = new Kube(server.url, server.auth);
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    const crd = structuredClone(vectors.crdFixture);
    crd.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: webhook.url, caBundle: webhook.caBundle }, conversionReviewVersions: ['v1'] } };
    await kube.createCRD(server, crd);
  });

  after(async () => {
    stop.abort();
    await Promise.all(runs);
    await server.close();
    await new Promise((resolve) => webhook.server.close(resolve));
  });

  describe('with the server selecting', () => {
    const watched: Watched[] = [];

    before(async () => {
      for (const c of cases) {
        const informer = new Informer(kc, { apiVersion: c.apiVersion, plural: 'shirts', fieldSelector: c.fieldSelector, labelSelector: c.labelSelector, logger: noopLogger });
        const log = new EventLog();
        const errors: Error[] = [];
        informer.addEventHandler(log.handlers());
        informer.on('error', (e) => errors.push(e));
        runs.push(informer.start(stop.signal));
        watched.push({ c, informer, log, errors });
      }
      const selecting = watched.filter((w) => w.c.expected.watch.error === undefined);
      await Promise.all(selecting.map((w) => w.informer.waitForSync()));
      // Watches open before the objects exist; then: create shirt1..3, delete shirt1, update shirt2 out of the color selections.
      await createShirts();
      await kube.ok('DELETE', path('tests.example.com/v1', 'shirt1'));
      await kube.ok('PATCH', path('tests.example.com/v1', 'shirt2'), { spec: { color: 'green' } }, 'application/merge-patch+json');
      await Promise.all(selecting.map((w) => caughtUp(server, w.informer, () => kube.list(path(w.c.apiVersion), w.c.fieldSelector, w.c.labelSelector))));
    });

    for (const c of cases) {
      it(`does deliver ${c.id} (${c.name}) as the apiserver selects, with delete reasons, and end equal to a fresh list`, async () => {
        const w = watched.find((x) => x.c === c)!;
        if (c.expected.watch.error !== undefined) {
          await until(() => w.errors.length > 0, 'error');
          expect(w.errors[0]).to.be.instanceOf(KubeError);
          expect(w.errors[0]).to.include({ code: 400, message: c.expected.list.error });
          expect(w.informer.hasSynced()).to.equal(false);
          return;
        }
        const adds = w.log.lines.filter((l) => l.startsWith('add ')).map((l) => l.slice(4));
        const deletes = w.log.lines.filter((l) => l.startsWith('delete ')).map((l) => l.slice(7));
        expect(adds.sort()).to.deep.equal([...c.expected.watch.ADDED!].sort());
        const reasons: Record<string, string> = { shirt1: 'deleted', shirt2: 'leftSelection' };
        expect(deletes.sort()).to.deep.equal(c.expected.watch.DELETED!.map((n) => `${n} ${reasons[n]}`).sort());
        w.log.expectView(w.informer.list());
        const fresh = await kube.list(path(c.apiVersion), c.fieldSelector, c.labelSelector);
        expect(names(w.informer.list())).to.deep.equal(names(fresh));
        expect(w.informer.list().map((o) => o.metadata.resourceVersion).sort()).to.deep.equal(fresh.map((o) => o.metadata.resourceVersion).sort());
        expect(w.informer.list().every((o) => o.apiVersion === c.apiVersion)).to.equal(true);
        expect(w.informer.status.selection).to.equal('server');
      });
    }

    it('does deliver an object moving into the selection as an add, in each version', async () => {
      const blue = watched.find((w) => w.c.id === 'integration/001')!;
      const hue = watched.find((w) => w.c.id === 'integration/008')!;
      blue.log.clear();
      hue.log.clear();
      await kube.ok('PATCH', path('tests.example.com/v1', 'shirt3'), { spec: { color: 'blue' } }, 'application/merge-patch+json');
      await caughtUp(server, blue.informer, () => kube.list(path(blue.c.apiVersion), blue.c.fieldSelector));
      await caughtUp(server, hue.informer, () => kube.list(path(hue.c.apiVersion), hue.c.fieldSelector));
      expect(blue.log.lines).to.deep.equal(['add shirt3']);
      expect(hue.log.lines).to.deep.equal(['add shirt3']);
      expect((hue.informer.get('shirt3')!.spec as { hue?: string }).hue).to.equal('blue');
      expect(names(blue.informer.byField('spec.color', 'blue'))).to.deep.equal(['shirt3']);
    });

    it('does report an object that left the selection and was then deleted as deleted', async () => {
      const blue = watched.find((w) => w.c.id === 'integration/001')!;
      blue.log.clear();
      const fresh = () => kube.list(path(blue.c.apiVersion), blue.c.fieldSelector);
      await kube.ok('PATCH', path('tests.example.com/v1', 'shirt3'), { spec: { color: 'red' } }, 'application/merge-patch+json');
      await caughtUp(server, blue.informer, fresh);
      await kube.ok('DELETE', path('tests.example.com/v1', 'shirt3'));
      await kube.ok('POST', path('tests.example.com/v1'), { ...vectors.instances[2], spec: { color: 'blue', quantity: 1 } });
      await caughtUp(server, blue.informer, fresh);
      expect(blue.log.lines).to.deep.equal(['delete shirt3 leftSelection', 'add shirt3']);
      await kube.ok('DELETE', path('tests.example.com/v1', 'shirt3'));
      await caughtUp(server, blue.informer, fresh);
      expect(blue.log.lines.at(-1)).to.equal('delete shirt3 deleted');
    });
  });

  describe('sharing', () => {
    it('does open one watch per distinct selector through a SharedInformerFactory', async function () {
      const watchCount = server.watchCount;
      // Only the embedded server counts its watches.
      if (watchCount === undefined) this.skip();
      const before = watchCount();
      const factory = new SharedInformerFactory(kc, { logger: noopLogger });
      const a = factory.informer({ apiVersion: 'tests.example.com/v1', plural: 'shirts', fieldSelector: 'spec.size=M,spec.color=blue' });
      const b = factory.informer({ apiVersion: 'tests.example.com/v1', plural: 'shirts', fieldSelector: 'spec.color=blue,spec.size=M' });
      expect(b).to.equal(a);
      const local = new AbortController();
      const done = factory.start(local.signal);
      await factory.waitForSync();
      await until(() => watchCount() === before + 1, 'one more watch');
      local.abort();
      await done;
    });
  });
});

describe(`Informer against the ${backend.name} API server with the CustomResourceFieldSelectors gate off`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 30_000);
  let server: TestServer;
  let kube: Kube;
  let kc: KubeConfigLike;
  const stop = new AbortController();
  const runs: Promise<void>[] = [];
  const crd: Crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
    spec: {
      group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' } as Crd['spec']['names'],
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string' } } } } } }, selectableFields: [{ jsonPath: '.spec.color' }] } as Crd['spec']['versions'][number]],
    },
  };
  const shirts = '/apis/stable.example.com/v1/namespaces/default/shirts';

  before(async () => {
    server = await backend.start({ bookmarkIntervalMs: 20, gateOff: true });
    kube = new Kube(server.url, server.auth);
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    await kube.createCRD(server, crd);
  });

  after(async () => {
    stop.abort();
    await Promise.all(runs);
    await server.close();
  });

  it('does reproduce integration/015: a server before 1.31 rejects the selector with 400', async () => {
    const r = await kube.request<{ message: string }>('GET', `${shirts}?fieldSelector=spec.color%3Dblue`);
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('field label not supported: spec.color');
  });

  for (const given of [true, false]) {
    it(`does fall back to client-side selection with the same events the server would send (selectable fields ${given ? 'given' : 'unknown'})`, async () => {
      const namespace = given ? 'default' : 'kube-public';
      const base = `/apis/stable.example.com/v1/namespaces/${namespace}/shirts`;
      const logger = { lines: [] as string[], error() {}, info() {}, debug() {}, warn(m: string) { this.lines.push(m); }, child() { return this; } };
      const informer = new Informer(kc, {
        apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace, fieldSelector: 'spec.color=blue', clientSideSelection: 'fallback', logger,
        ...(given ? { selectableFields: [{ jsonPath: '.spec.color' }] } : {}),
      });
      const log = new EventLog();
      informer.addEventHandler(log.handlers());
      runs.push(informer.start(stop.signal));
      await informer.waitForSync();
      expect(informer.status.selection).to.equal('client');
      expect(informer.status.selectionReason).to.match(/field label not supported: spec\.color/);
      expect(logger.lines.some((l) => l.startsWith('selecting shirts client-side'))).to.equal(true);
      await kube.ok('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'a' }, spec: { color: 'blue' } });
      await kube.ok('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'b' }, spec: { color: 'red' } });
      await kube.ok('POST', base, { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'c' }, spec: { color: 'blue' } });
      const fields = createCustomResourceFields({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] });
      const match = selectorMatcher({ fields, fieldSelector: 'spec.color=blue' });
      const selected = async () => (await kube.list(base)).filter((o) => match.matches(o));
      await caughtUp(server, informer, selected);
      await kube.ok('PATCH', `${base}/a`, { spec: { color: 'green' } }, 'application/merge-patch+json');
      await kube.ok('PATCH', `${base}/b`, { spec: { color: 'blue' } }, 'application/merge-patch+json');
      await kube.ok('DELETE', `${base}/c`);
      await caughtUp(server, informer, selected);
      const ns = (line: string): string => line.replace(/ ([abc])\b/, ` ${namespace}/$1`);
      expect(log.lines).to.deep.equal(['synced', 'add a', 'add c', 'delete a leftSelection', 'add b', 'delete c deleted'].map(ns));
      log.expectView(informer.list());
      // The cache equals what a server with the gate on would list: every object, through the selector.
      const all = await kube.list(base);
      expect(names(informer.list())).to.deep.equal(names(all.filter((o) => match.matches(o))));
      expect(names(informer.list())).to.deep.equal(['b']);
    });
  }
});
}
