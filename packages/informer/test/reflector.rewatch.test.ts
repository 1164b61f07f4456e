// What the reflector does when a watch connection breaks, as client-go does it: a watch stream that
// ends — cleanly, or by the connection closing or being reset under it — is no error; the next watch
// starts at once from the last resource version (client-go tools/cache/reflector.go, `watch()` and
// `handleAnyWatch()`; apimachinery pkg/watch/streamwatcher.go `receive()`, which ends the stream
// without an error event for io.EOF, io.ErrUnexpectedEOF and `net.IsProbableEOF` errors), unless the
// watch lasted under a second and delivered nothing (`VeryShortWatchError`): that is a failure.
import { expect } from 'chai';
import { KubeError, noopLogger, type KubeList, type LogFields, type Logger, type WatchEvent } from '@kubekit/core';
import { ListerWatcher, type ListOptions, type RequestOptions, type WatchOptions } from '../src/listerWatcher.js';
import { IdleTimeoutError } from '../src/internal/restClient.js';
import { Reflector, type ListerWatcherLike, type ReflectorStatus, type WatchStreamLike } from '../src/reflector.js';
import { WatchClosedError } from '../src/watchClosedError.js';
import { FakeApiServer, apiVersion, plural, type Shirt } from './helpers/fakeApiServer.js';
import { FakeClock } from './helpers/fakeClock.js';
import { Recorder, expectInSync } from './helpers/recorder.js';
import { until } from './helpers/until.js';

function shirt(name: string, color = 'blue'): Shirt {
  return { metadata: { name, namespace: 'default', labels: { app: 'shop' } }, spec: { color, size: 'M' } };
}

/** The errors Node's HTTP client gives when a response body is cut short, as the reflector sees them. */
const nodeErrors = {
  /** The other end closed the connection (FIN) before the chunked body ended: Go's unexpected EOF. */
  aborted: () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
  /** The other end reset the connection (RST): Go's "connection reset by peer". */
  reset: () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' }),
  /** The response closed without an error before its end. */
  prematureClose: () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
  /** A write on a connection the other end closed. */
  brokenPipe: () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' }),
};

/** A logger that keeps every line with its level. */
function keepingLogger(lines: string[]): Logger {
  const keep = (level: string) => (message: string, fields?: LogFields): void => void lines.push(`${level} ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  const logger: Logger = { ...noopLogger, error: keep('error'), warn: keep('warn'), info: keep('info'), child: () => logger };
  return logger;
}

/** One scripted watch: `events` objects (one per batch), then `lastMs` of (fake) time, then how it ends. */
interface WatchScript {
  events?: number;
  lastMs?: number;
  end: Error | 'done' | 'hang';
}

describe('Reflector after a broken watch connection (client-go: a stream that ends is not an error)', () => {
  let clock: FakeClock;
  let stop: AbortController;
  let run: Promise<void> | undefined;
  let statuses: ReflectorStatus[];
  let errors: Error[];
  let logged: string[];

  beforeEach(() => {
    clock = new FakeClock();
    stop = new AbortController();
    statuses = [];
    errors = [];
    logged = [];
    run = undefined;
  });

  afterEach(async () => {
    stop.abort();
    await run;
  });

  /**
   * A lister/watcher whose list answers resourceVersion 10 and whose watches follow `scripts` in turn
   * (then stay open); every event is an ADDED of a new object at the next resource version.
   */
  function scripted(scripts: WatchScript[]): { calls: string[]; lw: ListerWatcherLike<Shirt> } {
    const calls: string[] = [];
    let rv = 10;
    const lw: ListerWatcherLike<Shirt> = {
      list: async (options: ListOptions): Promise<KubeList<Shirt & { apiVersion: string; kind: string }>> => {
        calls.push(`list rv=${options.resourceVersion ?? ''}`);
        return { apiVersion, kind: 'ShirtList', metadata: { resourceVersion: String(rv) }, items: [] };
      },
      watch: async (options: WatchOptions, request?: RequestOptions): Promise<WatchStreamLike<Shirt>> => {
        calls.push(`watch rv=${options.resourceVersion ?? ''}`);
        const script: WatchScript = scripts.shift() ?? { end: 'hang' };
        return {
          batches: async function* (): AsyncGenerator<WatchEvent<Shirt & { apiVersion: string; kind: string }>[]> {
            for (let i = 0; i < (script.events ?? 0); i++) {
              rv++;
              const o = shirt(`s${rv}`);
              yield [{ type: 'ADDED', object: { apiVersion, kind: 'Shirt', ...o, metadata: { ...o.metadata, resourceVersion: String(rv) } } }];
            }
            if (script.lastMs !== undefined) clock.advance(script.lastMs);
            if (script.end === 'done') return;
            if (script.end === 'hang') {
              await new Promise((resolve) => request?.signal?.addEventListener('abort', resolve, { once: true }));
              throw new DOMException('This operation was aborted', 'AbortError');
            }
            throw script.end;
          },
          setIdleTimeout: () => undefined,
          close: () => undefined,
        };
      },
    };
    return { calls, lw };
  }

  function start(lw: ListerWatcherLike<Shirt>): { reflector: Reflector<Shirt>; rec: Recorder<Shirt> } {
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(lw, rec, { clock, random: () => 0, streamingList: 'never', logger: keepingLogger(logged) });
    reflector.on('status', (s) => statuses.push(s));
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    return { reflector, rec };
  }

  for (const [name, make] of Object.entries(nodeErrors)) {
    it(`does resume at once, from the last event's resourceVersion, when a watch that delivered events breaks (${make().message})`, async () => {
      const { calls, lw } = scripted([{ events: 3, end: make() }]);
      const { reflector, rec } = start(lw);
      await until(() => calls.length === 3, 'the second watch');
      await until(() => reflector.status.phase === 'watching', 'watching again');
      expect(calls).to.deep.equal(['list rv=', 'watch rv=10', 'watch rv=13']);
      expect(statuses.some((s) => s.phase === 'backoff'), 'a backoff phase').to.equal(false);
      expect(reflector.status.consecutiveFailures).to.equal(0);
      expect(reflector.status.lastError).to.equal(undefined);
      expect(errors, 'error events').to.deep.equal([]);
      expect(rec.replaces).to.equal(1);
      expect(rec.cache.size).to.equal(3);
      const closed = reflector.status.lastWatchClose;
      expect(closed).to.be.instanceOf(WatchClosedError);
      expect(closed).to.include({ events: 3, resumed: true, resourceVersion: '13', connectionCode: make().code });
      expect(closed!.message).to.match(/^the watch connection (was closed by the server or a proxy|was reset|closed before its response ended|broke) after 3 events in 0 ms \([A-Z_]+\); resuming from resourceVersion 13 at once$/);
      expect(closed!.message, name).to.not.match(/^aborted$/);
      expect(closed!.cause).to.have.property('code', make().code);
      expect(reflector.status.watchesResumed).to.equal(1);
      // Logged at info (client-go logs it at V(5)), not warn: nothing failed.
      expect(logged.filter((l) => l.startsWith('warn') || l.startsWith('error'))).to.deep.equal([]);
      expect(logged.filter((l) => l.startsWith('info') && l.includes(closed!.message))).to.have.length(1);
    });
  }

  it('does word a close by the other end as such, and a reset as a reset', async () => {
    const { calls, lw } = scripted([{ events: 1234, lastMs: 62_000, end: nodeErrors.aborted() }, { events: 2, end: nodeErrors.reset() }]);
    const { reflector } = start(lw);
    await until(() => calls.length === 4, 'the third watch');
    const messages = logged.filter((l) => l.startsWith('info the watch'));
    expect(messages[0]).to.match(/^info the watch connection was closed by the server or a proxy after 1234 events in 62s \(ECONNRESET\); resuming from resourceVersion 1244 at once /);
    expect(messages[1]).to.match(/^info the watch connection was reset after 2 events in 0 ms \(ECONNRESET\); resuming from resourceVersion 1246 at once /);
    expect(reflector.status.watchesResumed).to.equal(2);
    expect(reflector.status.lastWatchClose?.message).to.equal('the watch connection was reset after 2 events in 0 ms (ECONNRESET); resuming from resourceVersion 1246 at once');
  });

  it('does resume at once when a watch that lasted a second without any event breaks (not a very short watch)', async () => {
    const { calls, lw } = scripted([{ events: 0, lastMs: 1000, end: nodeErrors.aborted() }]);
    const { reflector } = start(lw);
    await until(() => calls.length === 3 && reflector.status.phase === 'watching', 'the second watch');
    expect(calls).to.deep.equal(['list rv=', 'watch rv=10', 'watch rv=10']);
    expect(statuses.some((s) => s.phase === 'backoff')).to.equal(false);
    expect(reflector.status.lastWatchClose?.message).to.equal('the watch connection was closed by the server or a proxy after 0 events in 1s (ECONNRESET); resuming from resourceVersion 10 at once');
  });

  it('does back off, as today, when a watch breaks within a second without any event (client-go\'s very short watch), and says so', async () => {
    const { calls, lw } = scripted([{ events: 0, lastMs: 999, end: nodeErrors.aborted() }, { events: 0, end: nodeErrors.reset() }]);
    const { reflector } = start(lw);
    await until(() => reflector.status.phase === 'backoff', 'backoff');
    expect(reflector.status.retryInMs).to.equal(800);
    expect(reflector.status.consecutiveFailures).to.equal(1);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(WatchClosedError);
    expect(errors[0]).to.include({ events: 0, resumed: false, connectionCode: 'ECONNRESET' });
    expect(errors[0].message).to.equal('the watch connection was closed by the server or a proxy after 0 events in 999 ms (ECONNRESET); a watch that ends within 1 s without an event is a failure (client-go: very short watch)');
    expect(logged.filter((l) => l.startsWith('warn'))).to.have.length(1);
    expect(reflector.status.lastWatchClose).to.equal(undefined);
    clock.advance(800);
    await until(() => reflector.status.phase === 'backoff' && errors.length === 2, 'the second backoff');
    expect(reflector.status.retryInMs).to.equal(1600);
    clock.advance(1600);
    await until(() => calls.length === 4 && reflector.status.phase === 'watching', 'the third watch');
    expect(calls).to.deep.equal(['list rv=', 'watch rv=10', 'watch rv=10', 'watch rv=10']);
  });

  const failures: [string, () => Error][] = [
    ['an idle timeout (a silent connection)', () => new IdleTimeoutError(180_000)],
    ['an undecodable line', () => KubeError.fromStatus({ message: 'unable to decode an event from the watch stream: Unexpected token', reason: 'InternalError', code: 500 })],
    ['an ERROR event with a 500', () => KubeError.fromStatus({ message: 'etcdserver: request timed out', reason: 'InternalError', code: 500 })],
    ['a socket timeout', () => Object.assign(new Error('read ETIMEDOUT'), { code: 'ETIMEDOUT', syscall: 'read' })],
    ['a TLS failure', () => Object.assign(new Error('decryption failed or bad record mac'), { code: 'ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC' })],
    ['an error without a code', () => new Error('boom')],
  ];
  for (const [what, make] of failures) {
    it(`does still back off after a healthy watch ends with ${what}`, async () => {
      const { calls, lw } = scripted([{ events: 3, lastMs: 5000, end: make() }]);
      const { reflector } = start(lw);
      await until(() => reflector.status.phase === 'backoff', 'backoff');
      expect(reflector.status.consecutiveFailures).to.equal(1);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.not.be.instanceOf(WatchClosedError);
      expect(reflector.status.watchesResumed).to.equal(0);
      clock.advance(reflector.status.retryInMs!);
      await until(() => calls.filter((c) => c.startsWith('watch')).length === 2, 'the watch after the backoff');
      expect(calls.filter((c) => c.startsWith('watch')).at(-1)).to.equal('watch rv=13');
    });
  }

  it('does say what broke when a list or a watch request loses its connection, never a bare "aborted" or "socket hang up"', async () => {
    const { calls, lw } = scripted([]);
    let lists = 0;
    let watches = 0;
    const breaking: ListerWatcherLike<Shirt> = {
      list: (options, request) => (lists++ === 0 ? Promise.reject(nodeErrors.aborted()) : lw.list(options, request)),
      watch: (options, request) => (watches++ === 0 ? Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })) : lw.watch(options, request)),
    };
    const { reflector } = start(breaking);
    await until(() => reflector.status.phase === 'backoff', 'the first backoff');
    clock.advance(reflector.status.retryInMs!);
    await until(() => reflector.status.phase === 'backoff' && errors.length === 2, 'the second backoff');
    clock.advance(reflector.status.retryInMs!);
    await until(() => reflector.status.phase === 'watching', 'watching');
    expect(calls).to.deep.equal(['list rv=', 'watch rv=10']);
    expect(errors.map((e) => e.message)).to.deep.equal([
      "the list request's connection was closed by the server or a proxy before its answer was complete (ECONNRESET: aborted)",
      "the watch request's connection was closed by the server or a proxy before its answer was complete (ECONNRESET: socket hang up)",
    ]);
    expect(errors.map((e) => (e.cause as { code?: string }).code)).to.deep.equal(['ECONNRESET', 'ECONNRESET']);
    expect(logged.filter((l) => l.startsWith('warn')).map((l) => /"error":"([^"]*)"/.exec(l)?.[1])).to.deep.equal(errors.map((e) => e.message.replace(/"/g, '\\"')));
  });

  it('does not grow a backoff, nor stop, when healthy watches break again and again', async () => {
    const breaks = 50;
    const scripts: WatchScript[] = Array.from({ length: breaks }, (_, i) => ({ events: 1 + (i % 3), end: i % 2 === 0 ? nodeErrors.aborted() : nodeErrors.reset() }));
    const events = scripts.reduce((n, s) => n + (s.events ?? 0), 0);
    const { calls, lw } = scripted(scripts);
    const { reflector, rec } = start(lw);
    await until(() => calls.length === breaks + 2 && reflector.status.phase === 'watching', () => `${breaks + 1} watches (${calls.length - 1} so far)`, 20_000);
    expect(statuses.some((s) => s.phase === 'backoff')).to.equal(false);
    expect(reflector.status.consecutiveFailures).to.equal(0);
    expect(reflector.status.watchesResumed).to.equal(breaks);
    expect(reflector.status.watches).to.equal(breaks + 1);
    expect(errors).to.deep.equal([]);
    expect(rec.replaces).to.equal(1);
    expect(rec.anomalies).to.deep.equal([]);
    // Each watch from the last event of the one before.
    expect(calls.at(-1)).to.equal(`watch rv=${10 + events}`);
    expect(rec.cache.size).to.equal(events);
  });
});

describe('Reflector after a broken watch connection, over HTTP', () => {
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

  function start(): { reflector: Reflector<Shirt>; rec: Recorder<Shirt> } {
    const lw = new ListerWatcher<Shirt>(server.kubeConfig(), { apiVersion, plural }, { clock });
    const rec = new Recorder<Shirt>();
    const reflector = new Reflector<Shirt>(lw, rec, { clock, random: () => 0, streamingList: 'never', logger: noopLogger });
    reflector.on('status', (s) => statuses.push(s));
    reflector.on('error', (e) => errors.push(e));
    run = reflector.start(stop.signal);
    return { reflector, rec };
  }

  for (const rst of [false, true]) {
    it(`does resume at once from the last event when the server ${rst ? 'resets' : 'closes'} a watch connection after events`, async () => {
      server.create(shirt('a'));
      server.faults.push({ on: 'watch', kind: 'reset', afterEvents: 2, rst });
      const { reflector, rec } = start();
      await until(() => reflector.status.phase === 'watching', 'watching');
      server.create(shirt('s0'));
      server.create(shirt('s1'));
      await until(() => rec.cache.size === 3, 's0 and s1');
      // The third write breaks the connection (the first two were on the wire well before).
      server.create(shirt('s2'));
      await until(() => rec.cache.size === 4 && reflector.status.watches === 2, () => `all four, through a second watch: ${JSON.stringify({ ...reflector.status, size: rec.cache.size, errors: errors.map((e) => e.message) })}`);
      const watches = server.requests.filter((r) => r.query.has('watch'));
      expect(watches[1].query.get('resourceVersion')).to.equal(rec.cache.get('default/s1')!.metadata.resourceVersion);
      expect(statuses.some((s) => s.phase === 'backoff')).to.equal(false);
      expect(reflector.status.consecutiveFailures).to.equal(0);
      expect(errors).to.deep.equal([]);
      expect(reflector.status.lastWatchClose?.message).to.equal(`the watch connection ${rst ? 'was reset' : 'was closed by the server or a proxy'} after 2 events in 0 ms (ECONNRESET); resuming from resourceVersion ${rec.cache.get('default/s1')!.metadata.resourceVersion} at once`);
      expect(rec.replaces).to.equal(1);
      expectInSync(rec, server.objects.values());
    });
  }

  it('does relist without the backoff a reset would have caused when the resumed watch answers 410', async () => {
    server.create(shirt('a'));
    server.faults.push({ on: 'watch', kind: 'reset', afterEvents: 1 });
    server.faults.push({ on: 'watch', kind: 'errorEvent', code: 410, reason: 'Expired', message: 'too old resource version: 2 (3)', afterEvents: 0 });
    const { reflector, rec } = start();
    await until(() => reflector.status.phase === 'watching', 'watching');
    server.create(shirt('b'));
    await until(() => rec.cache.size === 2, 'b');
    // Breaks the connection; the resumed watch is told its version expired.
    server.create(shirt('c'));
    await until(() => rec.replaces === 2, 'relist');
    server.create(shirt('d'));
    await until(() => reflector.status.phase === 'watching' && rec.cache.size === 4, 'watching after the relist');
    expect(statuses.some((s) => s.phase === 'backoff'), 'a backoff phase').to.equal(false);
    expect(errors.map((e) => e.message)).to.deep.equal(['too old resource version: 2 (3)']);
    expectInSync(rec, server.objects.values());
  });
});
