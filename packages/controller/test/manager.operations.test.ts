// What keeps an operator running for months: metrics by default on the Manager's registry, permanent
// cache errors that fail start (and readiness) instead of retrying silently forever, controller-runtime's
// cache-sync timeout, and a failing runnable that stops the manager. Real HTTP against the embedded
// API server where the semantics come from the server.
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { FakeClock, KubeError } from '@kubekit/core';
import { Informer, KubeClient, loadKubeConfig, type KubeConfigLike } from '@kubekit/informer';
import { Controller, EventRecorder, Manager, type CoreEvent, type Runnable, type SyncableRunnable } from '@kubekit/controller';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: '.spec.color' }],
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, version: { type: 'string' } } } } } },
    }],
  },
};

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const fast = { backoff: { initialMs: 20, maxMs: 100 }, streamingList: 'never' as const };

describe('Manager operations', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let kc: KubeConfigLike;
  let client: KubeClient;

  before(async () => {
    server = await startApiServer();
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    client = new KubeClient(kc);
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await server.idle();
    await until(async () => (await client.request('GET', '/apis/stable.example.com/v1/shirts').then(() => true, () => false)), 'shirts served');
    await client.request('POST', '/apis/stable.example.com/v1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'a' }, spec: { color: 'blue' } });
  });
  after(async () => { client.close(); await server.close(); });

  it('serves workqueue, reconcile, informer, REST client and process metrics on /metrics by default', async () => {
    const informer = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector: 'spec.color=blue' });
    let reconciles = 0;
    const controller = new Controller({ name: 'blue', reconciler: () => { reconciles++; } }).for(informer);
    const m = new Manager({ probes: { port: 0 } }).add(informer, { leaderElection: false }).add(controller);
    const ac = new AbortController();
    const run = m.start(ac.signal);
    try {
      await until(() => reconciles > 0, 'a reconcile');
      await client.request('PATCH', '/apis/stable.example.com/v1/namespaces/default/shirts/a', { metadata: { labels: { seen: 'yes' } } }, { contentType: 'application/merge-patch+json' });
      await until(() => informer.get('default/a')?.metadata.labels?.seen === 'yes', 'the update');
      const text = await (await fetch(`${m.probeAddress()!}/metrics`)).text();
      for (const series of [
        'controller_runtime_reconcile_total{controller="blue",result="success"}',
        'controller_runtime_max_concurrent_reconciles{controller="blue"} 1',
        'workqueue_adds_total{name="blue"}',
        'workqueue_depth{name="blue"}',
        'kubekit_informer_lists_total{resource="shirts.stable.example.com"} 1',
        'kubekit_informer_watches_total{resource="shirts.stable.example.com"}',
        'kubekit_informer_events_total{resource="shirts.stable.example.com",type="MODIFIED"} 1',
        'kubekit_informer_cache_objects{resource="shirts.stable.example.com"} 1',
        'rest_client_requests_total{code="200",method="GET",host="127.0.0.1:',
        'rest_client_request_duration_seconds_bucket{le="0.005",verb="GET",host="127.0.0.1:',
        'process_cpu_user_seconds_total',
        'nodejs_heap_size_used_bytes',
      ]) expect(text, series).to.contain(series);
    } finally {
      ac.abort();
      await run;
    }
  });

  // client-go's EventCorrelator keeps an LRU of 4096 entries; an unbounded map grew with every object ever seen.
  it('remembers a bounded number of events for aggregation (an LRU), so a long-running recorder does not grow', async () => {
    const recorder = new EventRecorder(client, { component: 'lru-test', cacheSize: 2 });
    const obj = (name: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name, uid: `uid-${name}` } });
    for (const name of ['lru-a', 'lru-b', 'lru-c']) await recorder.event(obj(name), 'Normal', 'Seen', 'seen');
    expect(recorder.cached).to.equal(2);
    await recorder.event(obj('lru-c'), 'Normal', 'Seen', 'seen'); // remembered: aggregated
    await recorder.event(obj('lru-a'), 'Normal', 'Seen', 'seen'); // forgotten: a new Event
    expect(recorder.cached).to.equal(2);
    const events = (await client.request('GET', '/api/v1/namespaces/default/events') as { items: CoreEvent[] }).items
      .filter((e) => e.source?.component === 'lru-test');
    const counts = (name: string): number[] => events.filter((e) => e.involvedObject.name === name).map((e) => e.count).sort();
    expect(counts('lru-a')).to.deep.equal([1, 1]);
    expect(counts('lru-b')).to.deep.equal([1]);
    expect(counts('lru-c')).to.deep.equal([2]);
  });

  // Found by the soak: each remembered entry was the whole Event the server returned (managedFields
  // and all, ~2 KB), so a recorder's cache grew by megabytes on its way to 4096 entries. Like client-go's
  // eventLog, it keeps what a recurrence needs: the Event's name and count.
  it('remembers only the name and count of each Event, not the objects the server returned', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const returned: WeakRef<object>[] = [];
    const patches: { name: string; body: unknown }[] = [];
    const events = {
      create: async (e: CoreEvent): Promise<CoreEvent> => {
        const created = { ...e, metadata: { ...e.metadata, uid: 'u', resourceVersion: '1', managedFields: [{ manager: 'm', fieldsV1: { 'f:x': {} } }] }, padding: 'x'.repeat(100_000) } as unknown as CoreEvent;
        returned.push(new WeakRef(created));
        return created;
      },
      patch: async (name: string, body: Partial<CoreEvent>): Promise<CoreEvent> => {
        patches.push({ name, body });
        const patched = { metadata: { name, namespace: 'default' }, count: body.count } as unknown as CoreEvent;
        returned.push(new WeakRef(patched));
        return patched;
      },
    };
    const recorder = new EventRecorder({ resource: () => events } as unknown as KubeClient, { component: 'c' });
    const obj = { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name: 'a', uid: 'uid-a' } };
    await recorder.event(obj, 'Normal', 'Seen', 'seen');
    await recorder.event(obj, 'Normal', 'Seen', 'seen');
    await recorder.event(obj, 'Normal', 'Seen', 'seen');
    expect(patches.map((p) => [p.name.startsWith('a.'), (p.body as { count: number }).count])).to.deep.equal([[true, 2], [true, 3]]);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(returned.map((r) => r.deref() === undefined)).to.deep.equal([true, true, true]);
  });

  it('rejects start with the server\'s message when a cache cannot sync (a field selector the server rejects)', async () => {
    const informer = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'default', fieldSelector: 'spec.version=v2', ...fast });
    let reconciles = 0;
    const m = new Manager().add(informer, { leaderElection: false }).add(new Controller({ name: 'c', reconciler: () => { reconciles++; } }).for(informer));
    const err = await m.start(new AbortController().signal).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).message).to.equal('failed to wait for caches to sync: field label not supported: spec.version');
    expect((err as KubeError).code).to.equal(400);
    expect(reconciles).to.equal(0);
    expect(informer.status.phase).to.equal('stopped');
  });
});

describe('Manager cache sync and failures', () => {
  function neverSyncs(): SyncableRunnable & { hasSynced(): boolean } {
    return {
      start: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      waitForSync: () => new Promise(() => undefined),
      hasSynced: () => false,
      status: { lastError: new Error('connection refused') },
    };
  }

  it('rejects start once the cache sync timeout passes (default 2 minutes, as controller-runtime)', async () => {
    const clock = new FakeClock(0);
    let started = false;
    const m = new Manager({ clock }).add(neverSyncs(), { leaderElection: false }).add({ start: async () => { started = true; } });
    let err: unknown;
    const done = m.start(new AbortController().signal).catch((e: unknown) => { err = e; });
    await clock.advance(119_999);
    expect(err).to.equal(undefined);
    await clock.advance(1);
    await done;
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).reason).to.equal('Timeout');
    expect((err as KubeError).message).to.equal('timed out waiting for caches to sync after 120000 ms: runnable 0 (last error: connection refused) did not sync');
    expect(started).to.equal(false);
  });

  // Regression for the second: the wait for the caches missed an abort that came before it began, and
  // lasted until the cache sync timeout.
  for (const when of ['while it waits', 'before start'] as const) it(`stops waiting for the caches when the signal aborts ${when}, and starts no controller`, async () => {
    const clock = new FakeClock(0);
    let started = false;
    const m = new Manager({ clock }).add(neverSyncs(), { leaderElection: false }).add({ start: async () => { started = true; } });
    const ac = new AbortController();
    if (when === 'before start') ac.abort();
    let done = false;
    const run = m.start(ac.signal).then(() => { done = true; });
    await clock.advance(60_000);
    ac.abort();
    for (let i = 0; i < 10 && !done; i++) await new Promise((r) => setImmediate(r));
    expect(done, 'start returned without the clock moving').to.equal(true);
    await run;
    expect(started).to.equal(false);
    expect(m.isLeader()).to.equal(false);
  });

  it('reports a permanent error of a synced cache on /readyz while it lasts', async () => {
    const status: { permanentError?: Error } = {};
    const cache: SyncableRunnable = { ...neverSyncs(), waitForSync: () => Promise.resolve(), status };
    const m = new Manager({ probes: { port: 0 } }).add(cache, { leaderElection: false });
    const ac = new AbortController();
    const run = m.start(ac.signal);
    try {
      await until(() => m.probeAddress() !== undefined, 'probes');
      await until(async () => (await fetch(`${m.probeAddress()!}/readyz`)).status === 200, 'ready');
      expect((await fetch(`${m.probeAddress()!}/readyz`)).status).to.equal(200);
      status.permanentError = new KubeError('Forbidden', 'shirts.stable.example.com is forbidden: User "op" cannot list resource "shirts"');
      const r = await fetch(`${m.probeAddress()!}/readyz`);
      expect(r.status).to.equal(500);
      expect(await r.text()).to.equal('runnable 0: shirts.stable.example.com is forbidden: User "op" cannot list resource "shirts"');
      status.permanentError = undefined;
      expect((await fetch(`${m.probeAddress()!}/readyz`)).status).to.equal(200);
    } finally {
      ac.abort();
      await run;
    }
  });

  it('stops everything and rejects start when a runnable fails, as controller-runtime', async () => {
    const stopped: string[] = [];
    const waiter = (name: string): Runnable => ({ start: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => { stopped.push(name); resolve(); }, { once: true })) });
    let fail!: (e: Error) => void;
    const failing: Runnable = { start: () => new Promise<void>((_, reject) => { fail = reject; }) };
    const m = new Manager().add(waiter('cache'), { leaderElection: false }).add(waiter('controller')).add(failing);
    const done = m.start(new AbortController().signal).then(() => undefined, (e: unknown) => e);
    await until(() => fail !== undefined, 'the failing runnable to start');
    fail(new Error('boom'));
    expect(((await done) as Error).message).to.equal('boom');
    expect(stopped.sort()).to.deep.equal(['cache', 'controller']);
  });
});

describe('Controller cache sync', () => {
  const source = (waitForSync: () => Promise<unknown>) => ({ addEventHandler: () => ({ remove() {} }), waitForSync });

  it('rejects start when a source fails to sync, with the source\'s reason and message', async () => {
    const c = new Controller({ name: 'c', reconciler: () => undefined }).for(source(() => Promise.reject(new KubeError('Forbidden', 'shirts is forbidden'))));
    const err = await c.start(new AbortController().signal).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).reason).to.equal('Forbidden');
    expect((err as KubeError).message).to.equal('controller c: failed to wait for caches to sync: shirts is forbidden');
  });

  // Regression: with a signal aborted before start, the wait for a source that ignores its signal
  // lasted until the cache sync timeout (2 minutes) instead of ending at once.
  it('returns at once when started with an aborted signal, even if a source never syncs and ignores the signal', async () => {
    const clock = new FakeClock(0);
    let reconciles = 0;
    const c = new Controller({ name: 'c', clock, reconciler: () => { reconciles++; } }).for(source(() => new Promise(() => undefined)));
    const ac = new AbortController();
    ac.abort();
    let done = false;
    const run = c.start(ac.signal).then(() => { done = true; });
    for (let i = 0; i < 10 && !done; i++) await new Promise((r) => setImmediate(r));
    expect(done, 'start returned without the clock moving').to.equal(true);
    await run;
    expect(reconciles).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('rejects start after cacheSyncTimeoutMs (default 2 minutes) when a source never syncs', async () => {
    const clock = new FakeClock(0);
    const c = new Controller({ name: 'c', clock, reconciler: () => undefined }).for(source(() => new Promise(() => undefined)));
    let err: unknown;
    const done = c.start(new AbortController().signal).catch((e: unknown) => { err = e; });
    await clock.advance(119_999);
    expect(err).to.equal(undefined);
    await clock.advance(1);
    await done;
    expect((err as KubeError).message).to.equal('controller c: failed to wait for caches to sync: timed out after 120000 ms');
    expect((err as KubeError).reason).to.equal('Timeout');
  });
});
