import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { createCRD, shirtCRD, start, yamlFixture, type Client, type LooseObject } from './internal/client.js';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('CustomResourceDefinitionType', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('establishes a new CRD: acceptedNames, NamesAccepted and Established, storedVersions', async () => {
    const created = await createCRD(server, client, shirtCRD());
    expect(created.body.metadata.generation).to.equal(1);
    expect(created.body.spec.names).to.deep.include({ singular: 'shirt', listKind: 'ShirtList' });
    expect(created.body.spec.conversion).to.deep.equal({ strategy: 'None' });
    const crd = (await client.get(`${crds}/shirts.stable.example.com`)).body;
    expect(crd.status.acceptedNames).to.deep.equal({ plural: 'shirts', singular: 'shirt', kind: 'Shirt', listKind: 'ShirtList' });
    expect(crd.status.storedVersions).to.deep.equal(['v1']);
    const conditions = Object.fromEntries((crd.status.conditions as { type: string; status: string; reason: string }[]).map((c) => [c.type, `${c.status}/${c.reason}`]));
    expect(conditions).to.deep.equal({ NamesAccepted: 'True/NoConflicts', Established: 'True/InitialNamesAccepted' });
  });

  // strategy.go WarningsOnCreate/WarningsOnUpdate: formats of string nodes the apiserver does not
  // validate are warned of, after validation passed; an update only of formats new to it. Answers of
  // kube-apiserver v1.34.4 (found by the randomized differential suite).
  it('warns of unrecognized formats on create, and on update only of new ones', async () => {
    const warnings = (h: string | null) => [...(h ?? '').matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
    const crd = shirtCRD() as LooseObject;
    crd.metadata.name = 'vests.stable.example.com';
    crd.spec.names = { plural: 'vests', singular: 'vest', kind: 'Vest' };
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    spec.properties.shade = { type: 'string', format: 'colour' };
    spec.properties.handle = { type: 'string', format: 'k8s-short-name' };
    spec.properties.count = { type: 'integer', format: 'int32' };
    const created = await client.post(crds, crd);
    expect(created.status).to.equal(201);
    expect(warnings(created.headers.get('warning')).sort()).to.deep.equal(['unrecognized format "colour"', 'unrecognized format "k8s-short-name"']);
    await server.idle();
    const cur = (await client.get(`${crds}/vests.stable.example.com`)).body;
    cur.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.tone = { type: 'string', format: 'tint' };
    const updated = await client.put(`${crds}/vests.stable.example.com`, cur);
    expect(updated.status).to.equal(200);
    expect(warnings(updated.headers.get('warning'))).to.deep.equal(['unrecognized format "tint"']);
    const invalid = structuredClone(crd);
    invalid.metadata.name = 'caps.stable.example.com';
    invalid.spec.names = { plural: 'caps', singular: 'cap', kind: 'Cap' };
    invalid.spec.versions[0].selectableFields = [{ jsonPath: '.spec.nothere' }];
    const refused = await client.post(crds, invalid);
    expect(refused.status).to.equal(422);
    expect(refused.headers.get('warning')).to.equal(null);
  });

  it('answers an invalid CRD with 422 and the validation errors of @kubekit/crd', async () => {
    const crd = shirtCRD() as LooseObject;
    crd.metadata.name = 'coats.stable.example.com';
    crd.spec.names = { plural: 'coats', singular: 'coat', kind: 'Coat' };
    crd.spec.versions[0].selectableFields = [{ jsonPath: '.spec.colour' }];
    const r = await client.post(crds, crd);
    expect(r.status).to.equal(422);
    expect(r.body.reason).to.equal('Invalid');
    expect(r.body.message).to.match(/^CustomResourceDefinition\.apiextensions\.k8s\.io "coats\.stable\.example\.com" is invalid: /);
    expect(r.body.message).to.contain('.spec.colour');
    expect(r.body.details.causes.length).to.be.greaterThan(0);
  });

  it('refuses a CRD whose name is not <plural>.<group>', async () => {
    const crd = shirtCRD() as LooseObject;
    crd.metadata.name = 'wrong.stable.example.com';
    const r = await client.post(crds, crd);
    expect(r.status).to.equal(422);
    expect(r.body.message).to.contain('metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group');
  });

  it('reports a name conflict in NamesAccepted and does not serve the conflicting CRD', async () => {
    const crd = shirtCRD() as LooseObject;
    crd.metadata.name = 'tees.stable.example.com';
    crd.spec.names = { plural: 'tees', singular: 'tee', kind: 'Shirt' };
    await createCRD(server, client, crd);
    const stored = (await client.get(`${crds}/tees.stable.example.com`)).body;
    const accepted = (stored.status.conditions as { type: string; status: string; reason: string; message: string }[]).find((c) => c.type === 'NamesAccepted')!;
    expect(accepted).to.include({ status: 'False', reason: 'NameConflict', message: '"Shirt" is already in use' });
    expect((await client.get('/apis/stable.example.com/v1/namespaces/default/tees')).status).to.equal(404);
    await client.delete(`${crds}/tees.stable.example.com`);
    await server.idle();
  });

  it('increments generation on spec changes and keeps status on main updates', async () => {
    const crd = (await client.get(`${crds}/shirts.stable.example.com`)).body;
    const updated = await client.put(`${crds}/shirts.stable.example.com`, { ...crd, status: {}, spec: { ...crd.spec, names: { ...crd.spec.names, shortNames: ['sh'] } } });
    expect(updated.status).to.equal(200);
    expect(updated.body.metadata.generation).to.equal(2);
    expect(updated.body.status.acceptedNames).to.be.an('object');
  });

  it('removes a deleted CRD\'s objects, then the CRD, through the cleanup finalizer', async () => {
    await client.post('/apis/stable.example.com/v1/namespaces/default/shirts', { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'doomed' }, spec: { color: 'red' } });
    const w = await client.watch(`${crds}?watch=true&fieldSelector=metadata.name%3Dshirts.stable.example.com&resourceVersion=${server.resourceVersion}`);
    try {
      const deleted = await client.delete(`${crds}/shirts.stable.example.com`);
      expect(deleted.status).to.equal(200);
      expect(deleted.body.metadata.finalizers).to.deep.equal(['customresourcecleanup.apiextensions.k8s.io']);
      const terminating = (deleted.body.status.conditions as { type: string; reason: string }[]).find((c) => c.type === 'Terminating');
      expect(terminating).to.include({ reason: 'InstanceDeletionPending' });
      const events = await w.until((e) => e.type === 'DELETED');
      expect(events.map((e) => e.type)).to.deep.equal(['MODIFIED', 'DELETED']);
    } finally {
      w.close();
    }
    expect((await client.get(`${crds}/shirts.stable.example.com`)).status).to.equal(404);
    // Re-created, the CRD starts empty.
    await createCRD(server, client, shirtCRD());
    expect((await client.get('/apis/stable.example.com/v1/namespaces/default/shirts')).body.items).to.deep.equal([]);
  });
});

describe('buildTable', () => {
  let server: ApiServer;
  let client: Client;
  const table = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, yamlFixture('crontab-crd.yaml')[0]);
    await client.post('/apis/stable.example.com/v1/namespaces/default/crontabs', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct1' }, spec: { cronSpec: '* * * * */5', image: 'img', replicas: 3 } });
  });

  after(async () => {
    await server.close();
  });

  it('puts Name first, then the declared printer columns with their priorities', async () => {
    const r = await client.get('/apis/stable.example.com/v1/namespaces/default/crontabs', table);
    expect(r.body).to.include({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(r.body.columnDefinitions.map((c: { name: string; priority: number; type: string }) => `${c.name}:${c.type}:${c.priority}`))
      .to.deep.equal(['Name:string:0', 'Spec:string:0', 'Replicas:integer:0', 'Image:string:1', 'Age:date:0']);
    expect(r.body.columnDefinitions[1].description).to.equal('The cron spec defining the interval a CronJob is run');
    expect(r.body.columnDefinitions[3].description).to.equal('Custom resource definition column (in JSONPath format): .spec.image');
    const cells = r.body.rows[0].cells as unknown[];
    expect(cells.slice(0, 4)).to.deep.equal(['ct1', '* * * * */5', 3, 'img']);
    expect(cells[4]).to.match(/^\d+s$/);
    expect(r.body.rows[0].object).to.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1' });
    expect(r.body.metadata.resourceVersion).to.equal(String(server.resourceVersion));
  });

  it('shows Age only for a version that declares no columns', async () => {
    const r = await client.get('/apis/stable.example.com/v1beta1/namespaces/default/crontabs', table);
    expect(r.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Age']);
  });

  it('includes the whole object or nothing per includeObject', async () => {
    const whole = await client.get('/apis/stable.example.com/v1/namespaces/default/crontabs/ct1?includeObject=Object', table);
    expect(whole.body.rows[0].object.spec).to.deep.equal({ cronSpec: '* * * * */5', image: 'img', replicas: 3 });
    const none = await client.get('/apis/stable.example.com/v1/namespaces/default/crontabs/ct1?includeObject=None', table);
    // kube-apiserver 1.34 sends `object: null` (test/differential: table, "Table without objects").
    expect(none.body.rows[0].object).to.equal(null);
  });
});
