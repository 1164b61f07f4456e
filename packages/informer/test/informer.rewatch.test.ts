// End to end, against the embedded API server and (when Go is on PATH) the real kube-apiserver: a
// proxy in front of the server breaks the informer's watch connection mid-stream — closes it (FIN),
// or resets it (RST), as a server going away, a proxy or a load balancer does — after the watch
// delivered events. The informer resumes the watch at once from the last resource version, as
// client-go's reflector does (tools/cache/reflector.go `watch()`: a watch stream that ends is no
// error), and its cache catches up within a bound far below the backoff it used to wait first.
//
// The informer runs with a first backoff step of 20 s (no jitter) so that a backoff, were it taken,
// shows beyond doubt: with it, nothing reaches the informer before 20 s after the break, so a catch-up
// in less than that proves the watch resumed at once. The bound is the step itself, not a guess at how
// fast a loaded machine is (an earlier bound of 2 s against a 4 s step held only on an idle machine; the
// catch-up takes tens of milliseconds there). With the default policy the step is 0.8–1.6 s; the figure
// printed is the catch-up time measured.
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { Informer } from '../src/informer.js';
import { loadKubeConfig } from '../src/kubeConfig.js';
import { testBackends, type TestServer } from './helpers/backends.js';
import { httpProxy } from './helpers/httpProxy.js';
import { Kube, shirtsCRD } from './helpers/kube.js';
import { until, untilAsync } from './helpers/until.js';

const group = 'rewatch.example.com';
const base = `/apis/${group}/v1/namespaces/default/shirts`;
const firstBackoffMs = 20_000;
const boundMs = firstBackoffMs;

/** An HTTP proxy that can break the watch connections it serves at the next event line. */
interface WatchBreakingProxy {
  url: string;
  /** Arms a break: the next event line of any open watch is not forwarded, its client socket is closed (or reset). */
  breakNextEvent(rst: boolean): Promise<number>;
  close(): Promise<void>;
}

async function watchBreakingProxy(target: string, ca: string | undefined): Promise<WatchBreakingProxy> {
  let armed: { rst: boolean; broke: (at: number) => void } | undefined;
  const inner = await httpProxy(target, ca, {
    relay: (req, res, up, url) => {
      if (url.searchParams.get('watch') !== 'true') return false;
      up.on('data', (chunk: Buffer) => {
        const trip = armed;
        if (trip !== undefined && chunk.includes(10)) {
          armed = undefined;
          // The event in flight is lost with the connection; the resumed watch must bring it.
          if (trip.rst) req.socket.resetAndDestroy();
          else req.socket.destroy();
          up.destroy();
          trip.broke(Date.now());
          return;
        }
        res.write(chunk);
      });
      up.on('end', () => res.end());
      return true;
    },
  });
  return {
    url: inner.url,
    breakNextEvent: (rst) => new Promise<number>((resolve) => (armed = { rst, broke: resolve })),
    close: inner.close,
  };
}

for (const backend of testBackends()) {
  describe(`Informer after its watch connection breaks, against the ${backend.name} API server`, function () {
    this.timeout(120_000);
    let server: TestServer;
    let kube: Kube;

    before(async () => {
      server = await backend.start();
      kube = new Kube(server.url, server.auth);
      await kube.createCRD(server, shirtsCRD(group));
    });

    after(async () => {
      await server.close();
    });

    for (const rst of [false, true]) {
      it(`does resume the watch at once and catch up within ${boundMs} ms when a proxy ${rst ? 'resets' : 'closes'} it after events (was: a backoff step first)`, async () => {
        const proxy = await watchBreakingProxy(server.url, server.auth.ca);
        const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig.replace(server.url, proxy.url) });
        const errors: Error[] = [];
        const prefix = rst ? 'rst' : 'fin';
        const informer = new Informer(kc, { apiVersion: `${group}/v1`, plural: 'shirts', namespace: 'default', fieldSelector: 'spec.color=blue', backoff: { initialMs: firstBackoffMs, jitter: 0 } });
        informer.on('error', (e) => errors.push(e));
        const stop = new AbortController();
        const done = informer.start(stop.signal);
        const create = (name: string): Promise<KubeObject> => kube.ok('POST', base, { apiVersion: `${group}/v1`, kind: 'Shirt', metadata: { name }, spec: { color: 'blue' } });
        try {
          await informer.waitForSync();
          await until(() => informer.status.phase === 'watching', 'watching', 30_000);
          for (let i = 0; i < 3; i++) await create(`${prefix}-before-${i}`);
          await until(() => informer.list().filter((o) => o.metadata.name!.startsWith(`${prefix}-before-`)).length === 3, 'three events', 30_000);
          const broke = proxy.breakNextEvent(rst);
          await create(`${prefix}-lost`);
          const brokeAt = await broke;
          await create(`${prefix}-after`);
          const view = (objects: Iterable<KubeObject>): string => JSON.stringify([...objects].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort());
          const fresh = view(await kube.list(base, 'spec.color=blue'));
          await untilAsync(async () => view(informer.list()) === fresh, 'the cache equals a fresh list', 30_000);
          const caughtUpMs = Date.now() - brokeAt;
          const status = informer.status;
          console.log(`      ${backend.name}, ${rst ? 'reset' : 'closed'}: caught up ${caughtUpMs} ms after the break (bound ${boundMs} ms; the first backoff step ${firstBackoffMs} ms); ${status.watches} watches, ${status.consecutiveFailures} failures; "${status.lastWatchClose?.message}"`);
          expect(caughtUpMs).to.be.below(boundMs);
          expect(status.watchesResumed).to.equal(1);
          expect(status.consecutiveFailures).to.equal(0);
          expect(status.syncs).to.equal(1);
          expect(errors.map((e) => e.message)).to.deep.equal([]);
          expect(status.lastWatchClose?.message).to.match(new RegExp(`^the watch connection ${rst ? 'was reset' : 'was closed by the server or a proxy'} after \\d+ events? in [^(]+ \\(ECONNRESET\\); resuming from resourceVersion \\d+ at once$`));
        } finally {
          stop.abort();
          await done;
          await proxy.close();
        }
      });
    }
  });
}
