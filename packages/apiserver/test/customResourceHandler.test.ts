import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, start, yamlFixture, type Client, type LooseObject } from './internal/client.js';

const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';

function cronTab(name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' }): LooseObject {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec };
}

describe('CustomResourceType', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, yamlFixture('crontab-crd.yaml')[0]);
  });

  after(async () => {
    await server.close();
  });

  describe('create', () => {
    it('sets the system fields and applies defaults of the request version', async () => {
      const r = await client.post(base, cronTab('defaulted', { image: 'img' }));
      expect(r.status).to.equal(201);
      expect(r.body.spec).to.deep.equal({ image: 'img', cronSpec: '5 0 * * *', replicas: 1 });
      const m = r.body.metadata;
      expect(m).to.include({ name: 'defaulted', namespace: 'default', generation: 1 });
      expect(m.uid).to.match(/^[0-9a-f-]{36}$/);
      expect(m.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Number(m.resourceVersion)).to.be.greaterThan(0);
    });

    it('answers an invalid object with 422 and the apiserver\'s Status (docs example)', async () => {
      const r = await client.post(base, cronTab('my-new-cron-object', { cronSpec: '* * * *', image: 'my-awesome-cron-image', replicas: 15 }));
      expect(r.status).to.equal(422);
      expect(r.body.reason).to.equal('Invalid');
      expect(r.body.message).to.equal('CronTab.stable.example.com "my-new-cron-object" is invalid: [spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\', spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10]');
      expect(r.body.details).to.deep.include({ name: 'my-new-cron-object', group: 'stable.example.com', kind: 'CronTab' });
      expect(r.body.details.causes).to.deep.equal([
        { reason: 'FieldValueInvalid', message: 'Invalid value: "* * * *": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'', field: 'spec.cronSpec' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: 15: spec.replicas in body should be less than or equal to 10', field: 'spec.replicas' },
      ]);
    });

    it('answers a taken name with 409 AlreadyExists', async () => {
      expect((await client.post(base, cronTab('twice'))).status).to.equal(201);
      const r = await client.post(base, cronTab('twice'));
      expect(r.status).to.equal(409);
      expect(r.body).to.include({ reason: 'AlreadyExists', message: 'crontabs.stable.example.com "twice" already exists' });
    });

    it('generates a name from generateName', async () => {
      const r = await client.post(base, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { generateName: 'gen-' }, spec: {} });
      expect(r.status).to.equal(201);
      expect(r.body.metadata.name).to.match(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    });

    it('refuses a namespace that does not exist', async () => {
      const r = await client.post('/apis/stable.example.com/v1/namespaces/nope/crontabs', cronTab('x'));
      expect(r.status).to.equal(404);
      expect(r.body.message).to.equal('namespaces "nope" not found');
    });

    it('refuses a body whose apiVersion does not match the URL', async () => {
      const r = await client.post(base, { ...cronTab('x'), apiVersion: 'stable.example.com/v2' });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('the API version in the data (stable.example.com/v2) does not match the expected API version (stable.example.com/v1)');
    });

    it('drops status on create (status subresource)', async () => {
      const r = await client.post(base, { ...cronTab('nostatus'), status: { replicas: 3 } });
      expect(r.status).to.equal(201);
      expect(r.body).to.not.have.property('status');
    });
  });

  describe('fieldValidation', () => {
    it('answers unknown fields with 400 when Strict', async () => {
      const r = await client.post(`${base}?fieldValidation=Strict`, cronTab('strict', { image: 'i', someRandomField: 42 }));
      expect(r.status).to.equal(400);
      expect(r.body).to.include({ reason: 'BadRequest', message: 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.someRandomField"' });
    });

    it('warns about unknown fields when Warn, and prunes them', async () => {
      const r = await client.post(`${base}?fieldValidation=Warn`, cronTab('warned', { image: 'i', someRandomField: 42 }));
      expect(r.status).to.equal(201);
      expect(r.headers.get('warning')).to.equal('299 - "unknown field \\"spec.someRandomField\\""');
      expect(r.body.spec).to.not.have.property('someRandomField');
    });

    it('prunes unknown fields silently when Ignore', async () => {
      const r = await client.post(`${base}?fieldValidation=Ignore`, cronTab('ignored', { image: 'i', someRandomField: 42 }));
      expect(r.status).to.equal(201);
      expect(r.headers.get('warning')).to.equal(null);
      expect(r.body.spec).to.not.have.property('someRandomField');
    });
  });

  describe('update', () => {
    it('answers a stale resourceVersion with 409 Conflict', async () => {
      const created = (await client.post(base, cronTab('stale'))).body;
      expect((await client.put(`${base}/stale`, { ...created, spec: { ...created.spec, image: 'v2' } })).status).to.equal(200);
      const r = await client.put(`${base}/stale`, { ...created, spec: { ...created.spec, image: 'v3' } });
      expect(r.status).to.equal(409);
      expect(r.body).to.include({
        reason: 'Conflict',
        message: 'Operation cannot be fulfilled on crontabs.stable.example.com "stale": the object has been modified; please apply your changes to the latest version and try again',
      });
    });

    it('rejects a body of another kind as invalid, naming the kind it must be', async () => {
      const r = await client.post(base, { ...cronTab('gadget'), kind: 'Gadget' });
      expect(r.status).to.equal(422);
      expect(r.body.message).to.equal('Gadget.stable.example.com "gadget" is invalid: kind: Invalid value: "Gadget": must be CronTab');
    });

    it('requires a resourceVersion (no unconditional updates of custom resources)', async () => {
      const created = (await client.post(base, cronTab('unconditional'))).body;
      delete created.metadata.resourceVersion;
      const r = await client.put(`${base}/unconditional`, created);
      expect(r.status).to.equal(422);
      // As kube-apiserver 1.34 words it (test/differential: cr/create-get-update-conflict).
      expect(r.body.message).to.equal('crontabs.stable.example.com "unconditional" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
    });

    it('increments generation on spec changes only and keeps the resourceVersion of a no-op update', async () => {
      const created = (await client.post(base, cronTab('gen'))).body;
      const labelled = (await client.patch(`${base}/gen`, { metadata: { labels: { a: 'b' } } })).body;
      expect(labelled.metadata.generation).to.equal(1);
      const changed = (await client.patch(`${base}/gen`, { spec: { image: 'other' } })).body;
      expect(changed.metadata.generation).to.equal(2);
      const same = (await client.put(`${base}/gen`, changed)).body;
      expect(same.metadata.resourceVersion).to.equal(changed.metadata.resourceVersion);
      expect(created.metadata.uid).to.equal(same.metadata.uid);
    });

    it('ignores status on the main resource and spec on /status', async () => {
      const created = (await client.post(base, cronTab('split'))).body;
      const withStatus = await client.put(`${base}/split/status`, { ...created, spec: { ...created.spec, image: 'ignored' }, status: { replicas: 2 } });
      expect(withStatus.status).to.equal(200);
      expect(withStatus.body.status).to.deep.equal({ replicas: 2 });
      expect(withStatus.body.spec.image).to.equal('my-awesome-cron-image');
      expect(withStatus.body.metadata.generation).to.equal(1);
      const main = await client.put(`${base}/split`, { ...withStatus.body, status: { replicas: 9 } });
      expect(main.body.status).to.deep.equal({ replicas: 2 });
    });

    it('refuses a name that does not match the URL', async () => {
      const created = (await client.post(base, cronTab('named'))).body;
      const r = await client.put(`${base}/named`, { ...created, metadata: { ...created.metadata, name: 'other' } });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('the name of the object (other) does not match the name on the URL (named)');
    });
  });

  describe('patch', () => {
    it('applies JSON merge patches and JSON patches', async () => {
      await client.post(base, cronTab('patched'));
      const merged = await client.patch(`${base}/patched`, { spec: { replicas: 3, image: null } });
      expect(merged.body.spec).to.deep.equal({ cronSpec: '* * * * */5', replicas: 3 });
      const json = await client.patch(`${base}/patched`, [{ op: 'replace', path: '/spec/replicas', value: 4 }, { op: 'add', path: '/spec/image', value: 'x' }], 'json');
      expect(json.body.spec).to.deep.equal({ cronSpec: '* * * * */5', replicas: 4, image: 'x' });
      const failed = await client.patch(`${base}/patched`, [{ op: 'remove', path: '/spec/missing' }], 'json');
      expect(failed.status).to.equal(422);
    });

    it('refuses strategic merge patches with 415', async () => {
      const r = await client.patch(`${base}/patched`, { spec: { replicas: 2 } }, 'strategic');
      expect(r.status).to.equal(415);
      expect(r.body.reason).to.equal('UnsupportedMediaType');
    });

    it('refuses strategic merge patches of custom resources in a *.k8s.io group too (Gateway API style), in the apiserver\'s words', async () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
        metadata: { name: 'routes.demo.k8s.io', annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111' } },
        spec: {
          group: 'demo.k8s.io', scope: 'Namespaced', names: { plural: 'routes', singular: 'route', kind: 'Route', listKind: 'RouteList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
        },
      };
      await createCRD(server, client, crd);
      const routes = '/apis/demo.k8s.io/v1/namespaces/default/routes';
      expect((await client.post(routes, { apiVersion: 'demo.k8s.io/v1', kind: 'Route', metadata: { name: 'r' }, spec: { a: 1 } })).status).to.equal(201);
      const r = await client.patch(`${routes}/r`, { spec: { b: 2 } }, 'strategic');
      expect(r.status).to.equal(415);
      expect(r.body.message).to.equal('the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml');
      const openapi = (await client.get('/openapi/v3/apis/demo.k8s.io/v1')).body as { paths: Record<string, { patch?: { requestBody: { content: Record<string, unknown> } } }> };
      expect(Object.keys(openapi.paths[`${routes.replace('/default/', '/{namespace}/')}/{name}`].patch!.requestBody.content)).to.not.include('application/strategic-merge-patch+json');
    });

    it('creates and updates with server-side apply, removing fields the manager no longer applies', async () => {
      const path = `${base}/applied?fieldManager=tester`;
      const first = await client.patch(path, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied' }, spec: { image: 'a', replicas: 2 } }, 'apply');
      expect(first.status).to.equal(201);
      expect(first.body.spec).to.deep.equal({ image: 'a', replicas: 2, cronSpec: '5 0 * * *' });
      expect(first.body.metadata.managedFields[0]).to.include({ manager: 'tester', operation: 'Apply' });
      const second = await client.patch(path, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied' }, spec: { image: 'b' } }, 'apply');
      expect(second.status).to.equal(200);
      expect(second.body.spec).to.deep.equal({ image: 'b', cronSpec: '5 0 * * *', replicas: 1 });
      const noManager = await client.patch(`${base}/applied`, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied' } }, 'apply');
      // ValidatePatchOptions: a 422 on PatchOptions, as the real kube-apiserver answers (test/hostile/reference.test.ts).
      expect(noManager.status).to.equal(422);
      expect(noManager.body.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    });
  });

  describe('scale', () => {
    it('reads and writes replicas through /scale, bumping the generation', async () => {
      await client.post(base, cronTab('scaled', { image: 'i', replicas: 2 }));
      const scale = await client.get(`${base}/scaled/scale`);
      expect(scale.body).to.deep.include({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0 } });
      const updated = await client.put(`${base}/scaled/scale`, { ...scale.body, spec: { replicas: 5 } });
      expect(updated.status).to.equal(200);
      expect(updated.body.spec).to.deep.equal({ replicas: 5 });
      const obj = (await client.get(`${base}/scaled`)).body;
      expect(obj.spec.replicas).to.equal(5);
      expect(obj.metadata.generation).to.equal(2);
    });
  });

  describe('delete', () => {
    it('marks an object with finalizers as deleting, and removes it with its last finalizer', async () => {
      await client.post(base, { ...cronTab('final'), metadata: { name: 'final', finalizers: ['example.com/hold'] } });
      const w = await client.watch(`${base}?watch=true&fieldSelector=metadata.name%3Dfinal`);
      try {
        await w.next();
        const deleting = await client.delete(`${base}/final`);
        expect(deleting.status).to.equal(200);
        expect(deleting.body.metadata.deletionTimestamp).to.be.a('string');
        expect(deleting.body.metadata.generation).to.equal(2);
        expect((await w.next()).type).to.equal('MODIFIED');
        expect((await client.get(`${base}/final`)).status).to.equal(200);
        const released = await client.patch(`${base}/final`, { metadata: { finalizers: null } });
        expect(released.status).to.equal(200);
        expect((await w.next()).type).to.equal('DELETED');
        expect((await client.get(`${base}/final`)).status).to.equal(404);
      } finally {
        w.close();
      }
    });

    // rest.BeforeDelete (staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go) checks the
    // preconditions first and names the kind; kube-apiserver 1.34.4 answers so (test/differential/hostile.test.ts).
    it('checks delete preconditions', async () => {
      const created = (await client.post(base, cronTab('precondition'))).body;
      const r = await client.delete(`${base}/precondition`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-it' } });
      expect(r.status).to.equal(409);
      expect(r.body.message).to.equal(`Operation cannot be fulfilled on CronTab.stable.example.com "precondition": the UID in the precondition (not-it) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`);
      const stale = await client.delete(`${base}/precondition`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } });
      expect(stale.body.message).to.equal(`Operation cannot be fulfilled on CronTab.stable.example.com "precondition": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata.resourceVersion}). The object might have been modified`);
      expect((await client.delete(`${base}/precondition?gracePeriodSeconds=abc`)).body.message).to.equal('strconv.ParseInt: parsing "abc": invalid syntax');
      expect((await client.delete(`${base}/precondition`, { preconditions: { uid: created.metadata.uid } })).status).to.equal(200);
    });
  });

  describe('dryRun', () => {
    it('validates and answers without persisting', async () => {
      const r = await client.post(`${base}?dryRun=All`, cronTab('dry'));
      expect(r.status).to.equal(201);
      expect(r.body.spec.replicas).to.equal(1);
      expect((await client.get(`${base}/dry`)).status).to.equal(404);
    });
  });

  describe('CEL', () => {
    it('enforces x-kubernetes-validations rules, transition rules included', async () => {
      await createCRD(server, client, {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'limits.stable.example.com' },
        spec: {
          group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'limits', singular: 'limit', kind: 'Limit' },
          versions: [{
            name: 'v1', served: true, storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
              type: 'object',
              'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
              properties: { min: { type: 'integer' }, max: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'max may only grow' }] } },
            } } } },
          }],
        },
      });
      const path = '/apis/stable.example.com/v1/namespaces/default/limits';
      const bad = await client.post(path, { apiVersion: 'stable.example.com/v1', kind: 'Limit', metadata: { name: 'l' }, spec: { min: 5, max: 1 } });
      expect(bad.status).to.equal(422);
      // Objects' values are omitted from CEL errors (the apiserver's OmitValueType), scalars' printed.
      expect(bad.body.message).to.equal('Limit.stable.example.com "l" is invalid: spec: Invalid value: "object": min must not exceed max');
      expect((await client.post(path, { apiVersion: 'stable.example.com/v1', kind: 'Limit', metadata: { name: 'l' }, spec: { min: 1, max: 5 } })).status).to.equal(201);
      const shrink = await client.patch(`${path}/l`, { spec: { max: 3 } });
      expect(shrink.status).to.equal(422);
      expect(shrink.body.message).to.equal('Limit.stable.example.com "l" is invalid: spec.max: Invalid value: "integer": max may only grow');
    });
  });

  describe('versions', () => {
    it('serves a deprecated version with its warning, converting with strategy None', async () => {
      await client.post(base, cronTab('versioned', { image: 'i', replicas: 2 }));
      const r = await client.get('/apis/stable.example.com/v1beta1/namespaces/default/crontabs/versioned');
      expect(r.status).to.equal(200);
      expect(r.headers.get('warning')).to.equal('299 - "stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab"');
      expect(r.body.apiVersion).to.equal('stable.example.com/v1beta1');
      expect(r.body.spec).to.deep.equal({ image: 'i', replicas: 2, cronSpec: '5 0 * * *' });
    });
  });
});
