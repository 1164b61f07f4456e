/**
 * Discovery: `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`, in the legacy
 * form and in the aggregated form (`apidiscovery.k8s.io/v2` and `v2beta1`) that current clients ask
 * for with `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`. The groups of
 * `/apis` are listed from the APIServices as kube-aggregator lists them (its order; service-backed groups
 * too, stale in the aggregated form).
 *
 * @see https://kubernetes.io/docs/concepts/overview/kubernetes-api/#aggregated-discovery
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { compareGoStrings, stringifyJSON, type KubeObject } from '@kubekit/core';
import { localAPIServicePriorities } from './apiServiceControllers.js';
import type { ResourceCatalog, ServedGroup } from './catalog.js';
import { compareKubeVersions } from './crdRegistry.js';
import { healthCheckPaths } from './healthChecks.js';
import { aggregatedDiscoveryV2, aggregatedDiscoveryV2Beta1, methodNotAllowed, sendError, sendJSON, sendText } from './internal/http.js';
import { parseAcceptClauses } from './internal/negotiation.js';
import { isObject } from './internal/own.js';
import type { ResourceType } from './resourceType.js';

const subresourceVerbs = ['get', 'patch', 'update'];

function apiResources(types: readonly ResourceType[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of types) {
    const n = t.names;
    const r: Record<string, unknown> = { name: n.resource, singularName: n.singular, namespaced: n.namespaced, kind: n.kind, verbs: [...n.verbs] };
    if (n.shortNames.length > 0) r.shortNames = [...n.shortNames];
    if (n.categories.length > 0) r.categories = [...n.categories];
    // Only what is stored has a storage version: what can only be created (reviews, bindings) is answered, not
    // kept, and what can only be read (componentstatuses) is computed.
    const stored = t.storageKind ?? (t.storageVersion === undefined ? n : { ...n, version: t.storageVersion });
    if (n.verbs.some((v) => v !== 'create' && v !== 'get' && v !== 'list')) r.storageVersionHash = storageVersionHash(stored.group, stored.version, stored.kind);
    out.push(r);
    const subs: Record<string, unknown>[] = [];
    for (const sub of n.objectSubresources ?? []) subs.push({ name: `${n.resource}/${sub}`, singularName: '', namespaced: n.namespaced, kind: n.kind, verbs: subresourceVerbs });
    // A subresource's group and version are named when they are not the resource's (pods/eviction's, not pods/binding's).
    for (const k of n.kindSubresources ?? []) {
      const gv = k.group === n.group && k.version === n.version ? {} : { group: k.group, version: k.version };
      subs.push({ name: `${n.resource}/${k.subresource}`, singularName: '', namespaced: n.namespaced, ...gv, kind: k.kind, verbs: [...k.verbs] });
    }
    if (n.status) subs.push({ name: `${n.resource}/status`, singularName: '', namespaced: n.namespaced, kind: n.kind, verbs: subresourceVerbs });
    if (n.scale !== undefined) {
      subs.push({ name: `${n.resource}/scale`, singularName: '', namespaced: n.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs });
    }
    out.push(...inInstallerOrder(t, subs, (x) => x.name as string));
  }
  return out;
}

/**
 * A built-in kind's subresources in the order the apiserver's installer lists them: by name (a custom
 * resource's are listed status first, then scale).
 */
function inInstallerOrder<T>(t: ResourceType, subs: T[], name: (x: T) => string): T[] {
  return t.customResource === true ? subs : subs.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/**
 * The apiserver's `storageVersionHash`: the first 8 bytes of the SHA-256 of the storage group, version
 * and kind, in standard base64 (12 characters, one `=`), as apiserver's `discovery.StorageVersionHash`.
 */
function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

function groupVersionText(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** A group and its versions, most preferred first, as legacy discovery lists them. */
interface ListedGroup {
  name: string;
  versions: readonly string[];
}

function legacyGroup(g: ListedGroup): Record<string, unknown> {
  const versions = g.versions.map((version) => ({ groupVersion: groupVersionText(g.name, version), version }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

/** An APIService as discovery reads it (kube-aggregator lists the groups of `/apis` from them). */
export interface DiscoveryAPIService {
  /** `<version>.<group>`. */
  name: string;
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** Whether `spec.service` is set: the group-version is proxied, not served here. */
  serviceBacked: boolean;
}

/** The stored APIServices as discovery reads them (a malformed one, which validation keeps out, is skipped). */
export function discoveryAPIServices(stored: Iterable<[string, KubeObject]>): DiscoveryAPIService[] {
  const out: DiscoveryAPIService[] = [];
  for (const [name, o] of stored) {
    const spec = o.spec;
    if (!isObject(spec)) continue;
    const { group = '', version, groupPriorityMinimum, versionPriority } = spec;
    if (typeof group !== 'string' || typeof version !== 'string' || typeof groupPriorityMinimum !== 'number' || typeof versionPriority !== 'number') continue;
    out.push({ name, group, version, groupPriorityMinimum, versionPriority, serviceBacked: isObject(spec.service) });
  }
  return out;
}

/**
 * The aggregator's own group: listed first in legacy `/apis` ("it's good to be king") and with priority
 * 20001 in aggregated discovery; no APIService names it.
 */
const aggregatorGroup = 'apiregistration.k8s.io';

/** kube-aggregator's `ByVersionPriority`: the higher version priority first, then the kube-aware newer version. */
function byVersionPriority(a: DiscoveryAPIService, b: DiscoveryAPIService): number {
  return b.versionPriority - a.versionPriority || compareKubeVersions(a.version, b.version);
}

/**
 * The group-versions a served group-version would be registered as when no APIService is stored for it: a
 * custom resource's (crdregistration writes its APIService a moment after the CRD is served; 1000 and 100)
 * and a built-in one kube-apiserver registers none for. A built-in one whose local APIService was deleted
 * gets none: legacy discovery stops listing it, as kube-aggregator's does (it stays served).
 */
function unregistered(served: readonly ServedGroup[], stored: ReadonlySet<string>): DiscoveryAPIService[] {
  const out: DiscoveryAPIService[] = [];
  for (const g of served) {
    if (g.name === aggregatorGroup) continue;
    for (const v of g.versions) {
      const name = `${v.version}.${g.name}`;
      if (stored.has(name) || localAPIServicePriorities(name) !== undefined) continue;
      out.push({ name, group: g.name, version: v.version, groupPriorityMinimum: 1000, versionPriority: 100, serviceBacked: false });
    }
  }
  return out;
}

/**
 * The groups of legacy `/apis`, as kube-aggregator's `apisHandler` lists them from the APIServices: sorted by
 * group priority (highest first) and then APIService name, each group where its first APIService falls,
 * its versions by version priority, then kube-aware version. A local APIService lists its group-version
 * whether or not it is served here; a service-backed one whether or not its service answers.
 */
function legacyGroups(served: readonly ServedGroup[], apiServices: readonly DiscoveryAPIService[]): ListedGroup[] {
  const registered = apiServices.filter((a) => a.group !== '' && a.group !== aggregatorGroup);
  const all = [...registered, ...unregistered(served, new Set(registered.map((a) => a.name)))];
  all.sort((a, b) => b.groupPriorityMinimum - a.groupPriorityMinimum || compareGoStrings(a.name, b.name));
  const byGroup = new Map<string, DiscoveryAPIService[]>();
  for (const a of all) {
    const list = byGroup.get(a.group);
    if (list === undefined) byGroup.set(a.group, [a]);
    else list.push(a);
  }
  const own = served.find((g) => g.name === aggregatorGroup);
  const first = own === undefined ? [] : [{ name: own.name, versions: own.versions.map((v) => v.version) }];
  return [...first, ...[...byGroup].map(([name, list]) => ({ name, versions: list.sort(byVersionPriority).map((a) => a.version) }))];
}

/** A version of aggregated discovery: served here, or proxied to a service kubekit cannot reach (stale, without resources). */
interface AggregatedVersion {
  version: string;
  types: ResourceType[] | undefined;
  versionPriority: number;
}

interface AggregatedGroup {
  name: string;
  priority: number;
  versions: AggregatedVersion[];
}

/**
 * The groups of aggregated `/apis`, as the aggregator's merged discovery orders them: by the highest group
 * priority among a group's APIServices (a served group-version without one keeps what kube-apiserver
 * registers it with, a custom resource's 1000), then by name; versions by version priority, then kube-aware
 * version. A service-backed group-version is listed stale and without resources (kubekit proxies to nothing).
 */
function aggregatedGroups(served: readonly ServedGroup[], apiServices: readonly DiscoveryAPIService[]): AggregatedGroup[] {
  const stored = new Map(apiServices.filter((a) => a.group !== '').map((a) => [a.name, a]));
  const groups = new Map<string, AggregatedGroup>();
  const add = (group: string, version: string, types: ResourceType[] | undefined, fallback: readonly [number, number]): void => {
    const a = stored.get(`${version}.${group}`);
    const [groupPriority, versionPriority] = a === undefined ? fallback : [a.groupPriorityMinimum, a.versionPriority];
    let g = groups.get(group);
    if (g === undefined) {
      g = { name: group, priority: groupPriority, versions: [] };
      groups.set(group, g);
    }
    g.priority = Math.max(g.priority, groupPriority);
    const existing = g.versions.find((v) => v.version === version);
    if (existing === undefined) g.versions.push({ version, types, versionPriority });
    else existing.types = types;
  };
  for (const g of served) {
    for (const v of g.versions) {
      const proxied = stored.get(`${v.version}.${g.name}`)?.serviceBacked === true;
      const fallback = g.name === aggregatorGroup ? [20001, 0] as const : localAPIServicePriorities(`${v.version}.${g.name}`) ?? [1000, 100] as const;
      add(g.name, v.version, proxied ? undefined : v.types, fallback);
    }
  }
  for (const a of stored.values()) if (a.serviceBacked) add(a.group, a.version, undefined, [a.groupPriorityMinimum, a.versionPriority]);
  const out = [...groups.values()];
  for (const g of out) g.versions.sort((a, b) => b.versionPriority - a.versionPriority || compareKubeVersions(a.version, b.version));
  return out.sort((a, b) => b.priority - a.priority || compareGoStrings(a.name, b.name));
}

function aggregatedResource(t: ResourceType): Record<string, unknown> {
  const n = t.names;
  // A built-in resource names neither its group nor its version (the legacy list it is converted from
  // leaves them out), nor do its subresources of its own kind; a custom resource names both.
  const own = t.customResource === true ? { group: n.group, version: n.version, kind: n.kind } : { group: '', version: '', kind: n.kind };
  const r: Record<string, unknown> = {
    resource: n.resource,
    responseKind: own,
    scope: n.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: n.singular,
    verbs: [...n.verbs],
  };
  if (n.shortNames.length > 0) r.shortNames = [...n.shortNames];
  if (n.categories.length > 0) r.categories = [...n.categories];
  const subs: Record<string, unknown>[] = [];
  for (const sub of n.objectSubresources ?? []) subs.push({ subresource: sub, responseKind: own, verbs: subresourceVerbs });
  for (const k of n.kindSubresources ?? []) {
    const kind = t.customResource !== true && k.group === n.group && k.version === n.version ? { group: '', version: '', kind: k.kind } : { group: k.group, version: k.version, kind: k.kind };
    subs.push({ subresource: k.subresource, responseKind: kind, verbs: [...k.verbs] });
  }
  if (n.status) subs.push({ subresource: 'status', responseKind: own, verbs: subresourceVerbs });
  if (n.scale !== undefined) subs.push({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: subresourceVerbs });
  if (subs.length > 0) r.subresources = inInstallerOrder(t, subs, (x) => x.subresource as string);
  return r;
}

function aggregatedList(groups: readonly { name: string; versions: readonly { version: string; types: readonly ResourceType[] | undefined }[] }[], apiVersion: string): Record<string, unknown> {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: groups.map((g) => ({
      // 1.34 leaves the zero creationTimestamp out (the differential suite's oracle).
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((v) => (v.types === undefined ? { version: v.version, freshness: 'Stale' } : { version: v.version, resources: v.types.map(aggregatedResource), freshness: 'Current' })),
    })),
  };
}

/** Which aggregated discovery version the `Accept` header asks for, if any. */
function aggregatedVersion(accept: string | undefined): string | undefined {
  for (const m of parseAcceptClauses(accept === undefined || accept === '' ? '*/*' : accept)) {
    if (m.type !== 'application' || m.subtype !== 'json') continue;
    if (m.params.get('g') === 'apidiscovery.k8s.io' && m.params.get('as') === 'APIGroupDiscoveryList') {
      if (m.params.get('v') === 'v2') return 'v2';
      if (m.params.get('v') === 'v2beta1') return 'v2beta1';
    }
    if (!m.params.has('as')) return undefined;
  }
  return undefined;
}

/**
 * The paths the index `/` lists (the server mux's listed paths, in Go's string order): discovery, OpenAPI, the
 * health checks, `/version`, the issuer documents when the server issues tokens, each group and group-version
 * served here (go-restful's), and each of an APIService (kube-aggregator's: a custom resource's, once
 * crdregistration registered it, or a service-backed one). Not `/metrics`, which kubekit does not serve.
 */
export function rootPaths(catalog: ResourceCatalog, apiServices: readonly DiscoveryAPIService[], issuer: boolean): string[] {
  const paths = new Set(['/api', '/api/v1', '/apis', '/apis/', '/openapi/v2', '/openapi/v3', '/openapi/v3/', '/version', ...healthCheckPaths()]);
  if (issuer) for (const p of ['/.well-known/openid-configuration', '/openid/v1/jwks']) paths.add(p);
  for (const g of catalog.groups(false)) {
    paths.add(`/apis/${g.name}`);
    for (const v of g.versions) paths.add(`/apis/${g.name}/${v.version}`);
  }
  // The legacy APIService (`v1.`) is `/api`'s.
  for (const a of apiServices) {
    if (a.group === '') continue;
    paths.add(`/apis/${a.group}`);
    paths.add(`/apis/${a.group}/${a.version}`);
  }
  return [...paths].sort(compareGoStrings);
}

/**
 * Serves a discovery path, or returns false when the path is not one. `serverAddress` is the
 * `host:port` clients reach the server at. As kube-apiserver 1.34.4 routes `method`: `/api`, `/api/v1`
 * and `/apis/<group>/<version>` are go-restful routes for GET only (another method is its 405), `/apis`
 * and `/apis/<group>` plain handlers that answer any method as a GET.
 */
export function serveDiscovery(catalog: ResourceCatalog, apiServices: () => DiscoveryAPIService[], path: string, accept: string | undefined, res: ServerResponse, serverAddress: string, method = 'GET'): boolean {
  const parts = path.split('/').filter((p) => p !== '');
  const getOnly = (): boolean => {
    if (method === 'GET') return false;
    sendError(res, methodNotAllowed());
    return true;
  };
  if (parts[0] === 'api' && parts.length <= 2) {
    const groups = catalog.groups(true);
    if (parts.length === 1) {
      if (getOnly()) return true;
      const agg = aggregatedVersion(accept);
      if (agg !== undefined) {
        sendAggregated(res, aggregatedList(groups, `apidiscovery.k8s.io/${agg}`), agg);
        return true;
      }
      sendJSON(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] });
      return true;
    }
    const version = groups[0]?.versions.find((v) => v.version === parts[1]);
    if (version === undefined) return false;
    if (getOnly()) return true;
    sendJSON(res, 200, { kind: 'APIResourceList', groupVersion: parts[1], resources: apiResources(version.types) });
    return true;
  }
  if (parts[0] === 'apis' && parts.length <= 3) {
    const groups = catalog.groups(false);
    if (parts.length === 1) {
      const agg = aggregatedVersion(accept);
      if (agg !== undefined) {
        sendAggregated(res, aggregatedList(aggregatedGroups(groups, apiServices()), `apidiscovery.k8s.io/${agg}`), agg);
        return true;
      }
      sendJSON(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: legacyGroups(groups, apiServices()).map(legacyGroup) });
      return true;
    }
    const group = groups.find((g) => g.name === parts[1]);
    if (parts.length === 2) {
      // The aggregator answers a group one of its APIServices names; any other served group is answered
      // by the server that serves it (a built-in group whose APIService was deleted, too).
      const listed = legacyGroups(groups, apiServices()).find((g) => g.name === parts[1])
        ?? (group === undefined ? undefined : { name: group.name, versions: group.versions.map((v) => v.version) });
      if (listed === undefined) return false;
      sendJSON(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...legacyGroup(listed) });
      return true;
    }
    if (group === undefined) return false;
    const version = group.versions.find((v) => v.version === parts[2]);
    if (version === undefined) return false;
    if (getOnly()) return true;
    sendJSON(res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group.name}/${version.version}`, resources: apiResources(version.types) });
    return true;
  }
  return false;
}

function sendAggregated(res: ServerResponse, body: Record<string, unknown>, version: string): void {
  const text = stringifyJSON(body);
  res.setHeader('ETag', `"${createHash('sha512').update(text).digest('hex').toUpperCase()}"`);
  res.setHeader('Vary', 'Accept');
  sendText(res, 200, text, version === 'v2' ? aggregatedDiscoveryV2 : aggregatedDiscoveryV2Beta1);
}
