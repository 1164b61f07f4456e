/**
 * Authorization decisions from the stored RBAC objects, as kube-apiserver 1.34.4 makes them with
 * `--authorization-mode=RBAC`: the privileged group (`system:masters`) is allowed everything first
 * (authorizerfactory.NewPrivilegedGroups), then the bindings are walked — every ClusterRoleBinding, then
 * the RoleBindings of the request's namespace (rbac/validation DefaultRuleResolver.VisitRulesFor) — and the
 * first rule of a role bound to the user that covers the request allows it
 * (plugin/pkg/auth/authorizer/rbac RuleAllows), naming the binding; a role that cannot be read is an error
 * the denial reports.
 *
 * The embedded server does not authorize its own requests (its one identity is in `system:masters`); these
 * decisions answer the access reviews (`SubjectAccessReview` and its kin), so that an operator's RBAC can be
 * asked what it allows. Bindings are walked in name order (the apiserver walks its informers' caches, in
 * no fixed order: with two bindings that allow a request, the one it names may differ).
 */
import { KubeError, goQuote } from '@kubekit/core';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { checkKeyName } from './objectMeta.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';

/** Who a decision is for (`user.Info`). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** What is asked (`authorizer.Attributes`): a resource request or a non-resource path. */
export type AuthorizationRequest =
  | { resourceRequest: true; verb: string; namespace: string; apiGroup: string; resource: string; subresource: string; name: string }
  | { resourceRequest: false; verb: string; path: string };

/** A decision: allowed (with the binding that allowed it, or nothing for the privileged group), or not (with why, if a role could not be read). */
export interface AuthorizationDecision {
  allowed: boolean;
  reason: string;
}

/** An RBAC policy rule as stored (`rbacv1.PolicyRule`). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** authentication/v1 `UserInfo` as the apiserver writes it (reviews, AdmissionReviews): empty members left out. */
export function userInfoJSON(user: UserInfo): Record<string, unknown> {
  const info: Record<string, unknown> = { username: user.username };
  if (user.uid !== undefined && user.uid !== '') info.uid = user.uid;
  if (user.groups.length > 0) info.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) info.extra = user.extra;
  return info;
}

/** `user.SystemPrivilegedGroup`. */
export const privilegedGroup = 'system:masters';

/** The identity of every request the embedded server takes (its admission requests and reviews say so). */
export const serverUser: UserInfo = { username: 'system:admin', groups: [privilegedGroup, 'system:authenticated'] };

/** `user.Anonymous`: who a request without credentials is, on a server with a token (`--anonymous-auth`, on by default). */
export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

const rbacGroup = 'rbac.authorization.k8s.io';
const buckets = {
  roles: bucketOf({ group: rbacGroup, resource: 'roles' }),
  roleBindings: bucketOf({ group: rbacGroup, resource: 'rolebindings' }),
  clusterRoles: bucketOf({ group: rbacGroup, resource: 'clusterroles' }),
  clusterRoleBindings: bucketOf({ group: rbacGroup, resource: 'clusterrolebindings' }),
};

/** Called per rule of a role bound to the user (with the binding's description), or per role that could not be read; returns false to stop. */
type Visitor = (source: string | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

/** The decisions and rules of the RBAC objects in one store. */
export class RbacAuthorizer {
  constructor(private readonly store: ObjectStore) {}

  /** Whether `user` may do what `request` asks (the union of the privileged-group and RBAC authorizers). */
  authorize(user: UserInfo, request: AuthorizationRequest): AuthorizationDecision {
    if (user.groups.includes(privilegedGroup)) return { allowed: true, reason: '' };
    let reason = '';
    const errors: string[] = [];
    this.visitRulesFor(user, request.resourceRequest ? request.namespace : '', (source, rule, error) => {
      if (rule !== undefined && ruleAllows(request, rule)) {
        reason = `RBAC: allowed by ${source ?? ''}`;
        return false;
      }
      if (error !== undefined) errors.push(error);
      return true;
    });
    if (reason !== '') return { allowed: true, reason };
    return { allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${aggregate(errors)}` };
  }

  /**
   * Every rule bound to `user` in `namespace` (cluster-wide ones first), and the errors met reading roles
   * (empty when none): what a `SelfSubjectRulesReview` answers, and what the RBAC storage's escalation check
   * holds a role against.
   * @param notFoundResource the resource a missing role's error names: the authorizer reads its informers'
   *   listers (`role.rbac.authorization.k8s.io "x" not found`); the RBAC storage reads the stores, whose
   *   errors name the resource of the request (`roles.rbac.authorization.k8s.io "x" not found` on a Role's write)
   */
  rulesFor(user: UserInfo, namespace: string, notFoundResource?: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule !== undefined) rules.push(rule);
      if (error !== undefined) errors.push(error);
      return true;
    }, notFoundResource);
    return { rules, errors };
  }

  /**
   * The rules of the role a binding in `namespace` refers to (`GetRoleReferenceRules`), read from the stores.
   * @throws KubeError as the RBAC storage's role getters refuse: a missing role is a 404 naming
   *   `requestResource`; a Role without a namespace, or a name the store's key function refuses, a 400
   *   (`NamespaceKeyFunc`); another kind a 500
   */
  roleReferenceRules(roleRef: JSONObject, namespace: string, requestResource: string): PolicyRule[] {
    const kind = str(roleRef.kind);
    const name = str(roleRef.name);
    if (kind !== 'Role' && kind !== 'ClusterRole') throw new KubeError('Unknown', `unsupported role reference kind: ${goQuote(kind)}`);
    if (kind === 'Role' && namespace === '') throw KubeError.badRequest('Namespace parameter required.');
    if (name === '') throw KubeError.badRequest('Name parameter required.');
    checkKeyName(name);
    const role = kind === 'Role' ? this.store.get(buckets.roles, `${namespace}/${name}`) : this.store.get(buckets.clusterRoles, name);
    if (role === undefined) throw KubeError.notFound({ group: rbacGroup, resource: requestResource }, name);
    return objects(role.rules).map(policyRule);
  }

  private visitRulesFor(user: UserInfo, namespace: string, visit: Visitor, notFoundResource?: string): void {
    for (const [, binding] of this.store.values(buckets.clusterRoleBindings)) {
      if (!this.visitBinding(user, binding, '', visit, notFoundResource)) return;
    }
    if (namespace === '') return;
    const prefix = `${namespace}/`;
    for (const [key, binding] of this.store.values(buckets.roleBindings)) {
      if (key.startsWith(prefix) && !this.visitBinding(user, binding, namespace, visit, notFoundResource)) return;
    }
  }

  /** One binding's rules, if it binds `user`; false when the visitor stopped. */
  private visitBinding(user: UserInfo, binding: JSONObject, namespace: string, visit: Visitor, notFoundResource: string | undefined): boolean {
    const subject = objects(binding.subjects).find((s) => appliesTo(user, s, namespace));
    if (subject === undefined) return true;
    const roleRef = isObject(binding.roleRef) ? binding.roleRef : {};
    const kind = str(roleRef.kind);
    const roleName = str(roleRef.name);
    const role = kind === 'Role' ? this.store.get(buckets.roles, `${namespace}/${roleName}`) : kind === 'ClusterRole' ? this.store.get(buckets.clusterRoles, roleName) : undefined;
    if (role === undefined) {
      const resource = notFoundResource ?? kind.toLowerCase();
      const error = kind === 'Role' || kind === 'ClusterRole' ? `${resource}.${rbacGroup} ${goQuote(roleName)} not found` : `unsupported role reference kind: ${goQuote(kind)}`;
      return visit(undefined, undefined, error);
    }
    const meta = isObject(binding.metadata) ? binding.metadata : {};
    const bindingName = namespace === '' ? str(meta.name) : `${str(meta.name)}/${namespace}`;
    const source = `${namespace === '' ? 'ClusterRoleBinding' : 'RoleBinding'} ${goQuote(bindingName)} of ${kind} ${goQuote(roleName)} to ${describeSubject(subject, namespace)}`;
    for (const rule of objects(role.rules)) {
      if (!visit(source, policyRule(rule), undefined)) return false;
    }
    return true;
  }
}

/** A stored rule's lists (absent ones empty). */
export function policyRule(o: JSONObject): PolicyRule {
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return { verbs: strings(o.verbs), apiGroups: strings(o.apiGroups), resources: strings(o.resources), resourceNames: strings(o.resourceNames), nonResourceURLs: strings(o.nonResourceURLs) };
}

/** `appliesToUser`: a ServiceAccount subject without a namespace is the binding's (none for a ClusterRoleBinding: it binds nobody). */
function appliesTo(user: UserInfo, subject: JSONObject, namespace: string): boolean {
  const name = str(subject.name);
  switch (subject.kind) {
    case 'User': return user.username === name;
    case 'Group': return user.groups.includes(name);
    case 'ServiceAccount': {
      const saNamespace = str(subject.namespace) !== '' ? str(subject.namespace) : namespace;
      return saNamespace !== '' && user.username === `system:serviceaccount:${saNamespace}:${name}`;
    }
    default: return false;
  }
}

/** `describeSubject`: a ServiceAccount as `name/namespace`. */
function describeSubject(subject: JSONObject, bindingNamespace: string): string {
  const kind = str(subject.kind);
  const name = str(subject.name);
  if (kind !== 'ServiceAccount') return `${kind} ${goQuote(name)}`;
  const ns = str(subject.namespace) !== '' ? str(subject.namespace) : bindingNamespace;
  return `${kind} ${goQuote(`${name}/${ns}`)}`;
}

/** `RuleAllows`: verb, group, resource (a star before a slash and a subresource matches that subresource of any resource) and name, or verb and path (a trailing star is a prefix). */
export function ruleAllows(request: AuthorizationRequest, rule: PolicyRule): boolean {
  const verbOK = rule.verbs.some((v) => v === '*' || v === request.verb);
  if (!verbOK) return false;
  if (!request.resourceRequest) {
    return (rule.nonResourceURLs ?? []).some((u) => urlCovers(u, request.path));
  }
  const combined = request.subresource === '' ? request.resource : `${request.resource}/${request.subresource}`;
  const sub = request.subresource;
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === request.apiGroup)
    && (rule.resources ?? []).some((r) => r === '*' || r === combined || (sub !== '' && r.length === sub.length + 2 && r.startsWith('*/') && r.endsWith(sub)))
    && ((rule.resourceNames ?? []).length === 0 || (rule.resourceNames ?? []).includes(request.name));
}

/** `NonResourceURLMatches` (and the escalation check's `nonResourceURLCovers`): the path itself, or a prefix ending in stars. */
export function urlCovers(rule: string, path: string): boolean {
  return rule === path || (rule.endsWith('*') && path.startsWith(rule.replace(/\*+$/, '')));
}

/** `utilerrors.NewAggregate(errs).Error()`: one message alone, several (repeats dropped) in brackets. */
export function aggregate(messages: readonly string[]): string {
  if (messages.length <= 1) return messages[0] ?? '';
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
