/**
 * The RBAC storage's escalation check (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased):
 * a user may write a role only with rules it holds itself, and bind a role only if it holds the role's rules,
 * unless it is in `system:masters`, or RBAC lets it `escalate` the role resource, or `bind` that role. A
 * ClusterRole's aggregation rule takes `*` on everything. The check runs in the storage, after mutating
 * admission and before the strategy: a refused write is a 403 before its validation's 422.
 *
 * kube-apiserver 1.34.4 reads the rules from the stores (not the authorizer's informers); its `escalate` and
 * `bind` questions go to the authorizer.
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/rbac/validation/rule.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/staging/src/k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go
 */
import { compareGoStrings, goQuote, type KubeObject } from '@kubekit/core';
import { semanticEqual } from './internal/deepEqual.js';
import { goQuoteList } from './internal/goQuoteList.js';
import { forbiddenError } from './internal/http.js';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { aggregate, policyRule, privilegedGroup, urlCovers, type PolicyRule, type RbacAuthorizer, type UserInfo } from './rbacAuthorizer.js';
import type { WriteContext, WriteTarget } from './resourceType.js';

const rbacGroup = 'rbac.authorization.k8s.io';

/** `BreakdownRule`: one rule per group, resource, verb and name (in that nesting), then one per URL and verb. */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const sub: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length === 0) sub.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        else for (const name of names) sub.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) sub.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return sub;
}

const hasAll = (set: readonly string[], wanted: readonly string[]): boolean => wanted.every((w) => set.includes(w));

/** `resourceCoversAll`: a star, the resources themselves, or `*​/<subresource>` for a subresource. */
function resourcesCover(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes('*') || hasAll(owned, wanted)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

/** `ruleCovers`: whether one owner rule covers a broken-down rule. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  return (owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs))
    && ((owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []))
    && resourcesCover(owner.resources ?? [], sub.resources ?? [])
    && (sub.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, path)))
    && (ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames)));
}

/** `Covers`: the broken-down rules of `servant` that no rule of `owner` covers (none: covered). */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdown).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/**
 * `CompactRules`: rules of one group and one resource (and at most one name, nothing else) become one rule
 * with all their verbs; the others stay as they are. (The order is the map's: the message sorts them.)
 */
function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    const isSimple = names.length <= 1 && (rule.nonResourceURLs ?? []).length === 0 && (rule.apiGroups ?? []).length === 1 && (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups?.[0], rule.resources?.[0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing === undefined) simple.set(key, { ...rule, verbs: [...rule.verbs] });
    else existing.verbs.push(...rule.verbs);
  }
  return [...compacted, ...simple.values()];
}

/** `rbacv1helpers.CompactString`: the rule's non-empty lists, `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const part = (name: string, list: readonly string[] | undefined): void => {
    if (list !== undefined && list.length > 0) parts.push(`${name}:${goQuoteList(list)}`);
  };
  part('APIGroups', rule.apiGroups);
  part('Resources', rule.resources);
  part('NonResourceURLs', rule.nonResourceURLs);
  part('ResourceNames', rule.resourceNames);
  part('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * `ConfirmNoEscalation`: undefined if `user`'s rules in `namespace` cover `rules`, else why not: the rules it
 * lacks, compacted, one per line in Go's string order, and the errors met reading its own roles.
 */
function escalation(authorizer: RbacAuthorizer, user: UserInfo, namespace: string, rules: readonly PolicyRule[], requestResource: string): string | undefined {
  const owner = authorizer.rulesFor(user, namespace, requestResource);
  const missing = uncoveredRules(owner.rules, rules);
  if (missing.length === 0) return undefined;
  // sets.String's List(): unique, in Go's string order.
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort(compareGoStrings);
  const message = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  return owner.errors.length === 0 ? message : `${message}; resolution errors: [${aggregate(owner.errors)}]`;
}

/** The metadata `IsOnlyMutatingGCFields` lets change. */
const garbageCollectorFields = new Set(['ownerReferences', 'finalizers', 'selfLink', 'managedFields']);

/** `IsOnlyMutatingGCFields`: whether an update changes nothing but owner references, finalizers, the self link and managed fields. */
function onlyGarbageCollectorFields(o: KubeObject, old: KubeObject): boolean {
  const without = (x: KubeObject): JSONObject => {
    const meta = Object.fromEntries(Object.entries(x.metadata).filter(([k]) => !garbageCollectorFields.has(k)));
    return { ...(x as unknown as JSONObject), metadata: meta };
  };
  return semanticEqual(without(o), without(old));
}

/** The rules of a role as its strategy holds them (absent lists empty). */
function rulesOf(o: KubeObject): PolicyRule[] {
  return objects((o as unknown as JSONObject).rules).map(policyRule);
}

/** `hasAggregationRule`: an aggregation rule with selectors. */
function aggregates(o: KubeObject | undefined): boolean {
  const rule = (o as unknown as JSONObject | undefined)?.aggregationRule;
  return isObject(rule) && Array.isArray(rule.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

/** `fullAuthority`: what a ClusterRole's aggregation rule takes. */
const fullAuthority: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

/** Who may write anything: no user (the server's own writes) or `system:masters` (`EscalationAllowed`). */
function unrestricted(user: UserInfo | undefined): user is undefined {
  return user === undefined || user.groups.includes(privilegedGroup);
}

/** The storage check of a Role or ClusterRole write (`resource`: `roles` or `clusterroles`). */
export function roleEscalationGuard(authorizer: RbacAuthorizer, resource: 'roles' | 'clusterroles'): (o: KubeObject, old: KubeObject | undefined, ctx: WriteContext, target: WriteTarget) => void {
  return (o, old, ctx, target) => {
    const user = ctx.user;
    if (unrestricted(user)) return;
    // RoleEscalationAuthorized: `escalate` on the resource, by the request's name (none on a POST).
    const request = { resourceRequest: true as const, verb: 'escalate', namespace: target.namespace, apiGroup: rbacGroup, resource, subresource: '', name: target.name };
    if (authorizer.authorize(user, request).allowed) return;
    if (old !== undefined && onlyGarbageCollectorFields(o, old)) return;
    const name = str(o.metadata.name);
    const why = escalation(authorizer, user, target.namespace, rulesOf(o), resource);
    if (why !== undefined) throw forbiddenError(rbacGroup, resource, name, why);
    if (resource === 'clusterroles' && (aggregates(o) || aggregates(old)) && escalation(authorizer, user, target.namespace, fullAuthority, resource) !== undefined) {
      throw forbiddenError(rbacGroup, resource, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  };
}

/** The storage check of a RoleBinding or ClusterRoleBinding write (`resource`: `rolebindings` or `clusterrolebindings`). */
export function bindingEscalationGuard(authorizer: RbacAuthorizer, resource: 'rolebindings' | 'clusterrolebindings'): (o: KubeObject, old: KubeObject | undefined, ctx: WriteContext, target: WriteTarget) => void {
  return (o, old, ctx, target) => {
    const user = ctx.user;
    if (unrestricted(user)) return;
    if (old !== undefined && onlyGarbageCollectorFields(o, old)) return;
    const namespace = resource === 'rolebindings' ? target.namespace : '';
    const ref = (o as unknown as JSONObject).roleRef;
    const roleRef = isObject(ref) ? ref : {};
    // BindingAuthorized: `bind` on the role the binding refers to, in the binding's namespace.
    const kind = str(roleRef.kind);
    if (kind === 'Role' || kind === 'ClusterRole') {
      const request = { resourceRequest: true as const, verb: 'bind', namespace, apiGroup: str(roleRef.apiGroup), resource: kind === 'Role' ? 'roles' : 'clusterroles', subresource: '', name: str(roleRef.name) };
      if (authorizer.authorize(user, request).allowed) return;
    }
    const rules = authorizer.roleReferenceRules(roleRef, namespace, resource);
    const why = escalation(authorizer, user, namespace, rules, resource);
    if (why !== undefined) throw forbiddenError(rbacGroup, resource, str(o.metadata.name), why);
  };
}
