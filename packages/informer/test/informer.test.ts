import { expect } from 'chai';
import { KubeError, type Logger } from '@kubekit/core';
import { Informer, type InformerOptions } from '../src/informer.js';
import { EventLog } from './helpers/eventLog.js';
import { FakeApiServer, apiVersion, plural, type Shirt } from './helpers/fakeApiServer.js';
import { FakeClock } from './helpers/fakeClock.js';
import { until } from './helpers/until.js';

/** Log lines grouped by object, in order (`synced` left out). */
function byObject(lines: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of lines) {
    const [kind, key, ...rest] = line.split(' ');
    if (key === undefined) continue;
    (out[key] ??= []).push([kind, ...rest].join(' '));
  }
  return out;
}

function shirt(name: string, color = 'blue', extra: Partial<Shirt['metadata']> = {}): Shirt {
  return { metadata: { name, namespace: 'default', labels: { app: 'shop' }, ...extra }, spec: { color, size: 'M' } };
}

class CapturingLogger implements Logger {
  lines: string[] = [];
  debug(): void {}
  info(m: string): void {
    this.lines.push(`info ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`warn ${m}`);
  }
  error(m: string): void {
    this.lines.push(`error ${m}`);
  }
  child(): Logger {
    return this;
  }
}

describe('Informer', () => {
  let server: FakeApiServer;
  let clock: FakeClock;
  let stop: AbortController;
  let runs: Promise<void>[];
  let logger: CapturingLogger;

  beforeEach(async () => {
    server = await new FakeApiServer().start();
    clock = new FakeClock();
    stop = new AbortController();
    runs = [];
    logger = new CapturingLogger();
  });

  afterEach(async () => {
    stop.abort();
    await Promise.all(runs);
    await server.close();
  });

  function informer(options: Partial<InformerOptions<Shirt>> = {}): Informer<Shirt> {
    return new Informer<Shirt>(server.kubeConfig(), { apiVersion, plural, clock, random: () => 0, streamingList: 'never', logger, ...options });
  }

  function start(inf: Informer<Shirt>): void {
    runs.push(inf.start(stop.signal));
  }

  /** What a fresh list with the informer's selectors returns. */
  function fresh(inf: Informer<Shirt>): Shirt[] {
    return server.select(inf.fieldSelector.toString(), inf.labelSelector.toString());
  }

  /** Waits for `condition`, letting every backoff wait pass on the fake clock. */
  async function drive(inf: Informer<Shirt>, condition: () => boolean, what: string): Promise<void> {
    await until(() => {
      if (condition()) return true;
      if (inf.status.phase === 'backoff' && clock.pending > 0) clock.advance(inf.status.retryInMs!);
      return false;
    }, what);
  }

  /** Requests that ask about one object: GETs by name and lists restricted to `metadata.name`. */
  function nameLookups(): FakeApiServer['requests'] {
    return server.requests.filter((r) => /\/shirts\/[^/]+$/.test(r.path) || (r.query.get('fieldSelector') ?? '').startsWith('metadata.name='));
  }

  /** Lists (not watches) with neither selector, of the collection. */
  function unfilteredLists(): number {
    return server.requests.filter((r) => /\/shirts$/.test(r.path) && !r.query.has('watch') && !r.query.has('fieldSelector') && !r.query.has('labelSelector')).length;
  }

  function expectCache(inf: Informer<Shirt>): void {
    const fmt = (o: Shirt): string => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`;
    expect(inf.list().map(fmt).sort()).to.deep.equal(fresh(inf).map(fmt).sort());
  }

  it('does deliver the initial state as adds, then synced, then changes in order with the old state', async () => {
    server.create(shirt('a'));
    server.create(shirt('b'));
    const inf = informer();
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await inf.idle();
    expect(log.lines).to.deep.equal(['add default/a', 'add default/b', 'synced']);
    server.update('default', 'a', (o) => (o.spec!.size = 'L'));
    server.delete('default', 'b');
    await until(() => inf.size === 1, 'delete');
    await inf.idle();
    expect(log.lines.slice(3)).to.deep.equal(['update default/a', 'delete default/b deleted']);
    log.expectView(inf.list());
    expect(inf.hasSynced()).to.equal(true);
  });

  it('does tell the last synced resource version cheaply, as client-go\'s LastSyncResourceVersion', async () => {
    server.create(shirt('a'));
    const inf = informer();
    expect(inf.lastSyncResourceVersion).to.equal(undefined);
    start(inf);
    await inf.waitForSync();
    expect(inf.lastSyncResourceVersion).to.equal(String(server.rv));
    server.update('default', 'a', (o) => (o.spec!.size = 'L'));
    await until(() => inf.lastSyncResourceVersion === String(server.rv), 'the update');
    expect(inf.status.resourceVersion).to.equal(inf.lastSyncResourceVersion);
  });

  it('does validate and canonicalise selectors locally, with the apiserver text for bad ones', () => {
    const inf = informer({ fieldSelector: 'spec.size=M,spec.color==blue', labelSelector: 'tier=web,app in (shop)' });
    expect(inf.fieldSelector.toString()).to.equal('spec.color=blue,spec.size=M');
    expect(inf.labelSelector.toString()).to.equal('app in (shop),tier=web');
    expect(() => informer({ fieldSelector: 'spec.color' })).to.throw(KubeError, "invalid selector: 'spec.color'; can't understand 'spec.color'");
    const typed = informer({ fieldSelector: { 'spec.color': 'blue', 'spec.size': { '!=': 'XL' }, 'spec.quantity': 2 } });
    expect(typed.fieldSelector.toString()).to.equal('spec.color=blue,spec.quantity=2,spec.size!=XL');
  });

  it('does pass the canonical selectors to the server', async () => {
    const inf = informer({ fieldSelector: 'spec.size=M,spec.color=blue', labelSelector: 'app=shop' });
    start(inf);
    await inf.waitForSync();
    const list = server.requests.find((r) => !r.query.has('watch'))!;
    expect(list.query.get('fieldSelector')).to.equal('spec.color=blue,spec.size=M');
    expect(list.query.get('labelSelector')).to.equal('app=shop');
  });

  it('does tell a departure from the field selection from a deletion by asking the server', async () => {
    server.create(shirt('a'));
    server.create(shirt('b'));
    server.create(shirt('c'));
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    log.clear();
    server.update('default', 'a', (o) => (o.spec!.color = 'green'));
    server.delete('default', 'b');
    server.delete('default', 'c');
    server.create({ ...shirt('c'), metadata: { ...shirt('c').metadata, uid: 'another-uid' } });
    await until(() => log.lines.length === 4, 'four notifications');
    expect(byObject(log.lines)).to.deep.equal({ 'default/a': ['delete leftSelection'], 'default/b': ['delete deleted'], 'default/c': ['delete deleted', 'add'] });
    // One metadata-only GET by name per departure at most (c may be settled by its re-creation first).
    const lookups = nameLookups();
    expect(lookups.map((r) => r.path)).to.include.members([`/apis/${apiVersion}/namespaces/default/shirts/a`, `/apis/${apiVersion}/namespaces/default/shirts/b`]);
    expect(lookups.length).to.be.at.most(3);
    expect(lookups.every((r) => r.accept.startsWith('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'))).to.equal(true);
    expect(unfilteredLists()).to.equal(0);
    server.update('default', 'a', (o) => (o.spec!.color = 'blue'));
    await until(() => log.lines.length === 5, 'back in');
    expect(log.lines[4]).to.equal('add default/a');
    log.expectView(inf.list());
    expectCache(inf);
  });

  it('does tell a departure from the label selection from a deletion', async () => {
    server.create(shirt('a'));
    const inf = informer({ labelSelector: 'app=shop' });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.update('default', 'a', (o) => (o.metadata.labels = { app: 'other' }));
    await until(() => log.lines.includes('delete default/a leftSelection'), 'leftSelection');
  });

  it('does confirm a burst of departures with one lookup each, never an unfiltered list (regression: issue 13)', async () => {
    for (let i = 0; i < 30; i++) server.create(shirt(`s${i}`));
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    for (let i = 0; i < 30; i++) {
      if (i % 2 === 0) server.delete('default', `s${i}`);
      else server.update('default', `s${i}`, (o) => (o.spec!.color = 'red'));
    }
    await until(() => log.lines.filter((l) => l.startsWith('delete')).length === 30, 'thirty deletes');
    expect(log.lines.filter((l) => l.endsWith('leftSelection'))).to.have.length(15);
    expect(log.lines.filter((l) => l.endsWith(' deleted'))).to.have.length(15);
    for (let i = 0; i < 30; i++) expect(log.lines).to.include(`delete default/s${i} ${i % 2 === 0 ? 'deleted' : 'leftSelection'}`);
    expect(nameLookups().length).to.be.at.most(30);
    expect(unfilteredLists()).to.equal(0);
  });

  it('does report the reasons of deletes as unknown without confirmation when asked', async () => {
    server.create(shirt('a'));
    const inf = informer({ fieldSelector: 'spec.color=blue', confirmDeletes: false });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.update('default', 'a', (o) => (o.spec!.color = 'green'));
    await until(() => log.lines.includes('delete default/a unknown'), 'delete');
    expect(nameLookups()).to.deep.equal([]);
  });

  /** An informer selecting blue shirts a, b, … with a log, synced and watching. */
  async function watchingBlue(names: string[], options: Partial<InformerOptions<Shirt>> = {}): Promise<{ inf: Informer<Shirt>; log: EventLog<Shirt> }> {
    for (const n of names) server.create(shirt(n));
    const inf = informer({ fieldSelector: 'spec.color=blue', ...options });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    log.clear();
    return { inf, log };
  }

  it('does report a last state with a deletionTimestamp as deleted without asking', async () => {
    const { log } = await watchingBlue(['a']);
    server.update('default', 'a', (o) => {
      o.metadata.finalizers = ['example.com/cleanup'];
      o.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    });
    server.delete('default', 'a');
    await until(() => log.lines.length === 2, 'update and delete');
    expect(log.lines).to.deep.equal(['update default/a', 'delete default/a deleted']);
    expect(nameLookups()).to.deep.equal([]);
  });

  it('does not let a delete whose reason is pending delay other objects, and reports a failed lookup as unknown', async () => {
    const { inf, log } = await watchingBlue(['a', 'b']);
    server.faults.push({ on: 'get', kind: 'noResponse' });
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    await until(() => nameLookups().length === 1, 'the lookup');
    server.update('default', 'b', (o) => (o.spec!.size = 'L'));
    server.update('default', 'a', (o) => (o.spec!.size = 'S'));
    await until(() => log.lines.includes('update default/b'), 'b past a');
    expect(log.lines).to.deep.equal(['update default/b']);
    expect(inf.status.objects).to.equal(1);
    // The lookup times out (no byte for 60 s): the reason is unknown, not a guess.
    clock.advance(60_000);
    await until(() => log.lines.length === 2, 'the delete');
    expect(log.lines[1]).to.equal('delete default/a unknown');
    expect(logger.lines.some((l) => l.startsWith('warn could not confirm why default/a left the cache'))).to.equal(true);
    expect(nameLookups()).to.have.length(1);
  });

  it('does send a lookup again after the wait a 429 asks for (API Priority and Fairness under load), as client-go does', async () => {
    const { inf, log } = await watchingBlue(['a', 'b']);
    server.faults.push({ on: 'get', kind: 'status', code: 429, message: 'Too many requests, please try again later.', retryAfter: 1, plainText: true });
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    await until(() => nameLookups().length === 1 && inf.status.deleteReasons.retries === 1, () => `the first lookup, refused: ${JSON.stringify(inf.status.deleteReasons)} ${logger.lines.join(' | ')}`);
    expect(log.lines).to.deep.equal([]);
    clock.advance(1000);
    await until(() => log.lines.length === 1, 'the delete');
    expect(log.lines).to.deep.equal(['delete default/a leftSelection']);
    expect(nameLookups()).to.have.length(2);
    expect(inf.status.deleteReasons).to.deep.equal({ pending: 0, lookups: 2, retries: 1, unknown: 0 });
  });

  it('does cancel lookups in flight when stopped', async () => {
    const { inf } = await watchingBlue(['a', 'b']);
    server.faults.push({ on: 'get', kind: 'noResponse' }, { on: 'get', kind: 'noResponse' });
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    server.update('default', 'b', (o) => (o.spec!.color = 'red'));
    await until(() => nameLookups().length === 2 && inf.status.deleteReasons.pending === 2, 'the lookups');
    stop.abort();
    await Promise.all(runs);
    expect(inf.status.deleteReasons).to.deep.equal({ pending: 0, lookups: 2, retries: 0, unknown: 2 });
    expect(logger.lines.filter((l) => l.startsWith('warn could not confirm'))).to.deep.equal([]);
  });

  it('does settle a pending reason when the object comes back, without waiting for the server', async () => {
    const { inf, log } = await watchingBlue(['a', 'b']);
    server.faults.push({ on: 'get', kind: 'noResponse' }, { on: 'get', kind: 'noResponse' });
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    server.delete('default', 'b');
    await until(() => nameLookups().length === 2, 'the lookups');
    server.update('default', 'a', (o) => (o.spec!.color = 'blue'));
    server.create({ ...shirt('b'), metadata: { ...shirt('b').metadata, uid: 'another-uid' } });
    await until(() => log.lines.length === 4, 'four notifications');
    expect(byObject(log.lines)).to.deep.equal({ 'default/a': ['delete leftSelection', 'add'], 'default/b': ['delete deleted', 'add'] });
    log.expectView(inf.list());
    expect(nameLookups()).to.have.length(2);
  });

  it('does confirm with a list restricted to the name when the informer may not get objects', async () => {
    const { log } = await watchingBlue(['a', 'b']);
    server.faults.push({ on: 'get', kind: 'status', code: 403, reason: 'Forbidden', message: 'shirts.stable.example.com "a" is forbidden: User "x" cannot get resource "shirts"' });
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    await until(() => log.lines.length === 1, 'a');
    server.delete('default', 'b');
    await until(() => log.lines.length === 2, 'b');
    expect(log.lines).to.deep.equal(['delete default/a leftSelection', 'delete default/b deleted']);
    const lookups = nameLookups();
    expect(lookups.map((r) => r.query.get('fieldSelector') ?? r.path.split('/').pop())).to.deep.equal(['a', 'metadata.name=a', 'metadata.name=b']);
    expect(lookups.slice(1).every((r) => r.path === `/apis/${apiVersion}/namespaces/default/shirts` && !r.query.has('labelSelector'))).to.equal(true);
  });

  it('does report reasons beyond the lookup budget as unknown at once', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const { inf, log } = await watchingBlue(names, { deleteReasons: { qps: 1, burst: 1, concurrency: 1, maxWaitMs: 1000 } });
    for (const n of names) server.update('default', n, (o) => (o.spec!.color = 'red'));
    // The first takes the only token; the second waits for the next (1 s, within maxWaitMs); the rest cannot start in time.
    await until(() => log.lines.length === 4, 'four deletes');
    expect(log.lines.filter((l) => l.endsWith(' unknown'))).to.have.length(3);
    clock.advance(1000);
    await until(() => log.lines.length === 5, 'the fifth');
    expect(log.lines.filter((l) => l.endsWith(' leftSelection'))).to.have.length(2);
    expect(nameLookups()).to.have.length(2);
    expect(inf.size).to.equal(0);
    expect(inf.status.deleteReasons).to.deep.equal({ pending: 0, lookups: 2, retries: 0, unknown: 3 });
  });

  it('does not look reasons up for registrations that do not want them, and never holds their deletes (issue 13: a controller)', async () => {
    server.create(shirt('a'));
    server.create(shirt('b'));
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const quick = new EventLog<Shirt>();
    inf.addEventHandler(quick.handlers(), { deleteReasons: false });
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    quick.clear();
    server.update('default', 'a', (o) => (o.spec!.color = 'green'));
    server.delete('default', 'b');
    await until(() => quick.lines.length === 2, 'two deletes');
    expect(quick.lines).to.deep.equal(['delete default/a unknown', 'delete default/b unknown']);
    expect(nameLookups()).to.deep.equal([]);
    // A registration that wants reasons gets them confirmed; the other still gets its delete at once.
    const careful = new EventLog<Shirt>();
    inf.addEventHandler(careful.handlers());
    server.create(shirt('c'));
    await until(() => quick.lines.length === 3 && careful.lines.length === 2, () => `c added (${quick.lines.join(', ')} | ${careful.lines.join(', ')})`);
    server.update('default', 'c', (o) => (o.spec!.color = 'green'));
    await until(() => careful.lines.length === 3, 'c leaves');
    expect(quick.lines[3]).to.equal('delete default/c unknown');
    expect(careful.lines).to.deep.equal(['synced', 'add default/c', 'delete default/c leftSelection']);
    expect(nameLookups()).to.have.length(1);
  });

  it('does not look reasons up when no registration handles deletes', async () => {
    server.create(shirt('a'));
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const adds: string[] = [];
    inf.addEventHandler({ add: (o) => void adds.push(o.metadata.name!) });
    inf.on('update', () => {});
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.update('default', 'a', (o) => (o.spec!.color = 'red'));
    await until(() => inf.size === 0, 'departure');
    await inf.idle();
    expect(nameLookups()).to.deep.equal([]);
    const reasons: string[] = [];
    inf.on('delete', (o, { reason }) => void reasons.push(`${o.metadata.name} ${reason}`));
    server.create(shirt('b'));
    await until(() => inf.size === 1, 'b');
    server.update('default', 'b', (o) => (o.spec!.color = 'red'));
    await until(() => reasons.length === 1, 'b leaves');
    expect(reasons).to.deep.equal(['b leftSelection']);
    expect(nameLookups()).to.have.length(1);
  });

  it('does deliver each object\'s events in order to on() listeners registered separately (issue 13)', async () => {
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const calls: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    inf.on('add', async (o) => {
      calls.push(`add ${o.metadata.name} start`);
      if (o.metadata.name === 'a') await gate;
      calls.push(`add ${o.metadata.name} end`);
    });
    inf.on('update', (o) => void calls.push(`update ${o.metadata.name}`));
    inf.on('delete', (o, { reason }) => void calls.push(`delete ${o.metadata.name} ${reason}`));
    inf.on('synced', () => void calls.push('synced'));
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.create(shirt('a'));
    server.update('default', 'a', (o) => (o.spec!.size = 'L'));
    server.delete('default', 'a');
    await until(() => inf.size === 0 && calls.includes('add a start'), 'a in and out');
    await new Promise((r) => setImmediate(r));
    expect(calls).to.deep.equal(['synced', 'add a start']);
    release();
    await until(() => calls.length === 5, 'the rest');
    expect(calls).to.deep.equal(['synced', 'add a start', 'add a end', 'update a', 'delete a deleted']);
    expect(inf.status.handlers).to.equal(1);
  });

  it('does replay the cache to a late on() listener only', async () => {
    const inf = informer();
    server.create(shirt('a'));
    const early: string[] = [];
    inf.on('add', (o) => void early.push(`add ${o.metadata.name}`));
    start(inf);
    await inf.waitForSync();
    await inf.idle();
    const late: string[] = [];
    const lateAdd = (o: Shirt): void => void late.push(`add ${o.metadata.name}`);
    inf.on('add', lateAdd);
    inf.on('synced', () => void late.push('synced'));
    await inf.idle();
    expect(early).to.deep.equal(['add a']);
    expect(late).to.deep.equal(['add a', 'synced']);
    inf.off('add', lateAdd);
    server.create(shirt('b'));
    await until(() => early.length === 2, 'b');
    expect(late).to.deep.equal(['add a', 'synced']);
  });

  it('does derive deletes for objects that vanished during a disconnect', async () => {
    for (const n of ['a', 'b', 'c']) server.create(shirt(n));
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.resetWatches();
    server.delete('default', 'a');
    server.update('default', 'b', (o) => (o.spec!.color = 'red'));
    server.update('default', 'c', (o) => (o.spec!.size = 'S'));
    server.create(shirt('d'));
    server.compact();
    await drive(inf, () => inf.status.syncs === 2, 'relist');
    await until(() => log.lines.length === 8, 'all notifications');
    expect(log.lines.slice(4).sort()).to.deep.equal(['add default/d', 'delete default/a deleted', 'delete default/b leftSelection', 'update default/c']);
    log.expectView(inf.list());
    expectCache(inf);
  });

  // Regression (stress test, issue 13): a relist after an expired watch reported an object deleted and
  // re-created under the same name in the gap as an `update` from the old uid to the new one, so
  // handlers never heard of the deletion. The watch would have said DELETED then ADDED.
  for (const selected of [true, false]) {
    it(`does report an object re-created during a disconnect as a deletion and an add, not an update${selected ? ' (field-selected)' : ''}`, async () => {
      for (const n of ['a', 'b']) server.create(shirt(n));
      const inf = informer(selected ? { fieldSelector: 'spec.color=blue' } : {});
      const log = new EventLog<Shirt>();
      const deleted: { uid: string | undefined; reason: string }[] = [];
      inf.addEventHandler(log.handlers());
      inf.on('delete', (o, { reason }) => void deleted.push({ uid: o.metadata.uid, reason }));
      start(inf);
      await inf.waitForSync();
      await inf.idle();
      const before = inf.get('default/a')!.metadata.uid;
      await until(() => server.watchers.size === 1, 'watch');
      server.resetWatches();
      server.delete('default', 'a');
      server.create(shirt('a'));
      server.update('default', 'b', (o) => (o.spec!.size = 'S'));
      server.compact();
      await drive(inf, () => inf.status.syncs === 2, 'relist');
      await until(() => log.lines.length === 6, () => `all notifications: ${JSON.stringify(log.lines)}`);
      await inf.idle();
      expect(log.lines.slice(3)).to.have.members(['delete default/a deleted', 'add default/a', 'update default/b']);
      expect(log.lines.indexOf('delete default/a deleted')).to.be.lessThan(log.lines.indexOf('add default/a', 3));
      expect(deleted).to.deep.equal([{ uid: before, reason: 'deleted' }]);
      expect(inf.get('default/a')!.metadata.uid).to.not.equal(before);
      expect(nameLookups(), 'no lookup: the new uid tells').to.deep.equal([]);
      log.expectView(inf.list());
      expectCache(inf);
    });
  }

  // Regression (stress test, issue 13): selecting client-side, a relist told a departure from a
  // deletion by the name alone, so an object deleted during a disconnect and re-created (under another
  // uid) outside the selection was reported as having left the selection.
  it('does report an object deleted during a disconnect as deleted when selecting client-side, even if its name is back outside the selection', async () => {
    for (const n of ['a', 'b']) server.create(shirt(n));
    const inf = informer({ fieldSelector: 'spec.color=blue', clientSideSelection: 'always', selectableFields: [{ jsonPath: '.spec.color' }], namespaced: true, kind: 'Shirt' });
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    server.resetWatches();
    server.delete('default', 'a');
    server.create(shirt('a', 'red'));
    server.update('default', 'b', (o) => (o.spec!.color = 'red'));
    server.compact();
    await drive(inf, () => inf.status.syncs === 2, 'relist');
    await until(() => log.lines.length === 5, () => `all notifications: ${JSON.stringify(log.lines)}`);
    await inf.idle();
    expect(log.lines.slice(3).sort()).to.deep.equal(['delete default/a deleted', 'delete default/b leftSelection']);
    log.expectView(inf.list());
    expectCache(inf);
  });

  it('does keep an object unchanged by a relist as the instance handlers saw (regression: chaos run 11)', async () => {
    server.create(shirt('a'));
    const inf = informer();
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    const seen = inf.get('default/a');
    await until(() => server.watchers.size === 1, 'watch');
    server.compact();
    server.errorWatches(410, 'Expired');
    await drive(inf, () => inf.status.syncs === 2, 'relist');
    expect(inf.get('default/a')).to.equal(seen);
    server.update('default', 'a', (o) => (o.spec!.size = 'L'));
    await until(() => inf.get('default/a') !== seen, 'update');
    await inf.idle();
    log.expectView(inf.list());
  });

  it('does fall back to client-side selection on field label not supported, with the same events', async () => {
    server.selectableFields = [];
    server.create(shirt('a'));
    server.create(shirt('b', 'red'));
    const errors: Error[] = [];
    const inf = informer({ fieldSelector: 'spec.color=blue', clientSideSelection: 'fallback', selectableFields: [{ jsonPath: '.spec.color' }], namespaced: true, kind: 'Shirt' });
    inf.on('error', (e) => errors.push(e));
    const log = new EventLog<Shirt>();
    inf.addEventHandler(log.handlers());
    start(inf);
    await inf.waitForSync();
    expect(errors[0].message).to.equal('field label not supported: spec.color');
    expect(inf.status.selection).to.equal('client');
    expect(inf.status.selectionReason).to.match(/field label not supported: spec\.color/);
    expect(logger.lines.some((l) => l.startsWith('warn selecting shirts client-side'))).to.equal(true);
    expect(inf.keys()).to.deep.equal(['default/a']);
    await until(() => server.watchers.size === 1, 'watch');
    const watch = server.requests.filter((r) => r.query.has('watch')).at(-1)!;
    expect(watch.query.has('fieldSelector')).to.equal(false);
    server.update('default', 'a', (o) => (o.spec!.color = 'green'));
    server.update('default', 'b', (o) => (o.spec!.color = 'blue'));
    server.delete('default', 'b');
    server.create(shirt('c', 'red'));
    await until(() => log.lines.length === 5, 'events');
    expect(log.lines).to.deep.equal(['add default/a', 'synced', 'delete default/a leftSelection', 'add default/b', 'delete default/b deleted']);
    expect(server.requests.some((r) => r.query.get('fieldSelector')?.startsWith('metadata.name='))).to.equal(false);
    expect(inf.list().map((o) => o.metadata.name)).to.deep.equal([]);
    server.selectableFields = ['spec.color'];
    expectCache(inf);
  });

  it('does learn the selectable fields from the cluster when falling back', async () => {
    server.selectableFields = [];
    server.create(shirt('a'));
    const inf = informer({ fieldSelector: 'spec.color=blue', clientSideSelection: 'fallback' });
    start(inf);
    await inf.waitForSync();
    expect(inf.status.selection).to.equal('client');
    // The fake server has no discovery: the paths are read as written, and the log says so.
    expect(logger.lines.some((l) => /selectableFields are unknown/.test(l))).to.equal(true);
    expect(inf.keys()).to.deep.equal(['default/a']);
  });

  it('does not fall back unless allowed, and keeps reporting the error', async () => {
    server.selectableFields = [];
    const inf = informer({ fieldSelector: 'spec.color=blue' });
    const errors: Error[] = [];
    inf.on('error', (e) => errors.push(e));
    start(inf);
    await until(() => inf.status.phase === 'backoff', 'backoff');
    expect(errors[0]).to.include({ code: 400, message: 'field label not supported: spec.color' });
    expect(inf.status.selection).to.equal('server');
    expect(logger.lines.some((l) => l.includes("set clientSideSelection: 'fallback'"))).to.equal(true);
    clock.advance(inf.status.retryInMs!);
    await until(() => errors.length === 2, 'retried');
    expect(inf.hasSynced()).to.equal(false);
  });

  it('does select client-side from the start when asked', async () => {
    server.create(shirt('a'));
    server.create(shirt('b', 'red'));
    const inf = informer({ fieldSelector: 'spec.color=blue', labelSelector: 'app=shop', clientSideSelection: 'always', selectableFields: [{ jsonPath: '.spec.color' }], namespaced: true });
    start(inf);
    await inf.waitForSync();
    expect(inf.keys()).to.deep.equal(['default/a']);
    expect(server.requests.every((r) => !r.query.has('fieldSelector') && !r.query.has('labelSelector'))).to.equal(true);
  });

  it('does replay the current state to a handler added after sync', async () => {
    server.create(shirt('a'));
    server.create(shirt('b'));
    const inf = informer();
    start(inf);
    await inf.waitForSync();
    const late = new EventLog<Shirt>();
    const reg = inf.addEventHandler(late.handlers());
    expect(reg.hasSynced()).to.equal(false);
    await reg.idle();
    expect(late.lines).to.deep.equal(['add default/a', 'add default/b', 'synced']);
    expect(reg.hasSynced()).to.equal(true);
    reg.remove();
    server.create(shirt('c'));
    await until(() => inf.size === 3, 'c');
    await inf.idle();
    expect(late.lines).to.have.length(3);
  });

  it('does keep a slow handler from growing memory: it sees the latest states, in order', async () => {
    for (let i = 0; i < 10; i++) server.create(shirt(`s${i}`));
    const inf = informer({ handlerBufferSize: 50 });
    const log = new EventLog<Shirt>();
    let release: () => void = () => {};
    let gate = new Promise<void>((r) => (release = r));
    const calls: string[] = [];
    inf.addEventHandler({
      add: async (o) => {
        calls.push(`add ${o.metadata.name}`);
        await gate;
        log.add(o);
      },
      update: async (o, old) => {
        calls.push(`update ${o.metadata.name}`);
        await gate;
        log.update(o, old);
      },
      delete: async (o, info) => {
        await gate;
        log.delete(o, info);
      },
    });
    start(inf);
    await inf.waitForSync();
    await until(() => server.watchers.size === 1, 'watch');
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 10; i++) server.update('default', `s${i}`, (o) => (o.spec!.quantity = round));
    }
    server.delete('default', 's9');
    await until(() => inf.get('default/s0')?.spec?.quantity === 199 && inf.size === 9, 'cache current');
    // The handler is still stuck on its first call; 2,001 changes wait as 50 exact notifications plus one per object.
    expect(calls).to.deep.equal(['add s0']);
    release();
    gate = Promise.resolve();
    await inf.idle();
    log.expectView(inf.list());
    expect(calls.length).to.be.at.most(50 + 20);
  });

  it('does report a throwing handler as an error and go on', async () => {
    server.create(shirt('a'));
    server.create(shirt('b'));
    const inf = informer();
    const errors: Error[] = [];
    inf.on('error', (e) => errors.push(e));
    const seen: string[] = [];
    inf.on('add', (o) => {
      seen.push(o.metadata.name!);
      if (o.metadata.name === 'a') throw new Error('boom');
    });
    start(inf);
    await inf.waitForSync();
    await inf.idle();
    expect(seen).to.deep.equal(['a', 'b']);
    expect(errors.map((e) => e.message)).to.deep.equal(['boom']);
  });

  it('does stop calling a listener removed with off()', async () => {
    server.create(shirt('a'));
    const inf = informer();
    const adds: string[] = [];
    const errors: Error[] = [];
    const onAdd = (o: Shirt): void => void adds.push(o.metadata.name!);
    const onError = (e: Error): void => void errors.push(e);
    inf.on('add', onAdd).on('error', onError);
    start(inf);
    await inf.waitForSync();
    await inf.idle();
    inf.off('add', onAdd).off('error', onError);
    expect(inf.status.handlers).to.equal(0);
    server.create(shirt('b'));
    await until(() => inf.size === 2, 'b');
    await inf.idle();
    expect(adds).to.deep.equal(['a']);
  });

  it('does redeliver every object as update(obj, obj) each resync period', async () => {
    server.create(shirt('a'));
    const inf = informer({ resyncPeriodMs: 30_000 });
    const updates: [Shirt, Shirt][] = [];
    inf.on('update', (o, old) => {
      updates.push([o, old]);
    });
    start(inf);
    await inf.waitForSync();
    clock.advance(30_000);
    await inf.idle();
    expect(updates).to.have.length(1);
    expect(updates[0][0]).to.equal(updates[0][1]);
    clock.advance(30_000);
    await inf.idle();
    expect(updates).to.have.length(2);
  });

  it('does look objects up by field, label and namespace through indexes kept current', async () => {
    server.create(shirt('a', 'blue'));
    server.create(shirt('b', 'red'));
    server.create({ ...shirt('c', 'blue'), metadata: { name: 'c', namespace: 'other', labels: { app: 'web' } } });
    const inf = informer();
    start(inf);
    await inf.waitForSync();
    const names = (objs: Shirt[]): string[] => objs.map((o) => o.metadata.name!).sort();
    expect(names(inf.byField('spec.color', 'blue'))).to.deep.equal(['a', 'c']);
    expect(names(inf.byField('spec.quantity', ''))).to.deep.equal(['a', 'b', 'c']);
    expect(names(inf.byField('metadata.name', 'b'))).to.deep.equal(['b']);
    expect(names(inf.byLabel('app', 'shop'))).to.deep.equal(['a', 'b']);
    expect(names(inf.byNamespace('other'))).to.deep.equal(['c']);
    server.update('default', 'b', (o) => ((o.spec!.color = 'blue'), (o.spec!.quantity = 3)));
    await until(() => inf.get('default/b')?.spec?.color === 'blue', 'b blue');
    expect(names(inf.byField('spec.color', 'blue'))).to.deep.equal(['a', 'b', 'c']);
    expect(names(inf.byField('spec.quantity', 3))).to.deep.equal(['b']);
    expect(inf.getByName('c', 'other')?.metadata.name).to.equal('c');
  });

  it('does drop managedFields by default and keep them when the transform is null', async () => {
    server.create({ ...shirt('a'), metadata: { ...shirt('a').metadata, managedFields: [{ manager: 'kubectl', operation: 'Update' }] } });
    const dropping = informer();
    const keeping = informer({ transform: null });
    start(dropping);
    start(keeping);
    await dropping.waitForSync();
    await keeping.waitForSync();
    expect(dropping.get('default/a')!.metadata).to.not.have.property('managedFields');
    expect(keeping.get('default/a')!.metadata.managedFields).to.deep.equal([{ manager: 'kubectl', operation: 'Update' }]);
  });

  it('does report status changes and resolve start() once stopped', async () => {
    const inf = informer();
    const phases: string[] = [];
    inf.on('status', (s) => phases.push(s.phase));
    start(inf);
    await inf.waitForSync();
    await until(() => inf.status.phase === 'watching', 'watching');
    stop.abort();
    await Promise.all(runs);
    expect(inf.status.phase).to.equal('stopped');
    expect(phases[0]).to.equal('listing');
    expect(phases).to.include('watching');
    expect(phases.at(-1)).to.equal('stopped');
    await inf.start(new AbortController().signal).then(() => expect.fail('restarted'), (e: unknown) => expect(e).to.be.instanceOf(KubeError));
  });

  it('does reject waitForSync when the informer stops before syncing', async () => {
    server.faults.push({ on: 'list', kind: 'status', code: 500 });
    const inf = informer();
    start(inf);
    const waiting = inf.waitForSync().then(() => 'synced', (e: unknown) => (e as KubeError).reason);
    await until(() => inf.status.phase === 'backoff', 'backoff');
    stop.abort();
    expect(await waiting).to.equal('Timeout');
  });
});
