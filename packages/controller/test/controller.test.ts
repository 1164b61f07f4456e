import { expect } from 'chai';
import { EventEmitter } from 'eventemitter3';
import { PassThrough } from 'node:stream';
import { FakeClock, type KubeObject } from '@kubekit/core';
import {
  Controller, ItemExponentialFailureRateLimiter, TerminalError, createLogger, generationChangedPredicate, type EventSource, type Request, type SourceHandlers,
} from '@kubekit/controller';

/** An event source driven by the test: emit events, resolve sync when told. */
class FakeSource extends EventEmitter implements EventSource {
  private synced!: () => void;
  private readonly sync = new Promise<void>((resolve) => { this.synced = resolve; });
  markSynced(): void { this.synced(); }
  waitForSync(): Promise<void> { return this.sync; }
  addEventHandler(h: SourceHandlers<KubeObject>): { remove(): void } {
    this.on('add', h.add); this.on('update', h.update); this.on('delete', h.delete);
    return { remove: () => { this.off('add', h.add); this.off('update', h.update); this.off('delete', h.delete); } };
  }
}

function shirt(name: string, generation = 1, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name, generation, ...extra } };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Controller', () => {
  it('starts workers only after the sources synced, and reconciles each object once for coalesced events', async () => {
    const source = new FakeSource();
    const seen: Request[] = [];
    const c = new Controller({ name: 'shirts', reconciler: (req) => { seen.push(req); } }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    source.emit('add', shirt('a'));
    source.emit('update', shirt('a', 2), shirt('a', 1));
    source.emit('add', shirt('b'));
    await tick();
    expect(seen).to.deep.equal([]);
    source.markSynced();
    for (let i = 0; i < 10 && seen.length < 2; i++) await tick();
    expect(seen).to.deep.equal([{ namespace: 'default', name: 'a' }, { namespace: 'default', name: 'b' }]);
    ac.abort();
    await run;
  });

  it('never reconciles one object concurrently, even with many workers', async () => {
    const source = new FakeSource();
    source.markSynced();
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const gates: (() => void)[] = [];
    const c = new Controller({
      name: 'x', maxConcurrentReconciles: 4,
      reconciler: async () => {
        running++; calls++; maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
      },
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    source.emit('add', shirt('a'));
    await tick();
    source.emit('update', shirt('a', 2), shirt('a'));
    source.emit('update', shirt('a', 3), shirt('a', 2));
    await tick();
    expect(calls).to.equal(1);
    gates.shift()!();
    for (let i = 0; i < 10 && calls < 2; i++) await tick();
    expect(calls).to.equal(2);
    expect(maxRunning).to.equal(1);
    gates.shift()!();
    ac.abort();
    await run;
  });

  it('retries failures with backoff, requeues after a delay, and does not retry terminal errors', async () => {
    const clock = new FakeClock(0);
    const source = new FakeSource();
    source.markSynced();
    const attempts = new Map<string, number[]>();
    const c = new Controller({
      name: 'x', clock, rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 100, maxDelayMs: 10_000 }),
      reconciler: ({ name }) => {
        const list = attempts.get(name) ?? [];
        list.push(clock.now());
        attempts.set(name, list);
        if (name === 'flaky' && list.length < 4) throw new Error('boom');
        if (name === 'terminal') throw new TerminalError('spec.size is not a size');
        if (name === 'periodic' && list.length < 3) return { requeueAfterMs: 5000 };
        return undefined;
      },
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    for (const n of ['flaky', 'terminal', 'periodic']) source.emit('add', shirt(n));
    for (let i = 0; i < 40; i++) await clock.advance(500);
    expect(attempts.get('flaky')).to.deep.equal([0, 100, 300, 700]);
    expect(attempts.get('terminal')).to.deep.equal([0]);
    expect(attempts.get('periodic')).to.deep.equal([0, 5000, 10000]);
    ac.abort();
    await run;
  });

  it('retries every request whatever its reconciler throws (null, no prototype, a throwing toString or getter, a proxy), with no unhandled rejection', async () => {
    // A report that throws from the catch block lost the request (a proxy: never retried) and ended
    // the process with an unhandled rejection (Node's default) for the others.
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
    const clock = new FakeClock(0);
    const source = new FakeSource();
    source.markSynced();
    const messageGetter = Object.create(Error.prototype, { message: { get: () => { throw new Error('no message'); } } }) as unknown;
    const thrown: Record<string, unknown> = {
      nothing: undefined,
      null: null,
      'no-prototype': Object.create(null),
      'throwing-tostring': { toString: () => { throw new Error('no text'); } },
      'message-getter': messageGetter,
      proxy: new Proxy({}, { get: () => { throw new Error('trap'); }, getPrototypeOf: () => { throw new Error('trap'); } }),
    };
    const attempts = new Map<string, number>();
    const c = new Controller({
      name: 'hostile', clock, logger: createLogger({ format: 'json', stream }), rateLimiter: new ItemExponentialFailureRateLimiter({ baseDelayMs: 100, maxDelayMs: 1000 }),
      reconciler: ({ name }) => {
        attempts.set(name, (attempts.get(name) ?? 0) + 1);
        throw thrown[name];
      },
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    try {
      await tick();
      for (const name of Object.keys(thrown)) source.emit('add', shirt(name));
      for (let i = 0; i < 10; i++) {
        await clock.advance(200);
        await tick();
      }
      for (const name of Object.keys(thrown)) expect(attempts.get(name) ?? 0, name).to.be.greaterThan(2);
      await tick();
      expect(rejections.map(String)).to.deep.equal([]);
      const failures = lines.map((l) => JSON.parse(l) as { message: string; name?: string; error?: string }).filter((l) => l.message === 'reconcile failed; retrying with backoff');
      expect(new Set(failures.map((l) => l.name))).to.deep.equal(new Set(Object.keys(thrown)));
      expect(failures.find((l) => l.name === 'no-prototype')?.error).to.equal('[object Object]');
      expect(failures.find((l) => l.name === 'null')?.error).to.equal('null');
    } finally {
      ac.abort();
      await run;
      process.off('unhandledRejection', onRejection);
    }
  });

  it('filters with predicates, maps owned objects to their controller owner, and survives throwing map functions', async () => {
    const shirts = new FakeSource(); shirts.markSynced();
    const pods = new FakeSource(); pods.markSynced();
    const other = new FakeSource(); other.markSynced();
    const seen: string[] = [];
    const c = new Controller({ name: 'x', reconciler: ({ name }) => { seen.push(name); } })
      .for(shirts, generationChangedPredicate())
      .owns(pods, { apiVersion: 'stable.example.com/v1', kind: 'Shirt' })
      .watches(other, (obj) => { if (obj.metadata.name === 'bad') throw new Error('map failed'); return [{ namespace: 'default', name: `mapped-${obj.metadata.name}` }]; });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    shirts.emit('update', shirt('same-gen', 1, { labels: { a: 'b' } }), shirt('same-gen', 1));
    pods.emit('add', { metadata: { namespace: 'default', name: 'pod-1', ownerReferences: [
      { apiVersion: 'stable.example.com/v1', kind: 'Shirt', name: 'owner', uid: 'u', controller: true }] } });
    pods.emit('add', { metadata: { namespace: 'default', name: 'pod-2', ownerReferences: [
      { apiVersion: 'stable.example.com/v1', kind: 'Shirt', name: 'not-controller', uid: 'u' }] } });
    other.emit('add', shirt('bad'));
    other.emit('add', shirt('z'));
    for (let i = 0; i < 10 && seen.length < 2; i++) await tick();
    expect(seen).to.deep.equal(['owner', 'mapped-z']);
    ac.abort();
    await run;
  });

  it('finishes in-flight reconciles on shutdown and logs with controller and request fields', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (d: Buffer) => lines.push(...d.toString().trim().split('\n')));
    const source = new FakeSource(); source.markSynced();
    let finished = false;
    let release!: () => void;
    const c = new Controller({
      name: 'shirts', logger: createLogger({ format: 'json', stream, level: 'debug' }),
      reconciler: async () => { await new Promise<void>((r) => { release = r; }); finished = true; throw new Error('late failure'); },
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    source.emit('add', shirt('a'));
    await tick();
    ac.abort();
    let stopped = false;
    void run.then(() => { stopped = true; });
    await tick();
    expect(stopped).to.equal(false);
    release();
    await run;
    expect(finished).to.equal(true);
    await tick();
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const failure = entries.find((e) => e.message === 'reconcile failed; retrying with backoff');
    expect(failure).to.include({ controller: 'shirts', namespace: 'default', name: 'a', level: 'error', error: 'Error: late failure' });
  });

  it('aborts reconciles still running at the graceful shutdown timeout, and leaves no timer behind', async () => {
    const clock = new FakeClock(0);
    const source = new FakeSource(); source.markSynced();
    let aborted = false;
    const c = new Controller({
      name: 'stuck', clock, gracefulShutdownTimeoutMs: 5_000,
      reconciler: (_req, signal) => new Promise<void>((resolve) => { signal.addEventListener('abort', () => { aborted = true; resolve(); }, { once: true }); }),
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    source.emit('add', shirt('a'));
    await tick();
    ac.abort();
    await clock.advance(4_999);
    expect(aborted).to.equal(false);
    await clock.advance(1);
    await run;
    expect(aborted).to.equal(true);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('reconciles both the previous and the new owner when an owned object changes hands', async () => {
    const pods = new FakeSource(); pods.markSynced();
    const seen: string[] = [];
    const c = new Controller({ name: 'x', reconciler: ({ name }) => { seen.push(name); } })
      .owns(pods, { apiVersion: 'stable.example.com/v1', kind: 'Shirt' });
    const ac = new AbortController();
    const run = c.start(ac.signal);
    await tick();
    const owned = (owner: string): KubeObject => ({ metadata: { namespace: 'default', name: 'pod', ownerReferences: [
      { apiVersion: 'stable.example.com/v1', kind: 'Shirt', name: owner, uid: owner, controller: true }] } });
    pods.emit('update', owned('new-owner'), owned('old-owner'));
    for (let i = 0; i < 10 && seen.length < 2; i++) await tick();
    expect(seen.sort()).to.deep.equal(['new-owner', 'old-owner']);
    ac.abort();
    await run;
  });
});
