import { expect } from 'chai';
import { Controller, Manager, type EventSource, type SourceHandlers } from '@kubekit/controller';
import type { KubeObject } from '@kubekit/core';
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
