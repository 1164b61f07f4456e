// Optimistic concurrency and watch fan-out under load: 20 clients each make 200 read-modify-write
// updates of one object, retrying on 409 Conflict; the count ends exact (no lost update), and 50
// watchers each see every update, in resourceVersion order. The server runs in a child process, so
// that it and the 20 clients each have a core.
import { expect } from 'chai';
import { Agent, request as httpRequest } from 'node:http';
import type { KubeObject } from '@kubekit/core';
import { startChildServer, type ChildServer } from './internal/childServer.js';
import { Client, type WatchStream } from './internal/client.js';

const clients = 20;
const updatesPerClient = 200;
const watchers = 50;
const total = clients * updatesPerClient;
/** The longest wait for progress (an update completing, a watcher's next event) before the test fails. */
const stallMs = 60_000;

const counterCRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'counters.test.kubekit.dev' },
  spec: {
    group: 'test.kubekit.dev', scope: 'Namespaced', names: { plural: 'counters', singular: 'counter', kind: 'Counter' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { count: { type: 'integer' }, by: { type: 'string' } } } } } },
    }],
  },
};

const path = '/apis/test.kubekit.dev/v1/namespaces/default/counters';

describe('startApiServer under concurrent writers and watchers', function () {
  // 4,000 writes fanned out to 50 watchers take ~25 s on an idle 2-core machine, 67 s with one other core
  // busy; how long they take on a loaded machine has no bound. The test checks correctness, not speed
  // (bench/apiserver measures that), so what fails it is a stall, not a total: no update completing for
  // `stallMs`, or a watcher silent for `stallMs` before its last event (each is milliseconds of work on an
  // idle machine). The mocha timeout only stops a run that crawls on without ever stalling.
  this.timeout(30 * 60_000);
  let server: ChildServer;
  let client: Client;

  before(async () => {
    server = await startChildServer();
    client = new Client(server.url);
    // The embedded server serves a CRD's resources as soon as the CRD is stored.
    expect((await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', counterCRD)).status).to.equal(201);
  });

  after(async () => {
    await server?.stop();
  });

  it('keeps every read-modify-write update of 20 clients × 200, and 50 watchers see each in order', async () => {
    const created = await client.post(path, { apiVersion: 'test.kubekit.dev/v1', kind: 'Counter', metadata: { name: 'c' }, spec: { count: 0 } });
    expect(created.status).to.equal(201);
    const startRV = created.body.metadata.resourceVersion as string;

    const streams: WatchStream[] = [];
    for (let i = 0; i < watchers; i++) streams.push(await client.watch(`${path}?watch=true&resourceVersion=${startRV}&fieldSelector=metadata.name%3Dc`));

    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    let conflicts = 0;
    const request = (method: string, body?: unknown): Promise<{ status: number; body: KubeObject & { spec: { count: number } } }> => {
      return new Promise((resolve, reject) => {
        const data = body === undefined ? undefined : JSON.stringify(body);
        const req = httpRequest(`${server.url}${path}/c`, { method, agent, headers: data === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(data);
      });
    };
    let updated = 0;
    let progressAt = Date.now();
    const worker = async (id: number): Promise<void> => {
      for (let done = 0; done < updatesPerClient;) {
        const got = await request('GET');
        const next = { ...got.body, spec: { count: got.body.spec.count + 1, by: `client-${id}` } };
        const put = await request('PUT', next);
        if (put.status === 200) {
          done++;
          updated++;
          progressAt = Date.now();
        } else if (put.status === 409) conflicts++;
        else throw new Error(`unexpected ${put.status}`);
      }
    };
    let watchdog: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      const check = (): void => {
        const idle = Date.now() - progressAt;
        if (idle >= stallMs) reject(new Error(`no update completed for ${idle} ms (${updated} of ${total} done)`));
        else watchdog = setTimeout(check, stallMs - idle);
      };
      watchdog = setTimeout(check, stallMs);
    });
    try {
      await Promise.race([Promise.all(Array.from({ length: clients }, (_, i) => worker(i))), stalled]);
    } finally {
      clearTimeout(watchdog);
      agent.destroy();
    }
    const final = (await client.get(`${path}/c`)).body;
    expect(final.spec.count).to.equal(total);
    expect(conflicts).to.be.greaterThan(0);

    for (const w of streams) {
      const events: Awaited<ReturnType<WatchStream['next']>>[] = [];
      for (let e = await w.next(stallMs); ; e = await w.next(stallMs)) {
        events.push(e);
        if (e.object.spec?.count === total) break;
      }
      w.close();
      expect(events.map((e) => e.type).every((t) => t === 'MODIFIED')).to.equal(true);
      expect(events.map((e) => e.object.spec.count)).to.deep.equal(Array.from({ length: total }, (_, i) => i + 1));
      const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
      expect(rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]), 'resourceVersions increase').to.equal(true);
    }
  });
});
