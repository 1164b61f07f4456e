import { expect } from 'chai';
import { KubeError, noopLogger, type KubeList, type KubeObject } from '@kubekit/core';
import { parseFieldSelector } from '@kubekit/selectors';
import type { ListOptions, RequestOptions } from '../../src/listerWatcher.js';
import { DeleteReasonResolver, type NameLookup } from '../../src/internal/deleteReasons.js';
import type { KubeObjectLike } from '../../src/types.js';
import { FakeClock } from '../helpers/fakeClock.js';

/** A server whose GETs by name answer when the test says so (404 unless `present` has the name). */
class ControlledLookup implements NameLookup {
  readonly gets: string[] = [];
  /** The options of each GET. */
  readonly getOptions: RequestOptions[] = [];
  readonly lists: ListOptions[] = [];
  /** Answer every GET with 403, as for an informer that may list but not get. */
  forbidGet = false;
  readonly present = new Map<string, string>();
  private readonly waiting: (() => void)[] = [];
  /** Answer at once instead of holding the answers back. */
  immediate = false;
  /** Errors the next GETs fail with, in order (as a loaded apiserver's API Priority and Fairness answers). */
  readonly failures: KubeError[] = [];

  get(name: string, request: RequestOptions = {}): Promise<KubeObjectLike | undefined> {
    this.gets.push(name);
    this.getOptions.push(request);
    if (this.forbidGet) return Promise.reject(new KubeError('Forbidden', `cannot get "${name}"`));
    const failure = this.failures.shift();
    if (failure !== undefined) return Promise.reject(failure);
    const answer = (): KubeObjectLike | undefined => (this.present.has(name) ? { metadata: { name, uid: this.present.get(name) } } : undefined);
    if (this.immediate) return Promise.resolve(answer());
    return new Promise((resolve) => this.waiting.push(() => resolve(answer())));
  }

  list(options: ListOptions): Promise<KubeList<KubeObjectLike & KubeObject>> {
    this.lists.push(options);
    // The server's reading of the selector: one requirement, on metadata.name.
    let requirements;
    try {
      requirements = parseFieldSelector(options.fieldSelector ?? '').requirements();
    } catch (err) {
      return Promise.reject(err);
    }
    const name = requirements.length === 1 && requirements[0].field === 'metadata.name' && requirements[0].operator === '=' ? requirements[0].value : undefined;
    const uid = name === undefined ? undefined : this.present.get(name);
    return Promise.resolve({ apiVersion: 'v1', kind: 'List', metadata: {}, items: name === undefined || uid === undefined ? [] : [{ metadata: { name, uid } }] });
  }

  /** Answers the oldest request held back. */
  answerOne(): void {
    this.waiting.shift()?.();
  }
}

function obj(name: string): KubeObjectLike {
  return { metadata: { name, namespace: 'default', uid: `uid-${name}` } };
}

/** Lets the promise callbacks of answered lookups run. */
async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('DeleteReasonResolver', () => {
  it('does report a departure that could not start within maxWaitMs (all slots busy) as unknown once maxWaitMs passed, not when a slot frees', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { concurrency: 1, maxWaitMs: 5000 });
    const a = resolver.resolve('default/a', obj('a'));
    const b = resolver.resolve('default/b', obj('b'));
    expect(server.gets).to.deep.equal(['a']);
    clock.advance(5000);
    expect(b.value).to.equal(undefined);
    clock.advance(1);
    // a's lookup still holds the only slot; b waited past maxWaitMs: unknown now, and never sent.
    expect(b.value).to.equal('unknown');
    expect(a.value).to.equal(undefined);
    server.answerOne();
    await settleMicrotasks();
    expect(a.value).to.equal('deleted');
    expect(server.gets).to.deep.equal(['a']);
    expect(resolver.counts).to.deep.equal({ lookups: 1, unknown: 1, settledLocally: 0, retries: 0 });
    expect(resolver.pending).to.equal(0);
    expect(clock.pending).to.equal(0);
  });

  // client-go's rest client sends a request again when the server answers 429, or a 5xx with Retry-After
  // (rest/request.go, checkWait; at most maxRetries = 10 times); API Priority and Fairness answers a burst of
  // lookups so under load. Reporting those departures as unknown at the first 429 lost reasons a cluster gives.
  const tooMany = (seconds: number | undefined): KubeError => new KubeError('TooManyRequests', 'too many requests, please try again later', { code: 429, details: seconds === undefined ? undefined : { retryAfterSeconds: seconds } });

  it('does send a lookup again after the Retry-After of a 429 or a 5xx, as client-go does, and only then', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.immediate = true;
    server.present.set('b', 'uid-b');
    server.failures.push(tooMany(1), new KubeError('ServiceUnavailable', 'busy', { code: 503, details: { retryAfterSeconds: 2 } }));
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { maxWaitMs: 5000 });
    const a = resolver.resolve('default/a', obj('a'));
    const b = resolver.resolve('default/b', obj('b'));
    await settleMicrotasks();
    expect(server.gets).to.deep.equal(['a', 'b']);
    expect([a.value, b.value]).to.deep.equal([undefined, undefined]);
    clock.advance(999);
    await settleMicrotasks();
    expect(server.gets).to.deep.equal(['a', 'b']);
    clock.advance(1);
    await settleMicrotasks();
    expect(server.gets).to.deep.equal(['a', 'b', 'a']);
    expect(a.value).to.equal('deleted');
    clock.advance(1000);
    await settleMicrotasks();
    expect(b.value).to.equal('leftSelection');
    expect(resolver.counts).to.deep.equal({ lookups: 4, unknown: 0, settledLocally: 0, retries: 2 });
    expect(clock.pending).to.equal(0);
  });

  it('does not send again without Retry-After, past maxWaitMs, more than 10 times, or for an object that came back', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.immediate = true;
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { maxWaitMs: 60_000 });
    // A 429 without Retry-After, and a 500 without it: reported, not retried.
    server.failures.push(tooMany(undefined), new KubeError('InternalError', 'boom', { code: 500 }));
    const [a, b] = [resolver.resolve('default/a', obj('a')), resolver.resolve('default/b', obj('b'))];
    await settleMicrotasks();
    expect([a.value, b.value]).to.deep.equal(['unknown', 'unknown']);
    // A wait that would end past maxWaitMs of the departure: unknown at once.
    server.failures.push(tooMany(61));
    const c = resolver.resolve('default/c', obj('c'));
    await settleMicrotasks();
    expect(c.value).to.equal('unknown');
    // Eleven 429s in a row: ten retries, then unknown.
    for (let i = 0; i < 11; i++) server.failures.push(tooMany(1));
    const d = resolver.resolve('default/d', obj('d'));
    for (let i = 0; i < 12; i++) {
      await settleMicrotasks();
      clock.advance(1000);
    }
    await settleMicrotasks();
    expect(d.value).to.equal('unknown');
    expect(server.gets.filter((n) => n === 'd')).to.have.length(11);
    // An object that comes back while its lookup waits to be sent again: settled, nothing more sent.
    server.failures.push(tooMany(1));
    const e = resolver.resolve('default/e', obj('e'));
    await settleMicrotasks();
    resolver.settle('default/e', 'uid-e');
    expect(e.value).to.equal('leftSelection');
    clock.advance(1000);
    await settleMicrotasks();
    expect(server.gets.filter((n) => n === 'e')).to.have.length(1);
    // Stopping cancels a wait to send again.
    server.failures.push(tooMany(1));
    const f = resolver.resolve('default/f', obj('f'));
    await settleMicrotasks();
    resolver.stop();
    expect(f.value).to.equal('unknown');
    expect(clock.pending).to.equal(0);
  });

  it('does send a departure that waited exactly maxWaitMs for a slot', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.present.set('b', 'uid-b');
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { concurrency: 1, maxWaitMs: 5000 });
    resolver.resolve('default/a', obj('a'));
    const b = resolver.resolve('default/b', obj('b'));
    clock.advance(5000);
    server.answerOne();
    await settleMicrotasks();
    expect(server.gets).to.deep.equal(['a', 'b']);
    server.answerOne();
    await settleMicrotasks();
    expect(b.value).to.equal('leftSelection');
  });

  it('does keep every waiting departure while the queue is compacted (more than 1024 through it, tokens short)', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.immediate = true;
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { qps: 1, burst: 1, concurrency: 100, maxWaitMs: 10_000_000 });
    const names = Array.from({ length: 1100 }, (_, i) => `s${i}`);
    const reasons = names.map((n) => resolver.resolve(`default/${n}`, obj(n)));
    expect(server.gets).to.have.length(1);
    // One token a second: one lookup a second, in order.
    for (let i = 1; i < names.length; i++) {
      clock.advance(1000);
      await settleMicrotasks();
    }
    expect(server.gets).to.deep.equal(names);
    expect(reasons.map((r) => r.value)).to.deep.equal(names.map(() => 'deleted'));
    expect(resolver.pending).to.equal(0);
    expect(resolver.counts).to.deep.equal({ lookups: 1100, unknown: 0, settledLocally: 0, retries: 0 });
  });

  it('does wait graceMs before looking up, so that an object coming back within it costs no request', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.immediate = true;
    server.present.set('b', 'uid-b');
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined, { graceMs: 100 });
    const a = resolver.resolve('default/a', obj('a'));
    clock.advance(10);
    const b = resolver.resolve('default/b', obj('b'));
    clock.advance(50);
    // a comes back (same uid) within its window: left the selection, settled here.
    resolver.settle('default/a', 'uid-a');
    expect(a.value).to.equal('leftSelection');
    clock.advance(49);
    expect(server.gets).to.deep.equal([]);
    // b's window ends 100 ms after its departure: then, and not before, its lookup goes out.
    clock.advance(1);
    await settleMicrotasks();
    expect(server.gets).to.deep.equal(['b']);
    expect(b.value).to.equal('leftSelection');
    expect(resolver.counts).to.deep.equal({ lookups: 1, unknown: 0, settledLocally: 1, retries: 0 });
    expect(clock.pending).to.equal(0);
  });

  it('does refuse a grace window not shorter than maxWaitMs, naming both', () => {
    const make = (): DeleteReasonResolver => new DeleteReasonResolver(new ControlledLookup(), new FakeClock(), noopLogger, () => undefined, { graceMs: 5000, maxWaitMs: 5000 });
    expect(make).to.throw(KubeError, 'deleteReasons.graceMs must be less than deleteReasons.maxWaitMs (5000), got 5000');
  });

  // RBAC objects' names are path segments (ValidateRBACName = path.IsValidPathSegmentName): `,`, `=`
  // and `\` are allowed, and are escaped in a field selector (fields.EscapeValue).
  it('does escape the name in the list restricted to metadata.name', async () => {
    const clock = new FakeClock();
    const server = new ControlledLookup();
    server.forbidGet = true;
    const name = 'system:a,b=c\\d';
    server.present.set(name, `uid-${name}`);
    const resolver = new DeleteReasonResolver(server, clock, noopLogger, () => undefined);
    const reason = resolver.resolve(`default/${name}`, obj(name));
    await reason.promise;
    expect(server.lists.map((o) => o.fieldSelector)).to.deep.equal(['metadata.name=system:a\\,b\\=c\\\\d']);
    expect(reason.value).to.equal('leftSelection');
  });

  // A GET with a resourceVersion reads "not older than" it, which the apiserver serves from its watch
  // cache (the departure came through that cache, so it has caught up) instead of a quorum read.
  it('does ask for a state at least as fresh as the departure, by GET and by list', async () => {
    const server = new ControlledLookup();
    server.immediate = true;
    const resolver = new DeleteReasonResolver(server, new FakeClock(), noopLogger, () => undefined);
    const departed = { metadata: { ...obj('a').metadata, resourceVersion: '4711' } };
    await resolver.resolve('default/a', departed).promise;
    expect(server.getOptions.map((o) => [o.resourceVersion, o.metadataOnly, o.namespace])).to.deep.equal([['4711', true, 'default']]);
    server.forbidGet = true;
    await resolver.resolve('default/b', { metadata: { ...obj('b').metadata, resourceVersion: '4712' } }).promise;
    expect(server.lists.map((o) => [o.resourceVersion, o.resourceVersionMatch])).to.deep.equal([['4712', 'NotOlderThan']]);
    // Without a resource version (a hand-made object): the most recent state, as before.
    await resolver.resolve('default/c', obj('c')).promise;
    expect(server.lists.map((o) => o.resourceVersion)).to.deep.equal(['4712', undefined]);
  });
});
