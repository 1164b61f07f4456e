// HTTP/1.1 pipelining of small GETs (RFC 9112 §9.3.2: a client may send several requests without
// waiting; the server answers in order), and every way the connection may refuse it: the client
// falls back to ordinary requests and never loses or mismatches an answer.
import { getEventListeners } from 'node:events';
import http, { type OutgoingHttpHeaders } from 'node:http';
import type { RequestOptions } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { realClock } from '@kubekit/core';
import { PipelineBrokenError, PipelinedConnection } from '../../src/internal/pipelinedConnection.js';
import { IdleTimeoutError, ordinaryFallbackLimit, pipelineRestMs, pipelineStrikes, RestClient } from '../../src/internal/restClient.js';
import { loadKubeConfig, type KubeConfigLike } from '../../src/kubeConfig.js';
import { testBackends, type TestServer } from '../helpers/backends.js';
import { FakeClock } from '../helpers/fakeClock.js';
import { until } from '../helpers/until.js';

/** A node:http server whose answers each request's path as `{"path": ...}`, framed as `framing` says; it counts connections. */
async function httpServer(framing: (path: string) => 'length' | 'chunked' | 'close' | 'empty' = () => 'length'): Promise<{ url: string; port: number; connections: () => number; requests: string[]; close: () => Promise<void> }> {
  let connections = 0;
  const requests: string[] = [];
  // Idle connections stay open for two minutes, so that only the client can end them early.
  const server = http.createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    const path = req.url ?? '';
    requests.push(path);
    const body = JSON.stringify({ path, accept: req.headers.accept, authorization: req.headers.authorization });
    switch (framing(path)) {
      case 'length':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
        break;
      case 'chunked':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(body.slice(0, 5));
        res.end(body.slice(5));
        break;
      case 'close':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
        res.end(body);
        break;
      case 'empty':
        res.writeHead(204);
        res.end();
        break;
    }
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`, port, connections: () => connections, requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * A TCP front for `port` that drops the connections `drop` picks (by their 1-based number) at their first
 * byte — an intermediary that refuses pipelining, or a server restarting — and passes the others through.
 */
async function droppingFront(port: number, drop: (n: number) => boolean): Promise<{ url: string; seen: () => number; close: () => void }> {
  let seen = 0;
  const front = net.createServer((s) => {
    if (drop(++seen)) {
      s.once('data', () => s.destroy());
      return;
    }
    const upstream = net.connect(port, '127.0.0.1');
    s.pipe(upstream).pipe(s);
    s.on('error', () => upstream.destroy());
    upstream.on('error', () => s.destroy());
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`, seen: () => seen, close: () => front.close() };
}

const kubeConfig = (url: string, headers: Record<string, string> = {}): KubeConfigLike => ({
  getCurrentCluster: () => ({ server: url }),
  applyToHTTPSOptions: async (o: RequestOptions) => {
    o.headers = { ...(o.headers as OutgoingHttpHeaders | undefined), ...headers };
  },
});

describe('PipelinedConnection', () => {
  it('sends the GETs of one tick on one connection and matches the answers in order', async () => {
    const server = await httpServer((p) => (p.endsWith('3') ? 'chunked' : p.endsWith('5') ? 'empty' : 'length'));
    const conn = new PipelinedConnection({ host: '127.0.0.1', port: server.port }, `127.0.0.1:${server.port}`, realClock, 10_000);
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => conn.get({ path: `/x/${i}`, headerLines: 'Accept: application/json\r\n' })));
      expect(answers.map((a) => a.statusCode)).to.deep.equal([200, 200, 200, 200, 200, 204, 200, 200]);
      expect(answers.map((a) => (a.statusCode === 204 ? '' : (JSON.parse(a.body.toString()) as { path: string }).path))).to.deep.equal(['/x/0', '/x/1', '/x/2', '/x/3', '/x/4', '', '/x/6', '/x/7']);
      expect(answers[3].headers['transfer-encoding']).to.equal('chunked');
      expect(server.connections()).to.equal(1);
      expect(conn.inFlight).to.equal(0);
    } finally {
      conn.destroy();
      await server.close();
    }
  });

  it('fails the requests behind an answer that closes the connection, and takes no more', async () => {
    const server = await httpServer((p) => (p === '/x/1' ? 'close' : 'length'));
    const conn = new PipelinedConnection({ host: '127.0.0.1', port: server.port }, `127.0.0.1:${server.port}`, realClock, 10_000);
    try {
      const settled = await Promise.allSettled([0, 1, 2, 3].map((i) => conn.get({ path: `/x/${i}`, headerLines: '' })));
      expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
      expect((settled[2] as PromiseRejectedResult).reason).to.be.instanceOf(PipelineBrokenError);
      expect(conn.usable).to.equal(false);
      expect(conn.answeredAny).to.equal(true);
    } finally {
      await server.close();
    }
  });

  it('breaks on an answer it cannot frame (no length, not chunked)', async () => {
    const raw = net.createServer((s) => s.once('data', () => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"a":1}')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as AddressInfo).port;
    const conn = new PipelinedConnection({ host: '127.0.0.1', port }, `127.0.0.1:${port}`, realClock, 10_000);
    try {
      const err = await conn.get({ path: '/a', headerLines: '' }).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(PipelineBrokenError);
      expect((err as Error).message).to.match(/without Content-Length or chunked framing/);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('breaks when no byte arrives for the idle timeout while answers are due', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const clock = new FakeClock();
    const conn = new PipelinedConnection({ host: '127.0.0.1', port }, `127.0.0.1:${port}`, clock, 30_000);
    try {
      const answers = [conn.get({ path: '/a', headerLines: '' }), conn.get({ path: '/b', headerLines: '' })].map((p) => p.then(() => undefined, (e: unknown) => e));
      expect(clock.pendingDelays()).to.deep.equal([30_000]);
      clock.advance(30_000);
      const [first, second] = await Promise.all(answers);
      // The first timed out (a failure to report); the second never got its turn (to send again).
      expect(first).to.be.instanceOf(IdleTimeoutError);
      expect((first as Error).message).to.equal('no data received for 30000 ms');
      expect(second).to.be.instanceOf(PipelineBrokenError);
    } finally {
      silent.close();
    }
  });

  it('fails an aborted request with the reason and goes on answering the others in order, with one listener per signal', async () => {
    const server = await httpServer();
    const conn = new PipelinedConnection({ host: '127.0.0.1', port: server.port }, `127.0.0.1:${server.port}`, realClock, 10_000);
    try {
      const mine = new AbortController();
      const theirs = new AbortController();
      const answers = [0, 1, 2, 3, 4, 5].map((i) => conn.get({ path: `/x/${i}`, headerLines: '', signal: i % 2 === 0 ? mine.signal : theirs.signal }).then((a) => (JSON.parse(a.body.toString()) as { path: string }).path, (e: unknown) => e));
      expect([getEventListeners(mine.signal, 'abort').length, getEventListeners(theirs.signal, 'abort').length]).to.deep.equal([1, 1]);
      mine.abort(new Error('stopping'));
      const got = await Promise.all(answers);
      expect(got.map((g) => (g instanceof Error ? g.message : g))).to.deep.equal(['stopping', '/x/1', 'stopping', '/x/3', 'stopping', '/x/5']);
      // Every answer came in (the aborted ones were dropped): the connection is in step for the next.
      expect(conn.inFlight).to.equal(0);
      expect(conn.usable).to.equal(true);
      expect(getEventListeners(theirs.signal, 'abort')).to.have.length(0);
      const next = await conn.get({ path: '/x/6', headerLines: '' });
      expect(JSON.parse(next.body.toString())).to.deep.include({ path: '/x/6' });
      expect(server.connections()).to.equal(1);
      // Already aborted: rejected at once, nothing sent.
      const err = await conn.get({ path: '/x/7', headerLines: '', signal: mine.signal }).then(() => undefined, (e: unknown) => e);
      expect((err as Error).message).to.equal('stopping');
      expect(server.requests).to.not.include('/x/7');
    } finally {
      conn.destroy();
      await server.close();
    }
  });

  it('times out by the idle timeout of the request it waits for, not of the one that opened it', async () => {
    // Regression: the connection kept the idle timeout given when it was made.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const clock = new FakeClock();
    const conn = new PipelinedConnection({ host: '127.0.0.1', port }, `127.0.0.1:${port}`, clock, 0);
    try {
      const answer = conn.get({ path: '/a', headerLines: '', idleTimeoutMs: 5_000 }).then(() => undefined, (e: unknown) => e);
      expect(clock.pendingDelays()).to.deep.equal([5_000]);
      clock.advance(5_000);
      const err = await answer;
      expect(err).to.be.instanceOf(IdleTimeoutError);
      expect((err as Error).message).to.equal('no data received for 5000 ms');
      // No idle timeout given: the connection's (none here) applies, and no timer runs.
      const conn2 = new PipelinedConnection({ host: '127.0.0.1', port }, `127.0.0.1:${port}`, clock, 0);
      void conn2.get({ path: '/b', headerLines: '' }).catch(() => undefined);
      expect(clock.pendingDelays()).to.deep.equal([]);
      conn2.destroy();
    } finally {
      conn.destroy();
      silent.close();
    }
  });

  it('writes the GETs that keep coming at most once per lingerMs, and a lone GET at once', async () => {
    const server = await httpServer();
    // 500 ms: far longer than a loopback round trip, even on a loaded machine.
    const conn = new PipelinedConnection({ host: '127.0.0.1', port: server.port }, `127.0.0.1:${server.port}`, realClock, 10_000, 500);
    try {
      const first = conn.get({ path: '/x/0', headerLines: '' });
      await first;
      expect(conn.writes).to.equal(1);
      // Within 500 ms of that write: these wait for the next write, in one.
      const later: Promise<unknown>[] = [conn.get({ path: '/x/1', headerLines: '' })];
      await new Promise((resolve) => setImmediate(resolve));
      later.push(conn.get({ path: '/x/2', headerLines: '' }));
      expect(server.requests).to.deep.equal(['/x/0']);
      await Promise.all(later);
      expect(conn.writes).to.equal(2);
      expect(server.requests).to.deep.equal(['/x/0', '/x/1', '/x/2']);
    } finally {
      conn.destroy();
      await server.close();
    }
  });
});

describe('RestClient.getPipelined', () => {
  it('answers every GET, sending those behind a closing answer again as ordinary requests', async () => {
    const server = await httpServer((p) => (p === '/x/2' ? 'close' : 'length'));
    const client = new RestClient(kubeConfig(server.url, { Authorization: 'Bearer t' }), realClock);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => client.getPipelined({ path: `/x/${i}`, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' })));
      const bodies = answers.map((a) => JSON.parse(a.text) as { path: string; accept: string; authorization: string });
      expect(bodies.map((b) => b.path)).to.deep.equal(['/x/0', '/x/1', '/x/2', '/x/3', '/x/4', '/x/5']);
      expect(bodies.every((b) => b.authorization === 'Bearer t' && b.accept.startsWith('application/json;as=PartialObjectMetadata'))).to.equal(true);
      // A later batch pipelines again, on a new connection.
      const before = server.connections();
      await Promise.all([6, 7, 8].map((i) => client.getPipelined({ path: `/x/${i}` })));
      expect(server.connections() - before).to.be.at.most(2);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  it('goes the ordinary way for a while after three pipelined connections in a row broke before any answer, then pipelines again', async () => {
    const server = await httpServer();
    const front = await droppingFront(server.port, (n) => [1, 3, 4].includes(n));
    const seen = front.seen;
    const clock = new FakeClock();
    const client = new RestClient(kubeConfig(front.url), clock);
    const path = async (i: number): Promise<string> => (JSON.parse((await client.getPipelined({ path: `/x/${i}` })).text) as { path: string }).path;
    try {
      // Connection 1 (pipelined) is dropped: sent again on connection 2 (ordinary, kept alive).
      expect(await path(0)).to.equal('/x/0');
      expect(seen()).to.equal(2);
      // One strike is no verdict (a restarting server drops connections too): pipelining is tried
      // again, and again (connections 3 and 4, dropped); each GET is answered all the same.
      expect(await path(1)).to.equal('/x/1');
      expect(await path(2)).to.equal('/x/2');
      expect(seen()).to.equal(4);
      // Three in a row: the ordinary connection carries the GETs from now on, with no new pipelined connection.
      for (const i of [3, 4, 5]) expect(await path(i)).to.equal(`/x/${i}`);
      expect(seen()).to.equal(4);
      // Some time later, pipelining is tried again (connection 5, passed through) and stays on.
      clock.advance(pipelineRestMs);
      expect(await path(6)).to.equal('/x/6');
      expect(await path(7)).to.equal('/x/7');
      expect(seen()).to.equal(5);
      expect(server.requests).to.deep.equal(['/x/0', '/x/1', '/x/2', '/x/3', '/x/4', '/x/5', '/x/6', '/x/7']);
      expect(pipelineStrikes).to.equal(3);
    } finally {
      client.destroy();
      front.close();
      await server.close();
    }
  });

  it('counts a connection broken by the server once, however many GETs it carried', async () => {
    // One pipelined connection with five GETs, dropped at its first byte: one strike, not five.
    const server = await httpServer();
    const front = await droppingFront(server.port, (n) => n === 1);
    const seen = front.seen;
    const client = new RestClient(kubeConfig(front.url), realClock);
    try {
      const first = await Promise.all([0, 1, 2, 3, 4].map((i) => client.getPipelined({ path: `/x/${i}` })));
      expect(first.map((a) => (JSON.parse(a.text) as { path: string }).path)).to.deep.equal(['/x/0', '/x/1', '/x/2', '/x/3', '/x/4']);
      const before = seen();
      await client.getPipelined({ path: '/x/5' });
      // Still pipelining: a new pipelined connection (the ordinary ones were opened for the five).
      expect((client as unknown as { pipelineStrikes: number }).pipelineStrikes).to.equal(0);
      expect(seen()).to.equal(before + 1);
    } finally {
      client.destroy();
      front.close();
      await server.close();
    }
  });

  it('sends GETs that cannot be pipelined as ordinary requests, at most eight at once', async () => {
    // Credentials with a list-valued header cannot be written on the pipeline: every GET goes the
    // ordinary way, and hundreds in flight (a burst of delete-reason lookups) must not become
    // hundreds of connections.
    let open = 0;
    let most = 0;
    const held: (() => void)[] = [];
    const server = http.createServer((req, res) => {
      open++;
      most = Math.max(most, open);
      held.push(() => {
        open--;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ path: req.url }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const kc: KubeConfigLike = {
      getCurrentCluster: () => ({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
      applyToHTTPSOptions: async (o: RequestOptions) => {
        o.headers = { ...(o.headers as OutgoingHttpHeaders | undefined), 'X-Listed': ['a', 'b'] };
      },
    };
    const client = new RestClient(kc, realClock);
    try {
      const answers = Promise.all(Array.from({ length: 20 }, (_, i) => client.getPipelined({ path: `/x/${i}` })));
      for (let round = 0; round < 3; round++) {
        await until(() => held.length === Math.min(ordinaryFallbackLimit, 20 - round * ordinaryFallbackLimit), `round ${round} of requests`);
        // Let any request beyond the limit show up, were one to be sent.
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(open).to.be.at.most(ordinaryFallbackLimit);
        held.splice(0).forEach((release) => release());
      }
      const got = await answers;
      expect(got.map((a) => (JSON.parse(a.text) as { path: string }).path)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `/x/${i}`));
      expect(most).to.equal(ordinaryFallbackLimit);
    } finally {
      client.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects with the abort reason once the signal aborts, and sends nothing after', async () => {
    const server = await httpServer();
    const client = new RestClient(kubeConfig(server.url), realClock);
    try {
      const stop = new AbortController();
      stop.abort(new Error('stopping'));
      const err = await client.getPipelined({ path: '/x/0', signal: stop.signal }).then(() => undefined, (e: unknown) => e);
      expect((err as Error).message).to.equal('stopping');
    } finally {
      client.destroy();
      await server.close();
    }
  });
});

// The servers an informer meets: kubekit's embedded API server and the real kube-apiserver (Go's
// net/http over TLS), both of which take pipelined requests and answer them in order.
for (const backend of testBackends()) {
  describe(`RestClient.getPipelined against the ${backend.name} API server`, function () {
    this.timeout(120_000);
    let server: TestServer;
    before(async () => {
      server = await backend.start();
    });
    after(async () => {
      await server?.close();
    });

    it('does answer pipelined metadata-only GETs in order on one connection, without falling back', async () => {
      const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
      const client = new RestClient(kc, realClock);
      try {
        const names = ['default', 'kube-system', 'no-such-namespace', 'default', 'kube-public', 'missing-too'];
        const answers = await Promise.all(names.map((n) => client.getPipelined({ path: `/api/v1/namespaces/${n}`, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json' })));
        const got = answers.map((a) => (a.statusCode === 200 ? (JSON.parse(a.text) as { metadata: { name: string } }).metadata.name : a.statusCode));
        const exists = await Promise.all(names.map(async (n) => (await client.request({ path: `/api/v1/namespaces/${n}` })).statusCode === 200));
        expect(got).to.deep.equal(names.map((n, i) => (exists[i] ? n : 404)));
        const internals = client as unknown as { pipelineStrikes: number; pipeline: PipelinedConnection | undefined };
        expect(internals.pipelineStrikes).to.equal(0);
        expect(internals.pipeline?.answeredAny).to.equal(true);
      } finally {
        client.destroy();
      }
    });
  });
}

describe('PipelinedConnection and the process', () => {
  it('does not keep a process alive once every answer is in', async function () {
    // The child (tsx compiling the sources, then one request) is given 30 s below, the test's own bound;
    // mocha's default 20 s would cut a slow start on a loaded machine first. 30 s plus 10 s for the rest.
    this.timeout(40_000);
    const { spawn } = await import('node:child_process');
    const server = await httpServer();
    const script = `
      import { realClock } from '@kubekit/core';
      import { PipelinedConnection } from ${JSON.stringify(new URL('../../src/internal/pipelinedConnection.ts', import.meta.url).href)};
      const conn = new PipelinedConnection({ host: '127.0.0.1', port: ${server.port} }, '127.0.0.1:${server.port}', realClock, 10000);
      const a = await conn.get({ path: '/x/1', headerLines: '' });
      console.log(a.statusCode);
    `;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=kubekit-source', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill();
          reject(new Error('the process did not exit within 30 s: the idle connection kept it alive'));
        }, 30_000);
        child.once('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect([code, out.trim()]).to.deep.equal([0, '200']);
    } finally {
      await server.close();
    }
  });
});
