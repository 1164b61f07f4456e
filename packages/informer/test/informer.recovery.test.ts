// Recovery after an outage, measured on the real clock with the default backoff: an informer reads the
// embedded API server through a proxy that resets every connection for a few seconds, then refuses
// them (so its backoff climbs to the cap) while objects keep changing; once the faults stop, the cache must equal the
// server's list within 5 s plus one backoff cap (10 s). client-go's reflector can take a minute here.
import { expect } from 'chai';
import { noopLogger, type KubeObject } from '@kubekit/core';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { backoffCapMs } from '../src/backoff.js';
import { Informer } from '../src/informer.js';
import { FaultProxy } from './helpers/faultProxy.js';
import { Kube } from './helpers/kube.js';
import { until } from './helpers/until.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.recovery.example.com' },
  spec: {
    group: 'recovery.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: '.spec.color' }],
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, n: { type: 'integer' } } } } } },
    }],
  },
};
const base = '/apis/recovery.example.com/v1/namespaces/default/shirts';

describe('Informer recovery after faults stop (real clock, default backoff)', function () {
  this.timeout(120_000);
  let server: ApiServer;
  let kube: Kube;
  let proxy: FaultProxy;

  before(async () => {
    server = await startApiServer({ bookmarkIntervalMs: 1000 });
    kube = new Kube(server.url);
    await kube.createCRD(server, crd);
    proxy = await new FaultProxy(server.url).start();
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  it('does converge within 5 s plus one backoff cap once connection resets stop', async () => {
    const informer = new Informer<KubeObject<{ color: string; n: number }>>(
      { getCurrentCluster: () => ({ server: proxy.url }), applyToHTTPSOptions: async () => {} },
      { apiVersion: 'recovery.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector: 'spec.color=blue', logger: noopLogger },
    );
    const stop = new AbortController();
    const done = informer.start(stop.signal);
    await informer.waitForSync();
    const figures: number[] = [];
    let n = 0;
    const write = async (): Promise<void> => {
      n++;
      const name = `s${n % 15}`;
      const color = ['blue', 'red'][n % 2];
      const r = await kube.request('PATCH', `${base}/${name}`, { spec: { color, n } }, 'application/merge-patch+json');
      if (r.status === 404) await kube.ok('POST', base, { apiVersion: 'recovery.example.com/v1', kind: 'Shirt', metadata: { name }, spec: { color, n } });
      if (n % 7 === 0) await kube.request('DELETE', `${base}/s${(n * 3) % 15}`);
    };
    const inSync = async (): Promise<boolean> => {
      const want = (await kube.list(base, 'spec.color=blue')).map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      const have = informer.list().map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
      return JSON.stringify(want) === JSON.stringify(have);
    };
    try {
      for (let round = 0; round < 2; round++) {
        // Eight seconds of faults: every connection is reset within 300 ms, and all of them every 500 ms;
        // for the last four, every new connection is reset at once (the server is "down"). A watch reset
        // after it delivered events is resumed at once, no failure (as client-go): the failed lists and
        // connects, and the outage, make the backoff climb. The outage lasts until the informer has failed
        // three times in a row: four seconds are not always enough (with no failure before the outage, the
        // third comes 0.8–1.6 s + 1.6–3.2 s after the first, so up to 5.3 s in; a run saw exactly 3 at 4 s),
        // and the bound is derived: while down, each failure follows the previous one within one backoff
        // cap (10 s), so two more take at most 20 s.
        proxy.flaky = true;
        const faultsEnd = Date.now() + 8000;
        const outageLimit = faultsEnd + 2 * backoffCapMs() + 1000;
        let lastReset = Date.now();
        while (Date.now() < faultsEnd || (informer.status.consecutiveFailures <= 2 && Date.now() < outageLimit)) {
          proxy.down = Date.now() >= faultsEnd - 4000;
          await write();
          if (Date.now() - lastReset >= 500) {
            proxy.resetAll();
            lastReset = Date.now();
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        const failures = informer.status.consecutiveFailures;
        proxy.flaky = false;
        proxy.down = false;
        await write();
        const stopped = Date.now();
        const limit = 5000 + backoffCapMs();
        while (!(await inSync())) {
          if (Date.now() - stopped > limit + 5000) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const converged = Date.now() - stopped;
        figures.push(converged);
        console.log(`      round ${round + 1}: ${failures} consecutive failures when faults stopped; converged ${converged} ms after (limit ${limit} ms); ${proxy.resets} resets so far`);
        expect(failures, 'the faults made the informer fail').to.be.greaterThan(2);
        expect(converged).to.be.below(limit);
      }
    } finally {
      stop.abort();
      await done;
    }
    expect(figures).to.have.length(2);
  });

  it('does relist from a server whose store started over (an in-memory server restarted), instead of waiting on a silent watch', async () => {
    // The new server's versions start over below the informer's: it keeps a watch from the informer's
    // version open and silent (as kube-apiserver does after an etcd restore) until its idle timeout;
    // then a one-item list not older than that version answers 504 "Too large resource version".
    const informer = new Informer<KubeObject<{ color: string; n: number }>>(
      { getCurrentCluster: () => ({ server: proxy.url }), applyToHTTPSOptions: async () => {} },
      { apiVersion: 'recovery.example.com/v1', plural: 'shirts', namespace: 'default', logger: noopLogger, idleTimeoutMs: 1500 },
    );
    const stop = new AbortController();
    const done = informer.start(stop.signal);
    let fresh: ApiServer | undefined;
    try {
      await informer.waitForSync();
      for (let i = 0; i < 30; i++) await kube.ok('POST', base, { apiVersion: 'recovery.example.com/v1', kind: 'Shirt', metadata: { name: `before-${i}` }, spec: { color: 'red', n: i } });
      await until(() => informer.list().some((o) => o.metadata.name === 'before-29'), 'the informer saw the first server\'s objects', 10_000);
      const before = Number(server.resourceVersion);
      fresh = await startApiServer({ bookmarkIntervalMs: 60_000 });
      const freshKube = new Kube(fresh.url);
      await freshKube.createCRD(fresh, crd);
      await freshKube.ok('POST', base, { apiVersion: 'recovery.example.com/v1', kind: 'Shirt', metadata: { name: 'after-restart' }, spec: { color: 'green', n: 1 } });
      expect(Number(fresh.resourceVersion)).to.be.below(before);
      proxy.retarget(fresh.url);
      proxy.resetAll();
      const started = Date.now();
      while (!informer.list().some((o) => o.metadata.name === 'after-restart') && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
      // The new server's state, nothing of the old one's.
      expect(informer.list().map((o) => o.metadata.name)).to.deep.equal(['after-restart']);
      console.log(`      relisted ${Date.now() - started} ms after the server was replaced (idle timeout 1.5 s, the server waits 3 s before its 504)`);
    } finally {
      stop.abort();
      await done;
      proxy.retarget(server.url);
      await fresh?.close();
    }
  });
});
