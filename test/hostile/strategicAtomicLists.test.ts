// A strategic merge patch's directives in a list without a merge strategy (a Pod's tolerations, a
// ResourceClaim's requests: `+listType=atomic`): strategicpatch's mergeSliceHandler takes the patch's list as it
// is, so a `$patch` (or any `$` member) in its elements reaches the decoder as an unknown field: a 422 quoting the
// patch under fieldValidation=Strict, a warning under Warn (the default), nothing under Ignore; in a keyed list
// (ownerReferences, merged by uid) it is a directive. kube-apiserver 1.34.4; hostile differential seed 20261201
// (the DRA family), where kubekit dropped the `$` members and answered as if they were not there.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const NS = '/api/v1/namespaces';
const SMP = 'application/strategic-merge-patch+json';

async function run(s: Send): Promise<void> {
  expect((await s('POST', NS, JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'smp-atomic' } }))).status).to.equal(201);
  const P = `${NS}/smp-atomic/pods`;
  const RC = '/apis/resource.k8s.io/v1/namespaces/smp-atomic/resourceclaims';
  expect((await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], tolerations: [{ key: 'a', operator: 'Exists' }] } }))).status).to.equal(201);
  expect((await s('POST', `${NS}/smp-atomic/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }] } }))).status).to.equal(201);
  expect((await s('POST', RC, JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c' }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'x' } }] } } }))).status).to.equal(201);

  const tolerations = '{"spec":{"tolerations":[{"key":"a","operator":"Exists","$retainKeys":["key"],"x":{"$patch":"delete"}}]}}';
  const requests = '{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"x"},"$patch":"merge"}]}}}';
  const strict = await s('PATCH', `${P}/p?fieldValidation=Strict`, tolerations, SMP);
  expect([strict.status, strict.message]).to.deep.equal([422,
    ' "" is invalid: patch: Invalid value: "map[spec:map[tolerations:[map[$retainKeys:[key] key:a operator:Exists x:map[$patch:delete]]]]]": strict decoding error: unknown field "spec.tolerations[0].$retainKeys", unknown field "spec.tolerations[0].x"']);
  const claim = await s('PATCH', `${RC}/c?fieldValidation=Strict`, requests, SMP);
  expect([claim.status, claim.message]).to.deep.equal([422,
    ' "" is invalid: patch: Invalid value: "map[spec:map[devices:map[requests:[map[$patch:merge exactly:map[deviceClassName:x] name:gpu]]]]]": strict decoding error: unknown field "spec.devices.requests[0].$patch"']);
  // Warn (the default): the patch applies, the `$` members dropped, with a warning each.
  for (const q of ['?fieldValidation=Warn', '']) {
    const warned = await s('PATCH', `${RC}/c${q}`, requests, SMP);
    expect([warned.status, warned.warnings], q).to.deep.equal([200, ['unknown field "spec.devices.requests[0].$patch"']]);
  }
  const ignored = await s('PATCH', `${P}/p?fieldValidation=Ignore`, tolerations, SMP);
  expect([ignored.status, ignored.warnings]).to.deep.equal([200, []]);
  // In a keyed list, `$patch: delete` is a directive: the owner reference goes, no warning.
  const deleted = await s('PATCH', `${NS}/smp-atomic/configmaps/cm?fieldValidation=Strict`, '{"metadata":{"ownerReferences":[{"uid":"u","$patch":"delete"}]}}', SMP);
  expect([deleted.status, deleted.warnings, (JSON.parse(deleted.text) as { metadata: { ownerReferences?: unknown } }).metadata.ownerReferences]).to.deep.equal([200, [], undefined]);
}

describeOnBothServers('hostile input: strategic merge patch directives in a list without a merge strategy, kubekit and the real kube-apiserver', run);
