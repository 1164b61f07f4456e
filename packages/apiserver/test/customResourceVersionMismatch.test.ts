// A custom resource written with a version of its group that its CRD does not define: kube-apiserver
// 1.34.4 decodes the body before it compares versions, and with no schema for that version every member
// but apiVersion, kind and metadata is an unknown field (warned, or the codec's 400 under Strict), then
// answers the version mismatch. Each expectation is the reference's answer to the same request (probed
// with test/differential's backends; found by the hostile differential suite).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';

const widgets = '/apis/v.example.com/v1/namespaces/default/widgets';
const mismatch = 'the API version in the data (v.example.com/v2) does not match the expected API version (v.example.com/v1)';
const warnings = (h: Headers): string[] => (h.get('warning') ?? '').split(/, (?=299)/).filter((w) => w !== '').map((w) => JSON.parse(w.replace(/^299 - /, '')) as string);

describe('custom resources written in a version their CRD does not define (kube-apiserver 1.34.4)', () => {
  let server: ApiServer;
  let client: Client;
  let rv: string;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.v.example.com' },
      spec: { group: 'v.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }] },
    });
    rv = (await client.post(widgets, { apiVersion: 'v.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { a: 'x' } })).body.metadata.resourceVersion as string;
  });

  after(async () => {
    await server.close();
  });

  it('warns of every member but apiVersion, kind and metadata as unknown, sorted, then refuses the version', async () => {
    const created = await client.post(widgets, { apiVersion: 'v.example.com/v2', kind: 'Widget', metadata: { name: 'w2' }, spec: { a: 'x', b: 1 }, status: {}, unknown: 1, zeta: [] });
    expect([created.status, created.body.message]).to.deep.equal([400, mismatch]);
    expect(warnings(created.headers)).to.deep.equal(['unknown field "spec"', 'unknown field "status"', 'unknown field "unknown"', 'unknown field "zeta"']);
    const updated = await client.put(`${widgets}/w`, { apiVersion: 'v.example.com/v2', kind: 'Widget', metadata: { name: 'w', resourceVersion: rv }, spec: { a: 'x' }, extra: 1 });
    expect([updated.status, updated.body.message]).to.deep.equal([400, mismatch]);
    expect(warnings(updated.headers)).to.deep.equal(['unknown field "extra"', 'unknown field "spec"']);
  });

  it('refuses them under Strict with the codec\'s words for the body\'s version, and says nothing under Ignore', async () => {
    const strict = await client.post(`${widgets}?fieldValidation=Strict`, { apiVersion: 'v.example.com/v2', kind: 'Widget', metadata: { name: 'w2' }, spec: { a: 'x' }, unknown: 1 });
    expect([strict.status, strict.body.message]).to.deep.equal([400, 'Widget in version "v2" cannot be handled as a Widget: strict decoding error: unknown field "spec", unknown field "unknown"']);
    const ignore = await client.post(`${widgets}?fieldValidation=Ignore`, { apiVersion: 'v.example.com/v2', kind: 'Widget', metadata: { name: 'w2' }, spec: { a: 'x' }, unknown: 1 });
    expect([ignore.status, ignore.body.message, warnings(ignore.headers)]).to.deep.equal([400, mismatch, []]);
  });

  it('warns of nothing for another group or another kind', async () => {
    for (const [apiVersion, kind] of [['other.example.com/v1', 'Widget'], ['v.example.com/v2', 'Gadget']]) {
      const r = await client.post(widgets, { apiVersion, kind, metadata: { name: 'w2' }, spec: { a: 'x' } });
      expect(r.status).to.equal(400);
      expect(warnings(r.headers), `${apiVersion} ${kind}`).to.deep.equal([]);
    }
  });

  it('decodes the metadata into ObjectMeta before anything, in the codec\'s words for the body\'s version', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ labels: 5 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string'],
      [{ uid: 5 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID'],
      [{ finalizers: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string'],
      [{ generation: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64'],
    ];
    for (const [meta, words] of cases) {
      for (const version of ['v1', 'v2']) {
        const r = await client.post(widgets, { apiVersion: `v.example.com/${version}`, kind: 'Widget', metadata: { name: 'w3', ...meta }, spec: { a: 'x' } });
        expect([r.status, r.body.message], `${version} ${JSON.stringify(meta)}`).to.deep.equal([400, `Widget in version "${version}" cannot be handled as a Widget: ${words}`]);
      }
    }
  });
});
