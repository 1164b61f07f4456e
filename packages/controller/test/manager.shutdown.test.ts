import { expect } from 'chai';
import { Controller, Manager, type EventSource, type Runnable, type SourceHandlers, type SyncableRunnable } from '@kubekit/controller';
import { FakeClock, KubeError, type KubeObject, type Logger } from '@kubekit/core';
import { MemoryLeases } from './helpers/memoryLeases.js';

/** A synced source with one object, so the controller reconciles it once and then on its own schedule. */
const oneObject: EventSource = {
  addEventHandler(h: SourceHandlers<KubeObject>) {
    h.add({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'a' } });
    return { remove() {} };
  },
  waitForSync: () => Promise.resolve(),
};

/** Resolves once `done()` holds, polling on the real event loop; rejects after `limitMs`. */
async function until(done: () => boolean, limitMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Regression: the graceful shutdown timeout used to bound the whole run of the controllers, so a
// manager stopped by itself that long after starting (30 s with default options).
describe('Manager graceful shutdown timeout (real clock)', () => {
  for (const withLeaderElection of [false, true]) {
    it(`bounds shutdown only, not the run${withLeaderElection ? ' (with leader election)' : ''}`, async function () {
      this.timeout(20_000);
      let reconciles = 0;
      const controller = new Controller({ name: 'c', reconciler: () => { reconciles++; return { requeueAfterMs: 20 }; } }).for(oneObject);
      const leases = new MemoryLeases();
      const m = new Manager({
        gracefulShutdownTimeoutMs: 200,
        leaderElection: withLeaderElection ? { client: leases.clientFor(() => false), namespace: 'default', name: 'op', identity: 'me', retryPeriodMs: 100 } : undefined,
      }).add(controller);
      const ac = new AbortController();
      let finished = false;
      const run = m.start(ac.signal).finally(() => { finished = true; });
      await until(() => reconciles > 0, 10_000, 'a first reconcile');
      const started = Date.now();
      // Five times the shutdown timeout of real time passes.
      await until(() => Date.now() - started >= 1_000, 5_000, 'one second');
      expect(finished, 'the manager stopped by itself').to.equal(false);
      expect(m.isLeader()).to.equal(true);
      const before = reconciles;
      await until(() => reconciles > before, 5_000, 'the controller to keep reconciling');
      ac.abort();
      await run;
      expect(m.isLeader()).to.equal(false);
      const after = reconciles;
      await new Promise((r) => setTimeout(r, 100));
      expect(reconciles, 'reconciles after shutdown').to.equal(after);
    });
  }
});

// The graceful shutdown timeout itself: a runnable that ignores the abort holds shutdown up to the
// timeout and no longer (controller-runtime's GracefulShutdownTimeout), with or without leader election.
describe('Manager graceful shutdown timeout (fake clock)', () => {
  /** A runnable that starts, then never stops, whatever its signal does. */
  const stuck = (started: string[], name: string): Runnable => ({ start: () => { started.push(name); return new Promise<void>(() => undefined); } });
  const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

  async function stopsAtTheTimeout(m: Manager, clock: FakeClock, started: string[], expected: string[]): Promise<unknown> {
    const ac = new AbortController();
    let outcome: unknown = 'running';
    const run = m.start(ac.signal).then(() => 'resolved', (e: unknown) => e).then((o) => { outcome = o; });
    for (let i = 0; i < 50 && started.length < expected.length; i++) await clock.advance(100);
    expect(started.sort()).to.deep.equal(expected);
    ac.abort();
    await clock.advance(4_999);
    await tick();
    expect(outcome, 'stopped before the graceful shutdown timeout').to.equal('running');
    await clock.advance(1);
    await run;
    return outcome;
  }

  it('gives a leader-only runnable that ignores the abort the timeout, then returns', async () => {
    const clock = new FakeClock(0);
    const started: string[] = [];
    const m = new Manager({ clock, gracefulShutdownTimeoutMs: 5_000 }).add(stuck(started, 'controller'));
    expect(await stopsAtTheTimeout(m, clock, started, ['controller'])).to.equal('resolved');
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('gives a cache that ignores the abort the timeout, then returns', async () => {
    const clock = new FakeClock(0);
    const started: string[] = [];
    const cache: SyncableRunnable = { ...stuck(started, 'cache'), waitForSync: () => Promise.resolve() };
    const m = new Manager({ clock, gracefulShutdownTimeoutMs: 5_000 }).add(cache, { leaderElection: false });
    expect(await stopsAtTheTimeout(m, clock, started, ['cache'])).to.equal('resolved');
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('gives a leader-only runnable that ignores the abort the timeout with leader election, then releases the lease', async () => {
    const clock = new FakeClock(0);
    const leases = new MemoryLeases();
    const started: string[] = [];
    const m = new Manager({
      clock, gracefulShutdownTimeoutMs: 5_000,
      leaderElection: { client: leases.clientFor(() => false), namespace: 'default', name: 'op', identity: 'me' },
    }).add(stuck(started, 'controller'));
    expect(await stopsAtTheTimeout(m, clock, started, ['controller'])).to.equal('resolved');
    expect(m.isLeader()).to.equal(false);
    expect(leases.holder()).to.equal('');
  });

  it('rejects start with the lost leadership once a stuck controller had the timeout after the loss', async () => {
    const clock = new FakeClock(0);
    const leases = new MemoryLeases();
    let paused = false;
    let toldToStopAt: number | undefined;
    const controller: Runnable = {
      start: (signal) => {
        signal.addEventListener('abort', () => { toldToStopAt = clock.now(); }, { once: true });
        return new Promise<void>(() => undefined);
      },
    };
    let gaveUpAt: number | undefined;
    const logger: Logger = {
      debug() {}, info() {}, error() {},
      warn(message) { if (message === 'controllers did not stop within the graceful shutdown timeout') gaveUpAt = clock.now(); },
      child() { return logger; },
    };
    const m = new Manager({
      clock, gracefulShutdownTimeoutMs: 5_000, logger,
      leaderElection: { client: leases.clientFor(() => paused), namespace: 'default', name: 'op', identity: 'me' },
    }).add(controller);
    let outcome: unknown = 'running';
    const run = m.start(new AbortController().signal).then(() => 'resolved', (e: unknown) => e).then((o) => { outcome = o; });
    for (let i = 0; i < 50 && !m.isLeader(); i++) await clock.advance(100);
    expect(m.isLeader()).to.equal(true);
    paused = true;
    // The renew deadline (10 s by default) passes: leadership is lost, the controller told to stop.
    for (let i = 0; i < 200 && toldToStopAt === undefined; i++) await clock.advance(100);
    expect(toldToStopAt, 'the controller was told to stop').to.be.a('number');
    // No longer the leader while the stuck controller has its time (another instance may lead by then).
    expect(m.isLeader(), 'isLeader() while the controller stops').to.equal(false);
    expect(await m.metrics.registry.metrics()).to.contain('leader_election_master_status{name="op"} 0');
    // The controller has the graceful shutdown timeout; then the elector tries to release the lease,
    // which the hung client makes last the renew deadline.
    for (let i = 0; i < 200 && outcome === 'running'; i++) await clock.advance(100);
    await run;
    expect(gaveUpAt! - toldToStopAt!, 'how long the stuck controller was given').to.be.within(5_000, 5_100);
    expect(outcome).to.be.instanceOf(KubeError);
    expect((outcome as KubeError).reason).to.equal('Conflict');
    expect(m.isLeader()).to.equal(false);
  });
});
