import { expect } from 'chai';
import { Backoff, defaultBackoffPolicy } from '../src/backoff.js';
import { FakeClock } from './helpers/fakeClock.js';

describe('Backoff', () => {
  it('does double from 800 ms to 30 s without jitter when random() is 0', () => {
    const backoff = new Backoff({}, new FakeClock(), () => 0);
    const delays = Array.from({ length: 9 }, () => backoff.next());
    expect(delays).to.deep.equal([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]);
    expect(backoff.consecutiveFailures).to.equal(9);
  });

  it('does stretch each delay by up to the jitter factor, as client-go', () => {
    const backoff = new Backoff({}, new FakeClock(), () => 0.5);
    expect(backoff.next()).to.equal(1200);
    expect(backoff.next()).to.equal(2400);
  });

  it('does start over after two minutes without failure', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({}, clock, () => 0);
    backoff.next();
    backoff.next();
    clock.advance(defaultBackoffPolicy.resetAfterMs);
    expect(backoff.next()).to.equal(3200);
    clock.advance(defaultBackoffPolicy.resetAfterMs + 1);
    expect(backoff.next()).to.equal(800);
    expect(backoff.consecutiveFailures).to.equal(1);
  });
});
