import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { KubeError, type KubeObject } from '@kubekit/core';
import { KubeClient, loadKubeConfig, type ResourceClient } from '@kubekit/informer';
import { FakeClock } from './helpers/fakeClock.js';
import { until } from './helpers/until.js';

type Shirt = KubeObject<{ color?: string; size?: string }, { phase?: string }>;

const shirtCRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
      schema: { openAPIV3Schema: { type: 'object', properties: {
        spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string', default: 'M' } } },
        status: { type: 'object', properties: { phase: { type: 'string' } } },
      } } },
    }],
  },
};

const shirt = (name: string, color: string): Shirt => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name }, spec: { color } });

describe('KubeClient', () => {
  let server: ApiServer;
  let client: KubeClient;
  let shirts: ResourceClient<Shirt>;

  before(async () => {
    server = await startApiServer();
    client = new KubeClient(await loadKubeConfig({ kind: 'string', text: server.kubeconfig }));
    await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', shirtCRD);
    shirts = client.resource<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
  });
  after(async () => { client.close(); await server.close(); });

  it('creates, reads and lists with a field selector over real HTTP, with defaults applied by the server', async () => {
    const created = await shirts.create(shirt('example1', 'blue'));
    expect(created.spec).to.deep.equal({ color: 'blue', size: 'M' });
    await shirts.create(shirt('example2', 'green'));
    expect((await shirts.get('example1', { namespace: 'default' })).metadata.uid).to.equal(created.metadata.uid);
    const blue = await shirts.list({ namespace: 'default', fieldSelector: 'spec.color=blue' });
    expect(blue.items.map((s) => s.metadata.name)).to.deep.equal(['example1']);
    expect(await shirts.tryGet('nope', { namespace: 'default' })).to.equal(undefined);
    const table = await client.table('/apis/stable.example.com/v1/namespaces/default/shirts');
    expect(table.columnDefinitions[0].name).to.equal('Name');
    expect(table.rows.map((r) => r.cells[0])).to.deep.equal(['example1', 'example2']);
  });

  it('reports the server\'s reasons: AlreadyExists, NotFound, Conflict and field label errors', async () => {
    const err = async (p: Promise<unknown>): Promise<KubeError> => { try { await p; } catch (e) { return e as KubeError; } throw new Error('expected a failure'); };
    expect((await err(shirts.create(shirt('example1', 'blue')))).reason).to.equal('AlreadyExists');
    expect((await err(shirts.get('missing', { namespace: 'default' }))).reason).to.equal('NotFound');
    const current = await shirts.get('example1', { namespace: 'default' });
    await shirts.update({ ...current, spec: { ...current.spec, size: 'L' } });
    const conflict = await err(shirts.update({ ...current, spec: { ...current.spec, size: 'XL' } }));
    expect(conflict.reason).to.equal('Conflict');
    const badField = await err(shirts.list({ fieldSelector: 'spec.colour=blue' }));
    expect(badField.reason).to.equal('BadRequest');
    expect(badField.message).to.equal('field label not supported: spec.colour');
  });

  it('writes status through the status subresource, patches, applies and deletes', async () => {
    const current = await shirts.get('example2', { namespace: 'default' });
    const withStatus = await shirts.updateStatus({ ...current, status: { phase: 'Selected' } });
    expect(withStatus.status).to.deep.equal({ phase: 'Selected' });
    const patched = await shirts.patch('example2', { spec: { color: 'blue' } }, { namespace: 'default' });
    expect(patched.spec?.color).to.equal('blue');
    const jsonPatched = await shirts.patch('example2', [{ op: 'replace', path: '/spec/size', value: 'S' }], { namespace: 'default', type: 'json' });
    expect(jsonPatched.spec?.size).to.equal('S');
    const applied = await shirts.apply(shirt('example3', 'red'), { fieldManager: 'kubekit-test' });
    expect(applied.spec?.color).to.equal('red');
    // Regression: a DELETE carrying DeleteOptions needs an explicit Content-Length, or the server cannot frame it.
    await shirts.delete('example3', { namespace: 'default' });
    expect(await shirts.tryGet('example3', { namespace: 'default' })).to.equal(undefined);
    let missingManager: unknown;
    try { await shirts.patch('example2', {}, { type: 'apply' }); } catch (e) { missingManager = e; }
    expect((missingManager as KubeError).message).to.equal('fieldManager is required for apply patch');
  });

  it('refuses an empty or unsendable name before sending: a DELETE of the collection\'s path would delete every object', async () => {
    const before = (await shirts.list({ namespace: 'default' })).items.map((o) => o.metadata.name);
    expect(before.length).to.be.greaterThan(0);
    const refusal = (p: Promise<unknown>): Promise<string> => p.then(() => 'sent', (e: unknown) => (e instanceof KubeError ? `${e.reason}: ${e.message}` : String(e)));
    expect(await refusal(shirts.delete('', { namespace: 'default' }))).to.equal('BadRequest: resource name may not be empty');
    expect(await refusal(shirts.get('', { namespace: 'default' }))).to.equal('BadRequest: resource name may not be empty');
    expect(await refusal(shirts.patch('..', {}, { namespace: 'default' }))).to.equal(`BadRequest: invalid resource name "..": [may not be '..']`);
    expect(await refusal(shirts.delete('example1', { namespace: 'a/b' }))).to.equal(`BadRequest: invalid namespace "a/b": [may not contain '/']`);
    expect(await refusal(shirts.update({ ...shirt('x', 'blue'), metadata: { namespace: 'default', name: 'x/y' } }))).to.equal(`BadRequest: invalid resource name "x/y": [may not contain '/']`);
    expect((await shirts.list({ namespace: 'default' })).items.map((o) => o.metadata.name)).to.deep.equal(before);
  });
});

describe('KubeClient against a loaded server', () => {
  // client-go's rest client waits out a 429 (or a 5xx with Retry-After) and sends the request again, at
  // most 10 times (rest/request.go, checkWait and maxRetries); API Priority and Fairness answers so under
  // load, in plain text with the header. Without it a controller's write failed at once and its workqueue
  // retried after 5 ms, ignoring the wait the server asked for.
  it('sends a request again after the wait a 429 or a 5xx with Retry-After asks for, at most 10 times', async () => {
    const answers: [number, Record<string, string>, string][] = [];
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const [code, headers, body] = answers.shift() ?? [500, {}, 'no answer planned'];
      res.writeHead(code, headers);
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = new FakeClock();
    const client = new KubeClient({ getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} }, { clock });
    const shirts = client.resource<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts', namespaced: true });
    const tooMany: [number, Record<string, string>, string] = [429, { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '1' }, 'Too many requests, please try again later.\n'];
    const created = JSON.stringify({ ...shirt('a', 'blue'), metadata: { namespace: 'default', name: 'a', uid: 'u1' } });
    try {
      answers.push(tooMany, [503, { 'Content-Type': 'application/json', 'Retry-After': '2' }, JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'busy', reason: 'ServiceUnavailable', code: 503, details: { retryAfterSeconds: 2 } })], [201, { 'Content-Type': 'application/json' }, created]);
      const done = shirts.create(shirt('a', 'blue'));
      await until(() => clock.pendingDelays().includes(1000), 'the first wait');
      expect(seen).to.have.length(1);
      expect(seen).to.have.length(1);
      clock.advance(999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).to.have.length(1);
      clock.advance(1);
      await until(() => clock.pendingDelays().includes(2000), 'the second wait');
      expect(seen).to.have.length(2);
      clock.advance(2000);
      expect((await done).metadata.uid).to.equal('u1');
      expect(seen).to.deep.equal(Array(3).fill('POST /apis/stable.example.com/v1/namespaces/default/shirts'));
      // A 500 without Retry-After fails at once; eleven 429s fail after ten retries.
      answers.push([500, { 'Content-Type': 'text/plain' }, 'boom']);
      expect(await shirts.get('a', { namespace: 'default' }).then(() => 'ok', (e: KubeError) => e.code)).to.equal(500);
      for (let i = 0; i < 11; i++) answers.push(tooMany);
      const failed = shirts.get('a', { namespace: 'default' }).then(() => 0, (e: KubeError) => e.code);
      for (let i = 0; i < 10; i++) {
        await until(() => clock.pendingDelays().includes(1000), `wait ${i + 1}`);
        clock.advance(1000);
      }
      expect(await failed).to.equal(429);
      expect(seen).to.have.length(3 + 1 + 11);
      // The wait ends with the caller's signal.
      answers.push(tooMany);
      const abort = new AbortController();
      const aborted = shirts.get('a', { namespace: 'default', signal: abort.signal }).then(() => 'ok', (e: Error) => e.name);
      await until(() => clock.pendingDelays().includes(1000), 'the wait before the abort');
      abort.abort();
      expect(await aborted).to.equal('AbortError');
      expect(clock.pending).to.equal(0);
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('KubeClient against a server with long answer headers', () => {
  // Go's client reads up to 10 MiB of response headers, Node's 16 KiB by default: an apiserver's 4,096 runes
  // of warnings in four-byte UTF-8 come to 16 KB alone, and a proxy in between may add its own.
  it('reads an answer with 64 KiB of headers', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', Warning: Array.from({ length: 64 }, (_, i) => `299 - "${String(i).padStart(1000, 'w')}"`) });
      res.end('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new KubeClient(await loadKubeConfig({ kind: 'string', text: JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { server: url } }], users: [{ name: 'u', user: {} }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' }) }));
    try {
      const cm = await client.resource<KubeObject>({ apiVersion: 'v1', plural: 'configmaps', namespaced: true }).get('a', { namespace: 'default' });
      expect(cm.metadata.name).to.equal('a');
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('KubeClient against a server answering what no apiserver does', () => {
  it('fails with what was wrong instead of handing back null, arrays or scalars as objects', async () => {
    const answers = ['null', '[1]', '5', '"text"', 'true'];
    let next = '';
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(next);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new KubeClient({ getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} });
    const shirts = client.resource<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts', namespaced: true });
    const failure = async (p: Promise<unknown>): Promise<string> => p.then(() => 'no failure', (e: unknown) => `${(e as KubeError).reason}: ${(e as Error).message}`);
    try {
      for (const answer of answers) {
        next = answer;
        const type = answer === 'null' ? 'null' : answer.startsWith('[') ? 'array' : answer === '5' ? 'number' : answer === 'true' ? 'bool' : 'string';
        const path = '/apis/stable.example.com/v1/namespaces/default/shirts';
        expect(await failure(shirts.get('a', { namespace: 'default' }))).to.equal(`InternalError: unable to decode the response of GET ${path}/a: expected an object, got ${type}`);
        expect(await failure(shirts.list({ namespace: 'default' }))).to.equal(`InternalError: unable to decode the response of GET ${path}: expected an object, got ${type}`);
        expect(await failure(shirts.create(shirt('a', 'blue')))).to.equal(`InternalError: unable to decode the response of POST ${path}: expected an object, got ${type}`);
        expect(await failure(shirts.patch('a', {}, { namespace: 'default' }))).to.equal(`InternalError: unable to decode the response of PATCH ${path}/a: expected an object, got ${type}`);
      }
      next = '{"kind":"ShirtList","items":{"a":1}}';
      expect(await failure(shirts.list({ namespace: 'default' }))).to.equal('InternalError: unable to decode the response of GET /apis/stable.example.com/v1/namespaces/default/shirts: its items are object; expected an array');
      // Go decodes absent or null items as an empty list.
      next = '{"kind":"ShirtList","metadata":{"resourceVersion":"3"},"items":null}';
      expect((await shirts.list({ namespace: 'default' })).items).to.deep.equal([]);
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
