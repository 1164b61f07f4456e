// The RBAC kinds' validation and defaults on both servers (pkg/apis/rbac/validation, rbac/v1 defaults.go):
// names (of the objects and a binding's roleRef) are path segment names, so `My:Role_X` is valid (kubekit
// refused every name that was no DNS subdomain, `system:…`-style ones included); a ClusterRole's aggregation
// rule needs selectors, each a valid label selector; a binding's subjects are checked by kind (a service
// account's name, no API group, a namespace in a cluster binding; a user's or group's API group); the roleRef's
// and the users' and groups' API groups are defaulted; each strategy's ValidateUpdate runs the kind's validation
// twice, so each error is twice in the causes. Expected answers are kube-apiserver 1.34.4's
// (fixtures/rbacValidation.json, recorded from the reference; the reference server runs the same test).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const R = '/apis/rbac.authorization.k8s.io/v1';
interface Expected { status: number; message: string; causes: string[] }
const expected = JSON.parse(readFileSync(new URL('./fixtures/rbacValidation.json', import.meta.url), 'utf8')) as Record<string, Expected>;
const binding = (more: string): string => `{"metadata":{"name":"x"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},${more}}`;

const creates: [string, string, string][] = [
  ['cr colon', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":"My:Role_X"},"rules":[]}'],
  ['cr dot', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":".."},"rules":[]}'],
  ['cr pct', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":"a%b"},"rules":[]}'],
  ['cr genname', `${R}/clusterroles?dryRun=All`, '{"metadata":{"generateName":"A:b/"},"rules":[]}'],
  ['agg', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":"x"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"a b":"c"}},{"matchExpressions":[{"key":"k","operator":"Bogus"}]},{"matchLabels":{"k":"bad value!"}},{"matchExpressions":[{"key":"k","operator":"In"}]},{}]}}'],
  ['agg null', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":"x"},"aggregationRule":null}'],
  ['agg obj', `${R}/clusterroles?dryRun=All`, '{"metadata":{"name":"x"},"aggregationRule":{}}'],
  ['rb subjects', `${R}/namespaces/default/rolebindings?dryRun=All`, binding('"subjects":[{"kind":"User"},{"kind":"ServiceAccount","name":"a:b"},{"kind":"Group","name":"g","apiGroup":"x"},{"kind":"Robot","name":"r"},{"kind":"ServiceAccount","name":"sa","apiGroup":"rbac.authorization.k8s.io"},{"kind":"User","name":"u"},{"kind":"ServiceAccount","name":"sa"}]')],
  ['crb subjects', `${R}/clusterrolebindings?dryRun=All`, binding('"subjects":[{"kind":"ServiceAccount","name":"sa"},{"kind":"User","name":"u","namespace":"n","apiGroup":"rbac.authorization.k8s.io"},{"kind":"ServiceAccount","name":"sa","namespace":"Bad NS"}]')],
  ['rb refname', `${R}/namespaces/default/rolebindings?dryRun=All`, '{"metadata":{"name":"y"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"a/b%"}}'],
  ['rb noref', `${R}/namespaces/default/rolebindings?dryRun=All`, '{"metadata":{"name":"y"}}'],
  ['crb role', `${R}/clusterrolebindings?dryRun=All`, '{"metadata":{"name":"y:z"},"roleRef":{"apiGroup":"x","kind":"Role","name":".."}}'],
];

async function answer(s: Send, method: string, path: string, body: string, contentType?: string): Promise<Expected> {
  const a = await s(method, path, body, contentType);
  const b = (a.status >= 400 ? JSON.parse(a.text) : {}) as { message?: string; details?: { causes?: { field: string; message: string }[] } };
  const mask = (t: string): string => t.replace(/"A:b\/[a-z0-9]{5}"/g, '"A:b/<generated>"');
  return { status: a.status, message: mask(b.message ?? ''), causes: (b.details?.causes ?? []).map((c) => mask(`${c.field}:${c.message}`)).sort() };
}

async function run(s: Send): Promise<void> {
  for (const [label, path, body] of creates) expect(await answer(s, 'POST', path, body), label).to.deep.equal(expected[label]);
  expect((await s('POST', `${R}/clusterroles`, '{"metadata":{"name":"cr1"},"rules":[]}')).status).to.equal(201);
  expect((await s('POST', `${R}/namespaces/default/roles`, '{"metadata":{"name":"r1"},"rules":[]}')).status).to.equal(201);
  // Defaulted: the roleRef's API group, a user's, not a service account's.
  const made = await s('POST', `${R}/namespaces/default/rolebindings`, '{"metadata":{"name":"rb1"},"roleRef":{"kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"u"},{"kind":"ServiceAccount","name":"sa"},{"kind":"Group","name":"g"}]}');
  expect(made.status, made.text).to.equal(201);
  const rb = JSON.parse((await s('GET', `${R}/namespaces/default/rolebindings/rb1`)).text) as { roleRef: unknown; subjects: unknown };
  expect([rb.roleRef, rb.subjects]).to.deep.equal([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }, { kind: 'ServiceAccount', name: 'sa' }, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }]]);
  const merge = 'application/merge-patch+json';
  // A patch that removes the roleRef's API group gets it back by default: no change of roleRef (seed 20261212).
  const unchanged = await s('PATCH', `${R}/namespaces/default/rolebindings/rb1`, '{"roleRef":{"apiGroup":null}}', merge);
  expect([unchanged.status, (JSON.parse(unchanged.text) as { roleRef: unknown }).roleRef]).to.deep.equal([200, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }]);
  expect(await answer(s, 'PATCH', `${R}/clusterroles/cr1`, '{"rules":[{"verbs":[]}],"aggregationRule":{"clusterRoleSelectors":[]}}', merge), 'cr upd').to.deep.equal(expected['cr upd']);
  expect(await answer(s, 'PATCH', `${R}/namespaces/default/rolebindings/rb1`, '{"roleRef":{"name":"edit"},"subjects":[{"kind":"User"}]}', merge), 'rb upd').to.deep.equal(expected['rb upd']);
  expect(await answer(s, 'PATCH', `${R}/clusterroles/cr1`, '{"metadata":{"labels":{"a b":"c"}}}', merge), 'cr upd label').to.deep.equal(expected['cr upd label']);
  expect(await answer(s, 'PATCH', `${R}/namespaces/default/roles/r1`, '{"metadata":{"labels":{"a b":"c"}},"rules":[{"verbs":["get"],"nonResourceURLs":["/x"]}]}', merge), 'r upd').to.deep.equal(expected['r upd']);
  expect(await answer(s, 'PUT', `${R}/clusterroles/a:b`, '{"metadata":{"name":"a:b"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}'), 'cr put colon').to.deep.equal(expected['cr put colon']);
}

describeOnBothServers('hostile input: RBAC validation and defaults, kubekit and the real kube-apiserver', run);
