// Requests that name a resourceVersion the server has not reached yet, answered as kube-apiserver
// v1.34.4 answers them (its watch cache, k8s.io/apiserver/pkg/storage/cacher):
// - GET and LIST with resourceVersion=N > current, in every resourceVersionMatch mode (unset, with or
//   without limit, NotOlderThan, Exact) and with a continue token: the watch cache waits up to 3 s
//   (waitUntilFreshAndBlock's blockTimeout) and answers as soon as a write brings it to N; else
//   504 "Timeout: Too large resource version: N, current: C" (watch_cache_test.go TestWaitUntilFreshAndGet,
//   TestWaitUntilFreshAndListFromCache, TestWaitUntilFreshAndListTimeout; storage/testing's RunTestGet
//   "too high resource version", RunTestList "test List with future resource version, match=Exact").
//   After the wait, unset-without-limit and NotOlderThan list the latest state, Exact and the legacy
//   exact match (limit set) the state at N (waitAndListExactRV).
// - WATCH from N > current: the stream opens and stays silent, with no error after the 3 s, until the
//   store passes N; then only events after N arrive (cacher.Watch does not wait for it, "clients can
//   wait for events without unnecessary blocking"; cacheWatcher.process sends only events newer than N).
// - WATCH with sendInitialEvents=true from N > current waits as a list does
//   (TestWaitUntilWatchCacheFreshAndForceAllEvents), and after 3 s answers the 504 as an ERROR event.
// Every timing and answer here was checked against the reference (the differential scenario
// list/future-resource-version records them). Time is a FakeClock; nothing sleeps.
import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start, type Response, type WatchStream } from './internal/client.js';

const cms = '/api/v1/namespaces/default/configmaps';
const secrets = '/api/v1/namespaces/default/secrets';
const tooLargeDetails = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 };

/** Resolves once `cond` holds, checking after each turn of the event loop; fails after `ms` of real time. */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
}

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(p: Promise<T>): { done: boolean; value: Promise<T> } {
  const t = { done: false, value: p };
  p.then(() => { t.done = true; }, () => { t.done = true; });
  return t;
}

function names(r: Response): string[] {
  return (r.body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
}

describe('requests at a resourceVersion the server has not reached', () => {
  let server: ApiServer;
  let client: Client;
  let clock: FakeClock;
  let n = 0;

  /** Creates a ConfigMap; returns its resourceVersion. */
  async function write(path = cms): Promise<number> {
    const r = await client.post(path, { metadata: { name: `w${n++}` } });
    expect(r.status, r.text).to.equal(201);
    return Number(r.body.metadata.resourceVersion);
  }

  /** Sends a GET that is expected to wait, and resolves once the server holds it. */
  async function waiting(path: string): Promise<{ done: boolean; value: Promise<Response> }> {
    const before = server.waitingReads;
    const t = track(client.get(path));
    await until(() => server.waitingReads === before + 1 || t.done, `${path} to wait`);
    expect(t.done, `${path} answered at once`).to.equal(false);
    return t;
  }

  /** Moves the fake clock past the apiserver's 3 s and returns the answer. */
  async function timedOut(t: { done: boolean; value: Promise<Response> }): Promise<Response> {
    await clock.advance(2999);
    expect(t.done, 'answered before 3 s').to.equal(false);
    await clock.advance(1);
    return t.value;
  }

  function expectTooLarge(r: Response, wanted: number | string, current: number): void {
    expect(r.status, r.text).to.equal(504);
    expect(r.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `Timeout: Too large resource version: ${wanted}, current: ${current}`, reason: 'Timeout', details: tooLargeDetails, code: 504,
    });
    expect(r.headers.get('retry-after')).to.equal('1');
  }

  before(async () => {
    clock = new FakeClock(Date.now());
    ({ server, client } = await start({ clock, watchHistorySize: 200, bookmarkIntervalMs: 60_000 }));
    await write();
  });

  after(async () => {
    await server.close();
  });

  afterEach(() => {
    expect(server.waitingReads, 'a request still waits').to.equal(0);
  });

  describe('GET of one object', () => {
    it('waits for the resourceVersion and answers with the object as the write left it', async () => {
      const c = server.resourceVersion;
      const t = await waiting(`${cms}/w0?resourceVersion=${c + 2}`);
      await write();
      await clock.advance(2000);
      expect(t.done).to.equal(false);
      const patched = await client.patch(`${cms}/w0`, { data: { fresh: 'yes' } });
      const r = await t.value;
      expect(r.status, r.text).to.equal(200);
      expect(r.body.data).to.deep.equal({ fresh: 'yes' });
      expect(r.body.metadata.resourceVersion).to.equal(patched.body.metadata.resourceVersion);
    });

    it('finds an object created during the wait', async () => {
      const t = await waiting(`${cms}/late?resourceVersion=${server.resourceVersion + 1}`);
      await client.post(cms, { metadata: { name: 'late' } });
      const r = await t.value;
      expect(r.status, r.text).to.equal(200);
      expect(r.body.metadata.name).to.equal('late');
    });

    it('answers 504 Too large resource version after 3 s, for a missing object too', async () => {
      const c = server.resourceVersion;
      expectTooLarge(await timedOut(await waiting(`${cms}/w0?resourceVersion=${c + 5}`)), c + 5, c);
      expectTooLarge(await timedOut(await waiting(`${cms}/nope?resourceVersion=${c + 5}`)), c + 5, c);
      // storage/testing RunTestGet: "too high resource version" (math.MaxInt64), every digit kept.
      expectTooLarge(await timedOut(await waiting(`${cms}/w0?resourceVersion=9223372036854775807`)), '9223372036854775807', c);
    });

    it('answers at once for 0 ("any"), the current and an older resourceVersion', async () => {
      for (const rv of ['0', String(server.resourceVersion), '1']) {
        const r = await client.get(`${cms}/w0?resourceVersion=${rv}`);
        expect(r.status, r.text).to.equal(200);
      }
    });

    it('answers a resourceVersion that is not a number with the cacher\'s reasonless 500', async () => {
      const r = await client.get(`${cms}/w0?resourceVersion=abc`);
      expect(r.status, r.text).to.equal(500);
      expect(r.body).to.deep.equal({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax', code: 500,
      });
    });
  });

  describe('LIST', () => {
    it('waits in every resourceVersionMatch mode and answers 504 after 3 s', async () => {
      for (const q of ['', '&limit=1', '&resourceVersionMatch=NotOlderThan', '&resourceVersionMatch=Exact', '&resourceVersionMatch=NotOlderThan&limit=1', '&resourceVersionMatch=Exact&limit=1']) {
        const c = server.resourceVersion;
        expectTooLarge(await timedOut(await waiting(`${cms}?resourceVersion=${c + 5}${q}`)), c + 5, c);
      }
    });

    it('lists the latest state once a write reaches the resourceVersion (unset, NotOlderThan)', async () => {
      for (const q of ['', '&resourceVersionMatch=NotOlderThan']) {
        const c = server.resourceVersion;
        const t = await waiting(`${cms}?resourceVersion=${c + 2}${q}`);
        await write();
        const second = await write();
        const r = await t.value;
        expect(r.status, r.text).to.equal(200);
        expect(r.body.metadata.resourceVersion).to.equal(String(second));
        expect(names(r)).to.include(`w${n - 1}`);
      }
    });

    it('lists the state at the resourceVersion itself for Exact and for the legacy exact match (limit set)', async () => {
      for (const q of ['&resourceVersionMatch=Exact', '&limit=500']) {
        const c = server.resourceVersion;
        const t = await waiting(`${cms}?resourceVersion=${c + 2}${q}`);
        await write();
        await write();
        const r = await t.value;
        expect(r.status, r.text).to.equal(200);
        expect(r.body.metadata.resourceVersion).to.equal(String(c + 2));
        expect(names(r)).to.include(`w${n - 1}`);
      }
    });

    it('is released by a write to another resource: the resourceVersion is the server\'s, not the resource\'s', async () => {
      const c = server.resourceVersion;
      const t = await waiting(`${cms}?resourceVersion=${c + 1}`);
      const secretRV = await write(secrets);
      const r = await t.value;
      expect(r.status, r.text).to.equal(200);
      expect(r.body.metadata.resourceVersion).to.equal(String(secretRV));
    });

    it('waits for the resourceVersion of a continue token too', async () => {
      const first = await client.get(`${cms}?limit=1`);
      const token = JSON.parse(Buffer.from(first.body.metadata.continue as string, 'base64url').toString('utf8')) as { rv: number };
      const c = server.resourceVersion;
      token.rv = c + 5;
      const rewritten = Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
      expectTooLarge(await timedOut(await waiting(`${cms}?limit=1&continue=${rewritten}`)), c + 5, c);
    });

    it('answers at once for resourceVersion=0 ("any")', async () => {
      for (const q of ['', '&limit=1', '&resourceVersionMatch=NotOlderThan']) {
        const r = await client.get(`${cms}?resourceVersion=0${q}`);
        expect(r.status, r.text).to.equal(200);
      }
    });

    it('stops waiting when the client goes away', async () => {
      const abort = new AbortController();
      const sent = fetch(`${server.url}${cms}?resourceVersion=${server.resourceVersion + 3}`, { signal: abort.signal }).catch((err: unknown) => err);
      await until(() => server.waitingReads === 1, 'the list to wait');
      abort.abort();
      await sent;
      await until(() => server.waitingReads === 0, 'the wait to end');
    });
  });

  describe('WATCH', () => {
    it('stays open and silent from a future resourceVersion, then sends only the events after it', async () => {
      const c = server.resourceVersion;
      const w = await client.watch(`${cms}?watch=true&allowWatchBookmarks=true&resourceVersion=${c + 3}`);
      try {
        expect(w.status).to.equal(200);
        await clock.advance(10_000);
        // No ERROR after the 3 s, and no bookmark while the server is behind (bookmarks every 60 s).
        await clock.advance(60_000);
        expect(w.events).to.deep.equal([]);
        const rvs: number[] = [];
        for (let i = 0; i < 5; i++) rvs.push(await write());
        const events = [await w.next(), await w.next()];
        expect(events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)).to.deep.equal([`ADDED ${rvs[3]}`, `ADDED ${rvs[4]}`]);
        // Past the resourceVersion, bookmarks flow again.
        await clock.advance(60_000);
        const bookmark = await w.next();
        expect(bookmark.type).to.equal('BOOKMARK');
        expect(bookmark.object.metadata.resourceVersion).to.equal(String(rvs[4]));
      } finally {
        w.close();
      }
    });

    it('waits for the resourceVersion before the initial events of sendInitialEvents=true', async () => {
      const c = server.resourceVersion;
      const opened = track(client.watch(`${cms}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${c + 2}`));
      await until(() => server.waitingReads === 1, 'the watch to wait');
      await write();
      const second = await write();
      const w: WatchStream = await opened.value;
      try {
        const events = await w.until((e) => e.type === 'BOOKMARK');
        expect(events.slice(0, -1).every((e) => e.type === 'ADDED')).to.equal(true);
        expect(events.map((e) => e.object.metadata.name)).to.include(`w${n - 1}`);
        const bookmark = events[events.length - 1].object;
        expect(bookmark.metadata.resourceVersion).to.equal(String(second));
        expect(bookmark.metadata.annotations).to.deep.equal({ 'k8s.io/initial-events-end': 'true' });
        const third = await write();
        const next = await w.next();
        expect(`${next.type} ${next.object.metadata.resourceVersion}`).to.equal(`ADDED ${third}`);
      } finally {
        w.close();
      }
    });

    it('answers sendInitialEvents=true from a resourceVersion not reached in 3 s with a 504 ERROR event', async () => {
      const c = server.resourceVersion;
      const opened = track(client.watch(`${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${c + 2}`));
      await until(() => server.waitingReads === 1, 'the watch to wait');
      await clock.advance(2999);
      expect(opened.done).to.equal(false);
      await clock.advance(1);
      const w = await opened.value;
      expect(w.status).to.equal(200);
      const e = await w.next();
      expect(e.type).to.equal('ERROR');
      expect(e.object).to.deep.equal({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: `Timeout: Too large resource version: ${c + 2}, current: ${c}`, reason: 'Timeout', details: tooLargeDetails, code: 504,
      });
      await w.end();
    });
  });
});

// kube-apiserver keeps no watch cache for Events (DefaultWatchCacheSizes in pkg/kubeapiserver: events
// and events.k8s.io events are 0): their reads go to etcd (storage/etcd3), which does not wait. v1.34.4
// answers at once: validateMinimumResourceVersion's and GetList's ErrFutureRev 504 with
// retrySeconds 0 (no retryAfterSeconds, no Retry-After), a GET's unparsable resourceVersion as the
// list's 400, and a watch with sendInitialEvents an ERROR at once whose retryAfterSeconds is
// wait.Jitter(1s, 3) in whole seconds (watcher.go startWatching). A plain watch stays silent, as above.
describe('requests at a resourceVersion not reached, on a resource without a watch cache (Events)', () => {
  const events = '/api/v1/namespaces/default/events';
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start({ clock: new FakeClock(Date.now()) }));
    const r = await client.post(events, { metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' });
    expect(r.status, r.text).to.equal(201);
  });

  after(() => server.close());

  it('answers gets and lists in every mode with the 504 at once, without retryAfterSeconds', async () => {
    const c = server.resourceVersion;
    for (const path of [`${events}/e1?resourceVersion=${c + 5}`, `${events}/nope?resourceVersion=${c + 5}`, `${events}?resourceVersion=${c + 5}`,
      `${events}?resourceVersion=${c + 5}&limit=1`, `${events}?resourceVersion=${c + 5}&resourceVersionMatch=NotOlderThan`, `${events}?resourceVersion=${c + 5}&resourceVersionMatch=Exact`]) {
      const r = await client.get(path);
      expect(r.status, `${path}: ${r.text}`).to.equal(504);
      expect(r.body).to.deep.equal({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: `Timeout: Too large resource version: ${c + 5}, current: ${c}`, reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] }, code: 504,
      });
      expect(r.headers.get('retry-after')).to.equal(null);
    }
    expect(server.waitingReads).to.equal(0);
  });

  it('answers a get\'s unparsable resourceVersion with the list\'s 400', async () => {
    const r = await client.get(`${events}/e1?resourceVersion=abc`);
    expect(r.status, r.text).to.equal(400);
    expect(r.body).to.include({ reason: 'BadRequest', message: 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' });
  });

  it('answers a watch with sendInitialEvents with an ERROR at once, retrying after 1 to 3 s', async () => {
    const c = server.resourceVersion;
    const w = await client.watch(`${events}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${c + 5}`);
    const e = await w.next();
    expect(e.type).to.equal('ERROR');
    expect(e.object).to.include({ reason: 'Timeout', code: 504, message: `Timeout: Too large resource version: ${c + 5}, current: ${c}` });
    expect(e.object.details.causes).to.deep.equal([{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    expect([1, 2, 3]).to.include(e.object.details.retryAfterSeconds);
    await w.end();
  });

  it('keeps a plain watch from the future open and silent, then sends the events after it', async () => {
    const c = server.resourceVersion;
    const w = await client.watch(`${events}?watch=true&resourceVersion=${c + 1}`);
    try {
      await client.post(events, { metadata: { name: 'e2' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' } });
      await client.post(events, { metadata: { name: 'e3' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' } });
      const e = await w.next();
      expect(`${e.type} ${e.object.metadata.name}`).to.equal('ADDED e3');
    } finally {
      w.close();
    }
  });
});

describe('the bound on waiting requests', () => {
  it('answers one more request than maxWaitingReads as the apiserver\'s in-flight limit does', async () => {
    const clock = new FakeClock(Date.now());
    const { server, client } = await start({ clock, maxWaitingReads: 1 });
    try {
      const first = track(client.get(`${cms}?resourceVersion=${server.resourceVersion + 1}`));
      await until(() => server.waitingReads === 1, 'the first list to wait');
      const second = await client.get(`${cms}/x?resourceVersion=${server.resourceVersion + 1}`);
      expect(second.status).to.equal(429);
      expect(second.text).to.equal('Too many requests, please try again later.\n');
      expect(second.headers.get('retry-after')).to.equal('1');
      expect(second.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      await clock.advance(3000);
      expect((await first.value).status).to.equal(504);
    } finally {
      await server.close();
    }
  });

  it('refuses a bound that is not a count', async () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      let error: unknown;
      try { await (await start({ maxWaitingReads: bad })).server.close(); } catch (err) { error = err; }
      expect(error).to.be.instanceOf(RangeError);
      expect((error as Error).message).to.equal(`maxWaitingReads must be an integer of at least 0, got ${bad}`);
    }
  });

  it('ends waiting requests when the server closes', async () => {
    const { server, client } = await start({ clock: new FakeClock(Date.now()) });
    const pending = client.get(`${cms}?resourceVersion=${server.resourceVersion + 1}`).then(() => 'answered', () => 'failed');
    await until(() => server.waitingReads === 1, 'the list to wait');
    await server.close();
    expect(['answered', 'failed']).to.include(await pending);
    expect(server.waitingReads).to.equal(0);
  });
});
