// Answers the differential suite found different from kube-apiserver v1.34.4's, fixed; each expected
// answer is the reference's own to the same request (test/differential, its scenario named per case).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { widgetCRD, widgets } from './internal/hostile.js';

describe('answers as kube-apiserver 1.34 gives them', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
  });

  after(() => server.close());

  const widget = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
    ({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name, ...metadata }, spec });

  it('answers the DELETE of a custom resource that goes at once with a Status Success (cr/create-get-update-conflict)', async () => {
    const created = await client.post(widgets(), widget('del1'));
    expect(created.status, created.text).to.equal(201);
    const res = await client.request('DELETE', `${widgets()}/del1`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      details: { name: 'del1', group: 'hostile.example.com', kind: 'widgets', uid: created.body.metadata.uid },
    });
  });

  it('answers the DELETE of a custom resource with finalizers with the object marked deleting', async () => {
    expect((await client.post(widgets(), widget('del2', {}, { finalizers: ['example.com/keep'] }))).status).to.equal(201);
    const res = await client.request('DELETE', `${widgets()}/del2`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.kind).to.equal('Widget');
    expect(res.body.metadata.deletionTimestamp).to.be.a('string');
  });

  it('answers an unknown subresource of a custom resource as the object not found (subresources/status)', async () => {
    expect((await client.post(widgets(), widget('sub1'))).status).to.equal(201);
    for (const [method, path] of [['GET', `${widgets()}/sub1/bogus`], ['PUT', `${widgets()}/sub1/bogus`], ['GET', `${widgets()}/nope/bogus`]]) {
      const res = await client.request(method, path, method === 'PUT' ? widget('sub1') : undefined);
      expect(res.status, res.text).to.equal(404);
      const name = path.split('/').at(-2);
      expect(res.body.message).to.equal(`widgets.hostile.example.com "${name}" not found`);
      expect(res.body.details).to.deep.equal({ name, group: 'hostile.example.com', kind: 'widgets' });
    }
    // Its status and scale do not delete or create (405 MethodNotSupported).
    for (const [method, sub, verb] of [['DELETE', 'status', 'delete'], ['DELETE', 'scale', 'delete'], ['POST', 'status', 'create']]) {
      const res = await client.request(method, `${widgets()}/sub1/${sub}`, method === 'POST' ? widget('sub1') : undefined);
      expect(res.status, res.text).to.equal(405);
      expect(res.body.message).to.equal(`${verb} is not supported on resources of kind "widgets.hostile.example.com"`);
      expect(res.body.details).to.deep.equal({ group: 'hostile.example.com', kind: 'widgets' });
    }
    // A built-in kind has no route for it.
    const cm = await client.request('GET', '/api/v1/namespaces/default/configmaps/x/bogus');
    expect(cm.status).to.equal(404);
    expect(cm.body.message).to.equal('the server could not find the requested resource');
  });
});

describe('lists with a bad resourceVersion or continue token', () => {
  let server: ApiServer;
  let client: Client;
  const cms = '/api/v1/namespaces/default/configmaps';

  before(async () => {
    ({ server, client } = await start());
    for (const name of ['a', 'b']) expect((await client.post(cms, { metadata: { name } })).status).to.equal(201);
  });

  after(() => server.close());

  // watch/resource-versions: the storage layer's words (APIObjectVersioner.ParseResourceVersion).
  for (const [rv, problem] of [['abc', 'invalid syntax'], ['-1', 'invalid syntax'], ['99999999999999999999', 'value out of range']]) {
    it(`answers a list at resourceVersion ${rv} with 400 "invalid resource version"`, async () => {
      const res = await client.get(`${cms}?resourceVersion=${rv}`);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message).to.equal(`invalid resource version: resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": ${problem}`);
    });
  }

  // storage.DecodeContinue's errors, as the reference words them for these tokens.
  const tokens: [string, string][] = [
    ['bogus', 'illegal base64 data at input byte 4'],
    ['!!!!', 'illegal base64 data at input byte 0'],
    ['YWJj', "invalid character 'a' looking for beginning of value"],
    ['e30', 'server does not recognize this encoded version '],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'), 'incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":""}').toString('base64url'), 'encoded start key empty (version meta.k8s.io/v1)'],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":"a/../../b"}').toString('base64url'), 'a/../../b'],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":"5","start":"a"}').toString('base64url'), 'json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
    [Buffer.from('[]').toString('base64url'), 'json: cannot unmarshal array into Go value of type storage.continueToken'],
  ];
  for (const [token, words] of tokens) {
    it(`answers continue=${token} with "invalid continue token: continue key is not valid: ${words}"`, async () => {
      const res = await client.get(`${cms}?limit=1&continue=${token}`);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.message).to.equal(`invalid continue token: continue key is not valid: ${words}`);
    });
  }

  // The token's JSON is decoded as json.Unmarshal decodes it (test/continueToken.test.ts has the
  // decoding table); these are the answers that reach the list itself, as v1.34.4 gives them.
  describe('tokens rewritten from one the server handed out', () => {
    let issued: { rv: number; start: string };
    const rewritten = (json: (rv: number, start: string) => string): string =>
      Buffer.from(json(issued.rv, JSON.stringify(issued.start)), 'utf8').toString('base64url');
    const names = (body: { items: { metadata: { name: string } }[] }): string[] => body.items.map((i) => i.metadata.name);

    before(async () => {
      const first = await client.get(`${cms}?limit=1`);
      issued = JSON.parse(Buffer.from(first.body.metadata.continue as string, 'base64url').toString('utf8')) as typeof issued;
    });

    it('continues with keys in another case, the last of two winning', async () => {
      const res = await client.get(`${cms}?limit=1&continue=${rewritten((rv, start) => `{"v":"x","V":"meta.k8s.io/v1","Rv":${rv},"sTaRt":${start}}`)}`);
      expect(res.status, res.text).to.equal(200);
      expect(names(res.body)).to.deep.equal(['b']);
      const empty = await client.get(`${cms}?limit=1&continue=${rewritten((rv, start) => `{"v":"meta.k8s.io/v1","rv":${rv},"start":${start},"START":""}`)}`);
      expect(empty.status, empty.text).to.equal(400);
      expect(empty.body.message).to.equal('invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
    });

    it('lists the latest state for a negative rv', async () => {
      const res = await client.get(`${cms}?limit=1&continue=${rewritten((_, start) => `{"v":"meta.k8s.io/v1","rv":-5,"start":${start}}`)}`);
      expect(res.status, res.text).to.equal(200);
      expect(names(res.body)).to.deep.equal(['b']);
      expect(res.body.metadata.resourceVersion).to.equal(String(server.resourceVersion));
    });

    // The reference first waits 3 s for the version (this server's real clock too: the three wait
    // together; test/futureResourceVersion.test.ts follows the wait with a fake clock).
    it('answers an rv newer than the server, beyond 2^53 too, with 504 "Timeout: Too large resource version"', async () => {
      const rvs = [String(server.resourceVersion + 50), '9007199254740993', '9223372036854775807'];
      const answers = await Promise.all(rvs.map((rv) => client.get(`${cms}?limit=1&continue=${rewritten((_, start) => `{"v":"meta.k8s.io/v1","rv":${rv},"start":${start}}`)}`)));
      for (const [i, rv] of rvs.entries()) {
        const res = answers[i];
        expect(res.status, res.text).to.equal(504);
        expect(res.body.reason).to.equal('Timeout');
        expect(res.body.message).to.equal(`Timeout: Too large resource version: ${rv}, current: ${server.resourceVersion}`);
        expect(res.body.details).to.deep.equal({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
      }
    });
  });

  it('still pages with the tokens it hands out', async () => {
    const first = await client.get(`${cms}?limit=1`);
    expect(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['a']);
    const second = await client.get(`${cms}?limit=1&continue=${first.body.metadata.continue}`);
    expect(second.status, second.text).to.equal(200);
    expect(second.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['b']);
  });
});

describe('list metadata', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
    expect((await client.post(widgets(), { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: {} })).status).to.equal(201);
  });

  after(() => server.close());

  // cr/defaulting: an unstructured list's continue is set even when empty; typed lists omit it.
  it('carries an empty continue in a custom resource list, and none in a built-in one', async () => {
    const list = await client.get(widgets());
    expect(list.body.metadata).to.deep.equal({ continue: '', resourceVersion: list.body.metadata.resourceVersion });
    expect(Object.keys((await client.get('/api/v1/namespaces/default/configmaps')).body.metadata)).to.deep.equal(['resourceVersion']);
    const partial = await client.request('GET', widgets(), undefined, 'application/json', { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    expect(Object.keys(partial.body.metadata)).to.deep.equal(['resourceVersion']);
  });
});

describe('CustomResourceDefinition answers', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(() => server.close());

  // crd/create-update-answers: a new CRD's conditions are Go's nil slice, printed as null; the
  // controllers then set NamesAccepted and Established.
  it('answers a CRD create with status.conditions null, then conditions once the controllers ran', async () => {
    const res = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetCRD());
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.deep.equal({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    await server.idle();
    const got = await client.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.hostile.example.com');
    expect(got.body.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`)).to.include.members(['NamesAccepted=True', 'Established=True']);
  });
});

describe('Lease validation', () => {
  let server: ApiServer;
  let client: Client;
  const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
  const lease = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec });

  before(async () => {
    ({ server, client } = await start());
  });

  after(() => server.close());

  // builtin/leases; ValidateLeaseSpec's cases in pkg/apis/coordination/validation/validation_test.go.
  it('refuses a non-positive duration and negative transitions with the apiserver\'s causes', async () => {
    const res = await client.post(leases, lease('bad', { leaseDurationSeconds: -1, leaseTransitions: -2 }));
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.equal('Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0, spec.leaseTransitions: Invalid value: -2: must be greater than or equal to 0]');
    const zero = await client.post(leases, lease('zero', { leaseDurationSeconds: 0 }));
    expect(zero.body.message).to.equal('Lease.coordination.k8s.io "zero" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0');
  });

  it('validates updates too, and drops the strategy fields of the disabled CoordinatedLeaderElection feature', async () => {
    const created = await client.post(leases, lease('ok', { holderIdentity: 'a', leaseDurationSeconds: 15, strategy: 'a/b/c', preferredHolder: 'b' }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec).to.deep.equal({ holderIdentity: 'a', leaseDurationSeconds: 15 });
    const bad = await client.patch(`${leases}/ok`, { spec: { leaseTransitions: -1 } });
    expect(bad.status, bad.text).to.equal(422);
    expect(bad.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.leaseTransitions' }]);
    const renewed = await client.patch(`${leases}/ok`, { spec: { leaseTransitions: 1, preferredHolder: 'c' } });
    expect(renewed.status, renewed.text).to.equal(200);
    expect(renewed.body.spec).to.deep.equal({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 1 });
  });
});

describe('the scale subresource of a custom resource', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    const crd = widgetCRD() as unknown as { spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] } };
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas = { type: 'integer', minimum: 0 };
    await createCRD(server, client, crd);
    expect((await client.post(widgets(), { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 2 } })).status).to.equal(201);
  });

  after(() => server.close());

  // subresources/scale: the replicas land in the custom resource, whose schema and scale-path
  // validation both refuse them (customresource/validator.go ValidateScaleSpec).
  it('refuses negative replicas with the custom resource\'s two causes', async () => {
    const res = await client.patch(`${widgets()}/w1/scale`, { spec: { replicas: -1 } });
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.equal('Widget.hostile.example.com "w1" is invalid: [spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0, .spec.replicas: Invalid value: -1: should be a non-negative integer]');
    expect(res.body.details).to.deep.include({ name: 'w1', group: 'hostile.example.com', kind: 'Widget' });
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).to.deep.equal(['spec.replicas', '.spec.replicas']);
  });
});
