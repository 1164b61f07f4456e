// The HTTP prober behind ComponentStatuses (pkg/probe/http `DoHTTPProbe`, pkg/registry/core/componentstatus
// `HttpServer.DoServerCheck`) against components kubekit can start itself: a healthy one (a kubekit server
// over TLS, whose /healthz answers `ok`), one answering an error status, a plain-HTTP one, one that never
// answers, and none at all. test/hostile/componentStatuses.test.ts checks the kind on both servers.
import { createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { startApiServer } from '@kubekit/apiserver';
import { probeComponent } from '../src/componentStatuses.js';

/** A TCP server that accepts and never answers. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }) };
}

describe('ComponentStatus probes', function () {
  this.timeout(30_000);

  it('reports a component answering 2xx healthy with its body, another status unhealthy with the code', async () => {
    const component = await startApiServer({ tls: true });
    try {
      expect(await probeComponent({ name: 'c', url: `${component.url}/healthz` })).to.deep.equal({ status: 'True', message: 'ok', error: '' });
      expect(await probeComponent({ name: 'c', url: `${component.url}/nothing-here` })).to.deep.equal({ status: 'False', message: 'HTTP probe failed with statuscode: 404', error: '' });
    } finally {
      await component.close();
    }
  });

  it('reports a component that cannot be reached, speaks plain HTTP or never answers unhealthy, in Go\'s words', async () => {
    const plain = await startApiServer({});
    const port = Number(new URL(plain.url).port);
    try {
      expect(await probeComponent({ name: 'c', url: `https://127.0.0.1:${port}/healthz` })).to.deep.equal({
        status: 'False', message: `Get "https://127.0.0.1:${port}/healthz": http: server gave HTTP response to HTTPS client`, error: '',
      });
    } finally {
      await plain.close();
    }
    // Nothing listens on the port any more.
    expect(await probeComponent({ name: 'c', url: `https://127.0.0.1:${port}/healthz` })).to.deep.equal({
      status: 'False', message: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`, error: '',
    });
    const silent = await silentServer();
    try {
      expect(await probeComponent({ name: 'c', url: `https://127.0.0.1:${silent.port}/healthz` }, 200)).to.deep.equal({
        status: 'False', message: `Get "https://127.0.0.1:${silent.port}/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, error: '',
      });
    } finally {
      await silent.close();
    }
  });
});
