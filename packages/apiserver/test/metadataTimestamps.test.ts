// metadata.creationTimestamp and deletionTimestamp as kube-apiserver 1.34.4 decodes them (found by the
// hostile differential suite: a Namespace created with `creationTimestamp: "yesterday"` was a 201).
// They are metav1.Time, whose UnmarshalJSON (k8s.io/apimachinery pkg/apis/meta/v1/time.go) runs Go's
// time.Parse(time.RFC3339, …): its error ends the decoding, and the codec answers it as it answers a
// mismatched type (a 400 naming the kind on a create or update, a 422 on `patch` for a patch). Every
// expected answer below is what the reference answered to the same request (packages/envtest).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { widgetCRD, widgets } from './internal/hostile.js';

const cms = '/api/v1/namespaces/default/configmaps';
const namespaces = '/api/v1/namespaces';
const layout = '"2006-01-02T15:04:05Z07:00"';
const yesterday = `parsing time "yesterday" as ${layout}: cannot parse "yesterday" as "2006"`;
const spaced = `parsing time "2026-11-26 10:00:00Z" as ${layout}: cannot parse " 10:00:00Z" as "T"`;
const empty = `parsing time "" as ${layout}: cannot parse "" as "2006"`;
const widget = (name: string, metadata: Record<string, unknown> = {}): Record<string, unknown> => ({ apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name, ...metadata }, spec: {} });

describe('metadata timestamps: parity with kube-apiserver 1.34.4', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
    for (const [path, body] of [[cms, { metadata: { name: 'upd' } }], [namespaces, { metadata: { name: 'upd' } }], [widgets(), widget('upd')]] as const) {
      expect((await client.post(path, body)).status).to.equal(201);
    }
  });

  after(async () => {
    await server.close();
  });

  it('refuses a create whose timestamps Go cannot parse, in the codec\'s words', async () => {
    for (const [field, value, message] of [['creationTimestamp', 'yesterday', yesterday], ['deletionTimestamp', '2026-11-26 10:00:00Z', spaced], ['creationTimestamp', '', empty]] as const) {
      const cm = await client.post(cms, { metadata: { name: 'bad', [field]: value } });
      expect([cm.status, cm.body.message], field).to.deep.equal([400, `ConfigMap in version "v1" cannot be handled as a ConfigMap: ${message}`]);
      const ns = await client.post(namespaces, { metadata: { name: 'bad', [field]: value } });
      expect([ns.status, ns.body.message], field).to.deep.equal([400, `Namespace in version "v1" cannot be handled as a Namespace: ${message}`]);
      const cr = await client.post(widgets(), widget('bad', { [field]: value }));
      expect([cr.status, cr.body.message], field).to.deep.equal([400, `Widget in version "v1" cannot be handled as a Widget: ${message}`]);
    }
    expect((await client.get(`${cms}/bad`)).status).to.equal(404);
  });

  it('refuses an update and a patch whose timestamps Go cannot parse', async () => {
    const current = await client.get(`${cms}/upd`);
    const put = await client.put(`${cms}/upd`, { metadata: { name: 'upd', resourceVersion: current.body.metadata.resourceVersion, deletionTimestamp: 'yesterday' } });
    expect([put.status, put.body.message]).to.deep.equal([400, `ConfigMap in version "v1" cannot be handled as a ConfigMap: ${yesterday}`]);
    for (const [path, type, body] of [
      [`${cms}/upd`, 'merge', { metadata: { creationTimestamp: '2026-11-26 10:00:00Z' } }],
      [`${namespaces}/upd`, 'json', [{ op: 'add', path: '/metadata/deletionTimestamp', value: '2026-11-26 10:00:00Z' }]],
      [`${widgets()}/upd`, 'merge', { metadata: { deletionTimestamp: '2026-11-26 10:00:00Z' } }],
    ] as const) {
      const r = await client.patch(path, body, type);
      expect(r.status, path).to.equal(422);
      expect(r.body.details.causes).to.have.length(1);
      expect(r.body.details.causes[0].field).to.equal('patch');
      expect(r.body.details.causes[0].message, path).to.match(/^Invalid value: "\{.*\}": parsing time "2026-11-26 10:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 10:00:00Z" as "T"$/);
    }
  });

  it('takes what Go\'s parser takes, RFC 3339 or not, and sets the creationTimestamp itself', async () => {
    let i = 0;
    for (const value of ['2026-11-26T10:00:00.123456Z', '2026-11-26T10:00:00+02:00', '2026-11-26T1:00:00Z', '2026-11-26T10:00:00,5Z', '2026-11-26T10:00:00+24:00', null]) {
      i++;
      for (const path of [cms, widgets()]) {
        const r = await client.post(path, path === cms ? { metadata: { name: `ok${i}`, creationTimestamp: value } } : widget(`ok${i}`, { creationTimestamp: value }));
        expect(r.status, `${path} ${String(value)}`).to.equal(201);
        expect(r.body.metadata.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/).and.not.equal('2026-11-26T08:00:00Z');
      }
    }
  });

  it('refuses an update that sets the deletionTimestamp or grace period of an object not being deleted', async () => {
    for (const [path, kind] of [[`${cms}/upd`, 'ConfigMap'], [`${namespaces}/upd`, 'Namespace'], [`${widgets()}/upd`, 'Widget.hostile.example.com']] as const) {
      const r = await client.patch(path, { metadata: { deletionTimestamp: '2026-11-26T10:00:00+02:00' } });
      expect([r.status, r.body.message], path).to.deep.equal([422, `${kind} "upd" is invalid: metadata.deletionTimestamp: Invalid value: "2026-11-26T08:00:00Z": field is immutable`]);
    }
    const both = await client.patch(`${cms}/upd`, { metadata: { deletionTimestamp: '2026-11-26T10:00:00.5Z', deletionGracePeriodSeconds: 5 } });
    expect([both.status, both.body.message]).to.deep.equal([422, 'ConfigMap "upd" is invalid: [metadata.deletionTimestamp: Invalid value: "2026-11-26T10:00:00Z": field is immutable, metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable]']);
    // Go's zero time is a set pointer on a built-in object (written as null) and none on a custom resource.
    const zero = await client.patch(`${cms}/upd`, { metadata: { deletionTimestamp: '0001-01-01T00:00:00Z' } });
    expect([zero.status, zero.body.message]).to.deep.equal([422, 'ConfigMap "upd" is invalid: metadata.deletionTimestamp: Invalid value: null: field is immutable']);
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59-01:00']) {
      const cr = await client.patch(`${widgets()}/upd`, { metadata: { deletionTimestamp: value } });
      expect(cr.status, value).to.equal(200);
      expect(cr.body.metadata.deletionTimestamp).to.equal(undefined);
    }
    expect((await client.get(`${widgets()}/upd`)).status).to.equal(200);
    expect((await client.get(`${cms}/upd`)).body.metadata.deletionTimestamp).to.equal(undefined);
  });

  // encoding/json records a mismatched type and goes on, but a metav1.Time's error ends the decoding; a
  // custom resource's metadata is decoded from Go's marshalled map, in sorted key order.
  it('answers the error Go\'s decoder returns first', async () => {
    const cr = await client.post(widgets(), widget('o1', { labels: 5, creationTimestamp: 'bad' }));
    expect(cr.body.message).to.equal(`Widget in version "v1" cannot be handled as a Widget: parsing time "bad" as ${layout}: cannot parse "bad" as "2006"`);
    const sorted = await client.post(widgets(), widget('o2', { deletionTimestamp: 'bad', creationTimestamp: 'worse' }));
    expect(sorted.body.message).to.equal(`Widget in version "v1" cannot be handled as a Widget: parsing time "worse" as ${layout}: cannot parse "worse" as "2006"`);
    const typed = await client.post(widgets(), widget('o3', { uid: 5, generation: 'x' }));
    expect(typed.body.message).to.equal('Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64');
    const uid = await client.post(widgets(), widget('o4', { uid: 5 }));
    expect(uid.body.message).to.equal('Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID');
    const inOrder = await client.post(cms, { metadata: { name: 'o5', uid: 5, generation: 'x' } });
    expect(inOrder.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID');
    const dataFirst = await client.post(cms, { data: { k: 1 }, metadata: { name: 'o7', creationTimestamp: 'bad' } });
    expect(dataFirst.body.message).to.equal(`ConfigMap in version "v1" cannot be handled as a ConfigMap: parsing time "bad" as ${layout}: cannot parse "bad" as "2006"`);
    const lists = await client.post(cms, { metadata: { name: 'o6', finalizers: 'x', annotations: 5 } });
    expect(lists.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string');
  });

  // A server-side apply converts a built-in object from unstructured (the field manager's "failed to convert
  // new object", a 500 without a reason); a custom resource's accessors read a malformed timestamp as none.
  it('answers a server-side apply with malformed timestamps as the field manager does', async () => {
    const yaml = (kind: string, apiVersion: string, name: string, line: string): string => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  ${line}\n`;
    const cm = await client.request('PATCH', `${cms}/upd?fieldManager=m`, yaml('ConfigMap', 'v1', 'upd', 'creationTimestamp: 5'), 'application/apply-patch+yaml');
    expect([cm.status, cm.body.reason, cm.body.message]).to.deep.equal([500, undefined, 'failed to convert new object (/upd; /v1, Kind=ConfigMap) to proper version: unable to convert unstructured object to /v1, Kind=ConfigMap: json: cannot unmarshal number into Go value of type string']);
    const created = await client.request('PATCH', `${cms}/new?fieldManager=m`, yaml('ConfigMap', 'v1', 'new', 'deletionTimestamp: "2026-02-30T10:00:00Z"'), 'application/apply-patch+yaml');
    expect([created.status, created.body.message]).to.deep.equal([500, 'failed to convert new object (/new; /v1, Kind=ConfigMap) to proper version: unable to convert unstructured object to /v1, Kind=ConfigMap: parsing time "2026-02-30T10:00:00Z": day out of range']);
    // The merge patches of the zero time above made their manager the owner of deletionTimestamp (as the
    // reference does for the same sequence), so an apply of another value conflicts unless forced.
    const upd = `${widgets()}/upd?fieldManager=m`;
    const conflict = await client.request('PATCH', upd, yaml('Widget', 'hostile.example.com/v1', 'upd', 'deletionTimestamp: "yesterday"'), 'application/apply-patch+yaml');
    expect([conflict.status, conflict.body.message]).to.deep.equal([409, 'Apply failed with 1 conflict: conflict with "node" using hostile.example.com/v1: .metadata.deletionTimestamp']);
    for (const [path, name, status] of [[`${upd}&force=true`, 'upd', 200], [`${widgets()}/new?fieldManager=m`, 'new', 201]] as const) {
      const cr = await client.request('PATCH', path, yaml('Widget', 'hostile.example.com/v1', name, 'deletionTimestamp: "yesterday"'), 'application/apply-patch+yaml');
      expect(cr.status, `${name}: ${JSON.stringify(cr.body)}`).to.equal(status);
      expect(cr.body.metadata.deletionTimestamp).to.equal(undefined);
    }
    expect((await client.get(`${widgets()}/new`)).status).to.equal(200);
  });

  // pkg/registry/core/namespace/strategy.go Canonicalize: the label follows the name on every write;
  // pkg/apis/core/v1 SetDefaults_Namespace sets it when the body decodes, so the writer manages it.
  it('keeps a Namespace\'s kubernetes.io/metadata.name label through an update, and its writer manages it', async () => {
    const created = await client.post(namespaces, { metadata: { name: 'labelled', labels: { a: 'b' } } });
    expect(created.body.metadata.managedFields.map((m: { fieldsV1: unknown }) => m.fieldsV1)).to.deep.equal([
      { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {}, 'f:kubernetes.io/metadata.name': {} } } },
    ]);
    const current = await client.get(`${namespaces}/upd`);
    const r = await client.put(`${namespaces}/upd`, { metadata: { name: 'upd', resourceVersion: current.body.metadata.resourceVersion } });
    expect(r.status).to.equal(200);
    expect(r.body.metadata.labels).to.deep.equal({ 'kubernetes.io/metadata.name': 'upd' });
  });
});
