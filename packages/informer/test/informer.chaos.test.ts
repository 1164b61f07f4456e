// A seeded chaos test: 100 runs of random writes to the embedded API server while the informer reads
// it through a proxy that injects random faults (500, 429, 410, resets, cut lines, garbage, silence).
// After each run the informer's cache must equal the server's state through the selector, and its
// handler's view must equal the cache, every run. Time in the informer is a fake clock, driven past
// backoff waits and idle timeouts as they come; each run is bounded (writes, faults, and a deadline).
import { expect } from 'chai';
import { noopLogger, type KubeObject } from '@kubekit/core';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { createCustomResourceFields, selectorMatcher } from '@kubekit/attrs';
import { Informer } from '../src/informer.js';
import { ChaosProxy } from './helpers/chaosProxy.js';
import { EventLog } from './helpers/eventLog.js';
import { FakeClock } from './helpers/fakeClock.js';
import { Kube } from './helpers/kube.js';
import { until } from './helpers/until.js';
import { seededRandom } from '../../../test/support/seededRandom.js';

const runs = 100;
const writesPerRun = 24;
const faultsPerRun = 5;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.chaos.example.com' },
  spec: {
    group: 'chaos.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, n: { type: 'integer' } } } } } },
      selectableFields: [{ jsonPath: '.spec.color' }],
    }],
  },
};
const colors = ['blue', 'red', 'green'];

describe('Informer under chaos (seeded, 100 runs)', function () {
  this.timeout(180_000);
  let server: ApiServer;
  let kube: Kube;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    server = await startApiServer({ bookmarkIntervalMs: 20 });
    kube = new Kube(server.url);
    await kube.createCRD(server, crd);
  });

  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await server.close();
  });

  it('does end every run with the cache equal to the server through the selector', async () => {
    const totals: Record<string, number> = {};
    for (let run = 0; run < runs; run++) {
      const random = seededRandom(run + 1);
      const namespace = `chaos-${run}`;
      await kube.ok('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      const base = `/apis/chaos.example.com/v1/namespaces/${namespace}/shirts`;
      const proxy = await new ChaosProxy(server.url, random).start();
      proxy.budget = faultsPerRun;
      const clock = new FakeClock();
      const labelSelector = run % 3 === 0 ? 'app=shop' : '';
      const informer = new Informer(
        { getCurrentCluster: () => ({ server: proxy.url }), applyToHTTPSOptions: async () => {} },
        {
          apiVersion: 'chaos.example.com/v1', plural: 'shirts', namespace, fieldSelector: 'spec.color=blue', labelSelector,
          clientSideSelection: run % 4 === 1 ? 'always' : 'never', streamingList: run % 2 === 0 ? 'auto' : 'never',
          selectableFields: crd.spec.versions[0].selectableFields, namespaced: true,
          clock, random, logger: noopLogger, idleTimeoutMs: 60_000, initialEventsIdleTimeoutMs: 5_000, pageSize: 5,
        },
      );
      const log = new EventLog();
      const registration = informer.addEventHandler(log.handlers());
      const stop = new AbortController();
      const done = informer.start(stop.signal);
      // Time moves only for what waits on it: each backoff once, held requests past their idle
      // timeout once they have been held a while, and short retry waits (delete confirmations).
      let backoff: number | undefined;
      informer.on('status', (s) => {
        if (s.phase === 'backoff') backoff = s.retryInMs;
      });
      let heldSince: number | undefined;
      const drive = (): void => {
        if (backoff !== undefined) {
          const ms = backoff;
          backoff = undefined;
          clock.advance(ms);
          return;
        }
        if (proxy.silent > 0) {
          heldSince ??= Date.now();
          if (Date.now() - heldSince > 20) {
            heldSince = undefined;
            clock.advance(60_000);
          }
          return;
        }
        heldSince = undefined;
        const short = clock.pendingDelays().find((d) => d <= 2000);
        if (short !== undefined) clock.advance(short);
      };

      const names = Array.from({ length: 8 }, (_, i) => `s${i}`);
      const live = new Set<string>();
      for (let w = 0; w < writesPerRun; w++) {
        const name = names[Math.floor(random() * names.length)];
        const color = colors[Math.floor(random() * colors.length)];
        const labels = random() < 0.7 ? { app: 'shop' } : { app: 'other' };
        if (!live.has(name)) {
          await kube.ok('POST', base, { apiVersion: 'chaos.example.com/v1', kind: 'Shirt', metadata: { name, labels }, spec: { color, n: w } });
          live.add(name);
        } else if (random() < 0.25) {
          await kube.ok('DELETE', `${base}/${name}`);
          live.delete(name);
        } else {
          await kube.ok('PATCH', `${base}/${name}`, { metadata: { labels }, spec: { color, n: w } }, 'application/merge-patch+json');
        }
        if (random() < 0.3) {
          drive();
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      proxy.budget = 0;
      const target = server.resourceVersion;
      await until(() => {
        if (informer.hasSynced() && Number(informer.status.resourceVersion ?? 0) >= target) return true;
        drive();
        return false;
      }, () => `run ${run} to catch up (${JSON.stringify(proxy.applied)}) ${JSON.stringify(informer.status)} server ${server.resourceVersion} held ${[...proxy.heldUrls.values()]} timers ${clock.pendingDelays()} now ${clock.now()}`, 20_000);
      // Delivery may wait on delete confirmations, which retry on the fake clock: keep driving it.
      let idle = false;
      void registration.idle().then(() => (idle = true));
      await until(() => {
        if (idle) return true;
        drive();
        return false;
      }, `run ${run} handlers idle`, 20_000);

      const fields = createCustomResourceFields({ namespaced: true, selectableFields: crd.spec.versions[0].selectableFields });
      const match = selectorMatcher({ fields, fieldSelector: 'spec.color=blue', labelSelector });
      const all = await kube.list<KubeObject>(base);
      const expected = all.filter((o) => match.matches(o)).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      const cached = informer.list().map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      expect(cached, `run ${run}: cache vs server (${JSON.stringify(proxy.applied)})`).to.deep.equal(expected);
      log.expectView(informer.list());
      for (const [k, v] of Object.entries(proxy.applied)) totals[k] = (totals[k] ?? 0) + v;

      stop.abort();
      await done;
      await proxy.close();
    }
    expect(unhandled).to.deep.equal([]);
    // Every kind of fault was exercised.
    expect(Object.keys(totals).sort()).to.deep.equal(['garbage', 'gone', 'reset', 'silent', 'status429', 'status500', 'truncate']);
  });
});
