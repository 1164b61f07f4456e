import { expect } from 'chai';
import { request } from 'node:http';
import { connect } from 'node:net';
import { FakeClock } from '@kubekit/core';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start, type Event } from './internal/client.js';

const cms = '/api/v1/namespaces/default/configmaps';

function summary(events: Event[]): string[] {
  return events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`.trim());
}

describe('serveWatch', () => {
  let server: ApiServer;
  let client: Client;
  let clock: FakeClock;

  before(async () => {
    clock = new FakeClock(Date.now());
    ({ server, client } = await start({ clock, watchHistorySize: 20, bookmarkIntervalMs: 60_000 }));
    await client.post(cms, { metadata: { name: 'existing', labels: { app: 'a' } } });
  });

  after(async () => {
    await server.close();
  });

  it('sends the current state as ADDED, then changes, without a resourceVersion', async () => {
    const w = await client.watch(`${cms}?watch=true`);
    try {
      expect(summary([await w.next()])).to.deep.equal(['ADDED existing']);
      await client.post(cms, { metadata: { name: 'new' } });
      await client.patch(`${cms}/new`, { data: { a: 'b' } });
      await client.delete(`${cms}/new`);
      expect(summary([await w.next(), await w.next(), await w.next()])).to.deep.equal(['ADDED new', 'MODIFIED new', 'DELETED new']);
    } finally {
      w.close();
    }
  });

  it('sends only later changes from a resourceVersion', async () => {
    const rv = server.resourceVersion;
    await client.post(cms, { metadata: { name: 'after' } });
    const w = await client.watch(`${cms}?watch=true&resourceVersion=${rv}`);
    try {
      const e = await w.next();
      expect(summary([e])).to.deep.equal(['ADDED after']);
      expect(Number(e.object.metadata.resourceVersion)).to.equal(rv + 1);
    } finally {
      w.close();
      await client.delete(`${cms}/after`);
    }
  });

  it('sends initial events and the initial-events-end bookmark with sendInitialEvents', async () => {
    const w = await client.watch(`${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    try {
      const events = await w.until((e) => e.type === 'BOOKMARK');
      expect(summary(events.slice(0, -1))).to.deep.equal(['ADDED existing']);
      const bookmark = events[events.length - 1].object;
      expect(bookmark.metadata.annotations).to.deep.equal({ 'k8s.io/initial-events-end': 'true' });
      expect(bookmark).to.include({ kind: 'ConfigMap', apiVersion: 'v1' });
      expect(bookmark.metadata.resourceVersion).to.equal(String(server.resourceVersion));
    } finally {
      w.close();
    }
  });

  // kube-apiserver 1.34's ValidateListOptions (meta/internalversion/validation): bookmarks are no
  // longer required, and the causes come in its order (the differential suite's
  // watch/initial-events-and-bookmarks).
  it('validates sendInitialEvents as the apiserver does', async () => {
    const r = await client.get(`${cms}?watch=true&sendInitialEvents=true`);
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    const list = await client.get(`${cms}?sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    expect(list.body.message).to.equal('ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list]');
    const watch = await client.get(`${cms}?watch=true&resourceVersionMatch=Exact&continue=x`);
    expect(watch.body.message).to.equal('ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan", resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided]');
  });

  it('sends initial events without the end bookmark when bookmarks are not allowed', async () => {
    const w = await client.watch(`${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    try {
      expect(summary([await w.next()])).to.deep.equal(['ADDED existing']);
      await client.post(cms, { metadata: { name: 'after-initial' } });
      expect(summary([await w.next()])).to.deep.equal(['ADDED after-initial']);
    } finally {
      w.close();
      await client.delete(`${cms}/after-initial`);
    }
  });

  it('answers a resourceVersion older than the history with a 410 Expired ERROR event', async () => {
    const old = server.resourceVersion;
    for (let i = 0; i < 45; i++) await client.patch(`${cms}/existing`, { data: { n: String(i) } });
    const w = await client.watch(`${cms}?watch=true&resourceVersion=${old}`);
    const e = await w.next();
    expect(e.type).to.equal('ERROR');
    expect(e.object).to.include({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(e.object.message).to.match(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    await w.end();
  });

  // A resourceVersion newer than the server's: the watch waits for it silently
  // (test/futureResourceVersion.test.ts).

  it('applies selectors per watcher: objects entering arrive as ADDED, leaving as DELETED', async () => {
    const w = await client.watch(`${cms}?watch=true&labelSelector=app%3Da&resourceVersion=${server.resourceVersion}`);
    try {
      await client.post(cms, { metadata: { name: 'mover', labels: { app: 'b' } } });
      await client.patch(`${cms}/mover`, { metadata: { labels: { app: 'a' } } });
      await client.patch(`${cms}/mover`, { data: { x: 'y' } });
      await client.patch(`${cms}/mover`, { metadata: { labels: { app: 'c' } } });
      const events = [await w.next(), await w.next(), await w.next()];
      expect(summary(events)).to.deep.equal(['ADDED mover', 'MODIFIED mover', 'DELETED mover']);
      expect(events[2].object.metadata.labels).to.deep.equal({ app: 'a' });
    } finally {
      w.close();
      await client.delete(`${cms}/mover`);
    }
  });

  // A watch of one object is a collection's watch with `metadata.name` selected (client-go's
  // SingleObject options): an object's URL does not watch (router.test.ts).
  it('watches one object by name', async () => {
    const w = await client.watch(`${cms}?watch=true&fieldSelector=metadata.name%3Dexisting&resourceVersion=${server.resourceVersion}`);
    try {
      await client.post(cms, { metadata: { name: 'unrelated' } });
      await client.patch(`${cms}/existing`, { data: { only: 'me' } });
      expect(summary([await w.next()])).to.deep.equal(['MODIFIED existing']);
    } finally {
      w.close();
      await client.delete(`${cms}/unrelated`);
    }
  });

  it('sends bookmarks and ends at timeoutSeconds, on the injected clock', async () => {
    const w = await client.watch(`${cms}?watch=true&allowWatchBookmarks=true&timeoutSeconds=90&resourceVersion=${server.resourceVersion}`);
    await clock.advance(60_000);
    const bookmark = await w.next();
    expect(bookmark.type).to.equal('BOOKMARK');
    expect(bookmark.object.metadata.resourceVersion).to.equal(String(server.resourceVersion));
    await clock.advance(30_000);
    await w.end();
    expect(w.ended).to.equal(true);
  });

  it('streams Table rows for kubectl get -w', async () => {
    const w = await client.watch(`${cms}?watch=true&resourceVersion=${server.resourceVersion}`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    try {
      await client.post(cms, { metadata: { name: 'tabled' }, data: { a: '1', b: '2' } });
      const e = await w.next();
      expect(e.object.kind).to.equal('Table');
      expect(e.object.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Data', 'Age']);
      expect(e.object.rows[0].cells.slice(0, 2)).to.deep.equal(['tabled', 2]);
      expect(e.object.rows[0].object).to.include({ kind: 'PartialObjectMetadata' });
    } finally {
      w.close();
      await client.delete(`${cms}/tabled`);
    }
  });

  it('disconnects a watcher that does not read instead of buffering without bound', async () => {
    const small = await start({ watchMaxBufferedBytes: 64 * 1024 });
    try {
      const url = new URL(`${small.server.url}${cms}?watch=true&resourceVersion=${small.server.resourceVersion}`);
      let closed = false;
      const reader = await new Promise<import('node:http').IncomingMessage>((resolve) => {
        const req = request(url, (res) => resolve(res));
        req.on('error', () => { closed = true; });
        req.end();
      });
      reader.pause();
      reader.on('error', () => { closed = true; });
      reader.on('close', () => { closed = true; });
      expect(small.server.watchCount).to.equal(1);
      // Loopback sockets buffer megabytes in the kernel before the server's own buffer grows.
      const big = 'x'.repeat(256 * 1024);
      for (let i = 0; i < 400 && small.server.watchCount > 0; i++) {
        const r = await small.client.post(cms, { metadata: { name: `big-${i}` }, data: { big } });
        expect(r.status).to.equal(201);
      }
      expect(small.server.watchCount).to.equal(0);
      reader.destroy();
      expect(closed || reader.destroyed).to.equal(true);
    } finally {
      await small.server.close();
    }
  });
});

describe('requests pipelined on one connection that the client closes', () => {
  // Node's HTTP server runs the handler of every request pipelined on a connection at once, but
  // holds each response until those before it have ended: the response of a later request is not
  // attached to the socket, and no 'close' reaches it when the client goes away. Watches and
  // waiting reads must end all the same (found through the informer's chaos proxy, which held such
  // a response forever).
  it('ends every watch and waiting read of the connection, not only the one the socket was answering', async () => {
    const { server, client } = await start({ clock: new FakeClock(Date.now()), bookmarkIntervalMs: 60_000 });
    try {
      await client.post(cms, { metadata: { name: 'one' } });
      const rv = server.resourceVersion;
      const socket = connect(server.port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      let answered = '';
      socket.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
      const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
      // Twenty watches on one socket wait on it with one listener (no MaxListenersExceededWarning).
      const warnings: Error[] = [];
      const onWarning = (w: Error): void => {
        warnings.push(w);
      };
      process.on('warning', onWarning);
      socket.write(
        get(`${cms}?watch=true&resourceVersion=${rv}`)
        + get(`${cms}?watch=true&resourceVersion=${rv}&labelSelector=app%3Dx`)
        + get(`${cms}/one?resourceVersion=${rv + 1000}`)
        + Array.from({ length: 18 }, () => get(`${cms}?watch=true`)).join(''),
      );
      for (let i = 0; i < 400 && (server.watchCount < 20 || server.waitingReads < 1); i++) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setImmediate(r));
      process.off('warning', onWarning);
      expect([server.watchCount, server.waitingReads], 'twenty watches and a waiting read').to.deep.equal([20, 1]);
      expect(warnings.map(String)).to.deep.equal([]);
      expect(answered, 'the first watch answers').to.match(/^HTTP\/1\.1 200 /);
      socket.destroy();
      for (let i = 0; i < 400 && (server.watchCount > 0 || server.waitingReads > 0); i++) await new Promise((r) => setTimeout(r, 5));
      expect([server.watchCount, server.waitingReads], 'watches and waiting reads left').to.deep.equal([0, 0]);
    } finally {
      await server.close();
    }
  });
});
