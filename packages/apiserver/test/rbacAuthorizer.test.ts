// The RBAC authorizer's rule matching and walk (plugin/pkg/auth/authorizer/rbac RuleAllows and the
// rbacv1helpers matchers' tables; rbac/validation DefaultRuleResolver.VisitRulesFor), on a store of its own.
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { ObjectStore } from '../src/storage/objectStore.js';
import { RbacAuthorizer, aggregate, ruleAllows, type AuthorizationRequest } from '../src/rbacAuthorizer.js';

const get = (o: Partial<Extract<AuthorizationRequest, { resourceRequest: true }>> = {}): AuthorizationRequest =>
  ({ resourceRequest: true, verb: 'get', namespace: 'default', apiGroup: '', resource: 'pods', subresource: '', name: '', ...o });
const path = (p: string, verb = 'get'): AuthorizationRequest => ({ resourceRequest: false, verb, path: p });

describe('RBAC rule matching (RuleAllows)', () => {
  it('matches verbs, groups and resources exactly or by star', () => {
    expect(ruleAllows(get(), { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).to.equal(true);
    expect(ruleAllows(get(), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] })).to.equal(true);
    expect(ruleAllows(get({ verb: 'list' }), { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).to.equal(false);
    expect(ruleAllows(get({ apiGroup: 'apps' }), { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).to.equal(false);
    // A rule without groups or resources covers no resource request.
    expect(ruleAllows(get(), { verbs: ['get'], resources: ['pods'] })).to.equal(false);
    expect(ruleAllows(get(), { verbs: ['get'], apiGroups: [''] })).to.equal(false);
  });

  it('matches a subresource by its combined name or by `*/subresource`, never a resource by `*/x`', () => {
    const rule = { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] };
    expect(ruleAllows(get({ resource: 'deployments', subresource: 'scale' }), rule)).to.equal(true);
    expect(ruleAllows(get({ resource: 'deployments', subresource: 'status' }), rule)).to.equal(false);
    expect(ruleAllows(get({ resource: 'deployments' }), rule)).to.equal(false);
    expect(ruleAllows(get({ subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] })).to.equal(true);
    expect(ruleAllows(get({ subresource: 'log' }), { verbs: ['get'], apiGroups: [''], resources: ['pods'] })).to.equal(false);
    // `*/cale` is not `*/scale`: the length must match.
    expect(ruleAllows(get({ subresource: 'scale' }), { verbs: ['get'], apiGroups: [''], resources: ['*/cale'] })).to.equal(false);
  });

  it('limits a rule with resource names to those names (a request without a name is not among them)', () => {
    const rule = { verbs: ['*'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] };
    expect(ruleAllows(get({ resource: 'secrets', name: 's1' }), rule)).to.equal(true);
    expect(ruleAllows(get({ resource: 'secrets', name: 's2' }), rule)).to.equal(false);
    expect(ruleAllows(get({ resource: 'secrets', verb: 'list' }), rule)).to.equal(false);
  });

  it('matches non-resource paths exactly, by `*`, or by a prefix ending in stars', () => {
    const rule = { verbs: ['get'], nonResourceURLs: ['/api', '/apis/*', '/logs**'] };
    expect(ruleAllows(path('/api'), rule)).to.equal(true);
    expect(ruleAllows(path('/api/v1'), rule)).to.equal(false);
    expect(ruleAllows(path('/apis/apps'), rule)).to.equal(true);
    expect(ruleAllows(path('/apis'), rule)).to.equal(false);
    expect(ruleAllows(path('/logs/x'), rule)).to.equal(true);
    expect(ruleAllows(path('/api', 'post'), rule)).to.equal(false);
    expect(ruleAllows(path('/anything'), { verbs: ['*'], nonResourceURLs: ['*'] })).to.equal(true);
    // Non-resource rules do not cover resources, nor resource rules paths.
    expect(ruleAllows(get(), rule)).to.equal(false);
    expect(ruleAllows(path('/api'), { verbs: ['get'], apiGroups: ['*'], resources: ['*'] })).to.equal(false);
  });
});

describe('RbacAuthorizer', () => {
  const obj = (name: string, o: Record<string, unknown>): KubeObject => ({ apiVersion: 'rbac.authorization.k8s.io/v1', metadata: { name }, ...o }) as KubeObject;

  async function storeWith(objects: [string, string, KubeObject][]): Promise<ObjectStore> {
    const store = new ObjectStore();
    for (const [resource, key, o] of objects) await store.create({ group: 'rbac.authorization.k8s.io', resource }, key, key.split('/').pop() ?? '', o).durable;
    return store;
  }

  it('allows system:masters without a reason, walks cluster bindings before the namespace\'s, and names the first that allows', async () => {
    const store = await storeWith([
      ['clusterroles', 'reader', obj('reader', { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] })],
      ['clusterrolebindings', 'b-read', obj('b-read', { roleRef: { kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'Group', name: 'devs' }] })],
      ['roles', 'default/local', obj('local', { rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] })],
      ['rolebindings', 'default/a-local', obj('a-local', { roleRef: { kind: 'Role', name: 'local' }, subjects: [{ kind: 'User', name: 'ann' }, { kind: 'Group', name: 'devs' }] })],
      ['rolebindings', 'other/elsewhere', obj('elsewhere', { roleRef: { kind: 'ClusterRole', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'op' }] })],
    ]);
    const a = new RbacAuthorizer(store);
    expect(a.authorize({ username: 'x', groups: ['system:masters'] }, get({ verb: 'delete' }))).to.deep.equal({ allowed: true, reason: '' });
    expect(a.authorize({ username: 'x', groups: ['devs'] }, get())).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "b-read" of ClusterRole "reader" to Group "devs"' });
    expect(a.authorize({ username: 'x', groups: ['devs'] }, get({ verb: 'list' }))).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by RoleBinding "a-local/default" of Role "local" to Group "devs"' });
    expect(a.authorize({ username: 'ann', groups: [] }, get({ verb: 'list', namespace: 'other' }))).to.deep.equal({ allowed: false, reason: '' });
    // A ServiceAccount subject without a namespace is the binding's.
    expect(a.authorize({ username: 'system:serviceaccount:other:op', groups: [] }, get({ namespace: 'other' }))).to.deep.equal({ allowed: true, reason: 'RBAC: allowed by RoleBinding "elsewhere/other" of ClusterRole "reader" to ServiceAccount "op/other"' });
    expect(a.rulesFor({ username: 'ann', groups: ['devs'] }, 'default')).to.deep.equal({
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [], nonResourceURLs: [] }, { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [], nonResourceURLs: [] }],
      errors: [],
    });
  });

  it('reports the roles bindings name that do not exist, and an unknown roleRef kind, once each', async () => {
    const store = await storeWith([
      ['clusterrolebindings', 'ghost', obj('ghost', { roleRef: { kind: 'ClusterRole', name: 'ghost' }, subjects: [{ kind: 'User', name: 'bob' }] })],
      ['clusterrolebindings', 'ghost2', obj('ghost2', { roleRef: { kind: 'ClusterRole', name: 'ghost' }, subjects: [{ kind: 'User', name: 'bob' }] })],
      ['rolebindings', 'default/odd', obj('odd', { roleRef: { kind: 'Thing', name: 't' }, subjects: [{ kind: 'User', name: 'bob' }] })],
    ]);
    expect(new RbacAuthorizer(store).authorize({ username: 'bob', groups: [] }, get())).to.deep.equal({ allowed: false, reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, unsupported role reference kind: "Thing"]' });
    expect(aggregate(['a'])).to.equal('a');
    expect(aggregate(['a', 'a'])).to.equal('a');
    expect(aggregate([])).to.equal('');
  });
});
