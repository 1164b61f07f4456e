// A watch stream of 1,000,000 events to an informer whose handler is stuck: the cache keeps up, the
// handler's buffer stays bounded, memory does not grow with the stream, and once the handler moves
// again it ends with exactly the cache's state.
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { noopLogger, type KubeObject } from '@kubekit/core';
import { Informer } from '../src/informer.js';
import { EventLog } from './helpers/eventLog.js';
import { until } from './helpers/until.js';

const objects = 1000;
const events = 1_000_000;

function object(i: number, value: number, rv: number): KubeObject {
  return { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: `s${i}`, namespace: 'default', resourceVersion: String(rv) }, spec: { value } };
}

/** Event `e` (0-based) modifies object `e % objects` to value `e`, at resource version `e + 2`. */
function line(e: number): string {
  return `{"type":"MODIFIED","object":${JSON.stringify(object(e % objects, e, e + 2))}}\n`;
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The longest the stream may make no progress (the informer's resource version not moving) before the
 * test fails. The stream is CPU-bound work in this process (~25 s with another core busy): how long it
 * takes on a loaded machine has no bound, and the test checks memory and exactness, not speed, so what
 * fails it is a stall, not a total. The mocha timeout only stops a run that crawls on without stalling.
 */
const stallMs = 30_000;

describe('Informer with a 1,000,000-event watch stream and a stuck handler', function () {
  this.timeout(30 * 60_000);
  let server: http.Server;
  let url: string;
  let watches = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (q.get('watch') !== 'true') {
        res.end(JSON.stringify({ kind: 'ShirtList', apiVersion: 'stable.example.com/v1', metadata: { resourceVersion: '1' }, items: Array.from({ length: objects }, (_, i) => object(i, -1, 1)) }));
        return;
      }
      watches++;
      // Resume from any resource version; write with backpressure; stay open when done.
      let e = Math.max(0, Number(q.get('resourceVersion') ?? '1') - 1);
      const pump = (): void => {
        while (e < events) {
          let chunk = '';
          for (let n = 0; n < 200 && e < events; n++) chunk += line(e++);
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('does keep the cache current and memory bounded, and lose or duplicate nothing', async () => {
    const informer = new Informer(
      { getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} },
      { apiVersion: 'stable.example.com/v1', plural: 'shirts', streamingList: 'never', logger: noopLogger, handlerBufferSize: 5000 },
    );
    const log = new EventLog();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    let maxPending = 0;
    const registration = informer.addEventHandler({
      add: async (o) => {
        calls++;
        await gate;
        log.add(o);
      },
      update: async (o, old) => {
        calls++;
        await gate;
        log.update(o, old);
      },
      delete: async (o, info) => {
        calls++;
        await gate;
        log.delete(o, info);
      },
    });
    const stop = new AbortController();
    const run = informer.start(stop.signal);
    await informer.waitForSync();
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let seen = informer.status.resourceVersion;
    let movedAt = Date.now();
    await until(() => {
      maxPending = Math.max(maxPending, registration.pending());
      const now = informer.status.resourceVersion;
      if (now !== seen) {
        seen = now;
        movedAt = Date.now();
      }
      if (Date.now() - movedAt > stallMs) throw new Error(`the stream stalled at resourceVersion ${now} for ${stallMs} ms`);
      return now === String(events + 1);
    }, 'the last event', 30 * 60_000);
    collectGarbage();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    // The stuck handler has one call in flight and a bounded backlog: 5,000 exact + at most 2 per object.
    expect(calls).to.equal(1);
    expect(maxPending).to.be.at.most(5000 + 2 * objects);
    expect(growth, `heap growth ${(growth / 1e6).toFixed(1)} MB`).to.be.below(40e6);
    expect(watches).to.equal(1);
    for (let i = 0; i < objects; i++) {
      const last = events - objects + i;
      expect((informer.get(`default/s${i}`)!.spec as { value: number }).value).to.equal(last);
    }
    release();
    await informer.idle();
    log.expectView(informer.list());
    expect(calls).to.be.at.most(1 + 5000 + 2 * objects);
    stop.abort();
    await run;
  });
});
