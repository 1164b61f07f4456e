// Issue 15: a fuzz test of every endpoint's body and query parsing. Random and mutated requests
// (methods, paths, query parameters, media types, bodies) go to a server with a data directory; the
// server must never answer 5xx nor crash, and every object it acknowledged must still be there after
// the run and after a restart from the data directory. Bounded in count and time.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { expectPristinePrototypes, widgetCRD } from './internal/hostile.js';

const group = '/apis/hostile.example.com/v1';
const seeds = [
  `${group}/namespaces/default/widgets/seed-a`,
  `${group}/namespaces/default/widgets/seed-b`,
  '/api/v1/namespaces/default/configmaps/seed-c',
];

const namespaces = ['fuzz', 'scratch', 'default', 'nope', '__proto__', '', '..', '%2F', 'a%00b', 'x'.repeat(70)];
const names = ['f1', 'f2', 'f3', 'seed-a', '__proto__', 'constructor', '', '%2e%2e', 'a:b', 'N', 'x'.repeat(300)];
const resources = ['widgets', 'configmaps', 'secrets', 'namespaces', 'customresourcedefinitions', 'nope', 'widgets.hostile.example.com'];
const subresources = ['', '/status', '/scale', '/nope', '/status/x'];
const paramNames = ['limit', 'continue', 'labelSelector', 'fieldSelector', 'resourceVersion', 'resourceVersionMatch', 'timeoutSeconds', 'watch',
  'allowWatchBookmarks', 'sendInitialEvents', 'dryRun', 'fieldManager', 'fieldValidation', 'force', 'propagationPolicy', 'includeObject', 'pretty', 'gracePeriodSeconds', '__proto__'];
const paramValues = ['', '0', '-1', '1', '99999999999999999999999', 'abc', 'All', 'true', 'false', 'Strict', 'Ignore', 'Warn', 'NotOlderThan', 'Exact',
  'a=b', 'a!=b,c', 'x in (a,b)', '!a', 'spec.color=blue', 'metadata.name=seed-a', '\\', '%ZZ', 'Object', 'Foreground', 'Orphan', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIifQ', '1.5', 'NaN', '1e3'];
const contentTypes = ['application/json', 'application/yaml', 'application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json',
  'application/apply-patch+yaml', 'application/vnd.kubernetes.protobuf', 'text/plain', '', 'application/json; charset=utf-8', 'application/apply-patch+cbor'];
const accepts = ['', 'application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', '*/*;q=x', 'text/html'];

const widget = (ns: string, name: string): Record<string, unknown> => ({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name, namespace: ns, labels: { a: 'b' } }, spec: { replicas: 2, data: { x: [1, 'two', { three: 3 }] } }, status: { replicas: 1 } });
const templates: unknown[] = [
  widget('fuzz', 'f1'),
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f2' }, data: { k: 'v' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'f3' }, stringData: { k: 'v' }, type: 'Opaque' },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'f1' } },
  { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'], preconditions: { uid: 'x', resourceVersion: '1' }, propagationPolicy: 'Background' },
  [{ op: 'add', path: '/spec/data/y', value: 1 }, { op: 'test', path: '/metadata/name', value: 'f1' }, { op: 'move', from: '/spec/data', path: '/spec/x' }],
  { spec: { replicas: 3 }, metadata: { labels: { c: null }, resourceVersion: '1' }, $patch: 'replace' },
  { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'f1' }, spec: { replicas: 5 } },
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.hostile.example.com' }, spec: (widgetCRD().spec as Record<string, unknown>) },
];

/** Mutations of a JSON text: the kinds of damage a hostile client sends. */
const mutate = (textIn: string, kind: number, at: number, insert: string): string => {
  const i = textIn.length === 0 ? 0 : at % textIn.length;
  switch (kind) {
    case 0: return textIn.slice(0, i); // truncated
    case 1: return textIn.slice(0, i) + insert + textIn.slice(i); // inserted
    case 2: return textIn.slice(0, i) + textIn.slice(i + 1); // a character dropped
    case 3: return textIn.replace(/"[a-zA-Z]+":/, `"${insert}":`); // a key renamed
    case 4: return textIn.replace(/\d+/, '99999999999999999999999999999'); // a huge number
    case 5: return '['.repeat(at % 12_000) + textIn + ']'.repeat(at % 12_000); // nested deep
    case 6: return textIn.replace(/"[^"]*"/, insert === '' ? 'null' : JSON.stringify(insert)); // a value replaced
    default: return textIn;
  }
};

const insertions = fc.constantFrom('__proto__', 'constructor', '{', '}', '[', ']', ',', ':', '"', '\\', '\u0000', '\ud800', 'null', '-', '1e999', '', ' ', '{"__proto__":{"polluted":1}}', '!!binary', '*a', '&a', '<<');
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'),
  root: fc.constantFrom('/api/v1', group, '/api/v1', group, group, '/apis/apiextensions.k8s.io/v1', '/apis', '/api', '/openapi/v2', '/openapi/v3', `/openapi/v3${group}`, '/version', '/healthz', '/apis/hostile.example.com', '/apis/nope/v9', ''),
  namespaced: fc.boolean(),
  namespace: fc.oneof(fc.constant('fuzz'), fc.constantFrom(...namespaces)),
  resource: fc.oneof(fc.constantFrom('widgets', 'configmaps'), fc.constantFrom(...resources)),
  name: fc.option(fc.constantFrom(...names), { nil: undefined, freq: 2 }),
  subresource: fc.constantFrom(...subresources),
  params: fc.array(fc.tuple(fc.constantFrom(...paramNames), fc.oneof(fc.constantFrom(...paramValues), fc.string({ maxLength: 8 }))), { maxLength: 4 }),
  contentType: fc.constantFrom(...contentTypes),
  accept: fc.constantFrom(...accepts),
  body: fc.oneof(
    fc.tuple(fc.constantFrom(...templates), fc.integer({ min: 0, max: 7 }), fc.nat(), insertions).map(([t, k, at, ins]) => mutate(JSON.stringify(t), k, at, ins)),
    fc.constantFrom(...templates).map((t) => JSON.stringify(t)),
    fc.json({ maxDepth: 4 }),
    fc.string({ maxLength: 40 }),
    fc.constant(''),
  ),
});

/** Requests that mostly parse: creates, updates and patches of objects in `fuzz`, lightly mutated. */
const objectName = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
const plausible = fc.tuple(objectName, fc.constantFrom('widgets', 'configmaps'), fc.constantFrom('POST', 'PUT', 'PATCH', 'GET', 'DELETE'),
  fc.constantFrom('application/json', 'application/merge-patch+json', 'application/json-patch+json', 'application/apply-patch+yaml', 'application/strategic-merge-patch+json', 'application/yaml'),
  fc.option(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.nat(), insertions), { nil: undefined }), fc.constantFrom('', '/status', '/scale'),
  fc.array(fc.tuple(fc.constantFrom(...paramNames), fc.constantFrom(...paramValues)), { maxLength: 2 }))
  .map(([name, resource, method, contentType, mutation, sub, params]) => {
    const object = resource === 'widgets' ? widget('fuzz', name) : { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'b' } }, data: { k: 'v' } };
    const patch = contentType === 'application/json-patch+json' ? [{ op: 'add', path: '/metadata/labels/c', value: 'd' }] : contentType === 'application/apply-patch+yaml' ? object : { metadata: { labels: { c: 'd' } } };
    const text = JSON.stringify(method === 'PATCH' ? patch : object);
    return {
      method, root: resource === 'widgets' ? group : '/api/v1', namespaced: true, namespace: 'fuzz', resource,
      name: method === 'POST' ? undefined : name, subresource: method === 'POST' ? '' : sub,
      params: contentType === 'application/apply-patch+yaml' ? [['fieldManager', 'fuzz'] as [string, string], ...params] : params,
      contentType: method === 'PATCH' ? contentType : 'application/json', accept: '',
      body: mutation === undefined ? text : mutate(text, mutation[0], mutation[1], mutation[2]),
    };
  });

describe('hostile input: fuzzing every endpoint\'s body and query parsing', function () {
  this.timeout(180_000);
  let dataDir: string;
  let server: ApiServer;
  let client: Client;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kubekit-fuzz-'));
    ({ server, client } = await start({ dataDir }));
    await createCRD(server, client, widgetCRD());
    for (const ns of ['fuzz', 'scratch']) expect((await client.post('/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    expect((await client.post(`${group}/namespaces/default/widgets`, widget('default', 'seed-a'))).status).to.equal(201);
    expect((await client.post(`${group}/namespaces/default/widgets`, widget('default', 'seed-b'))).status).to.equal(201);
    expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'seed-c' }, data: { k: 'v' } })).status).to.equal(201);
  });

  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    expectPristinePrototypes();
  });

  it('answers every random or mutated request below 500, stays up, and keeps every acknowledged object', async () => {
    const acknowledged = new Set(seeds);
    let sent = 0;
    const statuses = new Map<number, number>();
    await fc.assert(fc.asyncProperty(fc.oneof(request, plausible), async (r) => {
      let path = r.root;
      if (r.root === '/api/v1' || r.root === group || r.root === '/apis/apiextensions.k8s.io/v1') {
        if (r.namespaced) path += `/namespaces/${r.namespace}`;
        path += `/${r.resource}`;
        if (r.name !== undefined) path += `/${r.name}${r.subresource}`;
      }
      // Acknowledged objects may be changed but not deleted by the fuzzer; deletions go to its own namespaces.
      const deleting = r.method === 'DELETE';
      // (A DELETE elsewhere, such as of a collection across namespaces, may rightly delete them.)
      if (deleting && !path.includes('/namespaces/fuzz/') && !path.includes('/namespaces/scratch')) return;
      const query = new URLSearchParams(r.params).toString();
      const url = `${server.url}${path}${query === '' ? '' : `?${query}`}`;
      const headers: Record<string, string> = {};
      if (r.accept !== '') headers.accept = r.accept;
      const hasBody = r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH' || (r.method === 'DELETE' && r.body !== '');
      if (hasBody && r.contentType !== '') headers['content-type'] = r.contentType;
      let status: number;
      let text = '';
      try {
        const res = await fetch(url, { method: r.method, headers, body: hasBody ? r.body : undefined, signal: AbortSignal.timeout(30_000) });
        status = res.status;
        const watching = res.headers.get('content-type')?.includes('watch') === true || r.params.some(([k, v]) => k === 'watch' && (v === 'true' || v === '1'));
        if (watching) await res.body?.cancel();
        else text = await res.text();
      } catch (err) {
        // A URL fetch itself refuses (a method it forbids) is not the server's answer.
        if (err instanceof TypeError && /method|header|Request/i.test(err.message) && !/fetch failed/.test(err.message)) return;
        throw err;
      }
      sent++;
      // The one 500 kube-apiserver v1.34.4 gives too: a GET whose resourceVersion is no unsigned 64-bit
      // number fails in the watch cache's parse, an error without a reason (futureResourceVersion.test.ts).
      const asReference = status === 500 && r.method === 'GET' && /^\{"kind":"Status","apiVersion":"v1","metadata":\{\},"status":"Failure","message":"resourceVersion: Invalid value: .*strconv\.ParseUint: parsing .*","code":500\}$/.test(text.trim());
      if (!asReference) expect(status, `${r.method} ${url} ${headers['content-type'] ?? ''} ${hasBody ? r.body.slice(0, 300) : ''} → ${text.slice(0, 300)}`).to.be.below(500);
      expectPristinePrototypes();
      if (status === 201 && path.includes('/namespaces/fuzz/')) {
        try {
          const created = JSON.parse(text) as { metadata?: { name?: string } };
          const name = created.metadata?.name;
          if (typeof name === 'string' && name !== '') acknowledged.add(r.name === undefined ? `${path}/${name}` : path.slice(0, path.lastIndexOf('/') + 1) + name);
        } catch {
          // a Table or a non-JSON answer
        }
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (deleting && status < 300) for (const a of [...acknowledged]) if (a.startsWith(path)) acknowledged.delete(a);
    }), { numRuns: 400, interruptAfterTimeLimit: 120_000, markInterruptAsFailure: false, seed: Number(process.env.FUZZ_SEED ?? 1515) }); // FUZZ_SEED=n explores other requests
    expect(statuses.get(201) ?? 0, 'some requests create objects').to.be.greaterThan(0);
    expect(sent).to.be.greaterThan(50);

    const missing = async (c: Client): Promise<string[]> => {
      const out: string[] = [];
      for (const p of acknowledged) {
        const res = await c.get(p);
        if (res.status !== 200 || res.body.metadata?.deletionTimestamp !== undefined) out.push(`${p}: ${res.status}`);
      }
      return out;
    };
    expect((await client.get('/healthz')).status).to.equal(200);
    expect(await missing(client)).to.deep.equal([]);
    // And after a restart from the data directory.
    await server.close();
    ({ server, client } = await start({ dataDir }));
    expect(await missing(client)).to.deep.equal([]);
  });
});
