/**
 * Whether a request matches a FlowSchema's rules, as API Priority and Fairness decides it
 * (k8s.io/apiserver/pkg/util/flowcontrol/rule.go): a rule matches when one of its subjects is the user and,
 * for a resource request, one of its resource rules, else one of its non-resource rules, covers the request.
 *
 * The rules are compiled once per FlowSchema into sets, so that matching a request costs a few lookups.
 * Wildcards follow the apiserver exactly: `*` stands for every value only as the sole member of a list of
 * verbs, API groups, resources or namespaces (validation keeps it alone), while a `*` anywhere among the
 * non-resource URLs matches every path; any other URL matches itself and every path below it (`/healthz`
 * matches `/healthz/etcd`, `/apis/*` matches `/apis/apps`, `/` matches every path).
 *
 * @see https://kubernetes.io/docs/concepts/cluster-administration/flow-control/#flowschema
 */
import type { UserInfo } from './rbacAuthorizer.js';
import type { RequestInfo } from './router.js';
import { isObject, str, type JSONObject } from './internal/own.js';
import { list, obj } from './internal/podFields.js';

/** What a FlowSchema is matched against: the (impersonated) user and the request. */
export interface RequestDigest {
  readonly user: UserInfo;
  readonly info: Pick<RequestInfo, 'isResourceRequest' | 'path' | 'verb' | 'group' | 'namespace' | 'resource' | 'subresource'>;
}

/** Whether a request matches a compiled FlowSchema. */
export type FlowSchemaPredicate = (digest: RequestDigest) => boolean;

const serviceAccountPrefix = 'system:serviceaccount:';

/** A list of strings where `wildcard`, as its only member, stands for every value (rule.go's `containsString`). */
class StringList {
  private readonly every: boolean;
  private readonly values: ReadonlySet<string>;

  constructor(items: unknown, wildcard: string) {
    const given = list(items).map(str);
    this.every = given.length === 1 && given[0] === wildcard;
    this.values = new Set(given);
  }

  has(x: string): boolean {
    return this.every || this.values.has(x);
  }
}

/** The subjects of one rule: users, groups and service accounts, each with its wildcard. */
class Subjects {
  private anyone = false;
  private readonly users = new Set<string>();
  private readonly groups = new Set<string>();
  /** `system:serviceaccount:<namespace>:`, for a service account subject named `*`. */
  private readonly accountNamespaces: string[] = [];

  constructor(subjects: unknown) {
    for (const s of list(subjects).map(obj)) {
      const kind = str(s.kind);
      if (kind === 'User' && isObject(s.user)) {
        const name = str(s.user.name);
        if (name === '*') this.anyone = true;
        else this.users.add(name);
      } else if (kind === 'Group' && isObject(s.group)) {
        const name = str(s.group.name);
        if (name === '*') this.anyone = true;
        else this.groups.add(name);
      } else if (kind === 'ServiceAccount' && isObject(s.serviceAccount)) {
        const [namespace, name] = [str(s.serviceAccount.namespace), str(s.serviceAccount.name)];
        // `serviceaccount.MatchesUsername` compares the whole user name; a name `*` needs its namespace only.
        if (name === '*') this.accountNamespaces.push(`${serviceAccountPrefix}${namespace}:`);
        else this.users.add(`${serviceAccountPrefix}${namespace}:${name}`);
      }
    }
  }

  has(user: UserInfo): boolean {
    if (this.anyone || this.users.has(user.username)) return true;
    if (this.groups.size > 0 && user.groups.some((g) => this.groups.has(g))) return true;
    return this.accountNamespaces.some((prefix) => user.username.startsWith(prefix));
  }
}

/** One resource rule: verbs, API groups, `resource` or `resource/subresource`, and the scope. */
class ResourceRule {
  private readonly verbs: StringList;
  private readonly groups: StringList;
  private readonly resources: StringList;
  private readonly clusterScope: boolean;
  private readonly namespaces: StringList;

  constructor(rule: JSONObject) {
    this.verbs = new StringList(rule.verbs, '*');
    this.groups = new StringList(rule.apiGroups, '*');
    this.resources = new StringList(rule.resources, '*');
    this.clusterScope = rule.clusterScope === true;
    this.namespaces = new StringList(rule.namespaces, '*');
  }

  matches(info: RequestDigest['info']): boolean {
    if (!this.verbs.has(info.verb)) return false;
    if (!this.resources.has(info.subresource === '' ? info.resource : `${info.resource}/${info.subresource}`)) return false;
    if (!this.groups.has(info.group)) return false;
    return info.namespace === '' ? this.clusterScope : this.namespaces.has(info.namespace);
  }
}

/** One non-resource rule: verbs and URL paths. */
class NonResourceRule {
  private readonly verbs: StringList;
  private readonly everyPath: boolean;
  private readonly paths: ReadonlySet<string>;
  /** Each URL with one trailing `*` dropped and a `/` ensured: the paths below it match. */
  private readonly prefixes: readonly string[];

  constructor(rule: JSONObject) {
    this.verbs = new StringList(rule.verbs, '*');
    const urls = list(rule.nonResourceURLs).map(str);
    this.everyPath = urls.includes('*');
    this.paths = new Set(urls);
    this.prefixes = urls.map((u) => {
      const stem = u.endsWith('*') ? u.slice(0, -1) : u;
      return stem.endsWith('/') ? stem : `${stem}/`;
    });
  }

  matches(info: RequestDigest['info']): boolean {
    if (!this.verbs.has(info.verb)) return false;
    return this.everyPath || this.paths.has(info.path) || this.prefixes.some((p) => info.path.startsWith(p));
  }
}

/** Compiles a FlowSchema's `spec.rules` (as stored: validated) into a {@link FlowSchemaPredicate}. */
export function compileFlowSchemaRules(spec: unknown): FlowSchemaPredicate {
  const rules = list(obj(spec).rules).map(obj).map((r) => ({
    subjects: new Subjects(r.subjects),
    resourceRules: list(r.resourceRules).map((x) => new ResourceRule(obj(x))),
    nonResourceRules: list(r.nonResourceRules).map((x) => new NonResourceRule(obj(x))),
  }));
  return ({ user, info }) => rules.some((r) => r.subjects.has(user) && (info.isResourceRequest
    ? r.resourceRules.some((rr) => rr.matches(info))
    : r.nonResourceRules.some((nr) => nr.matches(info))));
}
