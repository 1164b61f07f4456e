// The anonymous user on both servers: a request without a bearer token is `system:anonymous` in group
// `system:unauthenticated` (kube-apiserver's `--anonymous-auth`, on by default; kubekit's server started with a
// token), whom RBAC allows only what the bootstrap policy binds to that group (`system:public-info-viewer`:
// /version and the health endpoints) until a binding grants more; a token that does not authenticate is a 401
// wherever it is sent. Every expected answer is kube-apiserver 1.34.4's to the same request (the reference
// server runs the same test; its authorizer sees a new binding a moment later, hence `eventually`).
import { expect } from 'chai';
import { answered, describeOnBothServers, eventually, type Answer } from './sender.js';

const failure = (a: Answer): unknown => [a.status, a.message];
const forbiddenPath = (path: string): unknown => [403, `forbidden: User "system:anonymous" cannot get path "${path}"`];

describeOnBothServers('the anonymous user (a request without a token)', async (s, _backend, server) => {
  const anon = server.anonymous;
  const wrong = server.as('not-a-token');
  expect(failure(await anon('GET', '/api/v1/namespaces'))).to.deep.equal([403, 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope']);
  expect(failure(await anon('GET', '/api/v1/namespaces/default/configmaps/x'))).to.deep.equal([403, 'configmaps "x" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "default"']);
  for (const path of ['/api', '/apis', '/openapi/v3', '/livez/ping', '/.well-known/openid-configuration', '/nope']) expect(failure(await anon('GET', path)), path).to.deep.equal(forbiddenPath(path));
  for (const path of ['/livez', '/readyz', '/healthz', '/version']) expect((await anon('GET', path)).status, path).to.equal(200);
  for (const path of ['/api', '/livez', '/version']) expect(failure(await wrong('GET', path)), path).to.deep.equal([401, 'Unauthorized']);
  const review = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  expect(failure(await anon('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', review))).to.deep.equal([403, 'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope']);
  expect(failure(await anon('GET', '/api/v1/namespaces', undefined, undefined, undefined, { 'Impersonate-User': 'x' }))).to.deep.equal([403, 'users "x" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope']);

  // Bindings to the group and to the user grant what they say, and nothing more.
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  answered(await s('POST', `${rbac}/clusterroles`, JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'anon-read' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] }, { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }, { nonResourceURLs: ['/api'], verbs: ['get'] }] })), 201);
  answered(await s('POST', `${rbac}/clusterrolebindings`, JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'anon-read' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'anon-read' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' }] })), 201);
  const listed = await eventually(() => anon('GET', '/api/v1/namespaces'), (a) => a.status === 200);
  expect((answered<{ items: { metadata: { name: string } }[] }>(listed)).items.map((n) => n.metadata.name)).to.include('default');
  expect((await eventually(() => anon('GET', '/api'), (a) => a.status === 200)).status).to.equal(200);
  const me = answered<{ status: unknown }>(await eventually(() => anon('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', review), (a) => a.status === 201), 201);
  expect(me.status).to.deep.equal({ userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  expect(failure(await anon('DELETE', '/api/v1/namespaces/default'))).to.deep.equal([403, 'namespaces "default" is forbidden: User "system:anonymous" cannot delete resource "namespaces" in API group "" in the namespace "default"']);
  // A wrong token is not the anonymous user: still a 401.
  expect(failure(await wrong('GET', '/api/v1/namespaces'))).to.deep.equal([401, 'Unauthorized']);
  // (Not `view`: aggregated roles get their rules from kube-controller-manager's aggregation controller, which neither runs.)
  answered(await s('POST', `${rbac}/namespaces/default/roles`, JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'anon-cm' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] })), 201);
  answered(await s('POST', `${rbac}/namespaces/default/rolebindings`, JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'anon-user' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'anon-cm' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:anonymous' }] })), 201);
  expect((await eventually(() => anon('GET', '/api/v1/namespaces/default/configmaps'), (a) => a.status === 200)).status).to.equal(200);
}, { token: 'kubekit-anonymous-test' });
