import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, shirtCRD, start, type Client, type LooseObject } from './internal/client.js';

describe('BuiltinResourceType', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('fills apiVersion and kind of built-in objects and allows unconditional updates', async () => {
    const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'plain' }, data: { a: '1' } });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
    const updated = await client.put('/api/v1/namespaces/default/configmaps/plain', { metadata: { name: 'plain' }, data: { a: '2' } });
    expect(updated.status).to.equal(200);
    expect(updated.body.data).to.deep.equal({ a: '2' });
    expect(updated.body.metadata.uid).to.equal(created.body.metadata.uid);
  });

  it('validates ConfigMap keys with the apiserver\'s message', async () => {
    const r = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'badkey' }, data: { 'bad key': 'x' } });
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('ConfigMap "badkey" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, \'-\', \'_\' or \'.\' (e.g. \'key.name\',  or \'KEY_NAME\',  or \'key-name\', regex used for validation is \'[-._a-zA-Z0-9]+\')');
  });

  it('validates object names', async () => {
    const r = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'Not_Valid' } });
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')');
  });

  it('moves Secret stringData into base64 data and defaults the type', async () => {
    const r = await client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, stringData: { password: 'hunter2' } });
    expect(r.status).to.equal(201);
    expect(r.body).to.not.have.property('stringData');
    expect(r.body.data).to.deep.equal({ password: Buffer.from('hunter2').toString('base64') });
    expect(r.body.type).to.equal('Opaque');
  });

  it('selects Pods on the built-in field selectors of @kubekit/attrs', async () => {
    const pod = (name: string, node: string): LooseObject => ({ metadata: { name }, spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }] } });
    await client.post('/api/v1/namespaces/default/pods', pod('p1', 'node-a'));
    await client.post('/api/v1/namespaces/default/pods', pod('p2', 'node-b'));
    const byNode = await client.get('/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dnode-b');
    expect(byNode.body.items.map((p: LooseObject) => p.metadata.name)).to.deep.equal(['p2']);
    const byPhase = await client.get('/api/v1/pods?fieldSelector=status.phase%3DPending');
    expect(byPhase.body.items).to.have.length(2);
    const bad = await client.get('/api/v1/pods?fieldSelector=spec.image%3Dx');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('field label not supported: spec.image');
  });

  it('keeps Pod status apart from spec updates', async () => {
    const current = (await client.get('/api/v1/namespaces/default/pods/p1')).body;
    const status = await client.put('/api/v1/namespaces/default/pods/p1/status', { ...current, status: { phase: 'Running' } });
    // The QoS class a status write leaves out keeps its value (podStatusStrategy.PrepareForUpdate).
    expect(status.body.status).to.deep.equal({ phase: 'Running', qosClass: current.status.qosClass });
    const main = await client.patch('/api/v1/namespaces/default/pods/p1', { status: { phase: 'Failed' }, metadata: { labels: { x: 'y' } } });
    expect(main.body.status).to.deep.equal({ phase: 'Running', qosClass: current.status.qosClass });
    expect(main.body.metadata.labels).to.deep.equal({ x: 'y' });
  });

  it('accepts strategic merge patches on built-in kinds', async () => {
    const r = await client.patch('/api/v1/namespaces/default/configmaps/plain', { data: { b: '3' } }, 'strategic');
    expect(r.status).to.equal(200);
    expect(r.body.data).to.deep.equal({ a: '2', b: '3' });
  });

  // go-restful's route selection (RouterJSR311.detectRoute) refuses a PATCH whose Content-Type the
  // route does not consume before the handler runs; kube-apiserver 1.34.4 answers so
  // (test/differential/hostile.test.ts).
  it('answers go-restful\'s 415 when a built-in kind\'s PATCH has another media type', async () => {
    for (const path of ['/api/v1/namespaces/default/configmaps/plain', '/apis/coordination.k8s.io/v1/namespaces/default/leases/none']) {
      for (const type of ['application/json-patch+yaml', 'application/json', 'text/plain']) {
        const r = await client.request('PATCH', path, '{}', type);
        expect(r.status).to.equal(415);
        expect(r.body).to.deep.include({ kind: 'Status', reason: 'UnsupportedMediaType', message: '415: Unsupported Media Type', details: {} });
      }
    }
  });

  it('stores coordination.k8s.io Leases', async () => {
    const r = await client.post('/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'leader' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } });
    expect(r.status).to.equal(201);
    const table = await client.get('/apis/coordination.k8s.io/v1/namespaces/default/leases', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.rows[0].cells.slice(0, 2)).to.deep.equal(['leader', 'me']);
  });

  describe('namespaces', () => {
    it('deletes a namespace with everything in it, custom resources included', async () => {
      await createCRD(server, client, shirtCRD());
      expect((await client.post('/api/v1/namespaces', { metadata: { name: 'doomed' } })).status).to.equal(201);
      await client.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'cm' } });
      await client.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
      await client.post('/apis/stable.example.com/v1/namespaces/doomed/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 's' }, spec: { color: 'red' } });
      const deleted = await client.delete('/api/v1/namespaces/doomed');
      expect(deleted.status).to.equal(200);
      expect(deleted.body.status).to.deep.equal({ phase: 'Terminating' });
      await server.idle();
      // The finalizer holds the namespace in Terminating: new content is refused.
      expect((await client.get('/api/v1/namespaces/doomed')).status).to.equal(200);
      expect((await client.get('/api/v1/namespaces/doomed/configmaps/cm')).status).to.equal(404);
      expect((await client.get('/api/v1/namespaces/doomed/configmaps/held')).body.metadata.deletionTimestamp).to.be.a('string');
      const refused = await client.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'late' } });
      expect(refused.status).to.equal(403);
      expect(refused.body.message).to.equal('configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');
      await client.patch('/api/v1/namespaces/doomed/configmaps/held', { metadata: { finalizers: null } });
      await server.idle();
      expect((await client.get('/api/v1/namespaces/doomed')).status).to.equal(404);
      expect((await client.get('/api/v1/namespaces/doomed/configmaps/cm')).status).to.equal(404);
      expect((await client.get('/apis/stable.example.com/v1/namespaces/doomed/shirts/s')).status).to.equal(404);
    });

    it('keeps a namespace Terminating until a spec finalizer other than kubernetes is finalized', async () => {
      // The namespace controller removes only its own `kubernetes` entry (kube-controller-manager's
      // namespaced_resources_deleter finalizes with that one token); another one's owner removes it through
      // /finalize, and then the namespace goes. (Regression: the whole spec list used to be dropped.)
      expect((await client.post('/api/v1/namespaces', { metadata: { name: 'held-spec' }, spec: { finalizers: ['example.com/hold'] } })).status).to.equal(201);
      await client.delete('/api/v1/namespaces/held-spec');
      await server.idle();
      const held = await client.get('/api/v1/namespaces/held-spec');
      expect([held.status, held.body.spec, held.body.status]).to.deep.equal([200, { finalizers: ['example.com/hold'] }, { phase: 'Terminating' }]);
      const finalized = await client.put('/api/v1/namespaces/held-spec/finalize', { ...held.body, spec: { finalizers: [] } });
      expect(finalized.status).to.equal(200);
      await server.idle();
      expect((await client.get('/api/v1/namespaces/held-spec')).status).to.equal(404);
    });

    it('validates namespace names as DNS labels', async () => {
      const r = await client.post('/api/v1/namespaces', { metadata: { name: 'a.b' } });
      expect(r.status).to.equal(422);
      expect(r.body.message).to.equal('Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots');
    });
  });
});
