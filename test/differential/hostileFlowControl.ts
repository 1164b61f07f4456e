/**
 * Hostile requests to the cluster's own configuration (hostileCase.ts plays them): API Priority and Fairness'
 * FlowSchemas and PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io/v1) and the computed
 * ComponentStatuses.
 *
 * FlowSchemas are written with a dry run only: the apiserver's config-consumer writes a `Dangling` condition
 * into every stored FlowSchema's status a moment after it is stored, so a FlowSchema the case stored would
 * be read before or after that write by chance. The dry runs reach the bootstrap objects the config-producer
 * wrote at start (mandatory `exempt` and `catch-all`, suggested `global-default`…): every patch type, updates,
 * server-side apply against the producer's managed fields, status writes and deletions with preconditions.
 * PriorityLevelConfigurations have no such controller: new ones are stored under the case's own names
 * (`{ns}-pl-{i}`; cluster-scoped, so they outlive the case's namespace), the rest are dry runs. Every answer
 * about a listed cluster-scoped kind keeps the bootstrap objects and the case's own (`keep: 'cluster'`):
 * other cases store their priority levels at the same time.
 *
 * ComponentStatuses are computed per request (nothing listens at the scheduler's and the controller-manager's
 * ports on either server, the storage is healthy): reads with every query parameter, and every other verb.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import { jsonPatchBody, patchRequest } from './hostileKinds.js';

const G = '/apis/flowcontrol.apiserver.k8s.io/v1';
const FS = `${G}/flowschemas`;
const PL = `${G}/prioritylevelconfigurations`;
const CS = '/api/v1/componentstatuses';

/** The bootstrap objects a dry run may reach: mandatory ones first. */
const flowSchemas = ['exempt', 'catch-all', 'global-default', 'system-leader-election', 'probes', 'service-accounts'];
const priorityLevels = ['exempt', 'catch-all', 'global-default', 'workload-low', 'leader-election', 'node-high'];

const subject = (r: Rng): unknown => r.pick<unknown>([
  { kind: 'User', user: { name: 'alice' } }, { kind: 'User', user: { name: '*' } }, { kind: 'User', user: { name: '' } }, { kind: 'User' },
  { kind: 'Group', group: { name: 'system:authenticated' } }, { kind: 'Group', user: { name: 'x' } }, { kind: 'Group', group: {} },
  { kind: 'ServiceAccount', serviceAccount: { namespace: '*', name: '*' } }, { kind: 'ServiceAccount', serviceAccount: { namespace: '{ns}', name: 'op' } },
  { kind: 'ServiceAccount', serviceAccount: { namespace: '', name: '' } }, { kind: 'ServiceAccount', serviceAccount: { namespace: 'Bad_NS', name: 'a/b' } },
  { kind: 'Robot', user: { name: 'r' } }, { kind: '' }, { kind: 'User', user: { name: 'a' }, group: { name: 'g' }, serviceAccount: { namespace: 'n', name: 's' } },
  null, 'alice', { kind: 'User', user: { name: 'a' }, bogus: 1 },
]);

const list = <T>(r: Rng, pieces: readonly T[], max = 3): T[] => Array.from({ length: r.int(0, max) }, () => r.pick(pieces));

function resourceRule(r: Rng): unknown {
  const rule: Record<string, unknown> = {};
  if (r.chance(0.9)) rule.verbs = r.pick<unknown>([['*'], ['get', 'list'], ['get', '*'], [], [''], null, 'get']);
  if (r.chance(0.9)) rule.apiGroups = r.pick<unknown>([['*'], [''], ['apps', '*'], ['apps', 'batch'], [], ['Bad Group']]);
  if (r.chance(0.9)) rule.resources = r.pick<unknown>([['*'], ['pods'], ['pods/status', '*/scale'], ['pods', '*'], [], ['']]);
  if (r.chance(0.5)) rule.clusterScope = r.pick<unknown>([true, false, 'yes', null]);
  if (r.chance(0.6)) rule.namespaces = r.pick<unknown>([['*'], ['default'], ['Bad_NS'], ['*', 'kube-system'], [], [''], null]);
  return rule;
}

function nonResourceRule(r: Rng): unknown {
  const rule: Record<string, unknown> = {};
  if (r.chance(0.9)) rule.verbs = r.pick<unknown>([['*'], ['get'], ['get', '*'], [], ['GET']]);
  if (r.chance(0.9)) rule.nonResourceURLs = r.pick<unknown>([['/healthz'], ['/healthz/*'], ['*'], ['/*'], ['healthz'], ['/a*'], ['/a/*/b'], ['/'], ['*', '/x'], [], ['/metrics', '/metrics']]);
  return rule;
}

function rule(r: Rng): unknown {
  const o: Record<string, unknown> = {};
  if (r.chance(0.9)) o.subjects = r.chance(0.9) ? list(r, [subject(r), subject(r), subject(r)]) : r.pick([null, {}]);
  if (r.chance(0.7)) o.resourceRules = Array.from({ length: r.int(0, 2) }, () => resourceRule(r));
  if (r.chance(0.5)) o.nonResourceRules = Array.from({ length: r.int(0, 2) }, () => nonResourceRule(r));
  return r.chance(0.05) ? r.pick([null, 'x', []]) : o;
}

function flowSchemaSpec(r: Rng): unknown {
  const spec: Record<string, unknown> = {};
  if (r.chance(0.9)) spec.priorityLevelConfiguration = r.pick<unknown>([{ name: 'global-default' }, { name: 'exempt' }, { name: '' }, { name: 'Bad_Name' }, {}, null, 'x', { name: 'a'.repeat(254) }]);
  if (r.chance(0.6)) spec.matchingPrecedence = r.pick<unknown>([0, 1, 500, 10_000, 10_001, -1, '5', 1.5, null, 2 ** 31]);
  if (r.chance(0.5)) spec.distinguisherMethod = r.pick<unknown>([{ type: 'ByUser' }, { type: 'ByNamespace' }, { type: 'ByNothing' }, {}, null, 'ByUser']);
  if (r.chance(0.8)) spec.rules = r.chance(0.9) ? Array.from({ length: r.int(0, 2) }, () => rule(r)) : r.pick([null, {}, 'x']);
  return r.chance(0.05) ? r.pick([null, 'x', []]) : spec;
}

function queuing(r: Rng): unknown {
  return r.pick<unknown>([
    { queues: 64, handSize: 6, queueLengthLimit: 50 }, { queues: 1, handSize: 1, queueLengthLimit: 1 }, { queues: 2, handSize: 8, queueLengthLimit: 0 },
    { queues: 0, handSize: 0, queueLengthLimit: -1 }, { queues: 10_000, handSize: 60 }, { queues: 100, handSize: 50 }, {}, null, { queues: 'x' },
  ]);
}

function priorityLevelSpec(r: Rng): unknown {
  const spec: Record<string, unknown> = {};
  if (r.chance(0.9)) spec.type = r.pick<unknown>(['Limited', 'Limited', 'Exempt', 'Unknown', '', null]);
  if (r.chance(0.7)) {
    const limited: Record<string, unknown> = {};
    if (r.chance(0.6)) limited.nominalConcurrencyShares = r.pick<unknown>([5, 0, -1, null, 2 ** 31, '5']);
    if (r.chance(0.6)) {
      const type = r.pick<unknown>(['Queue', 'Reject', 'Bogus', '', null]);
      limited.limitResponse = r.chance(0.7) ? { type, queuing: queuing(r) } : { type };
    }
    if (r.chance(0.4)) limited.lendablePercent = r.pick<unknown>([0, 50, 100, 101, -1, null]);
    if (r.chance(0.3)) limited.borrowingLimitPercent = r.pick<unknown>([0, 200, -1, null]);
    spec.limited = r.chance(0.05) ? r.pick([null, 'x']) : limited;
  }
  if (r.chance(0.4)) {
    const exempt: Record<string, unknown> = {};
    if (r.chance(0.6)) exempt.nominalConcurrencyShares = r.pick<unknown>([0, 5, -1, null]);
    if (r.chance(0.5)) exempt.lendablePercent = r.pick<unknown>([0, 50, 101, -1]);
    spec.exempt = exempt;
  }
  return r.chance(0.05) ? r.pick([null, 'x', []]) : spec;
}

const dryRuns = ['?dryRun=All', '?dryRun=All', '?dryRun=All&fieldValidation=Strict', '?dryRun=All&fieldManager=hostile', '?dryRun=All&fieldValidation=Ignore'];
const dryRun = (r: Rng): string => r.pick(dryRuns);

const fsPatches: [string, string][] = [
  ['precedence', '{"spec":{"matchingPrecedence":5}}'], ['precedence out of range', '{"spec":{"matchingPrecedence":10001}}'],
  ['another level', '{"spec":{"priorityLevelConfiguration":{"name":"exempt"}}}'], ['no level', '{"spec":{"priorityLevelConfiguration":null}}'],
  ['no rules', '{"spec":{"rules":null}}'], ['rules emptied', '{"spec":{"rules":[]}}'], ['rules replaced', '{"spec":{"rules":[{"subjects":[{"kind":"User","user":{"name":"a"}}],"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/x"]}]}]}}'],
  ['distinguisher', '{"spec":{"distinguisherMethod":{"type":"ByNamespace"}}}'], ['distinguisher removed', '{"spec":{"distinguisherMethod":null}}'],
  ['autoupdate off', '{"metadata":{"annotations":{"apf.kubernetes.io/autoupdate-spec":"false"}}}'], ['a label', '{"metadata":{"labels":{"x":"y"}}}'],
  ['status', '{"status":{"conditions":[{"type":"Dangling","status":"True"}]}}'], ['$patch in rules', '{"spec":{"rules":[{"$patch":"delete"}]}}'],
  ['spec null', '{"spec":null}'], ['unknown member', '{"spec":{"bogus":1}}'], ['__proto__', '{"spec":{"__proto__":{"polluted":"yes"}}}'],
];

const plPatches: [string, string][] = [
  ['shares', '{"spec":{"limited":{"nominalConcurrencyShares":7}}}'], ['no shares', '{"spec":{"limited":{"nominalConcurrencyShares":0}}}'],
  ['exempt type', '{"spec":{"type":"Exempt"}}'], ['exempt type, limited removed', '{"spec":{"type":"Exempt","limited":null,"exempt":{}}}'],
  ['limited type', '{"spec":{"type":"Limited"}}'], ['reject', '{"spec":{"limited":{"limitResponse":{"type":"Reject"}}}}'],
  ['reject without queuing', '{"spec":{"limited":{"limitResponse":{"type":"Reject","queuing":null}}}}'], ['hand too big', '{"spec":{"limited":{"limitResponse":{"queuing":{"handSize":65}}}}}'],
  ['lendable', '{"spec":{"limited":{"lendablePercent":101}}}'], ['exempt shares', '{"spec":{"exempt":{"nominalConcurrencyShares":10,"lendablePercent":50}}}'],
  ['autoupdate off', '{"metadata":{"annotations":{"apf.kubernetes.io/autoupdate-spec":"false"}}}'], ['status', '{"status":{"conditions":[{"type":"X","status":"True"}]}}'],
  ['spec null', '{"spec":null}'], ['unknown member', '{"spec":{"limited":{"bogus":1}}}'], ['__proto__', '{"spec":{"limited":{"__proto__":{"polluted":"yes"}}}}'],
];

const fsPaths = ['/spec/matchingPrecedence', '/spec/rules/0', '/spec/rules/-', '/spec/rules/0/subjects/0/kind', '/spec/rules/0/subjects/-', '/spec/priorityLevelConfiguration/name', '/spec/distinguisherMethod', '/metadata/annotations', '/status/conditions/0', '/spec/__proto__', '/metadata/name', '/spec'];
const plPaths = ['/spec/type', '/spec/limited/nominalConcurrencyShares', '/spec/limited/limitResponse/queuing/handSize', '/spec/limited/limitResponse/type', '/spec/limited/lendablePercent', '/spec/exempt', '/spec/limited', '/spec/exempt/nominalConcurrencyShares', '/status', '/metadata/annotations/x', '/spec/__proto__'];
const values = ['0', '-1', '1', '10001', '"x"', 'null', '{}', '[]', 'true', '{"kind":"User","user":{"name":"a"}}', '"Exempt"', '"Limited"', '"Reject"', '{"nominalConcurrencyShares":3}'];

/** A FlowSchema's or a PriorityLevelConfiguration's whole body. */
function body(kind: 'FlowSchema' | 'PriorityLevelConfiguration', name: string, r: Rng, more = ''): string {
  const spec = kind === 'FlowSchema' ? flowSchemaSpec(r) : priorityLevelSpec(r);
  const meta = r.chance(0.1) ? r.pick(['{"generateName":"{ns}-g-"}', '{}', `{"name":"${name}","labels":{"a b":"c"}}`, `{"name":"${name}","namespace":"{ns}"}`]) : `{"name":"${name}"${more}}`;
  return `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"${kind}","metadata":${meta},"spec":${JSON.stringify(spec)}}`;
}

/** One hostile request about API Priority and Fairness' configuration. */
export function flowControlRequest(r: Rng): HostileRequest {
  const flow = r.chance(0.5);
  const [kind, base, existing] = flow ? ['FlowSchema', FS, flowSchemas] as const : ['PriorityLevelConfiguration', PL, priorityLevels] as const;
  const target = r.pick(existing);
  const g = r.int(0, 15);
  const patch = patchRequest(r, g, 'flowcontrol', `${base}/${target}`, flow ? fsPatches : plPatches, dryRun, (x) => jsonPatchBody(x, flow ? fsPaths : plPaths, values));
  if (patch !== undefined) return { ...patch, label: `${kind} ${target}: ${patch.label}` };
  const json = { contentType: 'application/json' };
  switch (g) {
    case 7: case 8: {
      // A new object: a priority level under the case's own name may be stored, a FlowSchema never.
      const store = !flow && r.chance(0.5);
      const name = store ? '{ns}-pl-{i}' : r.pick([...existing, '{ns}-x', 'Bad_Name', '']);
      return { kind: 'flowcontrol', label: `create ${kind} ${store ? '(stored)' : '(dry run)'}`, method: 'POST', path: base + (store ? r.pick(['', '?fieldValidation=Strict']) : dryRun(r)), ...json, body: body(kind, name, r) };
    }
    case 9:
      return { kind: 'flowcontrol', label: `update ${kind} ${target}`, method: 'PUT', path: `${base}/${target}${dryRun(r)}`, ...json, body: body(kind, target, r, r.pick([',"resourceVersion":"{rv}"', '', ',"resourceVersion":"1"', ',"uid":"{uid}"'])) };
    case 10: {
      const force = r.pick(['', '&force=true', '&force=false']);
      const manager = r.pick(['&fieldManager=hostile', '&fieldManager=api-priority-and-fairness-config-producer-v1', '']);
      return { kind: 'flowcontrol', label: `apply ${kind} ${target}${force}`, method: 'PATCH', path: `${base}/${target}?dryRun=All${manager}${force}`, contentType: 'application/apply-patch+yaml', body: body(kind, target, r) };
    }
    case 11: {
      const status = flow
        ? r.pick(['{"conditions":[{"type":"Dangling","status":"True","reason":"r","message":"m","lastTransitionTime":"2020-01-01T00:00:00Z"}]}', '{"conditions":[{"type":"","status":"Maybe"}]}', '{"conditions":null}', '{"conditions":[{"type":"A"},{"type":"A"}]}', '{}'])
        : r.pick(['{"conditions":[{"type":"X","status":"True"}]}', '{"conditions":[{"type":"","status":"Maybe"}]}', '{"conditions":[{}]}', '{}']);
      const how = r.pick(['merge', 'apply', 'put']);
      const path = `${base}/${target}/status?dryRun=All${how === 'apply' ? '&fieldManager=hostile' : ''}`;
      if (how === 'put') return { kind: 'flowcontrol', label: `status put ${kind} ${target}`, method: 'PUT', path, ...json, body: `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"${kind}","metadata":{"name":"${target}","resourceVersion":"{rv}"},"status":${status}}` };
      if (how === 'apply') return { kind: 'flowcontrol', label: `status apply ${kind} ${target}`, method: 'PATCH', path, contentType: 'application/apply-patch+yaml', body: `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"${kind}","metadata":{"name":"${target}"},"status":${status}}` };
      return { kind: 'flowcontrol', label: `status merge patch ${kind} ${target}`, method: 'PATCH', path, contentType: 'application/merge-patch+json', body: `{"status":${status}}` };
    }
    case 12: {
      // With a body the apiserver reads the options from it alone (handlers/delete.go): the query's
      // dryRun would be ignored, and the bootstrap object deleted.
      const options = r.pick(['', '"preconditions":{"uid":"{uid}"}', '"preconditions":{"uid":"bogus"}', '"preconditions":{"resourceVersion":"1"}', '"propagationPolicy":"Orphan"', '"propagationPolicy":"Foreground"', '"gracePeriodSeconds":-1', '"gracePeriodSeconds":0']);
      return { kind: 'flowcontrol', label: `delete ${kind} ${target} ${options}`, method: 'DELETE', path: `${base}/${target}?dryRun=All`, ...(options === '' ? {} : { ...json, body: `{"dryRun":["All"],${options}}` }) };
    }
    case 13:
      return { kind: 'flowcontrol', label: `delete collection of ${kind}`, method: 'DELETE', path: `${base}?dryRun=All${r.pick(['', '&fieldSelector=metadata.name%3Dexempt', '&labelSelector=a%3Db', '&fieldSelector=spec.type%3DLimited'])}`, keep: 'cluster' };
    default: {
      const query = r.pick(['', '?fieldSelector=metadata.name%3Dexempt', '?fieldSelector=metadata.name%21%3Dexempt', '?fieldSelector=spec.type%3DLimited', '?labelSelector=a%3Db', '?labelSelector=a%20in%20(', '?limit=3', '?resourceVersion=0', '?resourceVersionMatch=Exact', '?limit=-1', '?watch=true&timeoutSeconds=1&allowWatchBookmarks=true', '?watch=true&timeoutSeconds=1&resourceVersion=0']);
      const one = r.chance(0.3);
      return { kind: 'flowcontrol', label: `read ${kind}${one ? ` ${target}` : 's'}${query}`, method: 'GET', path: `${base}${one ? `/${target}` : ''}${query}`, ...(one ? {} : { keep: 'cluster' as const }) };
    }
  }
}

/** One hostile request about ComponentStatuses. */
export function componentStatusRequest(r: Rng): HostileRequest {
  const g = r.int(0, 5);
  const name = r.pick(['scheduler', 'controller-manager', 'etcd-0', 'etcd-1', 'nope', 'Bad_Name', '%2E%2E']);
  if (g <= 2) {
    const query = r.pick(['', '?fieldSelector=metadata.name%3Detcd-0', '?fieldSelector=metadata.name%21%3Dscheduler', '?fieldSelector=status%3DHealthy', '?labelSelector=a%3Db', '?labelSelector=%21%21', '?limit=1', '?resourceVersion=0', '?resourceVersion=bogus', '?resourceVersionMatch=NotOlderThan', '?watch=true', '?watch=1&timeoutSeconds=1', '?timeoutSeconds=x', '?continue=bogus']);
    return { kind: 'componentstatuses', label: `list${query}`, method: 'GET', path: CS + query, keep: 'cluster' };
  }
  if (g === 3) return { kind: 'componentstatuses', label: `get ${name}`, method: 'GET', path: `${CS}/${name}${r.pick(['', '', '?resourceVersion=0', '?watch=true'])}` };
  const method = r.pick(['POST', 'PUT', 'PATCH', 'DELETE']);
  const path = method === 'POST' || r.chance(0.2) ? CS : `${CS}/${name}`;
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  return { kind: 'componentstatuses', label: `${method} ${path === CS ? 'collection' : name}`, method, path: path + r.pick(['', '?dryRun=All']), contentType, body: `{"apiVersion":"v1","kind":"ComponentStatus","metadata":{"name":"${name}"},"conditions":[{"type":"Healthy","status":"True"}]}` };
}
