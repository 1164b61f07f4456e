// The ValidatingAdmissionPolicy plugin of the embedded server where it differs from the reference by
// design or where only kubekit can be watched: its place in the admission chain (after the mutating
// webhooks, before the validating ones: kube-apiserver's AllOrderedPlugins), policies applied from the
// write that stores them (the reference waits for its informers), a policy's change applied at once, and
// the cost limits of CEL. What both servers answer alike is in test/hostile/validatingAdmissionPolicies.test.ts.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ApiServer } from '@kubekit/apiserver';
import { fixturesDir, start, type Client } from './internal/client.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';
const caBundle = readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')).toString('base64');

describe('PolicyAdmission', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  let webhook: Server;
  let webhookURL = '';
  const calls: string[] = [];

  before(async () => {
    const tls = { key: readFileSync(join(fixturesDir, 'webhook-tls', 'key.pem')), cert: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')) };
    webhook = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string } };
        // The apiserver's client adds its deadline to the URL (`?timeout=10s`).
        const path = (req.url ?? '').split('?')[0];
        calls.push(path);
        // /label adds a label; /deny denies.
        const response = path === '/label'
          ? { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }])).toString('base64') }
          : { allowed: false, status: { code: 403, message: 'the webhook says no' } };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }));
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', () => r()));
    webhookURL = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
    ({ server, client } = await start());
  });
  after(async () => {
    await server.close();
    webhook.closeAllConnections();
    await new Promise((r) => webhook.close(r));
  });

  const hook = (name: string, path: string): Record<string, unknown> => ({
    name, clientConfig: { url: `${webhookURL}${path}`, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { scenario: 'order' } },
  });
  const configMap = (name: string, scenario: string, data: Record<string, string> = {}): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { scenario } }, data });
  const policy = async (name: string, expression: string, scenario: string): Promise<void> => {
    const p = await client.post(`${AR}/validatingadmissionpolicies`, {
      metadata: { name },
      spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }], objectSelector: { matchLabels: { scenario } } }, validations: [{ expression, messageExpression: `'${name}: ' + (has(object.metadata.labels.mutated) ? 'mutated' : 'not mutated')` }] },
    });
    expect(p.status, p.text).to.equal(201);
    const b = await client.post(`${AR}/validatingadmissionpolicybindings`, { metadata: { name }, spec: { policyName: name, validationActions: ['Deny'] } });
    expect(b.status, b.text).to.equal(201);
  };

  it('runs after the mutating webhooks and before the validating ones', async () => {
    expect((await client.post(`${AR}/mutatingwebhookconfigurations`, { metadata: { name: 'label' }, webhooks: [hook('label.example.com', '/label')] })).status).to.equal(201);
    expect((await client.post(`${AR}/validatingwebhookconfigurations`, { metadata: { name: 'deny' }, webhooks: [hook('deny.example.com', '/deny')] })).status).to.equal(201);
    // The policy sees the label the mutating webhook added, and denies before the validating webhook is called.
    await policy('order', "object.metadata.labels.mutated != 'yes'", 'order');
    calls.length = 0;
    const denied = await client.post(CM, configMap('o1', 'order'));
    expect([denied.status, denied.body.message]).to.deep.equal([422, 'configmaps "o1" is forbidden: ValidatingAdmissionPolicy \'order\' with binding \'order\' denied request: order: mutated']);
    expect(calls).to.deep.equal(['/label']);
    // A policy that allows: the validating webhook has its say.
    expect((await client.patch(`${AR}/validatingadmissionpolicies/order`, { spec: { validations: [{ expression: 'true' }] } })).status).to.equal(200);
    calls.length = 0;
    const webhookDenied = await client.post(CM, configMap('o2', 'order'));
    expect([webhookDenied.status, webhookDenied.body.message]).to.deep.equal([403, 'admission webhook "deny.example.com" denied the request: the webhook says no']);
    expect(calls).to.deep.equal(['/label', '/deny']);
  });

  it('applies a binding, a change of its policy and its deletion from the next request on', async () => {
    expect((await client.post(CM, configMap('n1', 'now', { a: '1' }))).status).to.equal(201);
    await policy('now', "!has(object.data) || !('a' in object.data)", 'now');
    expect((await client.post(CM, configMap('n2', 'now', { a: '1' }))).status).to.equal(422);
    expect((await client.patch(`${AR}/validatingadmissionpolicies/now`, { spec: { validations: [{ expression: "!has(object.data) || !('b' in object.data)" }] } })).status).to.equal(200);
    expect((await client.post(CM, configMap('n3', 'now', { a: '1' }))).status).to.equal(201);
    expect((await client.post(CM, configMap('n4', 'now', { b: '1' }))).status).to.equal(422);
    expect((await client.delete(`${AR}/validatingadmissionpolicybindings/now`)).status).to.equal(200);
    expect((await client.post(CM, configMap('n5', 'now', { b: '1' }))).status).to.equal(201);
  });

  it('stops an expression at the per-expression cost limit, and a policy at its budget', async () => {
    // A match of 800 000 characters against a pattern of 40 costs 80 001 × 10: one holds in the per-call
    // limit (1 000 000), two do not; thirteen do not hold in a policy's budget (10 000 000).
    const pattern = '^(ab|ba|aab|abb|bab|aba|bba|baa|xyzw)*c$';
    const heavy = `object.data.s.matches('${pattern}')`;
    const p = await client.post(`${AR}/validatingadmissionpolicies`, {
      metadata: { name: 'cost' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }], objectSelector: { matchLabels: { scenario: 'cost' } } },
        validations: [{ expression: `!('over' in object.data) || object.data.over.matches('${pattern}') || object.data.over.matches('${pattern}')` }, ...Array.from({ length: 13 }, () => ({ expression: `!('s' in object.data) || !${heavy}` }))],
      },
    });
    expect(p.status, p.text).to.equal(201);
    expect((await client.post(`${AR}/validatingadmissionpolicybindings`, { metadata: { name: 'cost' }, spec: { policyName: 'cost', validationActions: ['Deny'] } })).status).to.equal(201);
    const long = 'ab'.repeat(400_000);
    const over = await client.post(CM, configMap('c1', 'cost', { over: long }));
    expect([over.status, over.body.message]).to.deep.equal([422, `configmaps "c1" is forbidden: ValidatingAdmissionPolicy 'cost' with binding 'cost' denied request: expression '!('over' in object.data) || object.data.over.matches('${pattern}') || object.data.over.matches('${pattern}')' resulted in error: operation cancelled: actual cost limit exceeded`]);
    const budget = await client.post(CM, configMap('c2', 'cost', { s: long }));
    expect([budget.status, budget.body.message]).to.deep.equal([422, "configmaps \"c2\" is forbidden: ValidatingAdmissionPolicy 'cost' with binding 'cost' denied request: validation failed due to running out of cost budget, no further validation rules will be run"]);
  });
});
