import { expect } from 'chai';
import { KubeError, type KubeList } from '@kubekit/core';
import { ListerWatcher, type ListOptions, type RequestOptions, type WatchOptions } from '../src/listerWatcher.js';
import { IdleTimeoutError } from '../src/internal/restClient.js';
import { Reflector, type ListerWatcherLike, type ReflectorOptions, type ReflectorStatus, type WatchStreamLike } from '../src/reflector.js';
import { FakeApiServer, apiVersion, plural, type Shirt } from './helpers/fakeApiServer.js';
import { FakeClock } from './helpers/fakeClock.js';
import { Recorder, expectInSync } from './helpers/recorder.js';
import { until } from './helpers/until.js';

function shirt(name: string, color = 'blue', namespace = 'default'): Shirt {
  return { metadata: { name, namespace, labels: { app: 'shop' } }, spec: { color, size: 'M' } };
}

describe('Reflector', () => {
  let server: FakeApiServer;
  let clock: FakeClock;
  let stop: AbortController;
  let run: Promise<void> | undefined;
  let statuses: ReflectorStatus[];
  let errors: Error[];

  beforeEach(async () => {
    server = await new FakeApiServer().start();
    clock = new FakeClock();
    stop = new AbortController();
    statuses = [];
    errors = [];
    run = undefined;
  });

  afterEach(async () => {
    stop.abort();
    await run;
    await server.close();
  });

  function start(options: ReflectorOptions<Shirt> = {}): { reflector: Reflector<Shirt>; rec: Recorder<Shirt> } {
    const lw = new ListerWatcher<Shirt>(server.kubeConfig(), { apiVersion, plural }, { clock });
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(lw, rec, { clock, random: () => 0, streamingList: 'never', ...options });
    reflector.on('status', (s) => statuses.push(s));
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    return { reflector, rec };
  }

  /** Waits for the backoff wait that follows a failure, checks its length, and lets it pass. */
  async function passBackoff(reflector: Reflector<Shirt>, expectedMs?: number): Promise<number> {
    await until(() => reflector.status.phase === 'backoff', 'backoff');
    const delay = reflector.status.retryInMs!;
    if (expectedMs !== undefined) expect(delay).to.equal(expectedMs);
    const seen = statuses.length;
    clock.advance(delay);
    await until(() => statuses.length > seen, 'end of backoff');
    return delay;
  }

  /**
   * The fake server's lister/watcher, whose first watch stays silent until its idle timeout and whose
   * one-item lists (the resourceVersion check) go to `check` first; `calls` records what was asked.
   */
  function oneSilentWatch(check: (options: ListOptions) => void): { calls: string[]; scripted: ListerWatcherLike<Shirt> } {
    const lw = new ListerWatcher<Shirt>(server.kubeConfig(), { apiVersion, plural }, { clock });
    const calls: string[] = [];
    let silent = 1;
    const scripted: ListerWatcherLike<Shirt> = {
      list: async (options: ListOptions, request?: RequestOptions) => {
        calls.push(`list limit=${options.limit ?? ''} rv=${options.resourceVersion ?? ''} match=${options.resourceVersionMatch ?? ''}`);
        if (options.limit === 1) check(options);
        return lw.list(options, request);
      },
      watch: async (options: WatchOptions, request?: RequestOptions): Promise<WatchStreamLike<Shirt>> => {
        calls.push(`watch rv=${options.resourceVersion ?? ''}`);
        if (silent-- > 0) return { batches: async function* () { throw new IdleTimeoutError(180_000); }, setIdleTimeout: () => {}, close: () => {} };
        return lw.watch(options, request);
      },
    };
    return { calls, scripted };
  }

  it('does list in pages, then watch from the list resource version with bookmarks and a jittered timeout', async () => {
    for (let i = 0; i < 7; i++) server.create(shirt(`s${i}`));
    const { reflector, rec } = start({ pageSize: 3 });
    await until(() => reflector.status.phase === 'watching', 'watching');
    expectInSync(rec, server.objects.values());
    const lists = server.requests.filter((r) => !r.query.has('watch'));
    expect(lists.map((r) => r.query.get('limit'))).to.deep.equal(['3', '3', '3']);
    expect(lists[0].query.has('resourceVersion')).to.equal(false);
    const watch = server.requests.find((r) => r.query.has('watch'))!;
    expect(watch.query.get('resourceVersion')).to.equal(String(server.rv));
    expect(watch.query.get('allowWatchBookmarks')).to.equal('true');
    expect(watch.query.get('timeoutSeconds')).to.equal('300');
    expect(rec.lastReplaceRv).to.equal(String(server.rv));
  });

  it('does ask for the next page of a list while it decodes the current one', async () => {
    for (let i = 0; i < 7; i++) server.create(shirt(`s${i}`));
    const lw = new ListerWatcher<Shirt>(server.kubeConfig(), { apiVersion, plural }, { clock });
    const log: string[] = [];
    const logging: ListerWatcherLike<Shirt> = {
      list: (options, request) => {
        const page = options.continue === undefined ? 1 : log.filter((l) => l.startsWith('ask')).length + 1;
        log.push(`ask ${page}`);
        return lw.list(options, request).then((list) => {
          log.push(`got ${page}`);
          return list;
        });
      },
      watch: (options, request) => lw.watch(options, request),
    };
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(logging, rec, { clock, random: () => 0, streamingList: 'never', pageSize: 3 });
    run = reflector.start(stop.signal);
    await until(() => reflector.status.phase === 'watching', 'watching');
    // Page 2 is asked for before page 1 is decoded (and so on); the last page asks for none.
    expect(log).to.deep.equal(['ask 1', 'ask 2', 'got 1', 'ask 3', 'got 2', 'got 3']);
    expectInSync(rec, server.objects.values());
    expect(server.requests.filter((r) => !r.query.has('watch')).map((r) => r.query.has('continue'))).to.deep.equal([false, true, true]);
  });

  it('does follow the decoded continue token when the one seen early was wrong, and drop the page asked for with it', async () => {
    const item = (name: string): Shirt & { apiVersion: string; kind: string } => ({ apiVersion, kind: 'Shirt', ...shirt(name) });
    const asked: (string | undefined)[] = [];
    let dropped = 0;
    const fake: ListerWatcherLike<Shirt> = {
      list: (options: ListOptions, request?: RequestOptions): Promise<KubeList<Shirt & { apiVersion: string; kind: string }>> => {
        asked.push(options.continue);
        if (options.continue === 'guessed') {
          // Never answers: it must be dropped (aborted) once the list is complete.
          return new Promise((_resolve, reject) => request?.signal?.addEventListener('abort', () => {
            dropped++;
            reject(new Error('dropped'));
          }));
        }
        if (options.continue === undefined) request?.onContinue?.('guessed');
        const last = options.continue === 'real';
        return Promise.resolve({ apiVersion, kind: 'ShirtList', metadata: { resourceVersion: '5', ...(last ? {} : { continue: 'real' }) }, items: [item(last ? 'b' : 'a')] });
      },
      watch: (_options, request) => new Promise<WatchStreamLike<Shirt>>((_resolve, reject) => request?.signal?.addEventListener('abort', () => reject(new Error('stopped')))),
    };
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(fake, rec, { clock, random: () => 0, streamingList: 'never' });
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    await until(() => reflector.status.phase === 'connecting', 'connecting');
    expect(asked).to.deep.equal([undefined, 'guessed', 'real']);
    expect([...rec.cache.keys()].sort()).to.deep.equal(['default/a', 'default/b']);
    expect(rec.lastReplaceRv).to.equal('5');
    await until(() => dropped === 1, 'the guessed page dropped');
    expect(errors).to.deep.equal([]);
  });

  it('does pick the watch timeout in [5, 10) minutes, as client-go', async () => {
    const { reflector } = start({ random: () => 0.999 });
    await until(() => reflector.status.phase === 'watching', 'watching');
    const watch = server.requests.find((r) => r.query.has('watch'))!;
    expect(watch.query.get('timeoutSeconds')).to.equal('599');
  });

  it('does apply watch events in order and follow bookmarks', async () => {
    server.create(shirt('a'));
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.create(shirt('b'));
    server.update('default', 'a', (o) => (o.spec!.size = 'L'));
    server.delete('default', 'b');
    server.bookmark();
    await until(() => reflector.lastSyncResourceVersion === String(server.rv), 'bookmark');
    expectInSync(rec, server.objects.values());
    expect(rec.applied).to.equal(3);
  });

  it('does resume from the last resource version when the server ends a watch, without relisting', async () => {
    server.create(shirt('a'));
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.create(shirt('b'));
    await until(() => rec.cache.size === 2, 'b');
    server.endWatches();
    await until(() => reflector.status.watches === 2 && server.watchers.size === 1, 'second watch');
    server.create(shirt('c'));
    await until(() => rec.cache.size === 3, 'c');
    expect(rec.replaces).to.equal(1);
    const watches = server.requests.filter((r) => r.query.has('watch'));
    expect(watches[1].query.get('resourceVersion')).to.equal(rec.cache.get('default/b')!.metadata.resourceVersion);
    expectInSync(rec, server.objects.values());
  });

  // A reset that comes before the watch delivered anything is a very short watch (a failure); one after
  // events is resumed at once: reflector.rewatch.test.ts.
  it('does back off and resume after a connection reset of a watch that delivered nothing yet, losing and duplicating nothing', async () => {
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.faults.push({ on: 'watch', kind: 'reset', afterEvents: 2 });
    server.resetWatches();
    await passBackoff(reflector, 800);
    await until(() => reflector.status.phase === 'watching', 'watching again');
    for (let i = 0; i < 5; i++) server.create(shirt(`s${i}`));
    await passBackoff(reflector, 1600);
    await until(() => rec.cache.size === 5, 'all five');
    expectInSync(rec, server.objects.values());
    expect(rec.replaces).to.equal(1);
    expect(errors.length).to.equal(2);
  });

  it('does resume from the last complete event after a truncated JSON line', async () => {
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.resetWatches();
    server.faults.push({ on: 'watch', kind: 'truncate', afterEvents: 1 });
    await passBackoff(reflector);
    await until(() => reflector.status.phase === 'watching', 'watching again');
    server.create(shirt('a'));
    server.create(shirt('b'));
    await until(() => reflector.status.phase === 'backoff', 'backoff after truncation');
    expect(errors.at(-1)!.message).to.match(/unexpected EOF/);
    expect(rec.cache.size).to.equal(1);
    clock.advance(reflector.status.retryInMs!);
    await until(() => rec.cache.size === 2, 'b after resume');
    expectInSync(rec, server.objects.values());
  });

  it('does reconnect after an undecodable line', async () => {
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.resetWatches();
    server.faults.push({ on: 'watch', kind: 'garbage', afterEvents: 1 });
    await passBackoff(reflector);
    await until(() => reflector.status.phase === 'watching', 'watching again');
    server.create(shirt('a'));
    server.create(shirt('b'));
    await passBackoff(reflector);
    await until(() => rec.cache.size === 2, 'both');
    expect(errors.some((e) => /unable to decode an event from the watch stream/.test(e.message))).to.equal(true);
    expectInSync(rec, server.objects.values());
  });

  it('does fail a list whose items are not objects with names, saying which and why, and list again', async () => {
    server.create(shirt('a'));
    const lw = new ListerWatcher<Shirt>(server.kubeConfig(), { apiVersion, plural }, { clock });
    // What a broken server or intermediary might send instead of items (client-go fails such a list and retries).
    const bad: unknown[][] = [[null], [5], [['x']], [{ metadata: { name: 7 } }], [{ metadata: { name: 'b', namespace: { x: 1 } } }], [{ spec: {} }]];
    let lists = 0;
    const corrupting = {
      list: async (options: ListOptions, request?: RequestOptions): Promise<KubeList<Shirt>> => {
        const page = await lw.list(options, request);
        const extra = bad[lists++];
        return extra === undefined ? page : { ...page, items: [...page.items, ...(extra as Shirt[])] };
      },
      watch: lw.watch.bind(lw),
    };
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(corrupting, rec, { clock, random: () => 0, streamingList: 'never' });
    reflector.on('status', (st) => statuses.push(st));
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    for (let i = 0; i < bad.length; i++) await passBackoff(reflector);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(errors.map((e) => e.message)).to.deep.equal([
      'unable to decode the list: items[1] is null; expected an object',
      'unable to decode the list: items[1] is number; expected an object',
      'unable to decode the list: items[1] is array; expected an object',
      "unable to decode the list: items[1]: object's metadata.name must be a string, got number",
      "unable to decode the list: items[1]: object's metadata.namespace must be a string, got object",
      'unable to decode the list: items[1]: object has no metadata.name',
    ]);
    expectInSync(rec, server.objects.values());
  });

  it('does check, after a watch that stayed silent, that the server reached its version, and relists from one that went back in time', async () => {
    // kube-apiserver keeps a watch from a resourceVersion it has not reached open and silent (its store
    // went back: etcd restored, an in-memory server restarted); re-watching from there would wait forever.
    server.create(shirt('a'));
    let wentBack = true;
    const { calls, scripted } = oneSilentWatch((options) => {
      if (!wentBack) return;
      wentBack = false;
      throw new KubeError('Timeout', `Timeout: Too large resource version: ${options.resourceVersion}, current: 1`, { code: 504 });
    });
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(scripted, rec, { clock, random: () => 0, streamingList: 'never' });
    reflector.on('status', (st) => statuses.push(st));
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    await passBackoff(reflector); // after the silent watch
    await passBackoff(reflector); // after the 504: relist
    await until(() => reflector.status.phase === 'watching', 'watching');
    const rv = String(server.rv);
    expect(calls).to.deep.equal([
      'list limit=500 rv= match=',
      `watch rv=${rv}`,
      `list limit=1 rv=${rv} match=NotOlderThan`,
      'list limit=500 rv= match=',
      `watch rv=${rv}`,
    ]);
    expect(errors.map((e) => e.constructor.name)).to.deep.equal(['IdleTimeoutError', 'KubeError']);
    server.create(shirt('b'));
    await until(() => rec.cache.size === 2, 'b');
    expectInSync(rec, server.objects.values());
  });

  it('does check the resourceVersion once after a silent watch: a check that fails itself is followed by a watch, not another check', async () => {
    // Regression (found by the chaos test): a check timing out set up another check, forever, so that
    // a server slow to answer lists was never watched again.
    server.create(shirt('a'));
    const { calls, scripted } = oneSilentWatch(() => {
      throw new IdleTimeoutError(60_000);
    });
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(scripted, rec, { clock, random: () => 0, streamingList: 'never' });
    reflector.on('status', (st) => statuses.push(st));
    run = reflector.start(stop.signal);
    await passBackoff(reflector); // after the silent watch
    await passBackoff(reflector); // after the check timed out
    await until(() => reflector.status.phase === 'watching', 'watching');
    const rv = String(server.rv);
    expect(calls).to.deep.equal(['list limit=500 rv= match=', `watch rv=${rv}`, `list limit=1 rv=${rv} match=NotOlderThan`, `watch rv=${rv}`]);
  });

  it('does back off 800 ms doubling on 500s, then list', async () => {
    server.create(shirt('a'));
    for (let i = 0; i < 3; i++) server.faults.push({ on: 'list', kind: 'status', code: 500, reason: 'InternalError' });
    const { reflector, rec } = start();
    const delays = [await passBackoff(reflector), await passBackoff(reflector), await passBackoff(reflector)];
    expect(delays).to.deep.equal([800, 1600, 3200]);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expectInSync(rec, server.objects.values());
    expect(reflector.status.lastError).to.equal(undefined);
  });

  it('does stretch delays with jitter and cap them at 5 s before jitter (10 s at most)', async () => {
    for (let i = 0; i < 8; i++) server.faults.push({ on: 'list', kind: 'status', code: 503, reason: 'ServiceUnavailable' });
    const { reflector } = start({ random: () => 0.5 });
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) delays.push(await passBackoff(reflector));
    expect(delays).to.deep.equal([1200, 2400, 4800, 7500, 7500, 7500, 7500, 7500]);
    await until(() => reflector.status.phase === 'watching', 'watching');
  });

  // client-go resets its backoff after a successful watch; kubekit once a watch stayed open for resetAfterMs.
  it('does start the backoff over once a watch stayed healthy for resetAfterMs, and reports no failures then', async () => {
    server.create(shirt('a'));
    for (let i = 0; i < 5; i++) server.faults.push({ on: 'list', kind: 'status', code: 503, reason: 'ServiceUnavailable' });
    const { reflector } = start();
    for (let i = 0; i < 5; i++) await passBackoff(reflector);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(reflector.status.consecutiveFailures).to.equal(5);
    // A short healthy spell does not reset: the next failure waits the capped delay. (The failure is an
    // ERROR event: a connection reset after a healthy watch is no failure, see reflector.rewatch.test.ts.)
    clock.advance(1000);
    server.errorWatches(500, 'InternalError');
    await passBackoff(reflector, 5000);
    await until(() => reflector.status.phase === 'watching', 'watching again');
    clock.advance(10_000);
    expect(reflector.status.consecutiveFailures).to.equal(0);
    server.errorWatches(500, 'InternalError');
    await passBackoff(reflector, 800);
    await until(() => reflector.status.phase === 'watching', 'watching at last');
  });

  it('does report a permanent list error after three attempts in a row, keep retrying, and clear it once a list succeeds', async () => {
    server.create(shirt('a'));
    const message = 'field label not supported: spec.version';
    for (let i = 0; i < 5; i++) server.faults.push({ on: 'list', kind: 'status', code: 400, reason: 'BadRequest', message });
    const { reflector, rec } = start();
    await passBackoff(reflector);
    await passBackoff(reflector);
    expect(reflector.status.permanentError).to.equal(undefined);
    await until(() => reflector.status.phase === 'backoff', 'third backoff');
    expect(reflector.status.permanentError?.message).to.equal(message);
    expect(reflector.status.permanentError).to.have.property('code', 400);
    expect(errors.map((e) => e.message)).to.deep.equal([message, message, message]);
    for (let i = 0; i < 3; i++) await passBackoff(reflector);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expectInSync(rec, server.objects.values());
    expect(reflector.status.permanentError).to.equal(undefined);
    expect(errors).to.have.length(5);
  });

  for (const [code, reason] of [[403, 'Forbidden'], [404, 'NotFound']] as const) {
    it(`does count a ${code} as permanent, and a 500 between permanent errors does not reset the count`, async () => {
      server.faults.push({ on: 'list', kind: 'status', code, reason });
      server.faults.push({ on: 'list', kind: 'status', code: 500, reason: 'InternalError' });
      server.faults.push({ on: 'list', kind: 'status', code, reason });
      server.faults.push({ on: 'list', kind: 'status', code, reason, message: 'the last one' });
      const { reflector } = start();
      for (let i = 0; i < 3; i++) await passBackoff(reflector);
      expect(reflector.status.permanentError).to.equal(undefined);
      await until(() => reflector.status.phase === 'backoff', 'fourth backoff');
      expect(reflector.status.permanentError?.message).to.equal('the last one');
    });
  }

  it('does wait at least Retry-After on 429', async () => {
    server.faults.push({ on: 'list', kind: 'status', code: 429, reason: 'TooManyRequests', retryAfter: 7 });
    const { reflector } = start();
    await passBackoff(reflector, 7000);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(errors[0]).to.have.property('code', 429);
  });

  it('does relist at once on 410 Gone from a watch, and back off if it happens again', async () => {
    server.create(shirt('a'));
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.create(shirt('b'));
    await until(() => rec.cache.size === 2, 'b');
    server.compact();
    const seen = statuses.length;
    server.errorWatches(410, 'Expired', 'too old resource version');
    await until(() => rec.replaces === 2, 'relist');
    expect(statuses.slice(seen).every((s) => s.phase !== 'backoff')).to.equal(true);
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.create(shirt('c'));
    await until(() => rec.cache.size === 3, 'c');
    expectInSync(rec, server.objects.values());
    // A second 410 soon after is not relisted at once.
    server.errorWatches(410, 'Gone');
    await passBackoff(reflector, 1600);
    await until(() => rec.replaces === 3, 'second relist');
  });

  it('does relist at once when the first failure is a 410 ERROR event in the stream', async () => {
    server.faults.push({ on: 'watch', kind: 'errorEvent', code: 410, reason: 'Expired', afterEvents: 0 });
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    const seen = statuses.length;
    server.create(shirt('a'));
    await until(() => rec.replaces === 2, 'relist');
    // The first 410 after a healthy period relists without waiting.
    expect(statuses.slice(seen).every((s) => s.phase !== 'backoff')).to.equal(true);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expectInSync(rec, server.objects.values());
  });

  it('does back off when 410s repeat, so a server that always answers 410 is not hammered', async () => {
    for (let i = 0; i < 3; i++) server.faults.push({ on: 'watch', kind: 'status', code: 410, reason: 'Gone' });
    const { reflector } = start();
    await until(() => reflector.status.syncs === 2, 'first relist');
    const second = await passBackoff(reflector);
    const third = await passBackoff(reflector);
    expect([second, third]).to.deep.equal([1600, 3200]);
    await until(() => reflector.status.phase === 'watching', 'watching');
  });

  it('does start the list over when a continue token expires', async () => {
    for (let i = 0; i < 5; i++) server.create(shirt(`s${i}`));
    server.faults.push({ on: 'continue', kind: 'status', code: 410, reason: 'Expired', message: 'The provided continue parameter is too old' });
    const { reflector, rec } = start({ pageSize: 2 });
    await until(() => reflector.status.phase === 'watching', 'watching');
    const lists = server.requests.filter((r) => !r.query.has('watch'));
    expect(lists.map((r) => r.query.has('continue'))).to.deep.equal([false, true, false, true, true]);
    expect(rec.replaces).to.equal(1);
    expectInSync(rec, server.objects.values());
  });

  it('does reconnect a watch that sends nothing for the idle timeout', async () => {
    server.faults.push({ on: 'watch', kind: 'silent' });
    const { reflector, rec } = start({ idleTimeoutMs: 60_000 });
    await until(() => reflector.status.phase === 'watching', 'watching');
    await until(() => clock.pendingDelays().includes(60_000), 'idle timer');
    clock.advance(60_000);
    await passBackoff(reflector, 800);
    await until(() => reflector.status.watches === 2 && server.watchers.size === 1, 'second watch');
    server.create(shirt('a'));
    await until(() => rec.cache.size === 1, 'a');
    expect(errors[0].message).to.match(/no data received for 60000 ms/);
  });

  it('does keep a watch that receives bookmarks alive past the idle timeout', async () => {
    const { reflector } = start({ idleTimeoutMs: 60_000 });
    await until(() => reflector.status.phase === 'watching', 'watching');
    // Every 50 s a bookmark (at a newer resource version, as the apiserver's progress): 200 s in all,
    // and the idle timer (which only records each byte, and looks again when it fires) never runs out.
    for (let i = 0; i < 4; i++) {
      clock.advance(50_000);
      server.rv++;
      server.bookmark();
      await until(() => reflector.lastSyncResourceVersion === String(server.rv), `bookmark ${i}`);
    }
    clock.advance(50_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reflector.status.phase).to.equal('watching');
    expect(reflector.status.watches).to.equal(1);
    expect(errors).to.deep.equal([]);
  });

  it('does time out a list that gets no answer', async () => {
    server.faults.push({ on: 'list', kind: 'noResponse' });
    const { reflector } = start({ listIdleTimeoutMs: 30_000 });
    await until(() => clock.pendingDelays().includes(30_000), 'list timer');
    clock.advance(30_000);
    await passBackoff(reflector, 800);
    await until(() => reflector.status.phase === 'watching', 'watching');
  });

  it('does relist when the server restarted with resource versions going backwards', async () => {
    for (let i = 0; i < 3; i++) server.create(shirt(`s${i}`));
    for (let i = 0; i < 10; i++) server.update('default', 's1', (o) => (o.spec!.quantity = i));
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.restart(1);
    server.delete('default', 's0');
    server.create(shirt('s9'));
    // The reset connection backs off; the resumed watch is ahead of the server, which keeps it open
    // and silent (as kube-apiserver does). After the idle timeout, a one-item list not older than the
    // informer's version answers 504 "Too large resource version" (Retry-After 1), and it relists.
    await passBackoff(reflector, 800);
    await until(() => reflector.status.phase === 'watching', 'the silent watch');
    clock.advance(180_000);
    await passBackoff(reflector, 800); // the silent watch ended (the backoff started over when it opened)
    await passBackoff(reflector, 1600); // the check's 504
    await until(() => rec.replaces === 2, 'relist');
    await until(() => reflector.status.phase === 'watching', 'watching');
    expectInSync(rec, server.objects.values());
    expect(errors.some((e) => /Too large resource version/.test(e.message))).to.equal(true);
  });

  it('does back off when watches end at once without events', async () => {
    const { reflector } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.faults.push({ on: 'watch', kind: 'end' }, { on: 'watch', kind: 'end' });
    server.endWatches();
    await passBackoff(reflector, 800);
    await passBackoff(reflector, 1600);
    await passBackoff(reflector, 3200);
    await until(() => reflector.status.phase === 'watching', 'watching');
  });

  it('does use a streaming list when the server serves one, and keep its watch', async () => {
    server.streamingList = true;
    for (let i = 0; i < 3; i++) server.create(shirt(`s${i}`));
    const { reflector, rec } = start({ streamingList: 'auto' });
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(reflector.status.streamingList).to.equal('supported');
    expect(server.requests.every((r) => r.query.has('watch'))).to.equal(true);
    const first = server.requests[0].query;
    expect(first.get('sendInitialEvents')).to.equal('true');
    expect(first.get('resourceVersionMatch')).to.equal('NotOlderThan');
    server.create(shirt('s3'));
    await until(() => rec.cache.size === 4, 's3');
    expect(reflector.status.watches).to.equal(1);
    expectInSync(rec, server.objects.values());
  });

  it('does fall back to list+watch for good when the server rejects streaming lists', async () => {
    server.create(shirt('a'));
    const { reflector, rec } = start({ streamingList: 'auto' });
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(reflector.status.streamingList).to.equal('unsupported');
    server.compact();
    server.errorWatches(410, 'Expired');
    await until(() => rec.replaces === 2, 'relist');
    expect(server.requests.filter((r) => r.query.get('sendInitialEvents') === 'true')).to.have.length(1);
    expectInSync(rec, server.objects.values());
  });

  it('does fall back to a list when a streaming list sends nothing', async () => {
    server.streamingList = true;
    server.faults.push({ on: 'streamingList', kind: 'silent' });
    server.create(shirt('a'));
    const { reflector, rec } = start({ streamingList: 'auto', initialEventsIdleTimeoutMs: 5000 });
    await until(() => clock.pendingDelays().includes(5000), 'initial events timer');
    clock.advance(5000);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(reflector.status.streamingList).to.equal('unsupported');
    expectInSync(rec, server.objects.values());
  });

  it('does resolve start() once aborted and stopped, and report the stopped phase', async () => {
    const { reflector } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    stop.abort();
    await run;
    expect(reflector.status.phase).to.equal('stopped');
    await until(() => server.watchers.size === 0, 'server sees the watch closed');
  });

  it('does stop during a backoff wait at once', async () => {
    server.faults.push({ on: 'list', kind: 'status', code: 500 });
    const { reflector } = start();
    await until(() => reflector.status.phase === 'backoff', 'backoff');
    stop.abort();
    await run;
    expect(reflector.status.phase).to.equal('stopped');
  });
});

describe('Reflector and the event loop', () => {
  it('does yield to I/O while ingesting a watch stream that never pauses', async () => {
    // A stream whose next batch is always ready (as when the socket always has more data): before,
    // the whole burst was applied in one turn of the event loop, starving timers and other sockets
    // (the delete-reason lookups waited ~100 ms per round trip in the churn benchmark).
    const batches = 200;
    const perBatch = 10;
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const lw = {
      list: () => Promise.resolve({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1' }, items: [] }),
      watch: (_: unknown, request?: { signal?: AbortSignal }) => Promise.resolve({
        async *batches() {
          let rv = 1;
          for (let b = 0; b < batches; b++) {
            yield Array.from({ length: perBatch }, () => {
              rv++;
              return { type: 'ADDED' as const, object: { ...shirt(`s${rv}`), metadata: { ...shirt(`s${rv}`).metadata, resourceVersion: String(rv) } } };
            });
          }
          // Open until the informer stops (as a watch: its end is the request's abort).
          await Promise.race([closed, new Promise((resolve) => request?.signal?.addEventListener('abort', resolve))]);
          throw new DOMException('This operation was aborted', 'AbortError');
        },
        setIdleTimeout: () => undefined,
        close: () => close(),
      }),
    };
    // A clock that moves 1 ms each time it is read: the reflector's slices end every few batches.
    const clock = new FakeClock();
    let t = clock.now();
    clock.now = () => ++t;
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(lw as never, rec, { clock, random: () => 0, streamingList: 'never' });
    const stop = new AbortController();
    // Between turns of the event loop, how many events had been applied.
    const seen: number[] = [];
    const probe = (): void => {
      seen.push(rec.applied);
      if (rec.applied < batches * perBatch && seen.length < 100_000) setImmediate(probe);
    };
    setImmediate(probe);
    const run = reflector.start(stop.signal);
    await until(() => rec.applied === batches * perBatch, () => `all events applied (${rec.applied}; ${reflector.status.phase}, ${String(reflector.status.lastError)})`);
    stop.abort();
    await run;
    const between = seen.filter((n) => n > 0 && n < batches * perBatch);
    expect(between.length, `turns of the event loop during ingest (applied counts seen: ${seen.slice(0, 20).join(', ')}…)`).to.be.at.least(batches / 10);
    // Never more than a slice's worth (a few batches) in one turn.
    const steps = seen.slice(1).map((n, i) => n - seen[i]);
    expect(Math.max(...steps)).to.be.at.most(perBatch * 10);
  });
});
