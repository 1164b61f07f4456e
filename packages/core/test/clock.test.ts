import { expect } from 'chai';
import { FakeClock, realClock } from '@kubekit/core';

describe('FakeClock', () => {
  it('fires timers in time order, each at its own instant', async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 20);
    await clock.advance(15);
    expect(seen).to.deep.equal(['a@10']);
    await clock.advance(100);
    expect(seen).to.deep.equal(['a@10', 'b@20', 'c@20']);
    expect(clock.now()).to.equal(115);
  });
  it('runs promise continuations before later timers and lets them schedule new ones', async () => {
    const clock = new FakeClock(0);
    const seen: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(10);
        seen.push(clock.now());
      }
    })();
    await clock.advance(35);
    expect(seen).to.deep.equal([10, 20, 30]);
  });
  it('does not fire cancelled timers and rejects an aborted sleep', async () => {
    const clock = new FakeClock(0);
    let fired = false;
    clock.setTimeout(() => { fired = true; }, 5).cancel();
    const ac = new AbortController();
    const slept = clock.sleep(100, ac.signal);
    ac.abort(new Error('stop'));
    await clock.advance(200);
    expect(fired).to.equal(false);
    let error: unknown;
    try { await slept; } catch (err) { error = err; }
    expect((error as Error).message).to.equal('stop');
    expect(clock.pendingTimers()).to.equal(0);
  });
});

describe('realClock', () => {
  it('sleeps with real timers', async () => {
    const start = realClock.now();
    await realClock.sleep(5);
    expect(realClock.now() - start).to.be.at.least(4);
  });

  it('waits out a delay longer than one Node timer takes (2^31 - 1 ms) in steps, never firing early', () => {
    // Node fires a longer timer after 1 ms; the global timer functions are stubbed to record what is armed.
    const armed: { fn: () => void; ms: number; id: number }[] = [];
    const cleared: number[] = [];
    const original = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      const id = armed.length;
      armed.push({ fn, ms, id });
      return { id, unref: () => undefined };
    }) as unknown as typeof setTimeout;
    globalThis.clearTimeout = ((t: { id: number }) => cleared.push(t.id)) as unknown as typeof clearTimeout;
    let fired = 0;
    try {
      const delay = 3_000_000 * 1000; // a watch's timeoutSeconds=3000000
      realClock.setTimeout(() => fired++, delay);
      expect(armed.map((a) => a.ms)).to.deep.equal([2 ** 31 - 1]);
      armed[0].fn();
      expect(fired).to.equal(0);
      expect(armed.map((a) => a.ms)).to.deep.equal([2 ** 31 - 1, delay - (2 ** 31 - 1)]);
      armed[1].fn();
      expect(fired).to.equal(1);
      const handle = realClock.setTimeout(() => fired++, delay);
      armed[2].fn();
      handle.cancel();
      expect(cleared).to.deep.equal([3]);
    } finally {
      globalThis.setTimeout = original.setTimeout;
      globalThis.clearTimeout = original.clearTimeout;
    }
  });
});
