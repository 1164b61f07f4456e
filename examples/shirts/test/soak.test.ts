// The short form of the soak test (the long form: `npm run soak -- --minutes N`): 90 s of churn with
// connection resets every 15 s and an API server restart at 45 s, then every check of soak.ts.
import { expect } from 'chai';
import { runSoak } from './soak/soak.js';

describe('examples/shirts soak (short form, 90 s)', function () {
  this.timeout(300_000);

  it('keeps every status, cache and the inventory right, heap and handles flat, and the leader unless a fault', async () => {
    const lines: string[] = [];
    const r = await runSoak({ durationMs: 90_000, resetEveryMs: 15_000, restartEveryMs: 45_000, log: (l) => lines.push(l) });
    console.log(`      ${r.writes} writes (${r.writeErrors} failed), ${r.shirtsAtEnd} shirts, ${r.resets} resets, ${r.restarts} restarts; converged after ${r.convergedAfterMs} ms; ` +
      `heap ${(r.heapUsedBytes.first / 1e6).toFixed(1)} → ${(r.heapUsedBytes.last / 1e6).toFixed(1)} MB (${(r.heapUsedBytes.perHour / 1e6).toFixed(1)} MB/h), ` +
      `handles ${r.activeHandles.first} → ${r.activeHandles.last} (${r.activeHandles.perHour}/h; without sockets ${r.nonSocketHandles.first} → ${r.nonSocketHandles.last}, ${r.nonSocketHandles.perHour}/h; at most ${r.maxSockets} sockets); leader changes ${r.leaderChanges.length}`);
    expect(r.problems, lines.join('\n')).to.deep.equal([]);
    expect(r.restarts).to.equal(1);
    expect(r.resets).to.be.greaterThan(0);
    expect(r.writes - r.writeErrors).to.be.greaterThan(300);
    expect(r.leaderChanges.filter((c) => !c.duringFault), lines.join('\n')).to.deep.equal([]);
    // Flat: a leak of one handle per fault or of a kilobyte per write would show even in 90 s. Sockets
    // come and go with connections; they are bounded by the agents' pools.
    expect(r.nonSocketHandles.last, JSON.stringify(r.handleTypes)).to.be.at.most(r.nonSocketHandles.first + 3);
    expect(r.maxSockets).to.be.below(120);
    expect(r.heapUsedBytes.last - r.heapUsedBytes.first).to.be.below(15e6);
  });
});
