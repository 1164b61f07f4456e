import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '@kubekit/core';
import { ListerWatcher, continueTokenIn } from '../src/listerWatcher.js';
import type { KubeConfigLike } from '../src/kubeConfig.js';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  socket: unknown;
  clientCN?: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const tls = (name: string): string => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url), 'utf8');

async function listen(server: http.Server | https.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return `${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${port}`;
}

function kubeConfigFor(url: string): KubeConfigLike {
  return {
    getCurrentCluster: () => ({ server: url }),
    applyToHTTPSOptions: async (opts) => {
      opts.headers = { ...(opts.headers ?? {}), Authorization: 'Bearer abc' };
    },
  };
}

describe('ListerWatcher', () => {
  let server: http.Server | https.Server;
  let seen: Seen[];
  let handler: Handler;

  function record(req: http.IncomingMessage, res: http.ServerResponse): void {
    const peer = (req.socket as TLSSocket).getPeerCertificate?.();
    const cn = peer?.subject?.CN;
    seen.push({ url: req.url ?? '', headers: req.headers, socket: req.socket, clientCN: Array.isArray(cn) ? cn[0] : cn });
    handler(req, res);
  }

  beforeEach(() => {
    seen = [];
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'ShirtList', apiVersion: 'stable.example.com/v1', metadata: { resourceVersion: '7' }, items: [] }));
    };
  });

  afterEach(async () => {
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('does build list URLs with the query parameters the apiserver reads', async () => {
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'ns 1' });
    const list = await lw.list({ limit: 5, continue: 'tok', labelSelector: 'app=a', fieldSelector: 'spec.color=blue', resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' });
    expect(list.metadata.resourceVersion).to.equal('7');
    const u = new URL(seen[0].url, url);
    expect(u.pathname).to.equal('/apis/stable.example.com/v1/namespaces/ns%201/shirts');
    expect(Object.fromEntries(u.searchParams)).to.deep.equal({
      labelSelector: 'app=a', fieldSelector: 'spec.color=blue', limit: '5', continue: 'tok', resourceVersion: '0', resourceVersionMatch: 'NotOlderThan',
    });
    expect(seen[0].headers.authorization).to.equal('Bearer abc');
    expect(seen[0].headers.accept).to.equal('application/json');
    expect(seen[0].headers['user-agent']).to.equal('kubekit-informer');
    lw.close();
  });

  it('does address the core group under /api and other namespaces on request', async () => {
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'configmaps' });
    await lw.list();
    await lw.list({}, { namespace: 'kube-system' });
    expect(seen.map((s) => s.url)).to.deep.equal(['/api/v1/configmaps', '/api/v1/namespaces/kube-system/configmaps']);
    lw.close();
  });

  it('does read a list whose items are null as empty, and refuses one whose items are not an array', async () => {
    // kube-apiserver 1.34.4 writes an empty PartialObjectMetadataList's items as null: what a lookup by
    // metadata.name answers for a deleted object.
    const bodies = ['{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},"items":null}', '{"kind":"PartialObjectMetadataList","metadata":{}}', '{"items":{}}', '[]'];
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(bodies.shift());
    });
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'configmaps' });
    const none = await lw.list({ fieldSelector: 'metadata.name=gone' }, { metadataOnly: true });
    expect([none.items, none.metadata.resourceVersion]).to.deep.equal([[], '5']);
    expect((await lw.list({}, { metadataOnly: true })).items).to.deep.equal([]);
    const refusal = async (): Promise<string> => lw.list().then(() => 'listed', (err: unknown) => (err instanceof KubeError ? err.message : String(err)));
    expect(await refusal()).to.equal('unable to decode the list: its items are object; expected an array');
    expect(await refusal()).to.equal('unable to decode the list: it is array; expected an object');
    lw.close();
  });

  it('does reuse one keep-alive connection for successive requests', async () => {
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'pods' });
    await lw.list();
    await lw.list();
    await lw.list();
    expect(seen).to.have.length(3);
    expect(seen[1].socket).to.equal(seen[0].socket);
    expect(seen[2].socket).to.equal(seen[0].socket);
    lw.close();
  });

  it('does open a watch with bookmarks, streaming-list and timeout parameters', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '3' } } }) + '\n');
    };
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'stable.example.com/v1', plural: 'shirts' });
    const stream = await lw.watch({ resourceVersion: '2', sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', timeoutSeconds: 321 });
    const events = [];
    for await (const e of stream) events.push(e);
    expect(events).to.deep.equal([{ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '3' } } }]);
    const q = new URL(seen[0].url, url).searchParams;
    expect(Object.fromEntries(q)).to.deep.equal({
      watch: 'true', resourceVersion: '2', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true', sendInitialEvents: 'true', timeoutSeconds: '321',
    });
    lw.close();
  });

  it('does turn a Status answer into a KubeError and keep Retry-After', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '3' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'slow down', reason: 'TooManyRequests', code: 429 }));
    };
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'pods' });
    for (const call of [() => lw.list(), () => lw.watch()]) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError);
      expect(err).to.include({ reason: 'TooManyRequests', code: 429, message: 'slow down' });
      expect((err as KubeError).details?.retryAfterSeconds).to.equal(3);
    }
    lw.close();
  });

  it('does name the HTTP code when the error body is not a Status', async () => {
    handler = (_req, res) => {
      res.writeHead(503);
      res.end();
    };
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'pods' });
    const err = await lw.list().then(() => undefined, (e: unknown) => e);
    expect(err).to.include({ reason: 'ServiceUnavailable', code: 503, message: 'the server responded with the status code 503 but did not return more information' });
    lw.close();
  });

  it('does return undefined for a get of a missing object', async () => {
    handler = (req, res) => {
      const found = req.url === '/apis/stable.example.com/v1/namespaces/ns/shirts/a';
      res.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(found ? { metadata: { name: 'a', namespace: 'ns' } } : { kind: 'Status', reason: 'NotFound', code: 404, message: 'not found' }));
    };
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'ns' });
    expect(await lw.get('a')).to.deep.equal({ metadata: { name: 'a', namespace: 'ns' } });
    expect(await lw.get('b')).to.equal(undefined);
    lw.close();
  });

  it('does get a state at least as fresh as a resourceVersion, pipelined or not, and read a pipelined 404 as absent', async () => {
    handler = (req, res) => {
      const found = req.url?.startsWith('/apis/stable.example.com/v1/namespaces/ns/shirts/a?') === true;
      res.writeHead(found ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(found ? { metadata: { name: 'a', namespace: 'ns' } } : { kind: 'Status', reason: 'NotFound', code: 404, message: 'not found' }));
    };
    server = http.createServer(record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'stable.example.com/v1', plural: 'shirts', namespace: 'ns' });
    expect(await lw.get('a', { resourceVersion: '12' })).to.deep.equal({ metadata: { name: 'a', namespace: 'ns' } });
    expect(await lw.get('a', { resourceVersion: '13', pipelined: true, metadataOnly: true })).to.deep.equal({ metadata: { name: 'a', namespace: 'ns' } });
    expect(await lw.get('b', { resourceVersion: '14', pipelined: true })).to.equal(undefined);
    expect(seen.map((r) => r.url)).to.deep.equal([
      '/apis/stable.example.com/v1/namespaces/ns/shirts/a?resourceVersion=12',
      '/apis/stable.example.com/v1/namespaces/ns/shirts/a?resourceVersion=13',
      '/apis/stable.example.com/v1/namespaces/ns/shirts/b?resourceVersion=14',
    ]);
    lw.close();
  });

  it('does work with a KubeConfig of @kubernetes/client-node pointing at a plain-HTTP server', async () => {
    server = http.createServer(record);
    const url = await listen(server);
    const kc = new KubeConfig();
    kc.loadFromString(['apiVersion: v1', 'kind: Config', 'current-context: c', 'clusters:', '- name: c', '  cluster:', `    server: ${url}`,
      'users:', '- name: u', '  user:', '    token: from-yaml', 'contexts:', '- name: c', '  context:', '    cluster: c', '    user: u'].join('\n'));
    const lw = new ListerWatcher(kc, { apiVersion: 'v1', plural: 'pods' });
    await lw.list();
    expect(seen[0].headers.authorization).to.equal('Bearer from-yaml');
    lw.close();
  });

  it('does verify the server with the kubeconfig CA and present the client certificate', async () => {
    server = https.createServer({ key: tls('server.key'), cert: tls('server.crt'), ca: tls('ca.crt'), requestCert: true, rejectUnauthorized: true }, record);
    const url = await listen(server);
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const kc = new KubeConfig();
    kc.loadFromString(['apiVersion: v1', 'kind: Config', 'current-context: c', 'clusters:', '- name: c', '  cluster:', `    server: ${url}`, `    certificate-authority-data: ${b64(tls('ca.crt'))}`,
      'users:', '- name: u', '  user:', `    client-certificate-data: ${b64(tls('client.crt'))}`, `    client-key-data: ${b64(tls('client.key'))}`,
      'contexts:', '- name: c', '  context:', '    cluster: c', '    user: u'].join('\n'));
    const lw = new ListerWatcher(kc, { apiVersion: 'v1', plural: 'pods' });
    await lw.list();
    await lw.list();
    expect(seen[0].clientCN).to.equal('kubekit-test-user');
    expect(seen[1].socket).to.equal(seen[0].socket);
    lw.close();
  });

  it('does refuse a server whose certificate the kubeconfig CA did not sign', async () => {
    server = https.createServer({ key: tls('server.key'), cert: tls('server.crt') }, record);
    const url = await listen(server);
    const lw = new ListerWatcher(kubeConfigFor(url), { apiVersion: 'v1', plural: 'pods' });
    const err = await lw.list().then(() => undefined, (e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).to.match(/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/);
    expect(seen).to.have.length(0);
    lw.close();
  });
});

describe('continueTokenIn', () => {
  const items = Array.from({ length: 20 }, (_, i) => ({ metadata: { name: `n${i}` }, spec: { text: 'x'.repeat(100) } }));
  it('does find the token where the apiserver writes metadata: last for custom resources, first for built-in kinds', () => {
    expect(continueTokenIn(JSON.stringify({ apiVersion: 'v1', items, kind: 'ShirtList', metadata: { continue: 'eyJ2IjoibWV0YS', remainingItemCount: 3, resourceVersion: '7' } }))).to.equal('eyJ2IjoibWV0YS');
    expect(continueTokenIn(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'tok-1' }, items }))).to.equal('tok-1');
  });
  it('does find none on a last page, in the middle of a long list, or for an escaped token', () => {
    expect(continueTokenIn(JSON.stringify({ apiVersion: 'v1', items, kind: 'ShirtList', metadata: { resourceVersion: '7' } }))).to.equal(undefined);
    const middle = [...items.slice(0, 10), { metadata: { name: 'c' }, spec: { continue: 'item' } }, ...items.slice(10)];
    expect(continueTokenIn(JSON.stringify({ apiVersion: 'v1', items: middle, kind: 'ShirtList', metadata: { resourceVersion: '7' } }))).to.equal(undefined);
    expect(continueTokenIn('{"items":[],"metadata":{"continue":"a\\"b"}}')).to.equal(undefined);
    expect(continueTokenIn('{"items":[],"metadata":{"continue":""}}')).to.equal(undefined);
  });
  it('does take the last of several near the end (an item may hold a key of that name before metadata)', () => {
    const withItem = [{ metadata: { name: 'c' }, spec: { continue: 'item' } }];
    expect(continueTokenIn(JSON.stringify({ apiVersion: 'v1', items: withItem, kind: 'ShirtList', metadata: { continue: 'list' } }))).to.equal('list');
  });
});
