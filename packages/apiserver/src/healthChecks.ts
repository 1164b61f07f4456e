/**
 * `/livez`, `/readyz` and `/healthz` as kube-apiserver 1.34.4 serves them (k8s.io/apiserver's
 * pkg/server/healthz): `ok`, or with `?verbose` one line per check and `<endpoint> check passed`; checks named
 * in `?exclude=` are reported excluded, and names that match no check are warned about; each check also
 * answers on its own path (`/livez/ping`, `/readyz/poststarthook/rbac/bootstrap-roles`), which, unlike the
 * endpoint, is not public.
 *
 * The checks are the reference's, by name, so that a probe or a script excluding one behaves the same
 * against both servers. kubekit's server finishes what they stand for (its store, its controllers, its
 * bootstrap objects) before it listens, so each reports ok while it serves.
 */
import type { ServerResponse } from 'node:http';
import { compareGoStrings, goQuote } from '@kubekit/core';

/** The endpoints that serve health checks. */
export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';

const postStartHooks = [
  'start-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter', 'storage-object-count-tracker-hook', 'start-apiextensions-informers', 'start-apiextensions-controllers',
  'crd-informer-synced', 'start-system-namespaces-controller', 'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller', 'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller', 'start-service-ip-repair-controllers', 'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes', 'priority-and-fairness-config-producer', 'bootstrap-controller',
  'start-kubernetes-service-cidr-controller', 'start-kube-aggregator-informers', 'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller', 'apiservice-registration-controller', 'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
].map((h) => `poststarthook/${h}`);
const lastHooks = ['poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];

/** Each endpoint's checks, in the order kube-apiserver 1.34.4 lists them. */
const livenessChecks = ['ping', 'log', 'etcd', ...postStartHooks, 'autoregister-completion', ...lastHooks];
const checks: Readonly<Record<HealthEndpoint, readonly string[]>> = {
  livez: livenessChecks,
  healthz: livenessChecks,
  readyz: ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', ...postStartHooks, 'autoregister-completion', ...lastHooks, 'shutdown'],
};
const checkSets = new Map(Object.entries(checks).map(([k, v]) => [k, new Set(v)]));

/** Every health endpoint's path and each of its checks' (`/livez`, `/livez/ping`, …), for the index `/` lists. */
export function healthCheckPaths(): string[] {
  return Object.entries(checks).flatMap(([endpoint, names]) => [`/${endpoint}`, ...names.map((n) => `/${endpoint}/${n}`)]);
}

/** The endpoint a path is (`/livez`), or the endpoint and check one names (`/livez/ping`); undefined otherwise. */
export function healthPath(path: string): { endpoint: HealthEndpoint; check?: string } | undefined {
  const m = /^\/(livez|readyz|healthz)(?:\/(.+))?$/.exec(path);
  if (m === null) return undefined;
  const endpoint = m[1] as HealthEndpoint;
  return m[2] === undefined ? { endpoint } : { endpoint, check: m[2] };
}

/** Whether `check` is one of the endpoint's checks (its own path answers `ok`). */
export function isHealthCheck(endpoint: HealthEndpoint, check: string): boolean {
  return checkSets.get(endpoint)?.has(check) === true;
}

/** Answers a health endpoint: `ok`, or, with `verbose` in the query (any value), every check's line. */
export function serveHealth(endpoint: HealthEndpoint, query: URLSearchParams, res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  if (!query.has('verbose')) {
    res.end('ok');
    return;
  }
  const excluded = new Set(query.getAll('exclude'));
  const unknown = new Set(excluded);
  let out = '';
  for (const name of checks[endpoint]) {
    if (excluded.has(name)) {
      unknown.delete(name);
      out += `[+]${name} excluded: ok\n`;
    } else {
      out += `[+]${name} ok\n`;
    }
  }
  // sets.String's List(): sorted, each %q-quoted.
  if (unknown.size > 0) out += `warn: some health checks cannot be excluded: no matches for ${[...unknown].sort(compareGoStrings).map((n) => goQuote(n)).join(',')}\n`;
  res.end(`${out}${endpoint} check passed\n`);
}
