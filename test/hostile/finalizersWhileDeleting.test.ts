// An object being deleted takes no new finalizer (ValidateNoNewFinalizers in apimachinery's
// ValidateObjectMetaAccessorUpdate, which rest.BeforeUpdate and the kinds' own ValidateObjectMetaUpdate both
// run, so the cause comes twice): on a built-in kind, a custom resource and a pod in its grace period, by
// merge patch, JSON patch, update and apply; finalizers may still be removed, and kept ones re-ordered. Found
// by the hostile differential (seed 20261210, case 39: a finalizer added to a pod in its grace period was
// taken). Every expected answer is kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { answered, createWidgets, describeOnBothServers, type Answer, type Send } from './sender.js';

const NS = '/api/v1/namespaces/default';
const merge = 'application/merge-patch+json';
type Json = Record<string, unknown>;
interface Meta { metadata: { finalizers?: string[]; deletionTimestamp?: string; resourceVersion: string } }

function refusedTwice(a: Answer, kind: string, name: string, added: string): void {
  const why = `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added}}`;
  expect(a.status, a.text).to.equal(422);
  expect(a.message).to.equal(`${kind} "${name}" is invalid: metadata.finalizers: Forbidden: ${why}`);
  const causes = (JSON.parse(a.text) as { details: { causes: Json[] } }).details.causes;
  expect(causes).to.deep.equal([1, 2].map(() => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${why}`, field: 'metadata.finalizers' })));
}

async function run(s: Send): Promise<void> {
  // A ConfigMap a finalizer holds.
  const cm = `${NS}/configmaps`;
  answered(await s('POST', cm, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/a', 'example.com/b'] } })), 201);
  expect(answered<Meta>(await s('DELETE', `${cm}/held`)).metadata.deletionTimestamp).to.be.a('string');
  refusedTwice(await s('PATCH', `${cm}/held`, JSON.stringify({ metadata: { finalizers: ['example.com/a', 'example.com/b', 'z.io/c', 'example.com/c', 'z.io/c'] } }), merge), 'ConfigMap', 'held', '"example.com/c", "z.io/c"');
  refusedTwice(await s('PATCH', `${cm}/held`, JSON.stringify([{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/jp' }]), 'application/json-patch+json'), 'ConfigMap', 'held', '"example.com/jp"');
  // A finalizer that is no qualified name: that error first, then the new one quoted as Go quotes it.
  const odd = await s('PATCH', `${cm}/held`, JSON.stringify([{ op: 'add', path: '/metadata/finalizers/-', value: 'x/\u00e9"q' }]), 'application/json-patch+json');
  expect(odd.message).to.equal('ConfigMap "held" is invalid: [metadata.finalizers: Invalid value: "x/é\\"q": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"x/é\\"q"}]');
  const current = answered<Meta & Json>(await s('GET', `${cm}/held`));
  refusedTwice(await s('PUT', `${cm}/held`, JSON.stringify({ ...current, metadata: { ...current.metadata, finalizers: ['example.com/a', 'example.com/b', 'example.com/new'] } })), 'ConfigMap', 'held', '"example.com/new"');
  // Re-ordered and removed: taken.
  expect(answered<Meta>(await s('PATCH', `${cm}/held`, JSON.stringify({ metadata: { finalizers: ['example.com/b', 'example.com/a'] } }), merge)).metadata.finalizers).to.deep.equal(['example.com/b', 'example.com/a']);
  expect(answered<Meta>(await s('PATCH', `${cm}/held`, JSON.stringify({ metadata: { finalizers: ['example.com/a'] } }), merge)).metadata.finalizers).to.deep.equal(['example.com/a']);
  // Server-side apply adding one.
  const applied = await s('PATCH', `${cm}/held?fieldManager=m&force=true`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/applied'] } }), 'application/apply-patch+yaml');
  refusedTwice(applied, 'ConfigMap', 'held', '"example.com/applied"');
  answered(await s('PATCH', `${cm}/held`, JSON.stringify({ metadata: { finalizers: null } }), merge));

  // A custom resource.
  const W = await createWidgets(s, 'finalizing.example.com', { type: 'object', properties: { a: { type: 'string' } } });
  answered(await s('POST', W, JSON.stringify({ apiVersion: 'finalizing.example.com/v1', kind: 'Widget', metadata: { name: 'w', finalizers: ['example.com/a'] } })), 201);
  answered(await s('DELETE', `${W}/w`));
  const cr = await s('PATCH', `${W}/w`, JSON.stringify({ metadata: { finalizers: ['example.com/a', 'example.com/b'] } }), merge);
  expect(cr.status, cr.text).to.equal(422);
  expect(cr.message).to.equal('Widget.finalizing.example.com "w" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}');
  answered(await s('PATCH', `${W}/w`, JSON.stringify({ metadata: { finalizers: [] } }), merge));

  // A pod in its grace period (on a node, so that its deletion is graceful).
  answered(await s('POST', `${NS}/pods`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } })), 201);
  expect(answered<Meta>(await s('DELETE', `${NS}/pods/p?propagationPolicy=Background`)).metadata.deletionTimestamp).to.be.a('string');
  refusedTwice(await s('PATCH', `${NS}/pods/p`, JSON.stringify({ metadata: { finalizers: ['example.com/hold'] } }), merge), 'Pod', 'p', '"example.com/hold"');
  answered(await s('DELETE', `${NS}/pods/p?gracePeriodSeconds=0`));
}

describeOnBothServers('hostile input: finalizers added to an object being deleted, kubekit and the real kube-apiserver', run);
