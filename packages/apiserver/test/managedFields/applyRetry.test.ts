// Server-side apply through the update loop's retry (registry/store.go Update → GuaranteedUpdate: the
// object changed between reading it and storing the result, so the apply is computed again on the new
// object). The change is made by a mutating admission webhook that, the first time it is asked,
// writes the object as another manager before it answers. The applied configuration is read once per
// request, and the second computation must still see the newest object: its fields, its managers,
// and conflicts with them (fieldmanager_test.go TestUpdateApplyConflict, here met on a retry).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ApiServer } from '@kubekit/apiserver';
import { KubeError, type KubeObject, type ManagedFieldsEntry } from '@kubekit/core';
import { fixturesDir, start, type Client } from '../internal/client.js';
import { AppliedConfiguration, applyManagedFields, type FieldManagerContext } from '../../src/managedFields/fieldManager.js';
import { toFieldsV1 } from '../../src/managedFields/fieldSet.js';
import { deducedType } from '../../src/managedFields/schema.js';
import { toFieldSet } from '../../src/managedFields/typed.js';

const cms = '/api/v1/namespaces/default/configmaps';
const caBundle = readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')).toString('base64');

function entries(body: { metadata: { managedFields?: ManagedFieldsEntry[] } }): [string | undefined, string | undefined, unknown][] {
  return (body.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.fieldsV1]);
}

describe('server-side apply retried after a concurrent write', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  let webhook: Server;
  /** What the webhook does, once, before it answers the next UPDATE of an object named `target`. */
  let intrusion: (() => Promise<void>) | undefined;
  let updates = 0;

  before(async () => {
    ({ server, client } = await start());
    webhook = createServer({ key: readFileSync(join(fixturesDir, 'webhook-tls', 'key.pem')), cert: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; operation: string; object: KubeObject } };
        const answer = (): void => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
        };
        if (review.request.operation === 'UPDATE' && review.request.object.metadata.name === 'target') updates++;
        const write = review.request.operation === 'UPDATE' && review.request.object.metadata.name === 'target' ? intrusion : undefined;
        if (write === undefined) return answer();
        intrusion = undefined;
        write().then(answer, (err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        });
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', () => r()));
    const url = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/mutate`;
    const r = await client.post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
      metadata: { name: 'intruder' },
      webhooks: [{
        name: 'intruder.kubekit.test', clientConfig: { url, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
        rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      }],
    });
    expect(r.status, r.text).to.equal(201);
  });

  after(async () => {
    await server.close();
    webhook.closeAllConnections();
    await new Promise((r) => webhook.close(r));
  });

  beforeEach(async () => {
    await client.delete(`${cms}/target`);
    const created = await client.post(`${cms}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { base: '0' } });
    expect(created.status, created.text).to.equal(201);
    updates = 0;
  });

  const apply = (data: Record<string, string>): ReturnType<Client['patch']> =>
    client.patch(`${cms}/target?fieldManager=applier`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data }), 'apply');
  const intrude = (data: Record<string, string>): void => {
    intrusion = async () => {
      const r = await client.patch(`${cms}/target?fieldManager=intruder`, { data });
      expect(r.status, r.text).to.equal(200);
    };
  };

  it('applies onto the object written meanwhile, keeping the other manager\'s field and ownership', async () => {
    intrude({ b: 'intruded' });
    const r = await apply({ a: 'applied' });
    expect(r.status, r.text).to.equal(200);
    // Asked for the apply, for the intruder's patch, and for the apply again.
    expect(updates).to.equal(3);
    expect(r.body.data).to.deep.equal({ base: '0', b: 'intruded', a: 'applied' });
    expect(entries(r.body)).to.deep.equal([
      ['applier', 'Apply', { 'f:data': { 'f:a': {} } }],
      ['creator', 'Update', { 'f:data': { '.': {}, 'f:base': {} } }],
      ['intruder', 'Update', { 'f:data': { 'f:b': {} } }],
    ]);
  });

  it('answers the conflict the retry meets with the manager that wrote meanwhile', async () => {
    intrude({ a: 'theirs' });
    const r = await apply({ a: 'mine' });
    expect(r.status, r.text).to.equal(409);
    expect(r.body.message).to.equal('Apply failed with 1 conflict: conflict with "intruder" using v1: .data.a');
    // The retry's apply fails before admission is asked again.
    expect(updates).to.equal(2);
    const now = await client.get(`${cms}/target`);
    expect(now.body.data).to.deep.equal({ base: '0', a: 'theirs' });
  });

  it('applies the same configuration again without a conflict after the retry', async () => {
    intrude({ b: 'intruded' });
    expect((await apply({ a: 'applied' })).status).to.equal(200);
    const again = await apply({ a: 'applied' });
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data).to.deep.equal({ base: '0', b: 'intruded', a: 'applied' });
  });
});

describe('AppliedConfiguration', () => {
  const ctx: FieldManagerContext = { type: deducedType, apiVersion: 'v1', subresource: '', now: '2026-01-01T00:00:00Z' };
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: 'b' } }, data: { x: '1', y: '2' } } as KubeObject;

  it('computes the configuration\'s field set once, and applying it leaves that set as it was', () => {
    const applied = new AppliedConfiguration(config);
    const set = applied.fieldSet(ctx);
    const fresh = toFieldsV1(toFieldSet(config, deducedType));
    const live = { ...config, data: { x: '0' }, metadata: { name: 'cm', managedFields: [{ manager: 'other', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:z': {} } } }] } } as KubeObject;
    const first = applyManagedFields(live, applied, 'applier', { force: false }, ctx);
    const second = applyManagedFields(live, applied, 'applier', { force: false }, { ...ctx, ignored: undefined });
    expect(applied.fieldSet(ctx)).to.equal(set);
    expect(toFieldsV1(set)).to.deep.equal(fresh);
    expect(second).to.deep.equal(first);
    expect(first.managedFields?.find((e) => e.manager === 'applier')?.fieldsV1).to.deep.equal({ 'f:data': { '.': {}, 'f:x': {}, 'f:y': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } });
  });

  it('refuses a configuration that carries managedFields, as the apiserver does', () => {
    expect(() => new AppliedConfiguration({ ...config, metadata: { name: 'cm', managedFields: [] } } as KubeObject)).to.throw(KubeError, 'metadata.managedFields must be nil');
  });
});
