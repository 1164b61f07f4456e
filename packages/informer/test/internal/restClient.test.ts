// The REST client's body readers: a watch body read chunk by chunk (each chunk as received, with
// backpressure while the consumer is slow) and the premature end of a body reported, not swallowed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { realClock } from '@kubekit/core';
import { RestClient, staleRetries } from '../../src/internal/restClient.js';

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const kubeConfig = (url: string) => ({ getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} });

describe('RestClient', () => {
  it('does deliver every byte of a long body in order to a slow reader of its chunks', async () => {
    const parts = Array.from({ length: 400 }, (_, i) => `${String(i).padStart(4, '0')}:${'x'.repeat(16_000)}\n`);
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let i = 0;
      const pump = (): void => {
        while (i < parts.length) if (!res.write(parts[i++])) return void res.once('drain', pump);
        res.end();
      };
      pump();
    });
    const client = new RestClient(kubeConfig(server.url), realClock);
    try {
      const res = await client.request({ path: '/watch' });
      const got: Buffer[] = [];
      let reads = 0;
      for await (const chunk of res.chunks()) {
        got.push(chunk);
        // Slower than the socket now and then, so that chunks pile up and the socket is paused.
        if (++reads % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(Buffer.concat(got).toString()).to.equal(parts.join(''));
    } finally {
      client.destroy();
      await server.close();
    }
  });

  it('does throw from the chunks of a body cut short by the connection', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"');
      setImmediate(() => req.socket.destroy());
    });
    const client = new RestClient(kubeConfig(server.url), realClock);
    try {
      const res = await client.request({ path: '/watch' });
      const seen: string[] = [];
      const err = await (async () => {
        for await (const chunk of res.chunks()) seen.push(chunk.toString());
      })().then(() => undefined, (e: unknown) => e);
      expect(seen.join('')).to.equal('{"type":"ADDED"');
      expect(err).to.be.instanceOf(Error);
    } finally {
      client.destroy();
      await server.close();
    }
  });

  // Regression (stress test, issue 13): a keep-alive connection closed by the other end (a proxy, a
  // load balancer, an apiserver going away) while idle in the pool is found dead only when the next
  // request goes out on it. A delete reason's lookup re-sent as an ordinary GET after its pipelined
  // connection broke took such a socket and failed with "socket hang up": its reason became `unknown`.
  // A GET that fails on a reused connection before any answer is sent once more on a new one (as
  // Go's net/http does for idempotent requests); other methods are not repeated.
  describe('on a kept-alive connection the server closed', () => {
    /** Answers the first request of each connection; a later one on the same connection finds it closed. */
    async function closingIdle(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
      const seen: string[] = [];
      const served = new WeakSet<object>();
      const server = await serve((req, res) => {
        seen.push(`${req.method} ${req.url}${served.has(req.socket) ? ' (reused)' : ''}`);
        if (served.has(req.socket)) return void req.socket.destroy();
        served.add(req.socket);
        req.resume();
        res.writeHead(200, { 'Content-Type': 'application/json', 'Keep-Alive': 'timeout=60' });
        res.end('{"ok":true}');
      });
      return { ...server, seen };
    }

    it('does send a GET again on a new connection', async () => {
      const server = await closingIdle();
      const client = new RestClient(kubeConfig(server.url), realClock);
      try {
        expect(await client.requestJSON({ path: '/a' })).to.deep.equal({ ok: true });
        expect(await client.requestJSON({ path: '/b' })).to.deep.equal({ ok: true });
        expect(server.seen).to.deep.equal(['GET /a', 'GET /b (reused)', 'GET /b']);
      } finally {
        client.destroy();
        await server.close();
      }
    });

    it('does give up after staleRetries sends again when every pooled connection is dead', async () => {
      const server = await closingIdle();
      const client = new RestClient(kubeConfig(server.url), realClock);
      try {
        // Five connections in the pool, each answered once; the server closes every one on its next request.
        await Promise.all(['/1', '/2', '/3', '/4', '/5'].map((path) => client.requestJSON({ path })));
        const err = await client.requestJSON({ path: '/b' }).then(() => undefined, (e: unknown) => e);
        expect(err).to.be.instanceOf(Error);
        expect(server.seen.filter((l) => l.startsWith('GET /b'))).to.deep.equal(Array(staleRetries + 1).fill('GET /b (reused)'));
      } finally {
        client.destroy();
        await server.close();
      }
    });

    it('does not send a POST again', async () => {
      const server = await closingIdle();
      const client = new RestClient(kubeConfig(server.url), realClock);
      try {
        await client.requestJSON({ path: '/a' });
        const err = await client.requestJSON({ method: 'POST', path: '/b', body: '{}' }).then(() => undefined, (e: unknown) => e);
        expect(err).to.be.instanceOf(Error);
        expect(server.seen).to.deep.equal(['GET /a', 'POST /b (reused)']);
      } finally {
        client.destroy();
        await server.close();
      }
    });
  });

  it('does reject the text of a body cut short by the connection', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"a":');
      setImmediate(() => req.socket.destroy());
    });
    const client = new RestClient(kubeConfig(server.url), realClock);
    try {
      const err = await client.requestJSON({ path: '/x' }).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(Error);
    } finally {
      client.destroy();
      await server.close();
    }
  });
});
