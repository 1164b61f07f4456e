// The words of object metadata validation: kube-apiserver 1.34 checks label keys, annotation keys and
// finalizer names with k8s.io/apimachinery/pkg/util/validation's IsQualifiedName and label values with
// IsValidLabelValue (pkg/api/validation/objectmeta.go, pkg/apis/meta/v1/validation ValidateLabels), whose
// MaxLenError says "characters" and whose noun is "a qualified name"; the label selector parser's
// content.IsLabelKey says "bytes" and "a valid label key". Every expected message below is what
// kube-apiserver 1.34.4 answered to the same request (probed with the reference of packages/envtest),
// for a ConfigMap and for a custom resource alike.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, createCRD, start } from './internal/client.js';
import { widgetCRD, widgets } from './internal/hostile.js';

const cms = '/api/v1/namespaces/default/configmaps';
const longName = 'a'.repeat(64);
const longPrefix = `${'p'.repeat(254)}/x`;
const keyRegex = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const slashes = `a qualified name ${keyRegex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;

/** [case, metadata, field, bad value, detail] */
const cases: [string, Record<string, unknown>, string, string, string][] = [
  ['a label key whose name part is too long', { labels: { [longName]: 'v' } }, 'labels', longName, 'name part must be no more than 63 characters'],
  ['a label key whose prefix is too long', { labels: { [longPrefix]: 'v' } }, 'labels', longPrefix, 'prefix part must be no more than 253 characters'],
  ['a label key with two slashes', { labels: { 'a/b/c': 'v' } }, 'labels', 'a/b/c', slashes],
  ['a label value that is too long', { labels: { k: 'v'.repeat(64) } }, 'labels', 'v'.repeat(64), 'must be no more than 63 characters'],
  ['an annotation key with two slashes', { annotations: { 'a/b/c': 'v' } }, 'annotations', 'a/b/c', slashes],
  ['an annotation key whose name part is too long', { annotations: { [longName]: 'v' } }, 'annotations', longName, 'name part must be no more than 63 characters'],
  ['an annotation key whose prefix is too long', { annotations: { [longPrefix]: 'v' } }, 'annotations', longPrefix, 'prefix part must be no more than 253 characters'],
  ['a finalizer with two slashes', { finalizers: ['a/b/c'] }, 'finalizers', 'a/b/c', slashes],
  ['a finalizer whose name part is too long', { finalizers: [`example.com/${longName}`] }, 'finalizers', `example.com/${longName}`, 'name part must be no more than 63 characters'],
  ['a finalizer whose prefix is too long', { finalizers: [longPrefix] }, 'finalizers', longPrefix, 'prefix part must be no more than 253 characters'],
];

describe('object metadata validation words (kube-apiserver 1.34.4)', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
  });

  after(async () => {
    await server.close();
  });

  cases.forEach(([what, meta, field, bad, detail], i) => {
    it(`words ${what} as pkg/util/validation does, for a ConfigMap and a custom resource`, async () => {
      const cm = await client.post(cms, { metadata: { name: `cm${i}`, ...meta } });
      expect([cm.status, cm.body.message]).to.deep.equal([422, `ConfigMap "cm${i}" is invalid: metadata.${field}: Invalid value: "${bad}": ${detail}`]);
      const cr = await client.post(widgets(), { apiVersion: 'hostile.example.com/v1', kind: 'Widget', metadata: { name: `w${i}`, ...meta }, spec: {} });
      expect([cr.status, cr.body.message]).to.deep.equal([422, `Widget.hostile.example.com "w${i}" is invalid: metadata.${field}: Invalid value: "${bad}": ${detail}`]);
    });
  });

  it('uses the same words on an update', async () => {
    expect((await client.post(cms, { metadata: { name: 'upd' } })).status).to.equal(201);
    const r = await client.patch(`${cms}/upd`, { metadata: { annotations: { [longPrefix]: 'v' } } }, 'merge');
    expect(r.status).to.equal(422);
    expect(r.body.details.causes.map((c: { message: string }) => c.message)).to.include(`Invalid value: "${longPrefix}": prefix part must be no more than 253 characters`);
  });
});
