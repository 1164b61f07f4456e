/**
 * Discovery: `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`, in the legacy
 * form and in the aggregated form (`apidiscovery.k8s.io/v2` and `v2beta1`) that current clients ask
 * for with `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`.
 *
 * @see https://kubernetes.io/docs/concepts/overview/kubernetes-api/#aggregated-discovery
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { stringifyJSON } from '@kubekit/core';
import type { ResourceCatalog, ServedGroup } from './catalog.js';
import { aggregatedDiscoveryV2, aggregatedDiscoveryV2Beta1, sendJSON, sendText } from './internal/http.js';
import { parseAcceptClauses } from './internal/negotiation.js';
import type { ResourceType } from './resourceType.js';

const subresourceVerbs = ['get', 'patch', 'update'];

function apiResources(types: readonly ResourceType[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of types) {
    const n = t.names;
    const r: Record<string, unknown> = { name: n.resource, singularName: n.singular, namespaced: n.namespaced, kind: n.kind, verbs: [...n.verbs] };
    if (n.shortNames.length > 0) r.shortNames = [...n.shortNames];
    if (n.categories.length > 0) r.categories = [...n.categories];
    // Only what is stored has a storage version: what can only be created (reviews, bindings) is answered, not kept.
    const stored = t.storageKind ?? n;
    if (n.verbs.some((v) => v !== 'create')) r.storageVersionHash = storageVersionHash(stored.group, stored.version, stored.kind);
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

function legacyGroup(g: ServedGroup): Record<string, unknown> {
  const versions = g.versions.map((v) => ({ groupVersion: groupVersionText(g.name, v.version), version: v.version }));
  return { name: g.name, versions, preferredVersion: versions[0] };
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

function aggregatedList(groups: ServedGroup[], apiVersion: string): Record<string, unknown> {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: groups.map((g) => ({
      // 1.34 leaves the zero creationTimestamp out (the differential suite's oracle).
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((v) => ({ version: v.version, resources: v.types.map(aggregatedResource), freshness: 'Current' })),
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
 * Serves a discovery path, or returns false when the path is not one. `serverAddress` is the
 * `host:port` clients reach the server at.
 */
export function serveDiscovery(catalog: ResourceCatalog, path: string, accept: string | undefined, res: ServerResponse, serverAddress: string): boolean {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] === 'api' && parts.length <= 2) {
    const groups = catalog.groups(true);
    if (parts.length === 1) {
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
    sendJSON(res, 200, { kind: 'APIResourceList', groupVersion: parts[1], resources: apiResources(version.types) });
    return true;
  }
  if (parts[0] === 'apis' && parts.length <= 3) {
    const groups = catalog.groups(false);
    if (parts.length === 1) {
      const agg = aggregatedVersion(accept);
      if (agg !== undefined) {
        sendAggregated(res, aggregatedList(groups, `apidiscovery.k8s.io/${agg}`), agg);
        return true;
      }
      sendJSON(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(legacyGroup) });
      return true;
    }
    const group = groups.find((g) => g.name === parts[1]);
    if (group === undefined) return false;
    if (parts.length === 2) {
      sendJSON(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...legacyGroup(group) });
      return true;
    }
    const version = group.versions.find((v) => v.version === parts[2]);
    if (version === undefined) return false;
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
