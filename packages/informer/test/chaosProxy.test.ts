// The chaos proxy is the informer's chaos test's only view of what a client holds open: a held
// request it never lets go of makes that test drive the clock forever (CI, stop 27: run 76 never
// caught up, because a lookup pipelined behind another held one stayed "held" after the client closed
// the connection). These check the proxy's own bookkeeping.
import { expect } from 'chai';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ChaosProxy } from './helpers/chaosProxy.js';

describe('ChaosProxy', () => {
  let upstream: http.Server;
  let target: string;

  before(async () => {
    upstream = http.createServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('lets go of held requests pipelined behind another when the client closes the connection', async () => {
    // Every pick is a fault (0 < probability), and the fault is 'silent' (the last of a GET's four).
    let i = 0;
    const proxy = await new ChaosProxy(target, () => (i++ % 2 === 0 ? 0 : 0.99)).start();
    proxy.budget = 3;
    try {
      const { port } = new URL(proxy.url);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      socket.write(['/a', '/b', '/c'].map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
      for (let n = 0; n < 200 && proxy.silent < 3; n++) await new Promise((r) => setTimeout(r, 5));
      expect([...proxy.heldUrls.values()]).to.deep.equal(['/a', '/b', '/c']);
      socket.destroy();
      for (let n = 0; n < 200 && proxy.silent > 0; n++) await new Promise((r) => setTimeout(r, 5));
      expect([...proxy.heldUrls.values()], 'still held').to.deep.equal([]);
    } finally {
      await proxy.close();
    }
  });
});
