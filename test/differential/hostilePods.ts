/**
 * Hostile requests around a running Pod and the PodDisruptionBudget that selects it (hostileCase.ts plays
 * them): the pod's eviction (Evictions of every shape, their deleteOptions, dry runs), its graceful deletion
 * (grace periods, preconditions), its status (phases, readiness, addresses in non-standard forms) and
 * finalizers, its in-place resizes (`pods/resize`: every kind of patch, changes it must refuse, hostile
 * quantities and keys), and the budget's status and spec, which decide whether an eviction may go. Each
 * case starts from the same pod (`p`, on a node, Burstable, Running and Ready) and budget (`b`, one
 * disruption allowed).
 *
 * Grace periods are drawn so that the answers do not depend on how long a case takes (a later, shorter
 * period is brought forward to no earlier than now: only 0 and 1 give the same answer whenever they come),
 * and propagation policies that leave a finalizer for the garbage collector (which kubekit runs and the
 * bare reference does not) are not drawn.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';

const P = '{po}/p';
const B = '{pdb}/b';

/** The pod every case starts from: on a node, so that its deletion is graceful. */
export function pod(ns: string): Record<string, unknown> {
  const resources = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } };
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: ns, labels: { app: 'h' } }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx:1.27', resources }] } };
}

/** What a kubelet would report of it: running and ready. */
export const podStatus = { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };

/** The budget every case starts from: it selects the pod. */
export function budget(ns: string): Record<string, unknown> {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b', namespace: ns }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'h' } } } };
}

/** What a disruption controller would write: one disruption allowed. */
export const budgetStatus = { status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 } };

const deleteOptions = [
  '{}', 'null', '[]', '{"gracePeriodSeconds":0}', '{"gracePeriodSeconds":1}', '{"gracePeriodSeconds":-1}', '{"gracePeriodSeconds":"5"}', '{"gracePeriodSeconds":1.5}',
  '{"dryRun":["All"]}', '{"dryRun":["Bogus"]}', '{"dryRun":"All"}', '{"preconditions":{"resourceVersion":"{rv}"}}', '{"preconditions":{"resourceVersion":"1"}}',
  '{"preconditions":{"uid":"{uid}"}}', '{"preconditions":{"uid":"x"}}', '{"preconditions":null}', '{"propagationPolicy":"Background"}', '{"propagationPolicy":"Sideways"}',
  '{"orphanDependents":"yes"}', '{"ignoreStoreReadErrorWithClusterBreakingPotential":true}', '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0}',
];

function eviction(r: Rng): HostileRequest {
  const [label, body] = r.pick<[string, string]>([
    ['plain', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"}}'],
    ['no kind', '{"metadata":{"name":"p"}}'],
    ['v1beta1', '{"apiVersion":"policy/v1beta1","kind":"Eviction","metadata":{"name":"p","namespace":"{ns}"}}'],
    ['deleteOptions', `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"},"deleteOptions":${r.pick(deleteOptions)}}`],
    ['another name', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"q"}}'],
    ['another namespace', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p","namespace":"elsewhere"}}'],
    ['another kind', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}'],
    ['an unknown version', '{"apiVersion":"policy/v2","kind":"Eviction","metadata":{"name":"p"}}'],
    ['an unknown field', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"},"spec":{}}'],
    ['a duplicate field', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"},"metadata":{"name":"p"}}'],
    ['metadata of the wrong type', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":"p"}'],
    ['an array', '[{"metadata":{"name":"p"}}]'],
    ['__proto__', '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"},"__proto__":{"polluted":"yes"},"deleteOptions":{"__proto__":{"dryRun":["All"]}}}'],
  ]);
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldValidation=Ignore', '?dryRun=Bogus']);
  return { kind: 'pod', label: `eviction: ${label}${q}`, method: 'POST', path: `${P}/eviction${q}`, contentType: 'application/json', body };
}

function deletion(r: Rng): HostileRequest {
  if (r.chance(0.3)) {
    const body = r.pick(deleteOptions);
    return { kind: 'pod', label: `delete with body ${body}`, method: 'DELETE', path: P, contentType: 'application/json', body };
  }
  const q = r.pick(['', '?gracePeriodSeconds=0', '?gracePeriodSeconds=1', '?gracePeriodSeconds=-1', '?gracePeriodSeconds=x', '?dryRun=All', '?gracePeriodSeconds=0&dryRun=All', '?propagationPolicy=Background']);
  return { kind: 'pod', label: `delete${q}`, method: 'DELETE', path: P + q };
}

function podStatusPatch(r: Rng): HostileRequest {
  const content = r.pick([
    '"phase":"Running","conditions":[{"type":"Ready","status":"False"}]', '"phase":"Succeeded"', '"phase":"Failed"', '"phase":"Pending"', '"phase":"Unknown"', '"phase":"Sleeping"',
    '"podIP":"010.1.1.1","podIPs":[{"ip":"010.1.1.1"}]', '"hostIP":"0010.2.2.2","hostIPs":[{"ip":"0010.2.2.2"}]', '"podIPs":[{"ip":"10.1.1.1"},{"ip":"::ffff:1.2.3.4"}]',
    '"conditions":[{"type":"DisruptionTarget","status":"True","reason":"EvictionByEvictionAPI"}]', '"conditions":null',
  ]);
  return { kind: 'pod', label: `status ${content.slice(0, 60)}`, method: 'PATCH', path: `${P}/status`, contentType: 'application/merge-patch+json', body: `{"status":{${content}}}` };
}

function budgetPatch(r: Rng): HostileRequest {
  if (r.chance(0.6)) {
    const content = r.pick([
      '"disruptionsAllowed":0', '"disruptionsAllowed":2', '"disruptionsAllowed":-1', '"observedGeneration":0', '"currentHealthy":0,"desiredHealthy":1', '"currentHealthy":3',
      '"disruptedPods":{"p":"2026-01-01T00:00:00Z"}', '"disruptedPods":null', '"conditions":[{"type":"DisruptionAllowed","status":"True","reason":"SufficientPods","message":"","lastTransitionTime":"2026-01-01T00:00:00Z"}]',
    ]);
    return { kind: 'pdb', label: `status ${content}`, method: 'PATCH', path: `${B}/status`, contentType: 'application/merge-patch+json', body: `{"status":{${content}}}` };
  }
  const [label, body] = r.pick<[string, string]>([
    ['AlwaysAllow', '{"spec":{"unhealthyPodEvictionPolicy":"AlwaysAllow"}}'],
    ['another selector', '{"spec":{"selector":{"matchLabels":{"app":"other"}}}}'],
    ['an empty selector', '{"spec":{"selector":{}}}'],
    ['a bad selector', '{"spec":{"selector":{"matchExpressions":[{"key":"app","operator":"Near"}]}}}'],
    ['maxUnavailable too', '{"spec":{"maxUnavailable":1}}'],
  ]);
  return { kind: 'pdb', label: `merge patch: ${label}`, method: 'PATCH', path: B, contentType: 'application/merge-patch+json', body };
}

/** A resize of the pod's container (`pods/resize`): what it may change, what it must refuse, and worse. */
function resize(r: Rng): HostileRequest {
  const c = (resources: string, extra = ''): string => `{"spec":{"containers":[{"name":"c"${extra},"resources":${resources}}]}}`;
  const [label, contentType, body] = r.pick<[string, string, string]>([
    ['cpu up', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":"150m"}}')],
    ['cpu as a number', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":0.15}}')],
    ['cpu over the limit', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":"300m"}}')],
    ['memory in another form', 'application/strategic-merge-patch+json', c('{"requests":{"memory":"65536Ki"}}')],
    ['memory limit added', 'application/strategic-merge-patch+json', c('{"limits":{"memory":"128Mi"}}')],
    ['Guaranteed', 'application/merge-patch+json', c('{"requests":{"cpu":"200m","memory":"64Mi"},"limits":{"cpu":"200m","memory":"64Mi"}}')],
    ['requests removed', 'application/json-patch+json', '[{"op":"remove","path":"/spec/containers/0/resources/requests"}]'],
    ['limits removed', 'application/json-patch+json', '[{"op":"remove","path":"/spec/containers/0/resources/limits"}]'],
    ['ephemeral storage', 'application/json-patch+json', '[{"op":"add","path":"/spec/containers/0/resources/requests/ephemeral-storage","value":"1Gi"}]'],
    ['a bad quantity', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":"1.5.5"}}')],
    ['a negative quantity', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":"-1"}}')],
    ['__proto__ as a resource', 'application/merge-patch+json', c('{"requests":{"__proto__":"1","cpu":"120m"}}')],
    ['resize policy', 'application/strategic-merge-patch+json', c('{"requests":{"cpu":"120m"}}', ',"resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]')],
    ['a bad resize policy', 'application/strategic-merge-patch+json', c('{}', ',"resizePolicy":[{"resourceName":"gpu","restartPolicy":"Sometimes"},{"resourceName":"gpu"}]')],
    ['image and labels (dropped)', 'application/strategic-merge-patch+json', '{"metadata":{"labels":{"x":"y"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}'],
    ['container renamed', 'application/json-patch+json', '[{"op":"replace","path":"/spec/containers/0/name","value":"d"}]'],
    ['container added', 'application/json-patch+json', '[{"op":"add","path":"/spec/containers/-","value":{"name":"e","image":"x"}}]'],
    ['containers gone', 'application/merge-patch+json', '{"spec":{"containers":null}}'],
    ['init container added', 'application/json-patch+json', '[{"op":"add","path":"/spec/initContainers","value":[{"name":"i","image":"x","restartPolicy":"Always"}]}]'],
    ['pod-level resources', 'application/merge-patch+json', '{"spec":{"resources":{"requests":{"cpu":"1"}}}}'],
    ['windows', 'application/merge-patch+json', '{"spec":{"os":{"name":"windows"}}}'],
    ['status with resources', 'application/merge-patch+json', '{"status":{"containerStatuses":[{"name":"c","image":"x","imageID":"","ready":true,"restartCount":0,"state":{"running":{}}}]}}'],
    ['apply', 'application/apply-patch+yaml', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"110m"}}}]}}'],
    ['apply with another image', 'application/apply-patch+yaml', '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"other","resources":{"requests":{"cpu":"110m"}}}]}}'],
  ]);
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldManager=resizer', '?force=true&fieldManager=resizer']);
  if (r.chance(0.1)) {
    const bodyOf = '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"node-1","containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"150m","memory":"64Mi"},"limits":{"cpu":"200m"}}}]}}';
    return { kind: 'pod', label: 'resize: update', method: 'PUT', path: `${P}/resize`, contentType: 'application/json', body: bodyOf };
  }
  if (r.chance(0.05)) return { kind: 'pod', label: 'resize: get', method: 'GET', path: `${P}/resize` };
  return { kind: 'pod', label: `resize: ${label}${q}`, method: 'PATCH', path: `${P}/resize${q}`, contentType, body };
}

/** One hostile request around the case's pod and its budget. */
export function podRequest(r: Rng): HostileRequest {
  const g = r.int(0, 11);
  if (g >= 10) return resize(r);
  if (g <= 3) return eviction(r);
  if (g <= 5) return deletion(r);
  if (g === 6) return podStatusPatch(r);
  if (g === 7) return { kind: 'pod', label: 'finalizers', method: 'PATCH', path: P, contentType: 'application/merge-patch+json', body: r.pick(['{"metadata":{"finalizers":["example.com/hold"]}}', '{"metadata":{"finalizers":null}}']) };
  if (g === 8) return budgetPatch(r);
  // A second budget that selects the pod too (evictions then fail), or the budget gone.
  return r.chance(0.5)
    ? { kind: 'pdb', label: 'a second budget', method: 'POST', path: '{pdb}', contentType: 'application/json', body: '{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"b{i}"},"spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"h"}}}}' }
    : { kind: 'pdb', label: 'the budget deleted', method: 'DELETE', path: B };
}
