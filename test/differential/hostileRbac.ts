/**
 * Hostile RBAC objects (hostileCase.ts plays them): the case's Role `r` and RoleBinding `rb` written through every
 * patch type and updates (the binding's roleRef may not change), and new Roles, RoleBindings, ClusterRoles and
 * ClusterRoleBindings built from hostile pieces: names of every shape (path segment names: colons and capitals
 * are fine, `/`, `%`, `.` and `..` are not), rules mixing resources and non-resource URLs, aggregation rules with
 * bad selectors, subjects of every kind with and without API groups and namespaces. Cluster-scoped ones are
 * created with a dry run, or under the case's own names (`{ns}-…`). About a third of the requests are sent as
 * `hostile-writer`, who may write RBAC objects but holds few rules, so they meet the storage's escalation
 * check (what the writer lacks, `escalate` and `bind`, aggregation rules, updates of the garbage collector's
 * fields only); the others are the admin's. The objects grant nothing a request of the case relies on.
 */
import { asHostileWriter, type HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import { jsonPatchBody, patchRequest } from './hostileKinds.js';

const G = '/apis/rbac.authorization.k8s.io/v1';
const RO = '{ro}/r';
const RB = '{rb}/rb';

/** The Role every case starts from. */
export function role(ns: string): Record<string, unknown> {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: ns, labels: { app: 'h' } }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm'] }] };
}

/** The RoleBinding every case starts from: `r` to a user, a group and a service account. */
export function roleBinding(ns: string): Record<string, unknown> {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb', namespace: ns, labels: { app: 'h' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }, { kind: 'ServiceAccount', name: 'op', namespace: ns }],
  };
}

const names = ['ok', 'My:Role_X', 'system:hostile', 'a/b', 'a%b', '.', '..', 'x'.repeat(254), '', 'ü'];

function rule(r: Rng, namespaced: boolean): unknown {
  const o: Record<string, unknown> = {};
  if (r.chance(0.9)) o.verbs = r.pick<unknown>([['get'], ['*'], [], ['get', 'watch', 'list'], [''], null]);
  if (r.chance(0.7)) o.apiGroups = r.pick<unknown>([[''], ['*'], ['apps', 'rbac.authorization.k8s.io'], [], null]);
  if (r.chance(0.7)) o.resources = r.pick<unknown>([['pods'], ['*'], ['pods/log', 'deployments/scale'], [], [''], ['configmaps'], ['pods/status', 'secrets']]);
  if (r.chance(0.2)) o.resourceNames = r.pick<unknown>([['a'], [], ['a', 'a'], ['cm']]);
  if (r.chance(namespaced ? 0.1 : 0.35)) o.nonResourceURLs = r.pick<unknown>([['/healthz'], ['/api/*'], ['*'], [], ['healthz']]);
  return r.chance(0.05) ? r.pick([null, 'x', []]) : o;
}

function subject(r: Rng): unknown {
  return r.pick<unknown>([
    { kind: 'User', name: 'alice' }, { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'User', name: 'a', apiGroup: 'x' }, { kind: 'User' },
    { kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'g', apiGroup: '' }, { kind: 'ServiceAccount', name: 'op' }, { kind: 'ServiceAccount', name: 'op', namespace: '{ns}' },
    { kind: 'ServiceAccount', name: 'Bad:SA', namespace: '{ns}' }, { kind: 'ServiceAccount', name: 'op', apiGroup: 'rbac.authorization.k8s.io', namespace: '{ns}' },
    { kind: 'Robot', name: 'r' }, { kind: '', name: 'x' }, { name: 'nobody' }, null, 'alice',
  ]);
}

function roleRef(r: Rng, cluster: boolean): unknown {
  const o: Record<string, unknown> = {};
  if (r.chance(0.7)) o.apiGroup = r.pick(['rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', '', 'x']);
  if (r.chance(0.95)) o.kind = r.pick(cluster ? ['ClusterRole', 'ClusterRole', 'Role', 'Bogus'] : ['Role', 'ClusterRole', 'Bogus', '']);
  if (r.chance(0.95)) o.name = r.pick(['r', 'view', 'system:hostile', 'a/b', '..', '', 'cluster-admin', 'system:aggregate-to-view', 'missing']);
  return r.chance(0.05) ? r.pick([null, 'x']) : o;
}

function aggregationRule(r: Rng): unknown {
  return r.pick<unknown>([
    { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-h': 'true' } }] }, { clusterRoleSelectors: [] }, {}, null,
    { clusterRoleSelectors: [{ matchLabels: { 'a b': 'c' } }] }, { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Bogus' }] }] },
    { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In' }] }, {}] }, { clusterRoleSelectors: [{ matchLabels: { k: 'bad value!' } }] },
  ]);
}

const dryRun = (r: Rng): string => r.pick(['?dryRun=All', '?dryRun=All', '?dryRun=All&fieldValidation=Strict']);

function create(r: Rng): HostileRequest {
  const kind = r.pick(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'] as const);
  const cluster = kind.startsWith('Cluster');
  // Cluster-scoped: a dry run, or under the case's own name.
  const stored = !cluster || r.chance(0.3);
  const name = stored ? (cluster ? `{ns}-${r.pick(['c', 'C:x', 'c'])}-{i}` : r.pick(['{i}-ok', 'My:Role-{i}', ...names])) : r.pick(names);
  const body: Record<string, unknown> = { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: r.chance(0.1) ? { generateName: r.pick(['g:', 'g/', 'G-']) } : { name } };
  if (kind === 'Role' || kind === 'ClusterRole') {
    if (r.chance(0.9)) body.rules = Array.from({ length: r.int(0, 3) }, () => rule(r, kind === 'Role'));
    if (kind === 'ClusterRole' && r.chance(0.35)) body.aggregationRule = aggregationRule(r);
  } else {
    if (r.chance(0.95)) body.roleRef = roleRef(r, cluster);
    if (r.chance(0.8)) body.subjects = Array.from({ length: r.int(0, 3) }, () => subject(r));
  }
  const path = { Role: '{ro}', RoleBinding: '{rb}', ClusterRole: `${G}/clusterroles`, ClusterRoleBinding: `${G}/clusterrolebindings` }[kind];
  const q = stored ? r.pick(['', '', '?fieldValidation=Strict', '?dryRun=All']) : dryRun(r);
  return { kind: 'rbac', label: `create ${kind}${stored ? '' : ' (dry run)'}`, method: 'POST', path: `${path}${q}`, contentType: 'application/json', body: JSON.stringify(body) };
}

const rolePatches: [string, string][] = [
  ['rules emptied', '{"rules":[]}'], ['rules null', '{"rules":null}'], ['a rule without verbs', '{"rules":[{"apiGroups":[""],"resources":["pods"]}]}'],
  ['a non-resource rule', '{"rules":[{"verbs":["get"],"nonResourceURLs":["/healthz"]}]}'], ['$patch in rules', '{"rules":[{"$patch":"delete"}]}'],
  ['an aggregation rule on a Role', '{"aggregationRule":{"clusterRoleSelectors":[]}}'], ['a label', '{"metadata":{"labels":{"x":"y"}}}'], ['__proto__', '{"rules":[{"__proto__":{"polluted":"yes"},"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}'],
  ['a rule on secrets', '{"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["secrets"]}]}'], ['a finalizer', '{"metadata":{"finalizers":["example.com/f"]}}'],
  ['escalate on roles', '{"rules":[{"verbs":["escalate","bind"],"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"]}]}'],
];
const bindingPatches: [string, string][] = [
  ['another roleRef', '{"roleRef":{"name":"view","kind":"ClusterRole"}}'], ['roleRef apiGroup removed', '{"roleRef":{"apiGroup":null}}'], ['roleRef null', '{"roleRef":null}'],
  ['subjects emptied', '{"subjects":[]}'], ['a subject without apiGroup', '{"subjects":[{"kind":"User","name":"bob"}]}'], ['a bad subject', '{"subjects":[{"kind":"ServiceAccount","name":"Bad:SA"}]}'],
  ['$patch in subjects', '{"subjects":[{"$patch":"delete"}]}'], ['a label', '{"metadata":{"labels":{"x":"y"}}}'],
  ['roleRef to cluster-admin', '{"roleRef":{"name":"cluster-admin","kind":"ClusterRole"}}'], ['a finalizer', '{"metadata":{"finalizers":["example.com/f"]}}'],
];
const rolePaths = ['/rules/0', '/rules/-', '/rules/0/verbs', '/rules/0/verbs/-', '/rules/0/resourceNames', '/rules/0/nonResourceURLs', '/rules', '/aggregationRule', '/metadata/name', '/__proto__/polluted'];
const bindingPaths = ['/roleRef/name', '/roleRef/kind', '/roleRef/apiGroup', '/roleRef', '/subjects/0', '/subjects/-', '/subjects/0/apiGroup', '/subjects/2/namespace', '/subjects', '/metadata/name'];
const values = ['"get"', '[]', 'null', '{}', '"view"', '"ClusterRole"', '""', '{"kind":"User","name":"bob"}', '["*"]', '1', '{"verbs":["get"],"apiGroups":[""],"resources":["pods"]}'];

/** One hostile RBAC request: the admin's, or about a third of them the `hostile-writer`'s. */
export function rbacRequest(r: Rng): HostileRequest {
  const q = request(r);
  return r.chance(0.35) ? asHostileWriter(q) : q;
}

function request(r: Rng): HostileRequest {
  const g = r.int(0, 11);
  if (g >= 8) return create(r);
  const onBinding = r.chance(0.5);
  const query = (x: Rng): string => x.pick(['', '', '?fieldValidation=Strict', '?dryRun=All', '?fieldManager=hostile']);
  const patch = patchRequest(r, g, 'rbac', onBinding ? RB : RO, onBinding ? bindingPatches : rolePatches, query, (x) => jsonPatchBody(x, onBinding ? bindingPaths : rolePaths, values));
  if (patch !== undefined) return { ...patch, label: `${onBinding ? 'RoleBinding' : 'Role'}: ${patch.label}` };
  // An update (PUT) of the case's object, with hostile pieces.
  const body = onBinding
    ? { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb', resourceVersion: '{rv}' }, roleRef: r.chance(0.5) ? { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } : roleRef(r, false), subjects: Array.from({ length: r.int(0, 2) }, () => subject(r)) }
    : { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', resourceVersion: '{rv}' }, rules: Array.from({ length: r.int(0, 2) }, () => rule(r, true)) };
  return { kind: 'rbac', label: `update ${onBinding ? 'RoleBinding' : 'Role'}`, method: 'PUT', path: `${onBinding ? RB : RO}${query(r)}`, contentType: 'application/json', body: JSON.stringify(body) };
}
