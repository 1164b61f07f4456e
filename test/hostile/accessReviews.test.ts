// The review kinds and impersonation on both servers: SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview, SelfSubjectRulesReview (pkg/registry/authorization/*, validated as
// pkg/apis/authorization/validation does), SelfSubjectReview and TokenReview (pkg/registry/authentication),
// answered by RBAC (plugin/pkg/auth/authorizer/rbac, the bootstrap policy's roles and bindings), and requests
// that impersonate a user (filters/impersonation.go) authorized by RBAC as that user, refused with
// responsewriters.Forbidden's words. Every expected answer is kube-apiserver 1.34.4's to the same request
// (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Send } from './sender.js';

const A = '/apis/authorization.k8s.io/v1';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const review = (kind: string, spec: Record<string, unknown>, metadata?: Record<string, unknown>): string =>
  JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind, ...(metadata === undefined ? {} : { metadata }), spec });

interface Review { metadata: Record<string, unknown>; spec: Record<string, unknown>; status: Record<string, unknown> }

/** A SubjectAccessReview's status. */
async function sar(s: Send, spec: Record<string, unknown>): Promise<Record<string, unknown>> {
  return answered<Review>(await s('POST', `${A}/subjectaccessreviews`, review('SubjectAccessReview', spec)), 201).status;
}

const pods = (o: Record<string, unknown> = {}): Record<string, unknown> => ({ resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods', ...o } });

async function run(s: Send): Promise<void> {
  // The bootstrap policy: what every authenticated user may do, what system:masters may do.
  expect(await sar(s, { user: 'z', groups: ['system:authenticated'], nonResourceAttributes: { path: '/apis/foo', verb: 'get' } })).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' });
  expect(await sar(s, { user: 'z', groups: ['system:authenticated'], resourceAttributes: { group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', verb: 'create' } })).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"' });
  expect(await sar(s, { user: 'system:kube-scheduler', ...pods({ verb: 'list' }) })).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"' });
  expect(await sar(s, { user: 'z', groups: ['system:masters'], ...pods() })).to.deep.equal({ allowed: true });
  const clusterRoles = answered<{ items: { metadata: { name: string } }[] }>(await s('GET', `${RBAC}/clusterroles?labelSelector=kubernetes.io%2Fbootstrapping%3Drbac-defaults`));
  expect(clusterRoles.items.length).to.equal(68);

  // An operator's RBAC.
  answered(await s('POST', `${RBAC}/namespaces/default/roles`, JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' },
    rules: [{ apiGroups: [''], resources: ['pods', 'pods/log', 'configmaps'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] }, { apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'], verbs: ['*'] }],
  })), 201);
  answered(await s('POST', `${RBAC}/namespaces/default/rolebindings`, JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
    subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'op' }, { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
  })), 201);
  answered(await s('POST', `${RBAC}/namespaces/default/rolebindings`, JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'missing' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'nope' },
    subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
  })), 201);
  answered(await s('POST', `${RBAC}/clusterrolebindings`, JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'crb-missing' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ghost' },
    subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
  })), 201);
  // The apiserver's authorizer reads RBAC through informers: its first answers may predate the bindings.
  for (let i = 0; i < 100 && (await sar(s, { user: 'bob', ...pods() })).reason === undefined; i++) await new Promise((r) => setTimeout(r, 100));
  for (let i = 0; i < 100 && (await sar(s, { user: 'alice', ...pods() })).allowed !== true; i++) await new Promise((r) => setTimeout(r, 100));

  const byRb = { allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/default" of Role "r" to User "alice"' };
  expect(await sar(s, { user: 'alice', ...pods() })).to.deep.equal(byRb);
  expect(await sar(s, { user: 'alice', ...pods({ subresource: 'log' }) })).to.deep.equal(byRb);
  expect(await sar(s, { user: 'alice', ...pods({ subresource: 'exec' }) })).to.deep.equal({ allowed: false });
  expect(await sar(s, { user: 'alice', ...pods({ group: 'apps', resource: 'deployments', subresource: 'scale', verb: 'update' }) })).to.deep.equal(byRb);
  expect(await sar(s, { user: 'alice', ...pods({ resource: 'secrets', name: 's1', verb: 'delete' }) })).to.deep.equal(byRb);
  expect(await sar(s, { user: 'alice', ...pods({ resource: 'secrets', verb: 'list' }) })).to.deep.equal({ allowed: false });
  expect(await sar(s, { user: 'alice', ...pods({ namespace: 'other' }) })).to.deep.equal({ allowed: false });
  expect(await sar(s, { user: 'system:serviceaccount:default:op', ...pods() })).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/default" of Role "r" to ServiceAccount "op/default"' });
  expect(await sar(s, { user: 'x', groups: ['devs'], ...pods({ verb: 'list' }) })).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/default" of Role "r" to Group "devs"' });
  expect(await sar(s, { user: 'bob', ...pods() })).to.deep.equal({ allowed: false, reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "nope" not found]' });
  expect(await sar(s, { user: 'alice', ...pods({ labelSelector: { rawSelector: 'a in (b' } }) })).to.deep.equal({ ...byRb, evaluationError: 'spec.resourceAttributes.labelSelector ignored due to parse error' });
  expect(await sar(s, { user: 'alice', resourceAttributes: {} })).to.deep.equal({ allowed: false });

  // Validation: the review's words, its kind left empty.
  refused(await s('POST', `${A}/subjectaccessreviews`, review('SubjectAccessReview', { groups: [], resourceAttributes: {} })), '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
  const both = await s('POST', `${A}/subjectaccessreviews`, review('SubjectAccessReview', { groups: ['g'], nonResourceAttributes: { path: '/x', verb: 'get' }, resourceAttributes: {} }, { name: 'q' }));
  expect(both.status).to.equal(422);
  expect(both.message).to.match(/^\.authorization\.k8s\.io "" is invalid: \[spec\.nonResourceAttributes: Invalid value: \{"Path":"\/x","Verb":"get"\}: cannot be specified in combination with resourceAttributes, metadata: Invalid value: \{"name":"q","managedFields":\[\{"manager":"[^"]*","operation":"Update","apiVersion":"authorization\.k8s\.io\/v1","time":"[^"]+","fieldsType":"FieldsV1","fieldsV1":\{"f:spec":\{"f:groups":\{\},"f:nonResourceAttributes":\{".":\{\},"f:path":\{\},"f:verb":\{\}\},"f:resourceAttributes":\{\}\}\}\}\]\}: must be empty\]$/);
  refused(await s('POST', `${A}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', {})), '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified');
  refused(await s('POST', `${A}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', { resourceAttributes: { verb: 'get', fieldSelector: {}, labelSelector: { rawSelector: 'a', requirements: [{ key: 'a', operator: 'In' }] } } })), ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required, spec.resourceAttributes.labelSelector.rawSelector: Invalid value: \"a\": may not specified at the same time as requirements, spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']");
  refused(await s('POST', `${A}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', { resourceAttributes: { verb: 'get', fieldSelector: { requirements: [{ key: '', operator: 'Exists', values: ['x'] }, { key: 'a', operator: 'Bogus' }] } } })), ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified, spec.resourceAttributes.fieldSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist']");
  refused(await s('POST', `${A}/namespaces/default/localsubjectaccessreviews`, review('LocalSubjectAccessReview', { user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } })), '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"Path":"/x","Verb":"get"}: disallowed on this kind of request');
  refused(await s('POST', `${A}/namespaces/default/localsubjectaccessreviews`, review('LocalSubjectAccessReview', { user: 'alice', ...pods({ namespace: 'other' }) })), '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
  const other = await s('POST', `${A}/namespaces/default/localsubjectaccessreviews`, review('LocalSubjectAccessReview', { user: 'alice', ...pods() }, { namespace: 'other' }));
  expect([other.status, other.message]).to.deep.equal([400, 'the namespace of the provided object does not match the namespace sent on the request']);
  // A namespace that does not exist is asked about all the same.
  const local = answered<Review>(await s('POST', `${A}/namespaces/nonexistent/localsubjectaccessreviews`, review('LocalSubjectAccessReview', { user: 'u', resourceAttributes: { namespace: 'nonexistent' } })), 201);
  expect([local.metadata.namespace, local.status]).to.deep.equal(['nonexistent', { allowed: false }]);

  // Decoding: the codec's words; the review is never stored.
  const wrongKind = await s('POST', `${A}/selfsubjectaccessreviews`, review('SubjectAccessReview', { resourceAttributes: { verb: 'get' } }));
  expect([wrongKind.status, wrongKind.message]).to.deep.equal([400, 'SubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: converting (v1.SubjectAccessReview) to (authorization.SelfSubjectAccessReview): unknown conversion']);
  const wrongType = await s('POST', `${A}/selfsubjectaccessreviews`, review('SelfSubjectAccessReview', { resourceAttributes: { verb: 5 } }));
  expect([wrongType.status, wrongType.message]).to.deep.equal([400, 'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string']);
  const strict = await s('POST', `${A}/selfsubjectaccessreviews?fieldValidation=Strict`, JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { foo: 1, resourceAttributes: { verb: 'get', bar: 2 } }, status: { allowed: false, x: 1 } }));
  expect([strict.status, strict.message]).to.deep.equal([400, 'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: strict decoding error: unknown field "spec.foo", unknown field "spec.resourceAttributes.bar", unknown field "status.x"']);
  const routes: [string, string, number][] = [['GET', `${A}/selfsubjectaccessreviews`, 405], ['DELETE', `${A}/selfsubjectaccessreviews`, 405], ['GET', `${A}/selfsubjectaccessreviews?watch=1`, 405],
    ['GET', `${A}/selfsubjectaccessreviews/x`, 404], ['PUT', `${A}/selfsubjectaccessreviews/x`, 404], ['POST', `${A}/selfsubjectaccessreviews/x`, 404], ['POST', `${A}/namespaces/default/selfsubjectaccessreviews`, 404], ['POST', `${A}/localsubjectaccessreviews`, 404]];
  for (const [method, path, code] of routes) expect((await s(method, path, method === 'GET' ? undefined : review('SelfSubjectAccessReview', {}))).status, `${method} ${path}`).to.equal(code);

  // The self reviews answer for whom the request impersonates; so is every request authorized.
  const asAlice = { 'Impersonate-User': 'alice' };
  const selfReview = (verb: string): string => review('SelfSubjectAccessReview', pods({ verb }));
  expect(answered<Review>(await s('POST', `${A}/selfsubjectaccessreviews`, selfReview('list'), undefined, undefined, asAlice), 201).status).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by RoleBinding "rb/default" of Role "r" to User "alice"' });
  expect(answered<Review>(await s('POST', `${A}/selfsubjectaccessreviews`, selfReview('delete'), undefined, undefined, asAlice), 201).status).to.deep.equal({ allowed: false });
  const rules = answered<Review>(await s('POST', `${A}/selfsubjectrulesreviews`, review('SelfSubjectRulesReview', { namespace: 'default' }), undefined, undefined, asAlice), 201).status;
  // The apiserver walks its bindings in no fixed order: the rules are compared as sets.
  const sortedJSON = (v: unknown): string[] => (v as unknown[]).map((x) => JSON.stringify(x)).sort();
  expect(sortedJSON(rules.resourceRules)).to.deep.equal(sortedJSON([
    { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }, { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log', 'configmaps'] }, { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }, { verbs: ['*'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] },
  ]));
  expect(sortedJSON(rules.nonResourceRules)).to.deep.equal(sortedJSON([
    { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }, { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] },
  ]));
  expect(rules.incomplete).to.equal(false);
  const noNamespace = await s('POST', `${A}/selfsubjectrulesreviews`, review('SelfSubjectRulesReview', {}));
  expect([noNamespace.status, noNamespace.message]).to.deep.equal([400, 'no namespace on request']);
  const whoami = answered<Review>(await s('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', undefined, undefined, { 'Impersonate-User': 'system:serviceaccount:default:op', 'Impersonate-Extra-Scopes': 'a', 'Impersonate-Uid': 'u9' }), 201);
  expect(whoami.status).to.deep.equal({ userInfo: { username: 'system:serviceaccount:default:op', uid: 'u9', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'], extra: { scopes: ['a'] } } });
  expect(answered<Review>(await s('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', undefined, undefined, { 'Impersonate-User': 'alice', 'Impersonate-Group': 'g1' }), 201).status).to.deep.equal({ userInfo: { username: 'alice', groups: ['g1', 'system:authenticated'] } });
  // An extra key is header data: `__proto__` is one like any other (kubekit answered a 500).
  const protoExtra = await s('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', undefined, undefined, { 'Impersonate-User': 'alice', 'Impersonate-Extra-__proto__': 'x', 'Impersonate-Extra-B': 'y' });
  expect(protoExtra.status, protoExtra.text).to.equal(201);
  expect(JSON.stringify((JSON.parse(protoExtra.text) as Review).status)).to.equal('{"userInfo":{"username":"alice","groups":["system:authenticated"],"extra":{"__proto__":["x"],"b":["y"]}}}');
  // An extra key is lowercased, then decoded as url.PathUnescape decodes it; one that does not decode is kept as sent.
  const escaped = answered<Review>(await s('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', undefined, undefined, { 'Impersonate-User': 'alice', 'Impersonate-Extra-Example.com%2FScope': 'a', 'Impersonate-Extra-Bad%zz': 'b', 'Impersonate-Extra-%41': 'c' }), 201);
  expect(JSON.stringify(escaped.status)).to.equal('{"userInfo":{"username":"alice","groups":["system:authenticated"],"extra":{"A":["c"],"bad%zz":["b"],"example.com/scope":["a"]}}}');
  const tokenless = await s('POST', '/apis/authentication.k8s.io/v1/tokenreviews', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} }));
  expect([tokenless.status, tokenless.message]).to.deep.equal([400, 'token is required for TokenReview in authentication']);

  answered(await s('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })), 201);
  expect((await s('GET', '/api/v1/namespaces/default/configmaps/c', undefined, undefined, undefined, asAlice)).status).to.equal(200);
  expect((await s('GET', '/api/v1/namespaces/default/pods', undefined, undefined, undefined, { 'Impersonate-User': 'system:serviceaccount:default:op' })).status).to.equal(200);
  expect((await s('GET', '/api/v1/namespaces/default/pods', undefined, undefined, undefined, { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' })).status).to.equal(200);
  // A list or watch selecting one name by field is a request for that object (requestinfo.go): `resourceNames` allows it.
  expect((await s('GET', '/api/v1/namespaces/default/secrets?fieldSelector=metadata.name%3D%3Ds1,type%3Dx', undefined, undefined, undefined, asAlice)).status).to.equal(200);
  const denials: [string, string, Record<string, string>, string][] = [
    ['POST', '/api/v1/namespaces/default/configmaps', asAlice, 'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default"'],
    ['GET', '/api/v1/pods', asAlice, 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope'],
    ['GET', '/apis/apps/v1/namespaces/default/deployments/x/scale', asAlice, 'deployments.apps "x" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" in the namespace "default"'],
    ['GET', '/api/v1/nodes/n1', asAlice, 'nodes "n1" is forbidden: User "alice" cannot get resource "nodes" in API group "" at the cluster scope'],
    ['GET', '/api/v1/namespaces/default/secrets?watch=1', asAlice, 'secrets is forbidden: User "alice" cannot watch resource "secrets" in API group "" in the namespace "default"'],
    ['DELETE', '/api/v1/namespaces/default/configmaps', asAlice, 'configmaps is forbidden: User "alice" cannot deletecollection resource "configmaps" in API group "" in the namespace "default"'],
    ['GET', '/metrics', asAlice, 'forbidden: User "alice" cannot get path "/metrics"'],
    ['GET', '/api/v1/namespaces/default/secrets?fieldSelector=metadata.name%3Ds2&watch=1', asAlice, 'secrets "s2" is forbidden: User "alice" cannot watch resource "secrets" in API group "" in the namespace "default"'],
    ['GET', '/api/v1/namespaces/default/secrets?fieldSelector=metadata.name!%3Ds1', asAlice, 'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"'],
    ['GET', '/api/v1/namespaces/default/secrets', { 'Impersonate-User': 'system:serviceaccount:default:op' }, 'secrets is forbidden: User "system:serviceaccount:default:op" cannot list resource "secrets" in API group "" in the namespace "default"'],
    ['POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { 'Impersonate-User': 'system:anonymous' }, 'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope'],
  ];
  for (const [method, path, headers, message] of denials) {
    const a = await s(method, path, method === 'POST' ? JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd' } }) : undefined, undefined, undefined, headers);
    expect([a.status, a.message], `${method} ${path}`).to.deep.equal([403, message]);
  }
  const groupOnly = await s('GET', '/api/v1/namespaces/default/pods', undefined, undefined, undefined, { 'Impersonate-Group': 'devs' });
  expect([groupOnly.status, groupOnly.text]).to.deep.equal([500, 'Internal Server Error: "/api/v1/namespaces/default/pods": requested [{Group  devs    }] without impersonating a user\n']);
}

describeOnBothServers('access reviews and impersonation, authorized by RBAC (kube-apiserver 1.34.4)', run);
