// Reads at a resourceVersion the store has not reached wait for it, as kube-apiserver's watch cache
// does in waitUntilFreshAndBlock (k8s.io/apiserver v0.34.4, pkg/storage/cacher/watch_cache.go): the
// cases follow watch_cache_test.go's TestWaitUntilFreshAndGet (a write reaching the version ends the
// wait), TestWaitUntilFreshAndListTimeout (after blockTimeout, 3 s, a Timeout with the
// ResourceVersionTooLarge cause, even if the store moved but not far enough) and the
// RunTestGet/RunTestList cases "too high resource version" (math.MaxInt64) of storage/testing.
import { expect } from 'chai';
import { FakeClock, KubeError } from '@kubekit/core';
import type { Persistence } from '../src/persistence.js';
import { ObjectStore } from '../src/storage/objectStore.js';
import { ResourceVersionWaiter, TooManyWaitingRequestsError } from '../src/storage/resourceVersionWaiter.js';

const gr = { group: '', resource: 'configmaps' };

function write(store: ObjectStore, name: string): number {
  return store.create(gr, `default/${name}`, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } }).event.rv;
}

/** Settles a promise into a value the test can inspect without awaiting it. */
function observe<T>(p: Promise<T>): { state: 'pending' | 'resolved' | 'rejected'; error: unknown } {
  const o = { state: 'pending' as 'pending' | 'resolved' | 'rejected', error: undefined as unknown };
  p.then(() => { o.state = 'resolved'; }, (err: unknown) => { o.state = 'rejected'; o.error = err; });
  return o;
}

async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('ResourceVersionWaiter', () => {
  let clock: FakeClock;
  let store: ObjectStore;
  let waiter: ResourceVersionWaiter;

  beforeEach(() => {
    clock = new FakeClock();
    store = new ObjectStore();
    write(store, 'a');
    write(store, 'b');
    waiter = new ResourceVersionWaiter(store, { clock });
  });

  afterEach(() => waiter.close());

  it('returns at once for a resourceVersion the store has reached', async () => {
    await waiter.waitUntilFresh(2n);
    await waiter.waitUntilFresh(1n);
    await waiter.waitUntilFresh(0n);
    expect(waiter.waiting).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('ends the wait as soon as a write reaches the resourceVersion (TestWaitUntilFreshAndGet)', async () => {
    const o = observe(waiter.waitUntilFresh(4n));
    await settle();
    expect(waiter.waiting).to.equal(1);
    write(store, 'c');
    await settle();
    expect(o.state).to.equal('pending');
    await clock.advance(2999);
    expect(o.state).to.equal('pending');
    write(store, 'd');
    await settle();
    expect(o.state).to.equal('resolved');
    expect(waiter.waiting).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('fails after 3 s with the apiserver\'s Timeout when no write reaches it (TestWaitUntilFreshAndListTimeout)', async () => {
    const o = observe(waiter.waitUntilFresh(5n));
    write(store, 'c');
    await clock.advance(2999);
    expect(o.state).to.equal('pending');
    await clock.advance(1);
    expect(o.state).to.equal('rejected');
    const err = o.error as KubeError;
    expect(err).to.be.instanceOf(KubeError);
    expect(err.toStatus()).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      // storage.NewTooLargeResourceVersionError: the current version is the one at the timeout.
      message: 'Timeout: Too large resource version: 5, current: 3', reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    });
    expect(waiter.waiting).to.equal(0);
  });

  it('keeps every digit of a resourceVersion beyond 2^53 ("too high resource version": math.MaxInt64)', async () => {
    const o = observe(waiter.waitUntilFresh(9223372036854775807n));
    await clock.advance(3000);
    expect((o.error as KubeError).message).to.equal('Timeout: Too large resource version: 9223372036854775807, current: 2');
  });

  it('answers at once, without retryAfterSeconds, when told not to wait (a resource read from etcd)', async () => {
    const o = observe(waiter.waitUntilFresh(5n, { wait: false }));
    await settle();
    expect(o.state).to.equal('rejected');
    expect((o.error as KubeError).toStatus().details).to.deep.equal({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] });
    await waiter.waitUntilFresh(2n, { wait: false });
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('releases waiters in resourceVersion order, each at its own version', async () => {
    const o5 = observe(waiter.waitUntilFresh(5n));
    const o3 = observe(waiter.waitUntilFresh(3n));
    const o4 = observe(waiter.waitUntilFresh(4n));
    write(store, 'c');
    await settle();
    expect([o3.state, o4.state, o5.state]).to.deep.equal(['resolved', 'pending', 'pending']);
    write(store, 'd');
    write(store, 'e');
    await settle();
    expect([o4.state, o5.state]).to.deep.equal(['resolved', 'resolved']);
  });

  it('ends the wait when the request goes away, leaving no timer behind', async () => {
    const abort = new AbortController();
    const o = observe(waiter.waitUntilFresh(9n, { signal: abort.signal }));
    await settle();
    abort.abort(new Error('client went away'));
    await settle();
    expect(o.state).to.equal('rejected');
    expect((o.error as Error).message).to.equal('client went away');
    expect(waiter.waiting).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
    const already = observe(waiter.waitUntilFresh(9n, { signal: abort.signal }));
    await settle();
    expect(already.state).to.equal('rejected');
  });

  it('makes the request\'s signal only for a read that has to wait (most are fresh: the informer\'s lookups)', async () => {
    let made = 0;
    const signal = (): AbortSignal => {
      made++;
      return new AbortController().signal;
    };
    await waiter.waitUntilFresh(BigInt(store.resourceVersion), { signal });
    expect(made).to.equal(0);
    const o = observe(waiter.waitUntilFresh(BigInt(store.resourceVersion) + 1n, { signal }));
    expect(made).to.equal(1);
    write(store, 'late');
    await settle();
    expect(o.state).to.equal('resolved');
  });

  it('waits for delivery to watchers when asked to, not only for the commit', async () => {
    let release!: () => void;
    const persistence: Persistence = {
      append: () => new Promise<void>((resolve) => { release = resolve; }),
      flush: async () => {},
      close: async () => {},
    };
    const slow = new ObjectStore({ persistence });
    const w = new ResourceVersionWaiter(slow, { clock });
    try {
      slow.create(gr, 'default/x', 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
      const committed = observe(w.waitUntilFresh(1n));
      const delivered = observe(w.waitUntilFresh(1n, { delivered: true }));
      await settle();
      expect([committed.state, delivered.state]).to.deep.equal(['resolved', 'pending']);
      release();
      await settle();
      expect(delivered.state).to.equal('resolved');
    } finally {
      w.close();
    }
  });

  it('bounds how many requests wait at once, answering the next as the apiserver\'s in-flight limit does', async () => {
    const small = new ResourceVersionWaiter(store, { clock, maxWaiting: 2 });
    try {
      const a = observe(small.waitUntilFresh(10n));
      const b = observe(small.waitUntilFresh(11n));
      let refused: unknown;
      try { await small.waitUntilFresh(12n); } catch (err) { refused = err; }
      expect(refused).to.be.instanceOf(TooManyWaitingRequestsError);
      expect((refused as KubeError).toStatus()).to.include({ reason: 'TooManyRequests', code: 429, message: 'Too many requests, please try again later.' });
      expect((refused as KubeError).details).to.deep.equal({ retryAfterSeconds: 1 });
      // A fresh read does not wait, so the bound does not apply to it.
      await small.waitUntilFresh(2n);
      await clock.advance(3000);
      expect([a.state, b.state]).to.deep.equal(['rejected', 'rejected']);
      expect(small.waiting).to.equal(0);
      await settle();
    } finally {
      small.close();
    }
  });

  it('ends every wait when closed', async () => {
    const o = observe(waiter.waitUntilFresh(10n));
    waiter.close();
    await settle();
    expect(o.state).to.equal('rejected');
    expect((o.error as KubeError).reason).to.equal('ServiceUnavailable');
    expect(clock.pendingTimers()).to.equal(0);
  });
});
