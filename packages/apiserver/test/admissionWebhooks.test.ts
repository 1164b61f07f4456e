// Admission webhooks called by the embedded server, with the apiserver's semantics (apiserver
// pkg/admission/plugin/webhook: rules, matchPolicy, selectors, failurePolicy, timeouts, patches,
// reinvocation, ToStatusErr), against a scriptable HTTPS webhook on 127.0.0.1.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { generateCertificates } from '@kubekit/webhook';
import { createCRD, fixturesDir, shirtCRD, start, type Client } from './internal/client.js';

interface Review { request: Record<string, unknown> & { uid: string; object?: KubeObject; oldObject?: KubeObject } }
type Answer = (review: Review) => Record<string, unknown> | undefined;

/** An HTTPS webhook whose answer per path the test sets; undefined answers never respond. */
class TestWebhook {
  readonly server: Server;
  readonly calls: { path: string; query: string; review: Review }[] = [];
  readonly answers = new Map<string, Answer>();
  url = '';

  constructor(tls: { key: string | Buffer; cert: string | Buffer }) {
    this.server = createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
        // The apiserver's client adds its deadline to the URL (`?timeout=10s`).
        const [path, query = ''] = (req.url ?? '').split('?');
        this.calls.push({ path, query, review });
        const response = (this.answers.get(path) ?? (() => ({ allowed: true })))(review);
        if (response === undefined) return;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }));
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const caBundle = readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')).toString('base64');
const patchOf = (ops: unknown[]): Record<string, unknown> => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

describe('admission webhooks in the embedded server', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  let webhook: TestWebhook;
  const created: string[] = [];

  const configure = async (kind: 'Validating' | 'Mutating', name: string, hooks: Record<string, unknown>[]): Promise<void> => {
    const plural = `${kind.toLowerCase()}webhookconfigurations`;
    const r = await client.post(`/apis/admissionregistration.k8s.io/v1/${plural}`, { metadata: { name }, webhooks: hooks });
    expect(r.status, r.text).to.equal(201);
    created.push(`/apis/admissionregistration.k8s.io/v1/${plural}/${name}`);
  };
  const hook = (name: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name, clientConfig: { url: `${webhook.url}${path}`, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
  });
  const configMap = (name: string, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' } });
  const cms = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    webhook = await new TestWebhook({ key: readFileSync(join(fixturesDir, 'webhook-tls', 'key.pem')), cert: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')) }).listen();
    ({ server, client } = await start());
  });
  afterEach(async () => {
    for (const path of created.splice(0)) await client.delete(path);
    webhook.calls.length = 0;
    webhook.answers.clear();
    await client.delete(cms);
  });
  after(async () => {
    await server.close();
    await webhook.close();
  });

  it('serves both configuration kinds with the apiserver defaults, and validates them', async () => {
    await configure('Mutating', 'defaults', [{ name: 'm.example.com', clientConfig: { service: { namespace: 'ns', name: 'svc' } }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }]);
    const got = await client.get('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/defaults');
    expect(got.body.webhooks[0]).to.deep.include({
      failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
      clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
    });
    expect(got.body.webhooks[0].rules[0].scope).to.equal('*');
    // The strategy's generation: 1 on create, bumped by a change of the webhooks only (kube-apiserver 1.34.4).
    expect(got.body.metadata.generation).to.equal(1);
    const path = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/defaults';
    expect((await client.patch(path, { metadata: { labels: { a: 'b' } } })).body.metadata.generation).to.equal(1);
    expect((await client.patch(path, { webhooks: [{ ...got.body.webhooks[0], timeoutSeconds: 5 }] })).body.metadata.generation).to.equal(2);
    const bad = await client.post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'bad' },
      webhooks: [{ name: 'short', clientConfig: {}, admissionReviewVersions: ['v2'], timeoutSeconds: 31, rules: [] }, { name: 'short', clientConfig: { url: 'http://x/y' }, sideEffects: 'Some', admissionReviewVersions: ['v1'] }],
    });
    expect(bad.status).to.equal(422);
    // Word for word what the reference kube-apiserver (1.34) answers for the same configuration.
    expect(bad.body.message).to.equal('ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [' + [
      'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
      'webhooks[1].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[1].name: Duplicate value: "short"',
    ].join(', ') + ']');
  });

  it('validates a webhook\'s namespaceSelector and objectSelector when the configuration is written (ValidateLabelSelector; the reference kube-apiserver 1.34 answers word for word the same)', async () => {
    const bad = await client.post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      metadata: { name: 'bad-selectors' },
      webhooks: [hook('selectors.example.com', '/selectors', {
        namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Foo', values: ['a'] }] },
        objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In' }] },
      })],
    });
    expect(bad.status, bad.text).to.equal(422);
    expect(bad.body.message).to.equal('ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad-selectors" is invalid: [' + [
      'webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator',
      'webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'',
    ].join(', ') + ']');
  });

  it('rejects a request a validating webhook denies, with the apiserver\'s Status', async () => {
    webhook.answers.set('/deny', () => ({ allowed: false, status: { message: 'no blue config maps', code: 403 } }));
    await configure('Validating', 'deny', [hook('deny.example.com', '/deny')]);
    const r = await client.post(cms, configMap('x'));
    expect(r.status).to.equal(403);
    // Kubernetes 1.34's ToStatusErr, as the reference kube-apiserver answers.
    expect(r.body).to.deep.include({
      kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'admission webhook "deny.example.com" denied the request: no blue config maps',
    });
    expect(r.body.details).to.equal(undefined);
    const review = webhook.calls[0].review;
    expect(review.request).to.deep.include({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, name: 'x', namespace: 'default', operation: 'CREATE', dryRun: false, oldObject: null,
    });
    expect(review.request.object?.metadata.uid, 'validating webhooks see system fields').to.be.a('string');
    expect((await client.get(`${cms}/x`)).status).to.equal(404);
  });

  it('applies a mutating webhook\'s JSON patch, passes dryRun, and adds its warnings', async () => {
    webhook.answers.set('/mutate', (review) => ({ ...patchOf([{ op: 'add', path: '/metadata/labels', value: { mutated: String(review.request.dryRun) } }]), warnings: ['config maps are mutated'] }));
    await configure('Mutating', 'mutate', [hook('mutate.example.com', '/mutate')]);
    const dry = await client.post(`${cms}?dryRun=All`, configMap('y'));
    expect(dry.status).to.equal(201);
    expect(dry.body.metadata.labels).to.deep.equal({ mutated: 'true' });
    const r = await client.post(cms, configMap('y'));
    expect(r.status).to.equal(201);
    expect(r.body.metadata.labels).to.deep.equal({ mutated: 'false' });
    expect(r.headers.get('warning')).to.equal('299 - "config maps are mutated"');
    expect(webhook.calls[1].review.request.object?.metadata.uid, 'mutating webhooks run before system fields are set').to.equal(undefined);
    // The object was sent with `labels: {}`; the webhook gets the Go object's encoding, where an empty
    // omitempty map is not written (so a patch adding /metadata/labels/x would fail, as on a cluster).
    expect(webhook.calls[1].review.request.object?.metadata).to.not.have.property('labels');
  });

  it('calls mutating webhooks for a pod\'s binding and eviction, and checks and uses the Binding or Eviction they return (handlers/create.go admits before the subresource\'s Create)', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const pod = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const subresourceHook = (name: string, path: string, subresource: string): Record<string, unknown> =>
      hook(name, path, { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: [`pods/${subresource}`] }] });
    webhook.answers.set('/bind', () => patchOf([{ op: 'replace', path: '/target/name', value: 'node-b' }]));
    webhook.answers.set('/evict', () => patchOf([{ op: 'replace', path: '/metadata/name', value: 'other' }]));
    await configure('Mutating', 'subresources', [subresourceHook('bind.example.com', '/bind', 'binding'), subresourceHook('evict.example.com', '/evict', 'eviction')]);
    try {
      expect((await client.post(pods, pod('bound'))).status).to.equal(201);
      const bound = await client.post(`${pods}/bound/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: 'node-a' } });
      expect(bound.status, bound.text).to.equal(201);
      expect((await client.get(`${pods}/bound`)).body.spec.nodeName).to.equal('node-b');
      const review = webhook.calls.find((c) => c.path === '/bind')?.review.request;
      expect([review?.operation, review?.subResource, review?.kind, review?.object?.kind, review?.object?.metadata.namespace]).to.deep.equal(['CREATE', 'binding', { group: '', version: 'v1', kind: 'Binding' }, 'Binding', 'default']);
      // The Eviction the webhook renamed is no longer the URL's pod's.
      const evicted = await client.post(`${pods}/bound/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'bound' } });
      expect([evicted.status, evicted.body.message]).to.deep.equal([400, 'name in URL does not match name in Eviction object']);
      expect(webhook.calls.find((c) => c.path === '/evict')?.review.request.kind).to.deep.equal({ group: 'policy', version: 'v1', kind: 'Eviction' });
      expect((await client.get(`${pods}/bound`)).status).to.equal(200);
      // A webhook that patches the metadata away leaves a Binding with no name (Go decodes it so), not a crash.
      webhook.answers.set('/bind', () => patchOf([{ op: 'remove', path: '/metadata' }]));
      expect((await client.post(pods, pod('unbound'))).status).to.equal(201);
      const nameless = await client.post(`${pods}/unbound/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'unbound' }, target: { kind: 'Node', name: 'node-a' } });
      expect([nameless.status, nameless.body.message]).to.deep.equal([400, 'name in URL does not match name in Binding object']);
      await client.delete(`${pods}/unbound?gracePeriodSeconds=0`);
    } finally {
      await client.delete(`${pods}/bound?gracePeriodSeconds=0`);
    }
  });

  it('runs LimitRanger before the mutating webhooks and ResourceQuota after the validating ones (AllOrderedPlugins of pkg/kubeapiserver/options)', async () => {
    const ns = '/api/v1/namespaces/ordered';
    expect((await client.post('/api/v1/namespaces', { metadata: { name: 'ordered' } })).status).to.equal(201);
    expect((await client.post(`${ns}/limitranges`, { metadata: { name: 'defaults' }, spec: { limits: [{ type: 'Container', default: { cpu: '100m' } }] } })).status).to.equal(201);
    expect((await client.post(`${ns}/resourcequotas`, { metadata: { name: 'counts' }, spec: { hard: { 'count/configmaps': '5' } } })).status).to.equal(201);
    expect((await client.patch(`${ns}/resourcequotas/counts/status`, { status: { hard: { 'count/configmaps': '5' }, used: { 'count/configmaps': '0' } } })).status).to.equal(200);
    webhook.answers.set('/deny', () => ({ allowed: false, status: { message: 'not here', code: 403 } }));
    await configure('Mutating', 'pods', [hook('pods.example.com', '/pods', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
    await configure('Validating', 'deny', [hook('deny.example.com', '/deny')]);
    // The mutating webhook sees the pod with the LimitRange's defaults and the plugin's annotation.
    const pod = await client.post(`${ns}/pods`, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(pod.status, pod.text).to.equal(201);
    const sent = webhook.calls.find((c) => c.path === '/pods')?.review.request.object as { metadata: KubeObject['metadata']; spec: { containers: { resources?: unknown }[] } };
    expect([sent.metadata.annotations, sent.spec.containers[0].resources]).to.deep.equal([{ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container c; cpu limit for container c' }, { limits: { cpu: '100m' }, requests: { cpu: '100m' } }]);
    // A config map the validating webhook denies is not charged to the quota.
    expect((await client.post(`${ns}/configmaps`, configMap('x'))).status).to.equal(403);
    expect((await client.get(`${ns}/resourcequotas/counts`)).body.status.used).to.deep.equal({ 'count/configmaps': '0' });
    await client.delete(`${ns}/pods/p`);
    await client.delete('/api/v1/namespaces/ordered');
  });

  it('sends UPDATEs with the old object', async () => {
    expect((await client.post(cms, configMap('z'))).status).to.equal(201);
    await configure('Validating', 'update', [hook('update.example.com', '/update', { rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
    const r = await client.patch(`${cms}/z`, { data: { a: '2' } });
    expect(r.status).to.equal(200);
    expect(webhook.calls).to.have.length(1);
    expect(webhook.calls[0].review.request.operation).to.equal('UPDATE');
    expect(webhook.calls[0].review.request.oldObject?.data).to.deep.equal({ a: '1' });
    expect(webhook.calls[0].review.request.object?.data).to.deep.equal({ a: '2' });
  });

  it('names the user a request impersonates in the review\'s userInfo, and the server\'s own identity otherwise (AdmissionReview request.userInfo)', async () => {
    await configure('Validating', 'who', [hook('who.example.com', '/who', { rules: [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
    expect((await client.post(cms, configMap('mine'))).status).to.equal(201);
    const impersonating = { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters', 'Impersonate-Extra-Team': 'a' };
    expect((await client.request('POST', cms, configMap('bobs'), 'application/json', impersonating)).status).to.equal(201);
    expect((await client.request('DELETE', `${cms}/bobs`, undefined, undefined, impersonating)).status).to.equal(200);
    expect(webhook.calls.map((c) => c.review.request.userInfo)).to.deep.equal([
      { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      { username: 'bob', groups: ['system:masters', 'system:authenticated'], extra: { team: ['a'] } },
      { username: 'bob', groups: ['system:masters', 'system:authenticated'], extra: { team: ['a'] } },
    ]);
  });

  it('sends DELETEs with the object being deleted as oldObject, and refuses them when denied', async () => {
    expect((await client.post(cms, configMap('keep'))).status).to.equal(201);
    webhook.answers.set('/delete', (review) => (review.request.oldObject?.metadata.name === 'keep' ? { allowed: false, status: { message: 'kept', code: 403 } } : { allowed: true }));
    await configure('Validating', 'delete', [hook('delete.example.com', '/delete', { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
    const r = await client.delete(`${cms}/keep`);
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('admission webhook "delete.example.com" denied the request: kept');
    expect(webhook.calls[0].review.request).to.deep.include({ operation: 'DELETE', object: null, name: 'keep' });
    expect((await client.get(`${cms}/keep`)).status).to.equal(200);
    webhook.answers.set('/delete', () => ({ allowed: true }));
    expect((await client.delete(`${cms}/keep`)).status).to.equal(200);
  });

  it('calls mutating webhooks for DELETEs too, with the object as oldObject once it is read, before the validating ones (rest/delete.go AdmissionToValidateObjectDeleteFunc)', async () => {
    expect((await client.post(cms, configMap('guarded'))).status).to.equal(201);
    const deleteRule = { rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] };
    webhook.answers.set('/guard', () => ({ allowed: false, status: { message: 'guarded', code: 403 } }));
    await configure('Mutating', 'guard', [hook('guard.example.com', '/guard', deleteRule)]);
    await configure('Validating', 'after-guard', [hook('after-guard.example.com', '/after-guard', deleteRule)]);
    const r = await client.delete(`${cms}/guarded`);
    expect(r.status).to.equal(403);
    expect(r.body.message).to.equal('admission webhook "guard.example.com" denied the request: guarded');
    expect(webhook.calls.map((c) => c.path)).to.deep.equal(['/guard']);
    expect(webhook.calls[0].review.request).to.deep.include({ operation: 'DELETE', name: 'guarded', namespace: 'default', object: null });
    expect(webhook.calls[0].review.request.oldObject?.metadata.name).to.equal('guarded');
    expect(webhook.calls[0].query).to.equal('timeout=10s');
    // Not called for what cannot be deleted: a missing object, a failed precondition (kube-apiserver 1.34.4).
    expect((await client.delete(`${cms}/missing`)).status).to.equal(404);
    expect((await client.request('DELETE', `${cms}/guarded`, { preconditions: { uid: 'x' } })).status).to.equal(409);
    expect(webhook.calls).to.have.length(1);
    webhook.answers.set('/guard', () => ({ allowed: true }));
    expect((await client.delete(`${cms}/guarded`)).status).to.equal(200);
    expect(webhook.calls.map((c) => c.path)).to.deep.equal(['/guard', '/guard', '/after-guard']);
  });

  it('selects a namespace\'s DELETE by the stored namespace\'s labels (predicates/namespace GetNamespaceLabels)', async () => {
    for (const [name, env] of [['ns-prod', 'prod'], ['ns-dev', 'dev']]) {
      expect((await client.post('/api/v1/namespaces', { metadata: { name, labels: { env } } })).status).to.equal(201);
    }
    await configure('Mutating', 'prod-deletes', [hook('prod-deletes.example.com', '/prod-deletes', {
      namespaceSelector: { matchLabels: { env: 'prod' } }, rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }],
    })]);
    expect((await client.delete('/api/v1/namespaces/ns-prod')).status).to.equal(200);
    expect((await client.delete('/api/v1/namespaces/ns-dev')).status).to.equal(200);
    expect(webhook.calls.map((c) => c.review.request.name)).to.deep.equal(['ns-prod']);
  });

  it('fails closed with failurePolicy Fail and open with Ignore when the webhook cannot be called', async () => {
    await configure('Validating', 'unreachable', [hook('down.example.com', '/x', { clientConfig: { url: 'https://127.0.0.1:1/x', caBundle }, failurePolicy: 'Ignore' })]);
    expect((await client.post(cms, configMap('a'))).status).to.equal(201);
    await configure('Validating', 'unreachable-fail', [hook('down.example.com', '/x', { clientConfig: { url: 'https://127.0.0.1:1/x', caBundle } })]);
    const r = await client.post(cms, configMap('b'));
    expect(r.status).to.equal(500);
    expect(r.body.reason).to.equal('InternalError');
    expect(r.body.message).to.match(/^Internal error occurred: failed calling webhook "down\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:1\/x\?timeout=10s": dial tcp 127\.0\.0\.1:1: connect: connection refused$/);
  });

  it('times out after timeoutSeconds', async () => {
    webhook.answers.set('/silent', () => undefined);
    await configure('Validating', 'silent', [hook('silent.example.com', '/silent', { timeoutSeconds: 1 })]);
    const r = await client.post(cms, configMap('c'));
    expect(r.status).to.equal(500);
    expect(r.body.message).to.include('failed calling webhook "silent.example.com": failed to call webhook: Post');
    expect(r.body.message).to.include('context deadline exceeded');
  });

  it('times out after timeoutSeconds when a webhook trickles its answer (the deadline bounds the whole call)', async () => {
    // The apiserver's timeout is a deadline on the request's context, reading the answer included: a
    // webhook that keeps the connection busy with a byte now and then still fails at timeoutSeconds.
    const tls = { key: readFileSync(join(fixturesDir, 'webhook-tls', 'key.pem')), cert: readFileSync(join(fixturesDir, 'webhook-tls', 'cert.pem')) };
    const timers = new Set<NodeJS.Timeout>();
    const trickler = createServer(tls, (req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      let sent = 0;
      // 40 spaces, one each 250 ms: 10 s of a busy connection, far past the 1 s deadline.
      const timer = setInterval(() => {
        if (++sent > 40 || res.destroyed) {
          clearInterval(timer);
          res.end('{}');
          return;
        }
        res.write(' ');
      }, 250);
      timers.add(timer);
    });
    await new Promise<void>((r) => trickler.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `https://127.0.0.1:${(trickler.address() as AddressInfo).port}/trickle`;
      await configure('Validating', 'trickle', [hook('trickle.example.com', '/trickle', { timeoutSeconds: 1, clientConfig: { url, caBundle } })]);
      const r = await client.post(cms, configMap('t'));
      expect(r.status).to.equal(500);
      expect(r.body.message).to.equal(`Internal error occurred: failed calling webhook "trickle.example.com": failed to call webhook: Post "${url}?timeout=1s": context deadline exceeded`);
    } finally {
      for (const t of timers) clearInterval(t);
      trickler.closeAllConnections();
      await new Promise((r) => trickler.close(() => r(undefined)));
    }
  });

  it('raises a denial\'s code below 400 to 400 and explains a denial without message by its reason, or says there is none', async () => {
    // What the reference kube-apiserver (1.34) answers for the same three denials.
    const answers: Record<string, Record<string, unknown>> = { a: { allowed: false, status: { message: 'msg' } }, b: { allowed: false, status: { code: 403, reason: 'Forbidden' } }, c: { allowed: false } };
    webhook.answers.set('/abc', (review) => answers[review.request.name as string]);
    await configure('Validating', 'abc', [hook('abc.example.com', '/abc')]);
    const got = await Promise.all(['a', 'b', 'c'].map(async (n) => { const r = await client.post(cms, configMap(n)); return [r.status, r.body.message]; }));
    expect(got).to.deep.equal([
      [400, 'admission webhook "abc.example.com" denied the request: msg'],
      [403, 'admission webhook "abc.example.com" denied the request: Forbidden'],
      [400, 'admission webhook "abc.example.com" denied the request without explanation'],
    ]);
  });

  it('rejects a response for another uid', async () => {
    webhook.answers.set('/wrong', () => ({ uid: 'someone-else', allowed: true }));
    await configure('Validating', 'wrong', [hook('wrong.example.com', '/wrong')]);
    const r = await client.post(cms, configMap('d'));
    expect(r.status).to.equal(500);
    expect(r.body.message).to.match(/expected response\.uid="[-0-9a-f]+", got "someone-else"/);
  });

  it('calls only webhooks whose objectSelector and namespaceSelector match', async () => {
    await configure('Validating', 'selected', [
      hook('object.example.com', '/object', { objectSelector: { matchLabels: { checked: 'yes' } } }),
      hook('namespace.example.com', '/namespace', { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] } }),
      hook('elsewhere.example.com', '/elsewhere', { namespaceSelector: { matchLabels: { env: 'prod' } } }),
    ]);
    await client.post(cms, configMap('e'));
    await client.post(cms, configMap('f', { checked: 'yes' }));
    expect(webhook.calls.map((c) => `${c.path} ${c.review.request.name as string}`)).to.deep.equal(['/namespace e', '/object f', '/namespace f']);
  });

  it('matches an objectSelector against the objects a request has, never an absent one (apiserver predicates/object TestObjectSelector)', async () => {
    // A NotIn selector matches empty labels: the absent old object of a CREATE, or the absent new
    // object of a DELETE, must not make a runlevel=1 object match it.
    const excluder = { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['1'] }] };
    await configure('Validating', 'runlevel', [hook('runlevel.example.com', '/runlevel', {
      objectSelector: excluder, rules: [{ operations: ['CREATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    })]);
    expect((await client.post(cms, configMap('level1', { runlevel: '1' }))).status).to.equal(201);
    expect((await client.post(cms, configMap('level2', { runlevel: '2' }))).status).to.equal(201);
    expect((await client.delete(`${cms}/level1`)).status).to.equal(200);
    expect((await client.delete(`${cms}/level2`)).status).to.equal(200);
    expect(webhook.calls.map((c) => `${c.review.request.operation} ${c.review.request.name as string}`)).to.deep.equal(['CREATE level2', 'DELETE level2']);
  });

  it('reinvokes a webhook with reinvocationPolicy IfNeeded once a later webhook changed the object', async () => {
    let calls = 0;
    webhook.answers.set('/first', () => patchOf([{ op: 'add', path: '/metadata/annotations', value: { first: String(++calls) } }]));
    webhook.answers.set('/second', () => patchOf([{ op: 'add', path: '/metadata/labels', value: { second: 'yes' } }]));
    await configure('Mutating', 'a-first', [hook('first.example.com', '/first', { reinvocationPolicy: 'IfNeeded' })]);
    await configure('Mutating', 'b-second', [hook('second.example.com', '/second')]);
    const r = await client.post(cms, configMap('g'));
    expect(r.status, r.text).to.equal(201);
    expect(webhook.calls.map((c) => c.path)).to.deep.equal(['/first', '/second', '/first']);
    expect(r.body.metadata.annotations).to.deep.equal({ first: '2' });
    expect(webhook.calls[2].review.request.object?.metadata.labels).to.deep.equal({ second: 'yes' });
  });

  it('dials a service reference at the resolved address and verifies <name>.<namespace>.svc', async () => {
    const certs = generateCertificates({ hosts: ['shop-webhook.shop.svc'] });
    const svcWebhook = await new TestWebhook({ key: certs.key, cert: certs.cert }).listen();
    const resolved: unknown[] = [];
    const own = await start({ resolveWebhookService: (svc) => { resolved.push(svc); return svcWebhook.url; } });
    try {
      svcWebhook.answers.set('/deny', () => ({ allowed: false, status: { code: 422, reason: 'Invalid', message: 'service says no' } }));
      const c = await own.client.post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
        metadata: { name: 'svc' }, webhooks: [{ ...hook('svc.example.com', '/deny'), clientConfig: { service: { namespace: 'shop', name: 'shop-webhook', path: '/deny', port: 8443 }, caBundle: certs.caBundle } }],
      });
      expect(c.status, c.text).to.equal(201);
      const r = await own.client.post(cms, configMap('h'));
      expect(r.status).to.equal(422);
      expect(r.body).to.include({ reason: 'Invalid', message: 'admission webhook "svc.example.com" denied the request: service says no' });
      expect(resolved).to.deep.equal([{ namespace: 'shop', name: 'shop-webhook', port: 8443 }]);
    } finally {
      await own.server.close();
      await svcWebhook.close();
    }
  });

  describe('matchPolicy on a custom resource with two versions', () => {
    before(async () => {
      const crd = shirtCRD() as KubeObject & { spec: { versions: Record<string, unknown>[] } };
      const v1 = crd.spec.versions[0];
      crd.spec.versions = [v1, { ...structuredClone(v1), name: 'v1beta1', storage: false }];
      await createCRD(server, client, crd);
    });

    for (const [policy, expected] of [['Equivalent', 1], ['Exact', 0]] as const) {
      it(`${policy}: a rule for v1 ${expected === 1 ? 'also sees' : 'does not see'} v1beta1 requests`, async () => {
        await configure('Validating', `match-${policy.toLowerCase()}`, [hook('match.example.com', '/match', {
          matchPolicy: policy, rules: [{ operations: ['CREATE'], apiGroups: ['stable.example.com'], apiVersions: ['v1'], resources: ['shirts'] }],
        })]);
        const r = await client.post('/apis/stable.example.com/v1beta1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1beta1', kind: 'Shirt', metadata: { name: `s-${policy.toLowerCase()}` }, spec: { color: 'blue' } });
        expect(r.status, r.text).to.equal(201);
        expect(webhook.calls).to.have.length(expected);
        if (expected === 1) {
          expect(webhook.calls[0].review.request).to.deep.include({ kind: { group: 'stable.example.com', version: 'v1', kind: 'Shirt' }, requestKind: { group: 'stable.example.com', version: 'v1beta1', kind: 'Shirt' } });
          expect(webhook.calls[0].review.request.object?.apiVersion).to.equal('stable.example.com/v1');
        }
      });
    }
  });
});
