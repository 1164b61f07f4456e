// Churn through selected informers, end to end over real HTTP against the embedded API server and,
// when Go is on PATH, the real kube-apiserver of @kubekit/envtest (issue 13): objects enter and leave a field and a label selection by the hundred — recoloured,
// deleted (half of them through a finalizer, so that the last state carries a deletionTimestamp),
// re-created under the same name — and every delete must carry the right reason, in each object's
// order, without any list of the whole resource and with at most one name lookup per departure.
//
// As in the informer benchmark, an object that ever left the selection is never deleted later: a
// lookup answers with the object as it is when asked, so only then is the event's truth knowable.
import { expect } from 'chai';
import { setMaxListeners } from 'node:events';
import { noopLogger, type KubeObject } from '@kubekit/core';
import { Informer } from '../src/informer.js';
import { loadKubeConfig } from '../src/kubeConfig.js';
import { testBackends, type TestServer } from './helpers/backends.js';
import { httpProxy } from './helpers/httpProxy.js';
import { Kube, shirtsCRD } from './helpers/kube.js';
import { until, untilAsync } from './helpers/until.js';
import { seededRandom } from '../../../test/support/seededRandom.js';

const group = 'churn.example.com';
const base = `/apis/${group}/v1/namespaces/default/shirts`;
const colors = ['blue', 'red', 'green'];

interface Recorded {
  /** Per object name, the notifications in delivery order (`add`, `update`, `delete <reason>`). */
  events: Map<string, string[]>;
}

/**
 * A proxy in front of the apiserver that counts requests by kind, so the test sees what the informers asked.
 * `forbidGet`: it answers each GET of one object as RBAC does a user who may list and watch but not get
 * (the 403 the informer then confirms reasons without, by lists restricted to `metadata.name`).
 */
async function countingProxy(target: string, ca: string | undefined, forbidGet = false): Promise<{ url: string; requests: { path: string; query: URLSearchParams; accept: string; refused: boolean }[]; close: () => Promise<void> }> {
  const requests: { path: string; query: URLSearchParams; accept: string; refused: boolean }[] = [];
  const proxy = await httpProxy(target, ca, {
    answer: (req, res, url) => {
      const name = url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length + 1) : undefined;
      const refused = forbidGet && req.method === 'GET' && name !== undefined;
      requests.push({ path: url.pathname, query: url.searchParams, accept: req.headers.accept ?? '', refused });
      if (!refused) return false;
      const message = `shirts.${group} "${name}" is forbidden: User "system:serviceaccount:default:lister" cannot get resource "shirts" in API group "${group}" in the namespace "default"`;
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: { name, group, kind: 'shirts' }, code: 403 }));
      return true;
    },
  });
  return { url: proxy.url, requests, close: proxy.close };
}

for (const backend of testBackends()) {
describe(`Informer churn against the ${backend.name} API server (issue 13)`, function () {
  this.timeout(backend.name === 'reference' ? 30 * 60_000 : 120_000);
  let server: TestServer;
  let kube: Kube;
  const stop = new AbortController();
  setMaxListeners(20, stop.signal);
  const runs: Promise<void>[] = [];

  before(async () => {
    server = await backend.start({ bookmarkIntervalMs: 20 });
    kube = new Kube(server.url, server.auth);
    await kube.createCRD(server, shirtsCRD(group));
  });

  after(async () => {
    stop.abort();
    await Promise.all(runs);
    await server.close();
  });

  /**
   * `forbidGet`: the informers may not get objects by name, and confirm reasons with lists restricted to
   * `metadata.name`, whose answer for a deleted object is an empty PartialObjectMetadataList (the real
   * apiserver writes its items as `null`). `prefix`: the names of this run's objects.
   */
  const churn = async (forbidGet: boolean, prefix: string): Promise<void> => {
    const proxy = await countingProxy(server.url, server.auth.ca, forbidGet);
    const run = new AbortController();
    const stopRun = (): void => run.abort();
    stop.signal.addEventListener('abort', stopRun);
    try {
      await churnThrough(proxy, run.signal, forbidGet, prefix);
    } finally {
      // The next run starts from an empty collection, with informers of its own.
      run.abort();
      stop.signal.removeEventListener('abort', stopRun);
      await Promise.all(runs.splice(0));
      await proxy.close();
      await kube.ok('DELETE', base);
    }
  };

  const churnThrough = async (proxy: Awaited<ReturnType<typeof countingProxy>>, signal: AbortSignal, forbidGet: boolean, prefix: string): Promise<void> => {
    const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig.replace(server.url, proxy.url) });
    const watch = (selector: { fieldSelector?: string; labelSelector?: string }): { informer: Informer; recorded: Recorded } => {
      const informer = new Informer(kc, { apiVersion: `${group}/v1`, plural: 'shirts', namespace: 'default', logger: noopLogger, ...selector });
      const recorded: Recorded = { events: new Map() };
      const push = (o: KubeObject, line: string): void => {
        const name = o.metadata.name!;
        recorded.events.set(name, [...(recorded.events.get(name) ?? []), line]);
      };
      // Registered separately: one shared registration keeps each object's order across them.
      informer.on('add', (o) => push(o, 'add'));
      informer.on('update', (o) => push(o, 'update'));
      informer.on('delete', (o, { reason }) => push(o, `delete ${reason}`));
      runs.push(informer.start(signal));
      return { informer, recorded };
    };
    const byField = watch({ fieldSelector: 'spec.color=blue' });
    const byLabel = watch({ labelSelector: 'color=blue' });
    await Promise.all([byField.informer.waitForSync(), byLabel.informer.waitForSync()]);

    // The truth, per object name: every change of its presence in the selection, in order.
    const truth = new Map<string, string[]>();
    const note = (name: string, line: string): void => void truth.set(name, [...(truth.get(name) ?? []), line]);
    const random = seededRandom(13);
    const live = new Map<string, string>(); // name → colour
    const everLeft = new Set<string>();
    const deleted: string[] = [];
    const paint = (name: string, color: string): Promise<KubeObject> =>
      kube.ok('PATCH', `${base}/${name}`, { metadata: { labels: { color } }, spec: { color } }, 'application/merge-patch+json');
    const create = async (name: string): Promise<void> => {
      const color = colors[Math.floor(random() * colors.length)];
      await kube.ok('POST', base, { apiVersion: `${group}/v1`, kind: 'Shirt', metadata: { name, labels: { color } }, spec: { color } });
      live.set(name, color);
      if (color === 'blue') note(name, 'add');
    };
    for (let i = 0; i < 120; i++) await create(`${prefix}-${i}`);
    let departures = 0;
    for (let step = 0; step < 360; step++) {
      const roll = random();
      const names = [...live.keys()];
      const name = names[Math.floor(random() * names.length)];
      if (roll < 0.15 && !everLeft.has(name)) {
        const wasBlue = live.get(name) === 'blue';
        if (random() < 0.5) {
          // Through a finalizer: marked (still selected, an update), then gone with a deletionTimestamp.
          await kube.ok('PATCH', `${base}/${name}`, { metadata: { finalizers: ['example.com/cleanup'] } }, 'application/merge-patch+json');
          await kube.ok('DELETE', `${base}/${name}`);
          await kube.ok('PATCH', `${base}/${name}`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
        } else {
          await kube.ok('DELETE', `${base}/${name}`);
        }
        live.delete(name);
        deleted.push(name);
        if (wasBlue) {
          note(name, 'delete deleted');
          departures++;
        }
      } else if (roll < 0.25 && deleted.length > 0) {
        await create(deleted.splice(Math.floor(random() * deleted.length), 1)[0]);
      } else {
        const before = live.get(name)!;
        const after = colors[Math.floor(random() * colors.length)];
        if (after === before) continue;
        await paint(name, after);
        live.set(name, after);
        if (before === 'blue') {
          everLeft.add(name);
          note(name, 'delete leftSelection');
          departures++;
        } else if (after === 'blue') {
          note(name, 'add');
        }
      }
    }
    expect(departures).to.be.greaterThan(50);

    // Caught up: the embedded server counts its writes; the real one has writers of its own, so there
    // the cache must equal a fresh list, object versions included.
    const blue = [...live].filter(([, c]) => c === 'blue').map(([n]) => n).sort();
    for (const { informer } of [byField, byLabel]) {
      if (server.resourceVersion !== undefined) {
        const target = server.resourceVersion();
        await until(() => Number(informer.status.resourceVersion ?? 0) >= target, 'caught up', 60_000);
      } else {
        const view = (objects: Iterable<KubeObject>): string => JSON.stringify([...objects].map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort());
        const fresh = await kube.list(base, informer.fieldSelector.toString(), informer.labelSelector.toString());
        expect(fresh.map((o) => o.metadata.name).sort()).to.deep.equal(blue);
        await untilAsync(async () => view(informer.list()) === view(fresh), 'caught up', 60_000);
      }
      await until(() => informer.status.deleteReasons.pending === 0, 'every reason', 60_000);
      await informer.idle();
    }
    for (const { informer, recorded } of [byField, byLabel]) {
      const selector = informer.fieldSelector.isEmpty() ? informer.labelSelector.toString() : informer.fieldSelector.toString();
      // Only the presence changes (adds and deletes) are in the truth; updates are the informer's own business.
      const seen = new Map([...recorded.events].map(([name, lines]) => [name, lines.filter((l) => l !== 'update')]));
      for (const [name, lines] of truth) expect(seen.get(name) ?? [], `${selector}: ${name}`).to.deep.equal(lines);
      expect([...seen.keys()].filter((n) => !truth.has(n) && (seen.get(n) ?? []).length > 0), selector).to.deep.equal([]);
      expect(informer.list().map((o) => o.metadata.name).sort()).to.deep.equal(blue);
      expect(informer.status.deleteReasons.unknown, selector).to.equal(0);
      expect(informer.status.lastError, selector).to.equal(undefined);
    }

    const collection = proxy.requests.filter((r) => r.path === base && !r.query.has('watch'));
    const unfiltered = collection.filter((r) => !r.query.has('fieldSelector') && !r.query.has('labelSelector'));
    const lookups = proxy.requests.filter((r) => !r.refused && (r.path.startsWith(`${base}/`) || (r.query.get('fieldSelector') ?? '').startsWith('metadata.name=')));
    expect(unfiltered, 'unfiltered lists').to.deep.equal([]);
    // Both informers look up their own departures, deletions with a deletionTimestamp excepted. Refused,
    // an informer asks by name no more than the lookups it had in flight then (refused, each is asked again
    // by list).
    const refused = proxy.requests.filter((r) => r.refused).length;
    expect(lookups.length).to.be.at.most(2 * departures + refused);
    if (forbidGet) expect(refused).to.be.within(1, 2 * departures);
    else expect(refused).to.equal(0);
    if (forbidGet) expect(lookups.every((r) => r.path === base), 'lookups by list').to.equal(true);
    expect(lookups.every((r) => r.accept.startsWith(`application/json;as=PartialObjectMetadata${forbidGet ? 'List' : ''};g=meta.k8s.io;v=v1`))).to.equal(true);
    // Each asks for a state not older than its departure (the watch cache answers; no quorum read).
    expect(lookups.length).to.be.greaterThan(0);
    expect(lookups.filter((r) => !/^[1-9]\d*$/.test(r.query.get('resourceVersion') ?? '')), 'lookups without a resourceVersion').to.deep.equal([]);
  };

  it('does give every delete its right reason, in each object\'s order, with no unfiltered list and at most one lookup per departure', () => churn(false, 'shirt'));

  it('does so too when the informers may not get objects by name (lookups by metadata.name lists)', () => churn(true, 'tee'));
});
}
