import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import { KubeError, type Logger } from '@kubekit/core';
import { Manager, type Runnable, type SyncableRunnable } from '@kubekit/controller';
import { MemoryLeases } from './helpers/memoryLeases.js';
import { acceptError, listeningServer } from '../../../test/support/listeningServer.js';

/** A runnable that records when it runs and stops when its signal aborts. */
function recorder(log: string[], name: string): Runnable {
  return {
    start: (signal) => new Promise<void>((resolve) => {
      log.push(`start ${name}`);
      signal.addEventListener('abort', () => { log.push(`stop ${name}`); resolve(); }, { once: true });
    }),
  };
}

function cache(log: string[]): SyncableRunnable & { sync(): void } {
  let synced!: () => void;
  const done = new Promise<void>((r) => { synced = r; });
  return { ...recorder(log, 'cache'), waitForSync: () => done, sync: () => synced() };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Manager', () => {
  it('starts caches at once, controllers after sync, serves probes, and stops everything on abort', async () => {
    const log: string[] = [];
    const c = cache(log);
    const m = new Manager({ probes: { port: 0 } }).add(c, { leaderElection: false }).add(recorder(log, 'controller'));
    m.addHealthCheck('ping', () => undefined);
    const ac = new AbortController();
    const run = m.start(ac.signal);
    for (let i = 0; i < 20 && m.probeAddress() === undefined; i++) await tick();
    const base = m.probeAddress()!;
    expect(base).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(log).to.deep.equal(['start cache']);
    let ready = await fetch(`${base}/readyz`);
    expect(ready.status).to.equal(500);
    expect(await ready.text()).to.contain('caches not synced');
    c.sync();
    await tick(); await tick();
    expect(log).to.deep.equal(['start cache', 'start controller']);
    ready = await fetch(`${base}/readyz`);
    expect(ready.status).to.equal(200);
    expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    const metrics = await fetch(`${base}/metrics`);
    expect(await metrics.text()).to.contain('# TYPE workqueue_depth gauge');
    ac.abort();
    await run;
    expect(log.slice(2).sort()).to.deep.equal(['stop cache', 'stop controller']);
  });

  it('runs controllers only on the leader, and rejects start when leadership is lost', async () => {
    const clock = new FakeClock(0);
    const leases = new MemoryLeases();
    let stalled = false;
    const logA: string[] = [];
    const logB: string[] = [];
    const le = (identity: string, paused: () => boolean) => ({ client: leases.clientFor(paused), namespace: 'default', name: 'op', identity });
    const a = new Manager({ clock, leaderElection: le('a', () => stalled) }).add(recorder(logA, 'controller'));
    const b = new Manager({ clock, leaderElection: le('b', () => false) }).add(recorder(logB, 'controller'));
    const acA = new AbortController();
    const acB = new AbortController();
    const runA = a.start(acA.signal);
    let errorA: unknown;
    const doneA = runA.catch((err: unknown) => { errorA = err; });
    await clock.advance(100);
    const runB = b.start(acB.signal);
    await clock.advance(5_000);
    expect([a.isLeader(), b.isLeader()]).to.deep.equal([true, false]);
    expect(logB).to.deep.equal([]);
    stalled = true;
    for (let t = 0; t < 100; t++) {
      await clock.advance(250);
      expect(a.isLeader() && b.isLeader()).to.equal(false);
    }
    await doneA;
    expect(errorA).to.be.instanceOf(KubeError);
    expect((errorA as KubeError).message).to.match(/^leader election lost: a could not renew lease default\/op/);
    expect(logA).to.deep.equal(['start controller', 'stop controller']);
    expect(b.isLeader()).to.equal(true);
    expect(logB).to.deep.equal(['start controller']);
    acA.abort();
    acB.abort();
    await clock.advance(5_000);
    await runB;
  });

  it('keeps serving probes after a connection could not be accepted (an error event after listening, which ended the process)', async () => {
    const warnings: string[] = [];
    const logger: Logger = { error: () => {}, info: () => {}, debug: () => {}, warn: (msg: string) => void warnings.push(msg), child: () => logger };
    const m = new Manager({ probes: { port: 0 }, logger });
    const ac = new AbortController();
    const run = m.start(ac.signal);
    try {
      for (let i = 0; i < 20 && m.probeAddress() === undefined; i++) await tick();
      const base = m.probeAddress()!;
      listeningServer(Number(new URL(base).port)).emit('error', acceptError());
      expect(warnings).to.deep.equal(['probe server: accepting a connection failed; still listening']);
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    } finally {
      ac.abort();
      await run;
    }
  });
});
