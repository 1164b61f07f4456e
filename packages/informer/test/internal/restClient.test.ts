// The REST client's body readers: a watch body read chunk by chunk (each chunk as received, with
// backpressure while the consumer is slow) and the premature end of a body reported, not swallowed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { realClock } from '@kubekit/core';
import { RestClient } from '../../src/internal/restClient.js';

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
