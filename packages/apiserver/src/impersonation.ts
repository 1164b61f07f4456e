/**
 * Who a request acts as. The embedded server takes every request as {@link serverUser} (in
 * `system:masters`), who may impersonate anyone: the `Impersonate-User`, `Impersonate-Group`,
 * `Impersonate-Uid` and `Impersonate-Extra-<key>` headers make the request act as that user, as
 * kube-apiserver's impersonation filter does (filters/impersonation.go): a ServiceAccount's user name
 * (`system:serviceaccount:<namespace>:<name>`) brings its groups unless groups are named, and everyone but
 * `system:anonymous` is in `system:authenticated`. Such a request is then authorized by RBAC as a
 * cluster's apiserver authorizes it ({@link forbidden}): `kubectl --as=system:serviceaccount:ns:op get pods`
 * answers what the operator's service account may do.
 */
import type { IncomingMessage } from 'node:http';
import { KubeError, goQuote } from '@kubekit/core';
import { SelectorParseError, parseFieldSelector } from '@kubekit/selectors';
import { setOwn } from './internal/own.js';
import { pathSegmentErrors } from './objectMeta.js';
import type { RequestInfo } from './router.js';
import { RbacAuthorizer, serverUser, type AuthorizationRequest, type UserInfo } from './rbacAuthorizer.js';
import type { ObjectStore } from './storage/objectStore.js';
import { pathUnescape } from './internal/goURL.js';

const saPrefix = 'system:serviceaccount:';
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Impersonation headers that name no user: answered as `responsewriters.InternalError` writes it, in plain text. */
export class ImpersonationError extends Error {
  override name = 'ImpersonationError';
}

/** `serviceaccount.SplitUsername`: the namespace and name of a service account's user name, if it is one. */
function splitServiceAccount(username: string): [string, string] | undefined {
  if (!username.startsWith(saPrefix)) return undefined;
  const parts = username.slice(saPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (namespace.length > 63 || !dnsLabel.test(namespace) || name.length > 253 || !dnsSubdomain.test(name)) return undefined;
  return [namespace, name];
}

/**
 * A Go `%v` of a `v1.ObjectReference`: its seven string fields (kind, namespace, name, uid, apiVersion,
 * resourceVersion, fieldPath) between braces, separated by spaces.
 */
function reference(kind: string, name: string, apiVersion = '', fieldPath = ''): string {
  return `{${[kind, '', name, '', apiVersion, '', fieldPath].join(' ')}}`;
}

/** Whether any header is an impersonation header (most requests have none: their headers are not copied). */
function impersonates(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length > 12 && raw[i].slice(0, 12).toLowerCase() === 'impersonate-') return true;
  }
  return false;
}

/**
 * The user a request acts as: the `requester` (who sent it, {@link serverUser} unless a service account's
 * token says otherwise), or the one its impersonation headers name. A requester other than the server's
 * identity must be allowed to `impersonate` each user, service account, group, extra and uid named (RBAC,
 * in the filter's order), else the request is refused as the filter refuses it.
 *
 * @throws ImpersonationError for groups, extras or a uid without a user (the filter's plain-text 500).
 * @throws KubeError `Forbidden` when the requester may not impersonate what the headers name.
 */
export function requestUser(req: IncomingMessage, requester: UserInfo = serverUser, store?: ObjectStore): UserInfo {
  if (!impersonates(req.rawHeaders)) return requester;
  const headers = req.headersDistinct;
  const username = headers['impersonate-user']?.[0] ?? '';
  const named = headers['impersonate-group'] ?? [];
  const uid = headers['impersonate-uid']?.[0] ?? '';
  // Extra keys are header data (`Impersonate-Extra-__proto__` is one): collected as entries, never as keys
  // of a plain object, and written sorted, as Go writes a map.
  const extras: [string, string][] = [];
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith('impersonate-extra-') || values === undefined) continue;
    // unescapeExtraKey: url.PathUnescape, the key as sent when it does not decode.
    const encoded = header.slice('impersonate-extra-'.length);
    const key = pathUnescape(encoded) ?? encoded;
    for (const v of values) extras.push([key, v]);
  }
  if (username === '') {
    // Groups, extras or a uid without a user: the filter names what was requested.
    const refs = [...named.map((g) => reference('Group', g)), ...extras.map(([k, v]) => reference('UserExtra', v, 'authentication.k8s.io/v1', k)), ...(uid === '' ? [] : [reference('UID', uid, 'authentication.k8s.io/v1')])];
    if (refs.length > 0) throw new ImpersonationError(`requested [${refs.join(' ')}] without impersonating a user`);
    return requester;
  }
  const extra: Record<string, string[]> = {};
  for (const key of [...new Set(extras.map(([k]) => k))].sort()) setOwn(extra, key, extras.filter(([k]) => k === key).map(([, v]) => v));
  const sa = splitServiceAccount(username);
  if (requester !== serverUser && store !== undefined) {
    // The filter's impersonation requests, in its order: the user (or service account), groups, extras, uid.
    const asked: AuthorizationRequest[] = [
      sa === undefined ? impersonation('', 'users', '', username) : impersonation('', 'serviceaccounts', '', sa[1], sa[0]),
      ...named.map((g) => impersonation('', 'groups', '', g)),
      ...extras.map(([k, v]) => impersonation('authentication.k8s.io', 'userextras', k, v)),
      ...(uid === '' ? [] : [impersonation('authentication.k8s.io', 'uids', '', uid)]),
    ];
    const authorizer = new RbacAuthorizer(store);
    for (const request of asked) {
      const decision = authorizer.authorize(requester, request);
      if (!decision.allowed) throw refusal(requester, request, decision.reason);
    }
  }
  const groups = sa !== undefined && named.length === 0 ? ['system:serviceaccounts', `system:serviceaccounts:${sa[0]}`] : [...named];
  if (username !== 'system:anonymous') {
    if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  } else if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
  return { username, uid, groups, extra };
}

/**
 * The name a list or watch selects with `fieldSelector=metadata.name=…`: requestinfo.go authorizes it as a
 * request for that object (so a rule with `resourceNames` allows watching one object), when the selector
 * parses and the name is a valid path segment.
 */
function selectedName(info: RequestInfo, query: URLSearchParams): string {
  const text = query.get('fieldSelector');
  // A verb from a deprecated path prefix was never a `get` turned into a list or watch: its selector names nothing.
  if ((info.verb !== 'list' && info.verb !== 'watch') || info.verbViaPathPrefix === true || text === null || text === '') return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(text).requiresExactMatch('metadata.name');
  } catch (err) {
    if (err instanceof SelectorParseError) return '';
    throw err;
  }
  return name !== undefined && pathSegmentErrors(name, false).length === 0 ? name : '';
}

/**
 * The 403 an impersonated request gets when RBAC does not allow it (`responsewriters.Forbidden`), or
 * undefined when it may go on. The server's own identity is never refused.
 */
export function forbidden(store: ObjectStore, user: UserInfo, info: RequestInfo, query: URLSearchParams): KubeError | undefined {
  if (user === serverUser) return undefined;
  const request: AuthorizationRequest = info.isResourceRequest
    ? { resourceRequest: true, verb: info.verb, namespace: info.namespace, apiGroup: info.group, resource: info.resource, subresource: info.subresource, name: info.name || selectedName(info, query) }
    : { resourceRequest: false, verb: info.verb, path: info.path };
  const decision = new RbacAuthorizer(store).authorize(user, request);
  return decision.allowed ? undefined : refusal(user, request, decision.reason);
}

/** An `impersonate` request of the impersonation filter (`actingAsAttributes`). */
function impersonation(apiGroup: string, resource: string, subresource: string, name: string, namespace = ''): AuthorizationRequest {
  return { resourceRequest: true, verb: 'impersonate', namespace, apiGroup, resource, subresource, name };
}

/** `responsewriters.Forbidden`'s 403 for a request RBAC did not allow, with the authorizer's reason. */
function refusal(user: UserInfo, request: AuthorizationRequest, reason: string): KubeError {
  let message: string;
  if (!request.resourceRequest) message = `User ${goQuote(user.username)} cannot ${request.verb} path ${goQuote(request.path)}`;
  else {
    const resource = request.subresource === '' ? request.resource : `${request.resource}/${request.subresource}`;
    const where = request.namespace !== '' ? `in the namespace ${goQuote(request.namespace)}` : 'at the cluster scope';
    message = `User ${goQuote(user.username)} cannot ${request.verb} resource ${goQuote(resource)} in API group ${goQuote(request.apiGroup)} ${where}`;
  }
  if (reason !== '') message += `: ${reason}`;
  if (!request.resourceRequest) return new KubeError('Forbidden', `forbidden: ${message}`, { details: {} });
  // The Status names the resource without its subresource (`deployments.apps "x" is forbidden`).
  const qualified = request.apiGroup === '' ? request.resource : `${request.resource}.${request.apiGroup}`;
  const subject = request.name === '' ? qualified : `${qualified} ${goQuote(request.name)}`;
  return new KubeError('Forbidden', `${subject} is forbidden: ${message}`, { details: { name: request.name, group: request.apiGroup, kind: request.resource } });
}
