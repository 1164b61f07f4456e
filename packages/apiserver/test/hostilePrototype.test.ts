// Regression tests for issue 15, finding 1: no request may reach an object's prototype. Go decodes
// JSON into map[string]interface{}, where `__proto__`, `constructor` and `prototype` are ordinary keys;
// the server must treat them the same way: as data under a preserve-unknown-fields schema, or as
// missing members of the document (a JSON patch path through them does not apply).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { expectPristinePrototypes, widgetCRD, widgets } from './internal/hostile.js';

describe('hostile input: prototype pollution', () => {
  let server: ApiServer;
  let client: Client;

  beforeEach(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
    const res = await client.post(widgets(), { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name: 'seed' }, spec: { data: { a: 1 } } });
    expect(res.status, res.text).to.equal(201);
    expect((await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { k: 'v' } })).status).to.equal(201);
  });

  afterEach(async () => {
    await server.close();
    expectPristinePrototypes();
  });

  async function expectSeedIntact(): Promise<void> {
    await server.idle();
    const ns = await client.get('/api/v1/namespaces/default');
    expect(ns.status, ns.text).to.equal(200);
    expect(ns.body.metadata.deletionTimestamp).to.equal(undefined);
    expect(ns.body.status.phase).to.equal('Active');
    const seed = await client.get(`${widgets()}/seed`);
    expect(seed.status, seed.text).to.equal(200);
    expect(seed.body.metadata.deletionTimestamp).to.equal(undefined);
    expect((await client.get('/api/v1/namespaces/default/configmaps/cm')).status).to.equal(200);
    const more = await client.post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'after-' } });
    expect(more.status, more.text).to.equal(201);
  }

  // evanphx/json-patch walks the document's own members only: a path through a key the document lacks
  // fails with "doc is missing path", which the apiserver answers with a wordless 422 (handlers/patch.go, applyJSPatch).
  for (const path of ['/__proto__/polluted', '/spec/data/__proto__/isAdmin', '/constructor/prototype/polluted', '/spec/constructor/prototype/isAdmin', '/metadata/__proto__/deletionTimestamp', '/__proto__/deletionTimestamp']) {
    it(`answers JSON patch add ${path} as a missing path, leaving Object.prototype alone`, async () => {
      const res = await client.patch(`${widgets()}/seed`, [{ op: 'add', path, value: '2020-01-01T00:00:00Z' }], 'json');
      expect(res.status, res.text).to.equal(422);
      // The apiserver keeps the words of the failure to itself (NewGenericServerResponse).
      expect(res.body.message).to.equal('the server rejected our request due to an error in our request');
      expectPristinePrototypes();
      await expectSeedIntact();
    });
  }

  it('treats a JSON patch that adds a `__proto__` member as data (a field like any other)', async () => {
    const res = await client.patch(`${widgets()}/seed`, [
      { op: 'add', path: '/spec/data/__proto__', value: { isAdmin: true } },
      { op: 'add', path: '/spec/data/__proto__/polluted', value: 'x' },
      { op: 'copy', from: '/spec/data/__proto__', path: '/spec/data/constructor' },
    ], 'json');
    expect(res.status, res.text).to.equal(200);
    expect(Object.hasOwn(res.body.spec.data, '__proto__')).to.equal(true);
    expect(res.body.spec.data.__proto__).to.deep.equal({ isAdmin: true, polluted: 'x' });
    expect(res.body.spec.data.constructor).to.deep.equal({ isAdmin: true, polluted: 'x' });
    const got = await client.get(`${widgets()}/seed`);
    expect(got.text).to.include('"__proto__":{"isAdmin":true,"polluted":"x"}');
    expectPristinePrototypes();
    // And removing it again.
    const removed = await client.patch(`${widgets()}/seed`, [{ op: 'remove', path: '/spec/data/__proto__' }, { op: 'remove', path: '/spec/data/constructor' }], 'json');
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.spec.data).to.deep.equal({ a: 1 });
    await expectSeedIntact();
  });

  it('keeps `__proto__` keys of a merge patch as data', async () => {
    const body = '{"__proto__":{"polluted":"x"},"metadata":{"__proto__":{"deletionTimestamp":"2020-01-01T00:00:00Z"}},"spec":{"data":{"__proto__":{"isAdmin":true}}}}';
    const res = await client.request('PATCH', `${widgets()}/seed`, body, 'application/merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.data).to.deep.equal(JSON.parse('{"a":1,"__proto__":{"isAdmin":true}}'));
    expect(res.body.polluted).to.equal(undefined);
    expectPristinePrototypes();
    await expectSeedIntact();
  });

  it('keeps `__proto__` keys of a strategic merge patch as data (ConfigMap data)', async () => {
    const res = await client.request('PATCH', '/api/v1/namespaces/default/configmaps/cm', '{"__proto__":{"polluted":"x"},"data":{"__proto__":"v2"}}', 'application/strategic-merge-patch+json');
    expect(res.status, res.text).to.equal(200);
    expect(res.text).to.include('"__proto__":"v2"');
    expectPristinePrototypes();
    await expectSeedIntact();
  });

  it('applies YAML with `__proto__` keys (top level and nested) without touching a prototype', async () => {
    const yaml = [
      'apiVersion: hostile.example.com/v1', 'kind: Widget', 'metadata:', '  name: applied',
      '  __proto__:', '    deletionTimestamp: "2020-01-01T00:00:00Z"',
      '__proto__:', '  polluted: x',
      'spec:', '  data:', '    __proto__:', '      isAdmin: true', '  constructor:', '    prototype:', '      polluted: y', '',
    ].join('\n');
    // Server-side apply types the configuration against the schema, as structured-merge-diff does:
    // keys the schema does not declare (here at the root and in metadata) are refused and named.
    const refused = await client.request('PATCH', `${widgets()}/applied?fieldManager=hostile`, yaml, 'application/apply-patch+yaml');
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body.message).to.equal('failed to create typed patch object (/applied; hostile.example.com/v1, Kind=Widget): errors:\n  .__proto__: field not declared in schema\n  .metadata.__proto__: field not declared in schema');
    expectPristinePrototypes();
    const declared = yaml.replace('  __proto__:\n    deletionTimestamp: "2020-01-01T00:00:00Z"\n', '').replace('__proto__:\n  polluted: x\n', '');
    const created = await client.request('PATCH', `${widgets()}/applied?fieldManager=hostile`, declared, 'application/apply-patch+yaml');
    expect(created.status, created.text).to.equal(201);
    expect(created.text).to.include('"__proto__":{"isAdmin":true}');
    expectPristinePrototypes();
    const again = await client.request('PATCH', `${widgets()}/seed?fieldManager=hostile`, declared.replace('name: applied', 'name: seed'), 'application/apply-patch+yaml');
    expect(again.status, again.text).to.equal(200);
    expect(again.body.spec.data).to.deep.equal(JSON.parse('{"a":1,"__proto__":{"isAdmin":true}}'));
    expectPristinePrototypes();
    await expectSeedIntact();
  });

  it('keeps the default namespace and its objects after `/__proto__/deletionTimestamp` in every patch type', async () => {
    await client.patch(`${widgets()}/seed`, [{ op: 'add', path: '/__proto__/deletionTimestamp', value: '2020-01-01T00:00:00Z' }], 'json');
    await client.request('PATCH', `${widgets()}/seed`, '{"__proto__":{"deletionTimestamp":"2020-01-01T00:00:00Z"}}', 'application/merge-patch+json');
    await client.request('PATCH', `${widgets()}/seed?fieldManager=m`, '__proto__:\n  deletionTimestamp: "2020-01-01T00:00:00Z"\napiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: seed\n', 'application/apply-patch+yaml');
    expectPristinePrototypes();
    await expectSeedIntact();
    const list = await client.get(widgets());
    expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['seed']);
  });
});
