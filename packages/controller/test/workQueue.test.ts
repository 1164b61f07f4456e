import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import {
  BucketRateLimiter, ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, WorkQueue,
  defaultControllerRateLimiter,
} from '@kubekit/controller';

// Semantics of client-go util/workqueue (queue_test.go, delaying_queue_test.go, rate_limiting_queue_test.go,
// default_rate_limiters_test.go), driven by a fake clock.
describe('WorkQueue', () => {
  it('hands items out first in, first out and de-duplicates queued items', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a'); q.add('b'); q.add('a');
    expect(q.len()).to.equal(2);
    expect((await q.get()).item).to.equal('a');
    expect((await q.get()).item).to.equal('b');
    expect(q.len()).to.equal(0);
  });

  it('never hands one item to two workers: re-added while processing, it comes back after done', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    const first = await q.get();
    q.add('a');
    q.add('a');
    expect(q.len()).to.equal(0);
    let second: string | undefined;
    void q.get().then((r) => { second = r.item; });
    await new Promise((r) => setImmediate(r));
    expect(second).to.equal(undefined);
    q.done(first.item!);
    await new Promise((r) => setImmediate(r));
    expect(second).to.equal('a');
  });

  it('wakes a waiting get when an item arrives', async () => {
    const q = new WorkQueue<number>({ clock: new FakeClock() });
    const pending = q.get();
    q.add(7);
    expect(await pending).to.deep.equal({ item: 7, shutdown: false });
  });

  it('adds after a delay, keeping the earlier time for an item already waiting', async () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue<string>({ clock });
    q.addAfter('a', 100);
    q.addAfter('a', 500);
    q.addAfter('b', 50);
    q.addAfter('c', 0);
    expect(q.len()).to.equal(1);
    await clock.advance(49);
    expect(q.len()).to.equal(1);
    await clock.advance(1);
    expect(q.len()).to.equal(2);
    await clock.advance(50);
    expect(q.len()).to.equal(3);
    await clock.advance(1000);
    expect(q.len()).to.equal(3);
    const order = [(await q.get()).item, (await q.get()).item, (await q.get()).item];
    expect(order).to.deep.equal(['c', 'b', 'a']);
  });

  it('moves an item waiting for later to the earlier time of a new addAfter', async () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue<string>({ clock });
    q.addAfter('a', 500);
    q.addAfter('a', 100);
    await clock.advance(100);
    expect(q.len()).to.equal(1);
  });

  it('backs off per item on addRateLimited and resets on forget', async () => {
    const clock = new FakeClock(0);
    const q = new WorkQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 10, maxDelayMs: 1000 }) });
    const arrivals: number[] = [];
    for (let i = 0; i < 4; i++) {
      q.addRateLimited('a');
      const got = q.get();
      await clock.advance(10_000);
      const { item } = await got;
      arrivals.push(clock.now());
      q.done(item!);
    }
    expect(q.numRequeues('a')).to.equal(4);
    q.forget('a');
    expect(q.numRequeues('a')).to.equal(0);
    expect(arrivals.length).to.equal(4);
  });

  it('refuses adds after shutdown but still hands out what was queued, then reports shutdown', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    q.shutDown();
    q.add('b');
    q.addAfter('c', 10);
    expect(await q.get()).to.deep.equal({ item: 'a', shutdown: false });
    expect(await q.get()).to.deep.equal({ item: undefined, shutdown: true });
    expect(q.shuttingDown()).to.equal(true);
  });

  it('wakes every waiting get on shutdown', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    const waits = [q.get(), q.get()];
    q.shutDown();
    expect((await Promise.all(waits)).map((r) => r.shutdown)).to.deep.equal([true, true]);
  });

  it('drains on shutDownWithDrain: resolves only when every handed-out item is done', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a'); q.add('b');
    const a = await q.get();
    const b = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => { drained = true; });
    q.done(a.item!);
    await new Promise((r) => setImmediate(r));
    expect(drained).to.equal(false);
    q.done(b.item!);
    await drain;
    expect(drained).to.equal(true);
  });

  it('reports adds, depth, queue latency, work duration and retries to its metrics', async () => {
    const clock = new FakeClock(0);
    const seen = { added: 0, depth: [] as number[], queued: [] as number[], worked: [] as number[], retried: 0 };
    const q = new WorkQueue<string>({
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 1 }),
      metrics: {
        added: () => { seen.added++; }, depth: (d) => { seen.depth.push(d); }, queued: (s) => { seen.queued.push(s); },
        worked: (s) => { seen.worked.push(s); }, retried: () => { seen.retried++; },
      },
    });
    q.add('a'); q.add('a');
    await clock.advance(2000);
    const { item } = await q.get();
    expect(q.progress().unfinishedWorkSeconds).to.equal(0);
    await clock.advance(500);
    expect(q.progress()).to.deep.equal({ unfinishedWorkSeconds: 0.5, longestRunningProcessorSeconds: 0.5 });
    q.done(item!);
    q.addRateLimited('a');
    expect(seen.added).to.equal(1);
    expect(seen.queued).to.deep.equal([2]);
    expect(seen.worked).to.deep.equal([0.5]);
    expect(seen.retried).to.equal(1);
    expect(seen.depth).to.deep.equal([1, 0]);
  });
});

describe('rate limiters', () => {
  it('ItemExponentialFailureRateLimiter doubles from the base delay up to the maximum', () => {
    const l = new ItemExponentialFailureRateLimiter<string>({ baseDelayMs: 1, maxDelayMs: 1000 });
    expect([1, 2, 3, 4, 5].map(() => l.when('one'))).to.deep.equal([1, 2, 4, 8, 16]);
    expect(l.numRequeues('one')).to.equal(5);
    expect(l.when('two')).to.equal(1);
    for (let i = 0; i < 100; i++) l.when('one');
    expect(l.when('one')).to.equal(1000);
    l.forget('one');
    expect(l.numRequeues('one')).to.equal(0);
    expect(l.when('one')).to.equal(1);
  });

  it('ItemFastSlowRateLimiter is fast for the first attempts, then slow', () => {
    const l = new ItemFastSlowRateLimiter<string>({ fastDelayMs: 5, slowDelayMs: 10_000, maxFastAttempts: 3 });
    expect([1, 2, 3, 4, 5].map(() => l.when('one'))).to.deep.equal([5, 5, 5, 10_000, 10_000]);
    expect(l.when('two')).to.equal(5);
    l.forget('one');
    expect(l.when('one')).to.equal(5);
  });

  it('BucketRateLimiter lets a burst through, then spaces items at the qps, and refills with time', async () => {
    const clock = new FakeClock(0);
    const l = new BucketRateLimiter<string>({ qps: 10, burst: 3, clock });
    expect([l.when('a'), l.when('b'), l.when('c')]).to.deep.equal([0, 0, 0]);
    expect(l.when('d')).to.be.closeTo(100, 1e-9);
    expect(l.when('e')).to.be.closeTo(200, 1e-9);
    await clock.advance(1000);
    expect(l.when('f')).to.equal(0);
  });

  it('MaxOfRateLimiter takes the longest delay and the default controller limiter combines both', () => {
    const clock = new FakeClock(0);
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter({ baseDelayMs: 1, maxDelayMs: 100 }),
      new ItemFastSlowRateLimiter({ fastDelayMs: 3, slowDelayMs: 50, maxFastAttempts: 2 }));
    expect([l.when('x'), l.when('x'), l.when('x'), l.when('x')]).to.deep.equal([3, 3, 50, 50]);
    expect(l.numRequeues('x')).to.equal(4);
    l.forget('x');
    expect(l.numRequeues('x')).to.equal(0);
    const d = defaultControllerRateLimiter<string>(clock);
    expect(d.when('k')).to.equal(5);
    expect(d.when('k')).to.equal(10);
    const delays = Array.from({ length: 120 }, (_, i) => d.when(`item-${i}`));
    expect(delays.slice(0, 98).every((x) => x === 5)).to.equal(true);
    expect(delays[119]).to.be.greaterThan(1000);
  });
});
