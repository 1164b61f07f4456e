// The RBAC storage's escalation check (pkg/registry/rbac/*/policybased): a user who may write roles and
// bindings may still only grant what it holds, unless it may `escalate` roles or `bind` the role. An operator
// whose ServiceAccount creates the Roles of its workloads meets this on every cluster; kubekit let any such
// write through. Each request is sent as an impersonated user (alice, or a service account); the answers,
// with their Status details, are kube-apiserver 1.34.4's (fixtures/rbacEscalation.json, recorded with
// KUBEKIT_RECORD_RBAC_ESCALATION=1 against the reference).
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { APPLY, MERGE, answered, describeOnBothServers, eventually, type Answer, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/rbacEscalation.json', import.meta.url);
const G = 'rbac.authorization.k8s.io';
const R = `/apis/${G}/v1`;
const NS = 'esc';
const ROLES = `${R}/namespaces/${NS}/roles`;
const BINDINGS = `${R}/namespaces/${NS}/rolebindings`;
const alice = { 'Impersonate-User': 'alice' };
const operator = { 'Impersonate-User': `system:serviceaccount:${NS}:op` };

type Rule = Record<string, string[]>;
const role = (name: string, rules: Rule[], meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name, ...meta }, rules });
const clusterRole = (name: string, rules: Rule[], extra: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleRef: Record<string, string>, subject = 'bob'): string =>
  JSON.stringify({ apiVersion: `${G}/v1`, kind, metadata: { name }, roleRef: { apiGroup: G, ...roleRef }, subjects: [{ kind: 'User', name: subject }] });

/** What a write may be refused with, in full: status, reason, message and details. */
function outcome(a: Answer): string {
  if (a.status < 300) return String(a.status);
  const s = JSON.parse(a.text) as { reason?: string; details?: unknown };
  return `${a.status} ${s.reason ?? ''} ${JSON.stringify(a.message)} ${JSON.stringify(s.details ?? null)}`;
}

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const answers: string[] = [];
  const ask = async (label: string, a: Promise<Answer>): Promise<void> => { answers.push(`${label}: ${outcome(await a)}`); };

  // Set up as the admin: alice may write every RBAC kind (but not escalate or bind), read pods, read one
  // ConfigMap by name, read a few paths; the operator's ServiceAccount the same through a RoleBinding.
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })), 201);
  const writer: Rule[] = [
    { apiGroups: [G], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], verbs: ['create', 'get', 'list', 'update', 'patch', 'delete'] },
    { apiGroups: [''], resources: ['pods', '*/status'], verbs: ['get', 'list'] },
    { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] },
    { nonResourceURLs: ['/healthz', '/logs/*'], verbs: ['get'] },
  ];
  answered(await s('POST', `${R}/clusterroles`, clusterRole('writer', writer)), 201);
  answered(await s('POST', `${R}/clusterrolebindings`, binding('ClusterRoleBinding', 'alice', { kind: 'ClusterRole', name: 'writer' }, 'alice')), 201);
  answered(await s('POST', BINDINGS, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'op' }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'writer' }, subjects: [{ kind: 'ServiceAccount', name: 'op' }] })), 201);
  // Roles and bindings alice did not make: with rules she lacks, and to cluster-admin.
  answered(await s('POST', ROLES, role('admins', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }])), 201);
  answered(await s('POST', BINDINGS, binding('RoleBinding', 'admins', { kind: 'ClusterRole', name: 'cluster-admin' })), 201);
  // The reference authorizes from its informers: wait until both users are allowed to write.
  for (const who of [alice, operator]) expect((await eventually(() => s('GET', ROLES, undefined, undefined, undefined, who), (a) => a.status === 200)).status).to.equal(200);

  // Roles: only rules the writer holds; what it lacks, compacted by group and resource, sorted; the check
  // comes before validation (an invalid rule it holds is a 422, one it lacks a 403).
  await ask('held', s('POST', ROLES, role('held', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('lacking', s('POST', ROLES, role('lacking', [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'list', 'watch'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('names', s('POST', ROLES, role('names', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('held name', s('POST', ROLES, role('held-name', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('urls held, invalid in a Role', s('POST', ROLES, role('urls', [{ nonResourceURLs: ['/healthz', '/logs/x'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('urls lacking', s('POST', ROLES, role('urls2', [{ nonResourceURLs: ['/metrics', '/logs'], verbs: ['get', 'post'] }]), undefined, undefined, alice));
  await ask('subresources', s('POST', ROLES, role('sub', [{ apiGroups: [''], resources: ['pods/status', 'nodes/status', 'pods/log'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('no verbs', s('POST', ROLES, role('none', [{ apiGroups: [''], resources: ['pods'], verbs: [] }]), undefined, undefined, alice));
  await ask('stars', s('POST', ROLES, role('stars', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), undefined, undefined, alice));
  await ask('generated name', s('POST', ROLES, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { generateName: 'g-' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] }), undefined, undefined, alice));
  await ask('invalid name', s('POST', ROLES, role('a%b', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('dry run', s('POST', `${ROLES}?dryRun=All`, role('dry', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('quoted', s('POST', ROLES, role('quoted', [{ apiGroups: ['a"b'], resources: ['x\ty'], verbs: ['é', '\u{1F600}'] }]), undefined, undefined, alice));
  await ask('apply', s('PATCH', `${ROLES}/applied?fieldManager=alice`, role('applied', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), APPLY, undefined, alice));
  await ask('put creates', s('PUT', `${ROLES}/put`, role('put', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('service account', s('POST', ROLES, role('sa', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, operator));
  await ask('service account held', s('POST', ROLES, role('sa-held', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]), undefined, undefined, operator));

  // Updates: any change of a role whose rules the writer lacks, except to the garbage collector's fields.
  await ask('label theirs', s('PATCH', `${ROLES}/admins`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE, undefined, alice));
  await ask('finalizer theirs', s('PATCH', `${ROLES}/admins`, JSON.stringify({ metadata: { finalizers: ['example.com/x'] } }), MERGE, undefined, alice));
  await ask('owner theirs', s('PATCH', `${ROLES}/admins`, JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u' }] } }), MERGE, undefined, alice));
  const theirs = answered<{ metadata: Record<string, unknown> }>(await s('GET', `${ROLES}/admins`));
  await ask('put theirs back', s('PUT', `${ROLES}/admins`, JSON.stringify(theirs), undefined, undefined, alice));
  await ask('label held', s('PATCH', `${ROLES}/held`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE, undefined, alice));
  await ask('widen held', s('PATCH', `${ROLES}/held`, JSON.stringify({ rules: [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get'] }] }), MERGE, undefined, alice));
  await ask('delete theirs', s('DELETE', `${ROLES}/admins`, undefined, undefined, undefined, alice));

  // Bindings: of roles whose rules the writer holds; a missing role is the request's resource not found.
  await ask('bind held', s('POST', BINDINGS, binding('RoleBinding', 'b-held', { kind: 'Role', name: 'held' }), undefined, undefined, alice));
  await ask('bind cluster-admin', s('POST', BINDINGS, binding('RoleBinding', 'b-admin', { kind: 'ClusterRole', name: 'cluster-admin' }), undefined, undefined, alice));
  await ask('bind missing Role', s('POST', BINDINGS, binding('RoleBinding', 'b-none', { kind: 'Role', name: 'nope' }), undefined, undefined, alice));
  await ask('bind missing ClusterRole', s('POST', BINDINGS, binding('RoleBinding', 'b-none2', { kind: 'ClusterRole', name: 'nope' }), undefined, undefined, alice));
  // The role is read by the store's key function first: a name it refuses, or none, is its 400.
  for (const [kind, name] of [['Role', 'a/b'], ['ClusterRole', '..'], ['Role', 'x%/.'], ['ClusterRole', '']]) {
    await ask(`bind a ${kind} named ${JSON.stringify(name)}`, s('POST', BINDINGS, binding('RoleBinding', `b-key-${answers.length}`, { kind, name }), undefined, undefined, alice));
  }
  await ask('bind another kind', s('POST', BINDINGS, binding('RoleBinding', 'b-kind', { kind: 'Foo', name: 'x' }), undefined, undefined, alice));
  await ask('bind another group', s('POST', BINDINGS, binding('RoleBinding', 'b-group', { kind: 'Role', name: 'held', apiGroup: 'x' }), undefined, undefined, alice));
  await ask('cluster bind cluster-admin', s('POST', `${R}/clusterrolebindings`, binding('ClusterRoleBinding', 'c-admin', { kind: 'ClusterRole', name: 'cluster-admin' }), undefined, undefined, alice));
  await ask('cluster bind a Role', s('POST', `${R}/clusterrolebindings`, binding('ClusterRoleBinding', 'c-role', { kind: 'Role', name: 'held' }), undefined, undefined, alice));
  await ask('bind aggregate-to-edit', s('POST', BINDINGS, binding('RoleBinding', 'b-edit', { kind: 'ClusterRole', name: 'system:aggregate-to-edit' }), undefined, undefined, alice));
  await ask('label their binding', s('PATCH', `${BINDINGS}/admins`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE, undefined, alice));
  await ask('finalizer their binding', s('PATCH', `${BINDINGS}/admins`, JSON.stringify({ metadata: { finalizers: ['example.com/x'] } }), MERGE, undefined, alice));
  await ask('rebind to cluster-admin', s('PATCH', `${BINDINGS}/b-held`, JSON.stringify({ roleRef: { kind: 'ClusterRole', name: 'cluster-admin' } }), MERGE, undefined, alice));
  await ask('rebind to a held role', s('PATCH', `${BINDINGS}/b-held`, JSON.stringify({ roleRef: { name: 'held-name' } }), MERGE, undefined, alice));

  // ClusterRoles: an aggregation rule takes everything.
  await ask('aggregation', s('POST', `${R}/clusterroles`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }), undefined, undefined, alice));
  await ask('aggregation without selectors', s('POST', `${R}/clusterroles`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'agg2' }, aggregationRule: { clusterRoleSelectors: [] } }), undefined, undefined, alice));
  await ask('aggregation and rules lacking', s('POST', `${R}/clusterroles`, clusterRole('agg3', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } }), undefined, undefined, alice));
  await ask('cluster urls', s('POST', `${R}/clusterroles`, clusterRole('urls', [{ nonResourceURLs: ['/healthz', '/logs/a/b'], verbs: ['get'] }]), undefined, undefined, alice));
  answered(await s('POST', `${R}/clusterroles`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'aggregated' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } })), 201);
  await ask('label an aggregated role', s('PATCH', `${R}/clusterroles/aggregated`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE, undefined, alice));

  // Errors reading the writer's own roles follow the message (only when it lacks something).
  answered(await s('POST', BINDINGS, binding('RoleBinding', 'broken', { kind: 'Role', name: 'gone' }, 'alice')), 201);
  answered(await s('POST', BINDINGS, binding('RoleBinding', 'broken2', { kind: 'ClusterRole', name: 'gone-too' }, 'alice')), 201);
  await ask('resolution errors', s('POST', ROLES, role('res', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('resolution errors, held', s('POST', ROLES, role('res2', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('resolution errors, binding', s('POST', BINDINGS, binding('RoleBinding', 'res', { kind: 'ClusterRole', name: 'system:aggregate-to-view' }), undefined, undefined, alice));
  await ask('resolution errors, cluster-wide', s('POST', `${R}/clusterroles`, clusterRole('res', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  answered(await s('DELETE', `${BINDINGS}/broken`));
  answered(await s('DELETE', `${BINDINGS}/broken2`));

  // `escalate` on roles (any name) and `bind` on one ClusterRole by name, both in the namespace; `escalate`
  // on one ClusterRole by name, which a POST (no name yet) does not have.
  answered(await s('POST', ROLES, role('delegate', [
    { apiGroups: [G], resources: ['roles'], verbs: ['escalate'] },
    { apiGroups: [G], resources: ['clusterroles'], resourceNames: ['system:aggregate-to-view'], verbs: ['bind'] },
  ])), 201);
  answered(await s('POST', BINDINGS, binding('RoleBinding', 'delegate', { kind: 'Role', name: 'delegate' }, 'alice')), 201);
  answered(await s('POST', `${R}/clusterroles`, clusterRole('escalate-one', [{ apiGroups: [G], resources: ['clusterroles'], resourceNames: ['one'], verbs: ['escalate'] }])), 201);
  answered(await s('POST', `${R}/clusterrolebindings`, binding('ClusterRoleBinding', 'escalate-one', { kind: 'ClusterRole', name: 'escalate-one' }, 'alice')), 201);
  expect((await eventually(() => s('POST', `${ROLES}?dryRun=All`, role('probe', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice), (a) => a.status === 201)).status).to.equal(201);
  expect((await eventually(() => s('PUT', `${R}/clusterroles/one?dryRun=All`, clusterRole('one', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice), (a) => a.status === 201)).status).to.equal(201);
  await ask('escalate', s('POST', ROLES, role('escalated', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('escalate elsewhere', s('POST', `${R}/clusterroles`, clusterRole('two', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('escalate by name, POST', s('POST', `${R}/clusterroles`, clusterRole('one', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('escalate by name, PUT', s('PUT', `${R}/clusterroles/one`, clusterRole('one', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]), undefined, undefined, alice));
  await ask('bind by name', s('POST', BINDINGS, binding('RoleBinding', 'b-view', { kind: 'ClusterRole', name: 'system:aggregate-to-view' }), undefined, undefined, alice));
  await ask('bind by name, cluster-wide', s('POST', `${R}/clusterrolebindings`, binding('ClusterRoleBinding', 'c-view', { kind: 'ClusterRole', name: 'system:aggregate-to-view' }), undefined, undefined, alice));
  await ask('bind another name', s('POST', BINDINGS, binding('RoleBinding', 'b-edit2', { kind: 'ClusterRole', name: 'system:aggregate-to-edit' }), undefined, undefined, alice));

  if (backend === 'reference' && process.env.KUBEKIT_RECORD_RBAC_ESCALATION === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('hostile input: RBAC writes that would grant what the writer lacks (the escalation check), kubekit and the real kube-apiserver', run);
