// Managed fields and server-side apply over HTTP, against the embedded server. The expected answers are
// kube-apiserver v1.34.4's for the same requests (asked through @kubekit/envtest's reference server
// while writing these tests); the semantics are those of k8s.io/apiserver's fieldmanager tests
// (fieldmanager_test.go: TestApplyStripsFields, TestUpdateApplyConflict, TestApplyDoesNotStripLabels),
// capmanagers_test.go (ancient-changes), skipnonapplied_test.go (before-first-apply),
// lastappliedmanager_test.go (client-side to server-side apply) and structured-merge-diff's
// merge/multiple_appliers_test.go (shared ownership, force).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { FakeClock, type ManagedFieldsEntry } from '@kubekit/core';
import { createCRD, start, type Client } from '../internal/client.js';
import { managerFromUserAgent } from '../../src/managedFields/requestContext.js';
import { lastAppliedAnnotation, maxUpdateManagers } from '../../src/managedFields/fieldManager.js';

const cms = '/api/v1/namespaces/default/configmaps';

function entries(body: { metadata: { managedFields?: ManagedFieldsEntry[] } }): [string | undefined, string | undefined, unknown][] {
  return (body.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.fieldsV1]);
}

describe('field manager (managedFields and server-side apply)', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('derives the manager of a write without fieldManager from the User-Agent product', async () => {
    expect(managerFromUserAgent('kubectl/v1.34.4 (linux/amd64) kubernetes/abcdef')).to.equal('kubectl');
    expect(managerFromUserAgent('my\u0007agent')).to.equal('myagent');
    expect(managerFromUserAgent('x'.repeat(200))).to.have.length(128);
    const r = await client.request('POST', cms, { metadata: { name: 'ua', labels: { a: 'b' } }, data: { k: 'v' } }, 'application/json', { 'User-Agent': 'curl/8.5.0' });
    expect(r.status).to.equal(201);
    expect(entries(r.body)).to.deep.equal([['curl', 'Update', { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }]]);
    expect(r.body.metadata.managedFields[0]).to.include({ apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(r.body.metadata.managedFields[0].time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('answers a conflicting apply with 409 and every conflict, and takes the fields with force', async () => {
    await client.post(`${cms}?fieldManager=creator`, { metadata: { name: 'c1' }, data: { a: '1', b: '2' } });
    const conflict = await client.patch(`${cms}/c1?fieldManager=alice`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: '9', b: '8' } }, 'apply');
    expect(conflict.status).to.equal(409);
    expect(conflict.body).to.deep.include({
      reason: 'Conflict', code: 409,
      message: 'Apply failed with 2 conflicts: conflicts with "creator" using v1:\n- .data.a\n- .data.b',
      details: { causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "creator" using v1', field: '.data.a' },
        { reason: 'FieldManagerConflict', message: 'conflict with "creator" using v1', field: '.data.b' },
      ] },
    });
    // The same value is no conflict: alice shares .data.a.
    const shared = await client.patch(`${cms}/c1?fieldManager=alice`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: '1' } }, 'apply');
    expect(shared.status).to.equal(200);
    expect(entries(shared.body)).to.deep.equal([
      ['alice', 'Apply', { 'f:data': { 'f:a': {} } }],
      ['creator', 'Update', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }],
    ]);
    // Shared ownership without a change: alice's entry has no time (the object did not change).
    expect(shared.body.metadata.managedFields[0].time).to.equal(undefined);
    const forced = await client.patch(`${cms}/c1?fieldManager=alice&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: '1', b: '8' } }, 'apply');
    expect(forced.status).to.equal(200);
    expect(forced.body.data).to.deep.equal({ a: '1', b: '8' });
    expect(entries(forced.body)).to.deep.equal([
      ['alice', 'Apply', { 'f:data': { 'f:a': {}, 'f:b': {} } }],
      ['creator', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }],
    ]);
    // Fields alice stops applying go, unless someone else owns them (creator still owns .data.a).
    const dropped = await client.patch(`${cms}/c1?fieldManager=alice`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } }, 'apply');
    expect(dropped.body.data).to.deep.equal({ a: '1' });
    expect(entries(dropped.body)).to.deep.equal([['creator', 'Update', { 'f:data': { '.': {}, 'f:a': {} } }]]);
  });

  it('lets an update take fields from appliers, and records nothing for a write that changes nothing', async () => {
    await client.patch(`${cms}/c2?fieldManager=alice`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' }, data: { a: '1' } }, 'apply');
    const taken = await client.patch(`${cms}/c2?fieldManager=editor`, { data: { a: '2' } }, 'merge');
    expect(entries(taken.body)).to.deep.equal([['editor', 'Update', { 'f:data': { 'f:a': {} } }]]);
    const same = await client.patch(`${cms}/c2?fieldManager=other`, { data: { a: '2' } }, 'merge');
    expect(same.body.metadata.resourceVersion).to.equal(taken.body.metadata.resourceVersion);
    expect(entries(same.body)).to.deep.equal(entries(taken.body));
  });

  it('requires a fieldManager to apply and refuses managedFields in the configuration', async () => {
    const none = await client.patch(`${cms}/c3`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c3' } }, 'apply');
    expect(none.status).to.equal(422);
    expect(none.body.message).to.equal('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const mf = await client.patch(`${cms}/c3?fieldManager=a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c3', managedFields: [{ manager: 'x' }] } }, 'apply');
    expect(mf.status).to.equal(400);
    expect(mf.body.message).to.equal('metadata.managedFields must be nil');
  });

  it('stops tracking an object whose managedFields were reset, and credits its fields to before-first-apply on the next apply', async () => {
    await client.post(`${cms}?fieldManager=creator`, { metadata: { name: 'c4' }, data: { a: '1' } });
    const reset = await client.patch(`${cms}/c4`, { metadata: { managedFields: [{}] } }, 'merge');
    expect(reset.body.metadata.managedFields).to.equal(undefined);
    const untracked = await client.patch(`${cms}/c4?fieldManager=editor`, { data: { b: '2' } }, 'merge');
    expect(untracked.body.metadata.managedFields).to.equal(undefined);
    const applied = await client.patch(`${cms}/c4?fieldManager=alice`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c4' }, data: { a: '3' } }, 'apply');
    expect(applied.status).to.equal(409);
    expect(applied.body.message).to.equal('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a');
  });

  it(`keeps at most ${maxUpdateManagers} Update managers, merging the oldest into ancient-changes`, async () => {
    await client.post(`${cms}?fieldManager=m00`, { metadata: { name: 'c5' }, data: { k00: 'x' } });
    for (let i = 1; i <= maxUpdateManagers; i++) {
      const n = String(i).padStart(2, '0');
      await client.patch(`${cms}/c5?fieldManager=m${n}`, { data: { [`k${n}`]: 'x' } }, 'merge');
    }
    const got = await client.get(`${cms}/c5`);
    const managers = (got.body.metadata.managedFields as ManagedFieldsEntry[]).map((e) => e.manager);
    expect(managers).to.have.length(maxUpdateManagers);
    expect(managers).to.include('ancient-changes');
    const ancient = (got.body.metadata.managedFields as ManagedFieldsEntry[]).find((e) => e.manager === 'ancient-changes')!;
    expect(ancient.fieldsV1).to.deep.equal({ 'f:data': { '.': {}, 'f:k00': {}, 'f:k01': {} } });
  });

  it('moves a client-side applied object to server-side apply by kubectl without conflicts, keeping last-applied in step', async () => {
    const last = '{"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"cm1","namespace":"default"}}\n';
    await client.post(`${cms}?fieldManager=kubectl-client-side-apply`, { metadata: { name: 'cm1', annotations: { [lastAppliedAnnotation]: last } }, data: { a: '1', b: '2' } });
    const other = await client.patch(`${cms}/cm1?fieldManager=other`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: '9' } }, 'apply');
    expect(other.status).to.equal(409);
    expect(other.body.message).to.equal('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a');
    const ssa = await client.patch(`${cms}/cm1?fieldManager=kubectl`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: '9', c: '3' } }, 'apply');
    expect(ssa.status).to.equal(200);
    expect(ssa.body.data).to.deep.equal({ a: '9', b: '2', c: '3' });
    expect(ssa.body.metadata.annotations).to.deep.equal({ [lastAppliedAnnotation]: '{"apiVersion":"v1","data":{"a":"9","c":"3"},"kind":"ConfigMap","metadata":{"name":"cm1"}}\n' });
    expect(entries(ssa.body)).to.deep.equal([
      ['kubectl', 'Apply', { 'f:data': { 'f:a': {}, 'f:c': {} } }],
      ['kubectl-client-side-apply', 'Update', { 'f:data': { '.': {}, 'f:b': {} }, 'f:metadata': { 'f:annotations': { '.': {}, [`f:${lastAppliedAnnotation}`]: {} } } }],
    ]);
    // A field changed by someone else since (kubectl edit) is still a conflict.
    await client.patch(`${cms}/cm1?fieldManager=kubectl-edit`, { data: { c: '4' } }, 'strategic');
    const edited = await client.patch(`${cms}/cm1?fieldManager=kubectl`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: '9', c: '5' } }, 'apply');
    expect(edited.status).to.equal(409);
    expect(edited.body.message).to.equal('Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.c');
  });

  it('compares a created built-in object with its kind\'s Go zero value: struct fields it always has carry no "."', async () => {
    // kube-apiserver 1.34.4 for the same create: f:spec, f:strategy, f:template and f:containers
    // without ".", f:rollingUpdate, f:env and f:volumes with it.
    const d = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd0' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'web', image: 'nginx', env: [{ name: 'A', value: '1' }] }], volumes: [{ name: 'v', emptyDir: {} }] } } },
    };
    const r = await client.post('/apis/apps/v1/namespaces/default/deployments?fieldManager=creator', d);
    expect(r.status).to.equal(201);
    type V1 = Record<string, Record<string, unknown>>;
    const spec = (r.body.metadata.managedFields[0].fieldsV1 as V1)['f:spec'] as V1;
    expect(Object.keys(spec)).to.not.include('.');
    expect(Object.keys(spec['f:strategy'])).to.deep.equal(['f:rollingUpdate', 'f:type']);
    expect(Object.keys(spec['f:strategy']['f:rollingUpdate'] as object)).to.deep.equal(['.', 'f:maxSurge', 'f:maxUnavailable']);
    const podSpec = (spec['f:template'] as V1)['f:spec'] as V1;
    expect(Object.keys(podSpec['f:containers'])).to.deep.equal(['k:{"name":"web"}']);
    expect(Object.keys(podSpec['f:volumes'])).to.deep.equal(['.', 'k:{"name":"v"}']);
  });

  it('records containers of a Deployment by name and their ports by port and protocol', async () => {
    const d = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd1' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
    };
    const r = await client.patch('/apis/apps/v1/namespaces/default/deployments/d1?fieldManager=alice', d, 'apply');
    expect(r.status).to.equal(201);
    const spec = (r.body.metadata.managedFields[0].fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>)['f:spec'];
    // Label selectors are atomic maps.
    expect(spec['f:selector']).to.deep.equal({});
    expect(spec['f:template']['f:spec']['f:containers']).to.deep.equal({
      'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
    });
    const bob = await client.patch('/apis/apps/v1/namespaces/default/deployments/d1?fieldManager=bob', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd1' },
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } },
    }, 'apply');
    expect(bob.status).to.equal(409);
    expect(bob.body.message).to.equal('Apply failed with 1 conflict: conflict with "alice": .spec.template.spec.containers[name="web"].image');
  });
});

// managedFieldsUpdater.Update (k8s.io/apimachinery util/managedfields/internal/managedfieldsupdater.go)
// stamps a manager's time only when its operation took fields once stripMetaManager has removed the
// metadata paths; a body without metadata.creationTimestamp takes none. Found by the randomized
// differential suite: kubekit stamped the time and so wrote a new resourceVersion for a no-op update.
describe('field manager: an update that changes nothing but server-set metadata', () => {
  it('keeps the resourceVersion and the manager\'s time, however much later it comes', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { server, client } = await start({ clock });
    try {
      await createCRD(server, client, {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.noop.example.com' },
        spec: { group: 'noop.example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }] },
      });
      const things = '/apis/noop.example.com/v1/namespaces/default/things';
      for (const [name, spec] of [['same', { a: '1' }], ['empty', {}]] as const) {
        const created = await client.post(`${things}?fieldManager=editor`, { apiVersion: 'noop.example.com/v1', kind: 'Thing', metadata: { name }, spec });
        expect(created.status).to.equal(201);
        await clock.advance(5000);
        const rv = created.body.metadata.resourceVersion as string;
        const same = await client.put(`${things}/${name}?fieldManager=editor`, { apiVersion: 'noop.example.com/v1', kind: 'Thing', metadata: { name, resourceVersion: rv }, spec });
        expect(same.status).to.equal(200);
        expect(same.body.metadata.resourceVersion, name).to.equal(rv);
        expect(same.body.metadata.managedFields, name).to.deep.equal(created.body.metadata.managedFields);
      }
    } finally {
      await server.close();
    }
  });
});

// FieldManager.UpdateNoErrors (k8s.io/apimachinery util/managedfields/fieldmanager.go): a create, update
// or patch whose managed fields cannot be computed (an associative list item without its key) drops them
// and goes on, so validation answers. kube-apiserver v1.34.4 answers the 422 below; found by the
// randomized differential suite (kubekit answered a 400 from the field manager).
describe('field manager: an object it cannot track', () => {
  it('leaves its managed fields out instead of failing the write, and validation answers', async () => {
    const { server, client } = await start();
    try {
      await createCRD(server, client, {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'lists.nokey.example.com' },
        spec: { group: 'nokey.example.com', scope: 'Namespaced', names: { plural: 'lists', singular: 'list', kind: 'List', listKind: 'ListList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
            items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, n: { type: 'integer' } } } },
          } } } } } }] },
      });
      const lists = '/apis/nokey.example.com/v1/namespaces/default/lists';
      const r = await client.post(lists, { apiVersion: 'nokey.example.com/v1', kind: 'List', metadata: { name: 'l' }, spec: { items: [{ n: 1 }] } });
      expect([r.status, r.body.message]).to.deep.equal([422, 'List.nokey.example.com "l" is invalid: spec.items[0].name: Required value']);
    } finally {
      await server.close();
    }
  });
});

describe('field manager through the scale subresource', () => {
  let server: ApiServer;
  let client: Client;
  const scalers = '/apis/s.example.com/v1/namespaces/default/scalers';

  before(async () => {
    ({ server, client } = await start());
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'scalers.s.example.com' },
      spec: {
        group: 's.example.com', scope: 'Namespaced', names: { plural: 'scalers', singular: 'scaler', kind: 'Scaler' },
        versions: [{
          name: 'v1', served: true, storage: true, subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, x: { type: 'string' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
        }],
      },
    };
    expect((await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).to.equal(201);
  });

  after(async () => {
    await server.close();
  });

  it('owns the parent\'s replicas path for a scale writer, with subresource scale and no time (as kube-apiserver 1.34.4)', async () => {
    await client.post(`${scalers}?fieldManager=creator`, { apiVersion: 's.example.com/v1', kind: 'Scaler', metadata: { name: 's1' }, spec: { replicas: 1, x: 'a' } });
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 's1' }, spec: { replicas: 7 } };
    const conflict = await client.patch(`${scalers}/s1/scale?fieldManager=m`, scale, 'apply');
    expect(conflict.status).to.equal(409);
    expect(conflict.body.message).to.equal('Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas');
    const patched = await client.patch(`${scalers}/s1/scale?fieldManager=u`, { spec: { replicas: 3 } }, 'merge');
    expect(patched.status).to.equal(200);
    const got = await client.get(`${scalers}/s1`);
    expect(got.body.metadata.managedFields).to.deep.equal([
      { manager: 'u', operation: 'Update', apiVersion: 's.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      { manager: 'creator', operation: 'Update', apiVersion: 's.example.com/v1', time: got.body.metadata.managedFields[1].time, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { '.': {}, 'f:x': {} } } },
    ]);
  });
});
