/**
 * Kubernetes' authorizer library (`authorizer.path`, `group`, `serviceAccount`, `resource`, `subresource`,
 * `namespace`, `name`, `fieldSelector`, `labelSelector`, `check`, and a decision's `allowed`, `reason`,
 * `errored`, `error`): checks built from the `authorizer` variable of admission expressions and asked of
 * the authorizer the values carry, as k8s.io/apiserver's `library.Authz` and `library.AuthzSelectors` do.
 *
 * @see https://kubernetes.io/docs/reference/using-api/cel/#kubernetes-authorizer-library
 */
import { OpaqueVal, noSuchOverload } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, StringType, objectType } from '../internal/types.js';
import { err, func, memberOverload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.authorization.Authorizer`. */
export const AuthorizerType = objectType('kubernetes.authorization.Authorizer');
/** `kubernetes.authorization.PathCheck`. */
export const PathCheckType = objectType('kubernetes.authorization.PathCheck');
/** `kubernetes.authorization.GroupCheck`. */
export const GroupCheckType = objectType('kubernetes.authorization.GroupCheck');
/** `kubernetes.authorization.ResourceCheck`. */
export const ResourceCheckType = objectType('kubernetes.authorization.ResourceCheck');
/** `kubernetes.authorization.Decision`. */
export const DecisionType = objectType('kubernetes.authorization.Decision');

/** Who a check is made for (`user.Info`). */
export interface AuthorizationUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** What a check asks (`authorizer.AttributesRecord`): a resource request, or a non-resource path. */
export type AuthorizationCheck =
  | {
    readonly resourceRequest: true; readonly user: AuthorizationUser; readonly verb: string; readonly apiGroup: string;
    readonly resource: string; readonly subresource: string; readonly namespace: string; readonly name: string;
    readonly fieldSelector: string; readonly labelSelector: string;
  }
  | { readonly resourceRequest: false; readonly user: AuthorizationUser; readonly verb: string; readonly path: string };

/** An authorizer's answer: allowed or not, why, and the error it met (empty when none). */
export interface AuthorizationAnswer {
  readonly allowed: boolean;
  readonly reason: string;
  readonly error?: string;
}

/** The authorizer the checks of one evaluation are asked of. */
export type Authorize = (check: AuthorizationCheck) => AuthorizationAnswer;

/** A value without fields of one of the library's types: equal only to itself. */
abstract class ReceiverOnly extends OpaqueVal {
  equals(other: OpaqueVal): boolean {
    return other === this;
  }
}

/** The `authorizer` variable: an authorizer and the user it checks for. */
export class AuthorizerVal extends ReceiverOnly {
  readonly celType = AuthorizerType;

  constructor(readonly authorize: Authorize, readonly user: AuthorizationUser) {
    super();
  }
}

class PathCheckVal extends ReceiverOnly {
  readonly celType = PathCheckType;

  constructor(readonly authorizer: AuthorizerVal, readonly path: string) {
    super();
  }
}

class GroupCheckVal extends ReceiverOnly {
  readonly celType = GroupCheckType;

  constructor(readonly authorizer: AuthorizerVal, readonly group: string) {
    super();
  }
}

/** The request's attributes of a resource check. */
interface ResourceAttributes {
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  fieldSelector: string;
  labelSelector: string;
}

/** A check of a resource; `authorizer.requestResource` is one for the request's own resource. */
export class ResourceCheckVal extends ReceiverOnly {
  readonly celType = ResourceCheckType;

  constructor(readonly groupCheck: GroupCheckVal, readonly attrs: ResourceAttributes) {
    super();
  }

  with(change: Partial<ResourceAttributes>): ResourceCheckVal {
    return new ResourceCheckVal(this.groupCheck, { ...this.attrs, ...change });
  }
}

class DecisionVal extends ReceiverOnly {
  readonly celType = DecisionType;

  constructor(readonly answer: AuthorizationAnswer) {
    super();
  }
}

/** `authorizer.requestResource`: a check of the request's group, resource, subresource, namespace and name. */
export function requestResourceCheck(authorizer: AuthorizerVal, request: { group: string; resource: string; subresource: string; namespace: string; name: string }): ResourceCheckVal {
  return new ResourceCheckVal(new GroupCheckVal(authorizer, request.group), {
    resource: request.resource, subresource: request.subresource, namespace: request.namespace, name: request.name, fieldSelector: '', labelSelector: '',
  });
}

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A string argument, else cel-go's `MaybeNoSuchOverloadErr` of the receiver. */
function withString<T extends OpaqueVal>(type: abstract new (...args: never[]) => T, fn: (receiver: T, s: string) => CelVal): (...args: CelVal[]) => CelVal {
  return (receiver, arg) => (receiver instanceof type && typeof arg === 'string' ? fn(receiver, arg) : noSuchOverload());
}

function ask(authorizer: AuthorizerVal, check: AuthorizationCheck): DecisionVal {
  return new DecisionVal(authorizer.authorize(check));
}

/** The functions of the library. */
export const authzLibrary: readonly FunctionDecl[] = [
  func('path', memberOverload('authorizer_path', [AuthorizerType, StringType], PathCheckType, withString(AuthorizerVal, (a, path) =>
    (path.trim() === '' ? err('path must not be empty') : new PathCheckVal(a, path))))),
  func('group', memberOverload('authorizer_group', [AuthorizerType, StringType], GroupCheckType, withString(AuthorizerVal, (a, group) => new GroupCheckVal(a, group)))),
  func('serviceAccount', memberOverload('authorizer_serviceaccount', [AuthorizerType, StringType, StringType], AuthorizerType, (a, namespace, name) => {
    if (!(a instanceof AuthorizerVal) || typeof namespace !== 'string' || typeof name !== 'string') return noSuchOverload();
    if (name === '' || name.length > 253 || !dns1123Subdomain.test(name)) return err('Invalid service account name');
    if (namespace === '' || namespace.length > 63 || !dns1123Label.test(namespace)) return err('Invalid service account namespace');
    // serviceaccount.ServiceAccountInfo.UserInfo: the account's user name and groups, nothing else.
    return new AuthorizerVal(a.authorize, { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] });
  })),
  func('resource', memberOverload('groupcheck_resource', [GroupCheckType, StringType], ResourceCheckType, withString(GroupCheckVal, (g, resource) =>
    (resource.trim() === '' ? err('resource must not be empty') : new ResourceCheckVal(g, { resource, subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' }))))),
  func('subresource', memberOverload('resourcecheck_subresource', [ResourceCheckType, StringType], ResourceCheckType, withString(ResourceCheckVal, (r, subresource) => r.with({ subresource })))),
  func('namespace', memberOverload('resourcecheck_namespace', [ResourceCheckType, StringType], ResourceCheckType, withString(ResourceCheckVal, (r, namespace) => r.with({ namespace })))),
  func('name', memberOverload('resourcecheck_name', [ResourceCheckType, StringType], ResourceCheckType, withString(ResourceCheckVal, (r, name) => r.with({ name })))),
  func('fieldSelector', memberOverload('authorizer_fieldselector', [ResourceCheckType, StringType], ResourceCheckType, withString(ResourceCheckVal, (r, fieldSelector) => r.with({ fieldSelector })))),
  func('labelSelector', memberOverload('authorizer_labelselector', [ResourceCheckType, StringType], ResourceCheckType, withString(ResourceCheckVal, (r, labelSelector) => r.with({ labelSelector })))),
  func('check',
    memberOverload('pathcheck_check', [PathCheckType, StringType], DecisionType, withString(PathCheckVal, (p, verb) =>
      ask(p.authorizer, { resourceRequest: false, user: p.authorizer.user, verb, path: p.path }))),
    memberOverload('resourcecheck_check', [ResourceCheckType, StringType], DecisionType, withString(ResourceCheckVal, (r, verb) =>
      ask(r.groupCheck.authorizer, { resourceRequest: true, user: r.groupCheck.authorizer.user, verb, apiGroup: r.groupCheck.group, ...r.attrs })))),
  func('errored', memberOverload('decision_errored', [DecisionType], BoolType, (d) => (d instanceof DecisionVal ? (d.answer.error ?? '') !== '' : noSuchOverload()))),
  func('error', memberOverload('decision_error', [DecisionType], StringType, (d) => (d instanceof DecisionVal ? d.answer.error ?? '' : noSuchOverload()))),
  func('allowed', memberOverload('decision_allowed', [DecisionType], BoolType, (d) => (d instanceof DecisionVal ? d.answer.allowed : noSuchOverload()))),
  func('reason', memberOverload('decision_reason', [DecisionType], StringType, (d) => (d instanceof DecisionVal ? d.answer.reason : noSuchOverload()))),
];
