import { expect } from 'chai';
import { FakeClock, KubeError } from '@kubekit/core';
import { LeaderElector } from '@kubekit/controller';
import { MemoryLeases } from './helpers/memoryLeases.js';

describe('LeaderElector', () => {
  it('validates its timings as client-go does', () => {
    const client = new MemoryLeases().clientFor(() => false);
    const lock = { namespace: 'kube-system', name: 'x' };
    expect(() => new LeaderElector({ lock, identity: 'a', client, leaseDurationMs: 10_000, renewDeadlineMs: 10_000 })).to.throw(KubeError, 'leaseDuration must be greater than renewDeadline');
    expect(() => new LeaderElector({ lock, identity: 'a', client, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 })).to.throw(KubeError, 'renewDeadline must be greater than retryPeriod*JitterFactor');
    expect(() => new LeaderElector({ lock, identity: '', client })).to.throw(KubeError, 'Lock identity is empty');
  });

  it('never lets two candidates lead at once, and fails over within the lease duration when the leader stalls', async function () {
    this.timeout(60_000);
    const clock = new FakeClock(0);
    const leases = new MemoryLeases();
    const paused = new Set<string>();
    const ac = new AbortController();
    const ids = ['a', 'b', 'c'];
    const electors = ids.map((id) => new LeaderElector({
      lock: { namespace: 'kube-system', name: 'shirts-operator' }, identity: id, clock,
      client: leases.clientFor(() => paused.has(id)),
    }));
    const workingLeaders = new Set<string>();
    const runs = electors.map((e, i) => e.run(ac.signal, {
      onStartedLeading: (signal) => new Promise<void>((resolve) => {
        workingLeaders.add(ids[i]);
        signal.addEventListener('abort', () => { workingLeaders.delete(ids[i]); resolve(); }, { once: true });
      }),
    }));
    let failovers = 0;
    let lastLeader: string | undefined;
    let stalledAt: number | undefined;
    // 600 ticks of 250 ms = 150 s of lease time, stalling whoever leads every 30 s for 20 s.
    for (let tick = 0; tick < 600; tick++) {
      await clock.advance(250);
      const leaders = electors.filter((e) => e.isLeader()).length;
      expect(leaders, `tick ${tick}`).to.be.at.most(1);
      expect(workingLeaders.size, `tick ${tick}`).to.be.at.most(1);
      const current = ids.find((_, i) => electors[i].isLeader());
      if (current !== undefined && current !== lastLeader) {
        if (lastLeader !== undefined) {
          failovers++;
          // The bound: the leader's last renewal R is at most the stall; a candidate observes it at its first
          // poll after R (≤ R + 2.4 s, the jittered retry period), takes over at its first poll after that
          // observation + leaseDuration (≤ 15 s + 2.4 s later), and the loop samples every 250 ms.
          // (CI once saw 18,000 ms against an earlier bound of 15 s + one period, which missed the first wait.)
          expect(clock.now() - stalledAt!, 'failover delay').to.be.at.most(15_000 + 2 * 2_400 + 250);
        }
        lastLeader = current;
      }
      if (tick % 120 === 60 && current !== undefined) { paused.add(current); stalledAt = clock.now(); }
      if (tick % 120 === 140 % 120) paused.clear();
    }
    expect(failovers).to.be.at.least(3);
    paused.clear();
    await clock.advance(20_000);
    expect(electors.filter((e) => e.isLeader()).length).to.equal(1);
    ac.abort();
    await clock.advance(20_000);
    await Promise.all(runs);
    expect(electors.some((e) => e.isLeader())).to.equal(false);
    expect(leases.holder()).to.equal('');
  });

  it('hands leadership over at once when the leader releases on shutdown', async () => {
    const clock = new FakeClock(0);
    const leases = new MemoryLeases();
    const lock = { namespace: 'default', name: 'l' };
    const first = new AbortController();
    const a = new LeaderElector({ lock, identity: 'a', clock, client: leases.clientFor(() => false) });
    const b = new LeaderElector({ lock, identity: 'b', clock, client: leases.clientFor(() => false) });
    const newLeaders: string[] = [];
    const runA = a.run(first.signal, { onStartedLeading: () => undefined, onNewLeader: (id) => newLeaders.push(id) });
    await clock.advance(100);
    expect(a.isLeader()).to.equal(true);
    const second = new AbortController();
    const runB = b.run(second.signal, { onStartedLeading: () => undefined });
    await clock.advance(5_000);
    expect(b.isLeader()).to.equal(false);
    first.abort();
    await clock.advance(100);
    await runA;
    await clock.advance(3_000);
    expect(b.isLeader()).to.equal(true);
    expect(newLeaders).to.deep.equal(['a']);
    second.abort();
    await clock.advance(3_000);
    await runB;
  });
});

describe('LeaderElector defaults', () => {
  // Regression: options given as undefined (as a manager passes them through) must not erase the defaults.
  it('applies the defaults for options passed as undefined', () => {
    const client = new MemoryLeases().clientFor(() => false);
    expect(() => new LeaderElector({ lock: { namespace: 'a', name: 'b' }, identity: 'x', client,
      leaseDurationMs: undefined, renewDeadlineMs: undefined, retryPeriodMs: undefined })).not.to.throw();
  });
});
