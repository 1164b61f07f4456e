import { expect } from 'chai';
import { Backoff, backoffCapMs, defaultBackoffPolicy } from '../src/backoff.js';
import { FakeClock } from './helpers/fakeClock.js';

describe('Backoff', () => {
  it('does double from 800 ms to its 5 s limit without jitter when random() is 0', () => {
    const backoff = new Backoff({}, new FakeClock(), () => 0);
    const delays = Array.from({ length: 7 }, () => backoff.next());
    expect(delays).to.deep.equal([800, 1600, 3200, 5000, 5000, 5000, 5000]);
    expect(backoff.consecutiveFailures).to.equal(7);
  });

  it('does stretch each delay by up to the jitter factor, as client-go, and never waits longer than the documented 10 s cap', () => {
    const half = new Backoff({}, new FakeClock(), () => 0.5);
    expect(half.next()).to.equal(1200);
    expect(half.next()).to.equal(2400);
    const worst = new Backoff({}, new FakeClock(), () => 0.999999);
    const delays = Array.from({ length: 20 }, () => worst.next());
    expect(Math.max(...delays)).to.be.below(backoffCapMs());
    expect(backoffCapMs()).to.equal(10_000);
  });

  it('does not start over while failures go on, however long they last', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({}, clock, () => 0);
    for (let i = 0; i < 5; i++) {
      backoff.next();
      clock.advance(defaultBackoffPolicy.resetAfterMs * 2);
    }
    expect(backoff.next()).to.equal(5000);
    expect(backoff.consecutiveFailures).to.equal(6);
  });

  it('does start over once healthy for resetAfterMs, and not before', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({}, clock, () => 0);
    for (let i = 0; i < 5; i++) backoff.next();
    backoff.healthy();
    clock.advance(defaultBackoffPolicy.resetAfterMs - 1);
    expect(backoff.consecutiveFailures).to.equal(5);
    backoff.healthy(); // health that goes on does not restart the period
    clock.advance(1);
    expect(backoff.consecutiveFailures).to.equal(0);
    expect(backoff.next()).to.equal(800);
    // A short healthy spell between failures does not reset.
    backoff.healthy();
    clock.advance(100);
    expect(backoff.next()).to.equal(1600);
    expect(backoff.consecutiveFailures).to.equal(2);
  });
});
