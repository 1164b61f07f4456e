// Controllers against the embedded API server over real HTTP, and against the real kube-apiserver
// (@kubekit/envtest, when Go is on PATH): a field-selected informer feeding a controller that writes
// status, handles a finalizer and records events; and leader election on real Leases.
import { expect } from 'chai';
import { FakeClock, KubeError, type KubeObject } from '@kubekit/core';
import { Informer, KubeClient, loadKubeConfig, type KubeConfigLike, type ResourceClient } from '@kubekit/informer';
import {
  Controller, EventRecorder, Manager, TerminalError, addFinalizer, controllerReference, handleFinalizer, kubeLeaseClient,
  retryOnConflict, setControllerReference, updateStatus, type EventSource, type LeaseClient,
} from '@kubekit/controller';
import { testBackends, type TestServer } from '../../informer/test/helpers/backends.js';

type Shirt = KubeObject<{ color?: string; size?: string }, { phase?: string; observedGeneration?: number }>;

const shirtCRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
      schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string' } } },
        status: { type: 'object', properties: { phase: { type: 'string' }, observedGeneration: { type: 'integer' } } },
      } } },
    }],
  },
};

const shirt = (name: string, color: string, size = 'M'): Shirt =>
  ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name }, spec: { color, size } });

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const backend of testBackends()) describe(`controllers against the ${backend.name} API server`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 60_000);
  let server: TestServer;
  let kc: KubeConfigLike;
  let client: KubeClient;
  let shirts: ResourceClient<Shirt>;

  before(async () => {
    server = await backend.start();
    kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
    client = new KubeClient(kc);
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', shirtCRD);
    shirts = client.resource<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
    // A real apiserver serves a new CRD's resource a moment after accepting it.
    await until(() => client.request('GET', '/apis/stable.example.com/v1/shirts').then(() => true, () => false), 'shirts served');
  });
  after(async () => { client.close(); await server.close(); });

  it('reconciles exactly the field-selected objects, follows them in and out of the selection, and finalizes', async () => {
    for (const s of [shirt('example1', 'blue', 'S'), shirt('example2', 'blue'), shirt('example3', 'green')]) await shirts.create(s);
    const informer = new Informer<Shirt>(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector: 'spec.color=blue' });
    const source: EventSource<Shirt> = informer;
    const recorder = new EventRecorder(client, { component: 'shirts-operator' });
    const reconciled: string[] = [];
    const requested: string[] = [];
    const finalized: string[] = [];
    const controller = new Controller({
      name: 'blue-shirts', maxConcurrentReconciles: 2,
      reconciler: async ({ namespace, name }) => {
        requested.push(name);
        const cached = informer.getByName(name, namespace);
        if (cached === undefined) return;
        reconciled.push(name);
        const outcome = await handleFinalizer(shirts, cached, 'stable.example.com/cleanup', () => { finalized.push(name); });
        if (outcome !== 'unchanged') return;
        if (cached.status?.phase !== 'Selected' || cached.status.observedGeneration !== cached.metadata.generation) {
          await updateStatus(shirts, namespace, name, (s) => { s.status = { phase: 'Selected', observedGeneration: s.metadata.generation }; });
          await recorder.event(cached, 'Normal', 'Selected', `shirt ${name} is blue`);
        }
      },
    }).for(source);
    const ac = new AbortController();
    const runs = [informer.start(ac.signal), controller.start(ac.signal)];
    try {
      await informer.waitForSync();
      const phase = async (n: string): Promise<string | undefined> => (await shirts.get(n, { namespace: 'default' })).status?.phase;
      await until(async () => (await phase('example1')) === 'Selected' && (await phase('example2')) === 'Selected', 'blue shirts selected');
      expect(await phase('example3')).to.equal(undefined);
      expect(new Set(reconciled)).to.deep.equal(new Set(['example1', 'example2']));

      await shirts.patch('example3', { spec: { color: 'blue' } }, { namespace: 'default' });
      await until(async () => (await phase('example3')) === 'Selected', 'example3 to enter the selection');

      // The controller reads no delete reasons: a departure costs no lookup and is reconciled at once.
      await shirts.create(shirt('example4', 'blue'));
      await until(async () => (await phase('example4')) === 'Selected', 'example4 selected');
      const before = requested.length;
      await shirts.patch('example4', { spec: { color: 'red' } }, { namespace: 'default' });
      await until(() => informer.getByName('example4', 'default') === undefined && requested.slice(before).includes('example4'), 'example4 to leave and be reconciled');
      expect(informer.status.deleteReasons.lookups).to.equal(0);

      const leftReasons: string[] = [];
      informer.on('delete', (obj, info) => { leftReasons.push(`${obj.metadata.name}:${info.reason}`); });
      await shirts.patch('example1', { spec: { color: 'red' } }, { namespace: 'default' });
      await until(() => leftReasons.includes('example1:leftSelection'), 'example1 to leave the selection');

      await shirts.delete('example2', { namespace: 'default' });
      await until(() => finalized.includes('example2'), 'the finalizer to run');
      await until(async () => (await shirts.tryGet('example2', { namespace: 'default' })) === undefined, 'example2 to go');

      const events = await client.request('GET', '/api/v1/namespaces/default/events') as { items: { reason: string; involvedObject: { name: string }; source: { component: string } }[] };
      expect(events.items.filter((e) => e.reason === 'Selected').map((e) => e.involvedObject.name).sort()).to.include.members(['example2', 'example3']);
      expect(events.items[0].source.component).to.equal('shirts-operator');
    } finally {
      ac.abort();
      await Promise.all(runs);
    }
  });

  it('retries conflicts, keeps finalizers under optimistic concurrency, and sets one controller owner', async () => {
    const created = await shirts.create(shirt('conflicted', 'blue'));
    let calls = 0;
    const result = await retryOnConflict(async () => {
      calls++;
      const current = calls === 1 ? created : await shirts.get('conflicted', { namespace: 'default' });
      if (calls === 1) await shirts.patch('conflicted', { spec: { size: 'L' } }, { namespace: 'default' });
      return shirts.update({ ...current, spec: { ...current.spec, color: 'green' } });
    });
    expect(calls).to.equal(2);
    expect(result.spec).to.deep.equal({ color: 'green', size: 'L' });
    let stale: unknown;
    try { await addFinalizer(shirts, created, 'x/y'); } catch (err) { stale = err; }
    expect((stale as KubeError).reason).to.equal('Conflict');
    const owned = setControllerReference(result, shirt('child', 'blue'));
    expect(owned.metadata.ownerReferences).to.deep.equal([controllerReference(result)]);
    expect(() => setControllerReference({ ...result, metadata: { ...result.metadata, name: 'other', uid: 'other' } }, owned)).to.throw(KubeError, /already owned by another Shirt controller conflicted/);
    expect(new TerminalError('x').reason).to.equal('Invalid');
  });

  it('never lets two managers lead at once on a real Lease, and fails over within the lease duration', async () => {
    const clock = new FakeClock(Date.now());
    const stalled = new Set<string>();
    // Real requests in flight (the stalled candidate's hung ones are not: they end only by its timeout).
    let inFlight = 0;
    const counted = <T>(request: Promise<T>): Promise<T> => {
      inFlight++;
      return request.finally(() => { inFlight--; });
    };
    const pausable = (id: string): LeaseClient => {
      const real = kubeLeaseClient(new KubeClient(kc, { clock }));
      const hang = (signal?: AbortSignal): Promise<never> => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
      return {
        get: (ns, n, signal) => (stalled.has(id) ? hang(signal) : counted(real.get(ns, n, signal))),
        create: (l, signal) => (stalled.has(id) ? hang(signal) : counted(real.create(l, signal))),
        update: (l, signal) => (stalled.has(id) ? hang(signal) : counted(real.update(l, signal))),
      };
    };
    const work: Record<string, number> = { a: 0, b: 0 };
    const managers = ['a', 'b'].map((id) => new Manager({ clock, leaderElection: { client: pausable(id), namespace: 'default', name: 'shirts-operator', identity: id } })
      .add({ start: (signal) => new Promise<void>((resolve) => { work[id]++; signal.addEventListener('abort', () => resolve(), { once: true }); }) }));
    const acs = managers.map(() => new AbortController());
    const runs = managers.map((m, i) => m.start(acs[i].signal).catch((err: unknown) => err));
    // Between two clock steps every real request has answered and the candidates are back asleep on the
    // fake clock: the fake time then never moves while a request is in flight, however slow the server is
    // under load (a fixed 15 ms of real time let a slow renewal see seconds of fake time pass, time out
    // and hand the lease over). A get and the update it leads to follow each other within microtasks, so
    // three quiet event-loop turns in a row mean the candidates are waiting on the clock.
    const settle = async (): Promise<void> => {
      const deadline = Date.now() + 60_000;
      for (let quiet = 0; quiet < 3;) {
        if (Date.now() > deadline) throw new Error(`lease requests still in flight after 60 s (${inFlight})`);
        await new Promise((r) => setImmediate(r));
        quiet = inFlight === 0 ? quiet + 1 : 0;
      }
    };
    let leaderChanges = 0;
    let last: number | undefined;
    let stalledAt = 0;
    let stalledIndex = -1;
    for (let tick = 0; tick < 240; tick++) {
      await clock.advance(250);
      await settle();
      const leading = managers.map((m) => m.isLeader());
      expect(leading.filter(Boolean).length, `tick ${tick}`).to.be.at.most(1);
      const now = leading.indexOf(true);
      if (now >= 0 && now !== last) {
        if (last !== undefined) {
          leaderChanges++;
          // The bound (as in leaderElector.test.ts): the stalled leader's last renewal R is at most the
          // stall; the other candidate observes it at its first poll after R (≤ R + 2.4 s, the retry period
          // 2 s × jitter 1.2), takes over at its first poll after that observation + leaseDuration 15 s
          // (≤ 15 s + 2.4 s later), and the loop samples every 250 ms. The earlier 15 s + 2.4 s + 1 s
          // missed the first jittered wait.
          expect(clock.now() - stalledAt).to.be.at.most(15_000 + 2 * 2_400 + 250);
        }
        last = now;
      }
      if (tick === 20 && now >= 0) { stalledIndex = now; stalled.add(['a', 'b'][now]); stalledAt = clock.now(); }
    }
    expect(leaderChanges).to.equal(1);
    expect(stalledIndex).to.be.at.least(0);
    const lost = await Promise.race([runs[stalledIndex], settle().then(() => 'still running')]);
    const stalledId = ['a', 'b'][stalledIndex];
    expect((lost as KubeError).message).to.match(new RegExp(`^leader election lost: ${stalledId} could not renew lease default/shirts-operator`));
    stalled.clear();
    acs.forEach((ac) => ac.abort());
    await clock.advance(20_000);
    await Promise.all(runs);
    expect(work).to.deep.equal({ a: 1, b: 1 });
  });
});
