// core/v1 ResourceQuotas and LimitRanges on both servers, with the admission plugins kube-apiserver runs
// by default on them: LimitRanger (plugin/pkg/admission/limitranger) and ResourceQuota
// (k8s.io/apiserver/pkg/admission/plugin/resourcequota, with the evaluators of pkg/quota/v1/evaluator/core).
// The kinds: the strategies (a quota's status dropped on create and update, kept by /status with the spec
// restored; a LimitRange created without a name named by a UUID), SetDefaults_LimitRangeItem and the
// quantities rounded up to thousandths, ValidateResourceQuota/Update/StatusUpdate and ValidateLimitRange in
// their words, decode errors, field selectors, a watch, every patch type, the Tables (a quota's REQUEST and
// LIMIT cells) and discovery. The plugins: a pod's defaults and the kubernetes.io/limit-ranger annotation, the
// LimitRanger's refusals of pods and claims; a quota that limits nothing until its status.hard is written
// (no quota controller runs), "status unknown" until its status.used is, then the constraints, the exceeded
// quota refusals and status.used charged by the admission itself (not in a dry run), for pods, count/<resource>,
// configmaps, secrets, services (node ports, load balancers), claims and their storage, with scopes.
// Every expected answer is kube-apiserver 1.34.4's to the same request (the reference server runs the same
// test). Go walks the maps of these kinds in no fixed order, so each request here has at most one map entry
// that draws an error (the order of several varies from run to run on the reference).
import { expect } from 'chai';
import { APPLY, JSON_PATCH, MERGE, STRATEGIC, TABLE, answered, createWidgets, describeOnBothServers, eventually, refused, type Answer, type Send } from './sender.js';

const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const existsOnly = "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

type Json = Record<string, unknown>;
interface Obj {
  metadata: { name: string; namespace?: string; resourceVersion: string; generation?: number; annotations?: Record<string, string>; managedFields?: { manager: string; operation: string; subresource?: string; fieldsV1: Json }[] };
  spec?: Json;
  status?: Json;
}
interface Pod extends Obj { spec: { containers: { name: string; resources?: Json }[]; initContainers?: { name: string; resources?: Json }[] } }

const quotas = (ns: string): string => `/api/v1/namespaces/${ns}/resourcequotas`;
const limits = (ns: string): string => `/api/v1/namespaces/${ns}/limitranges`;
const pods = (ns: string): string => `/api/v1/namespaces/${ns}/pods`;
const quota = (name: string, spec: Json, more: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec, ...more });
const limitRange = (name: string, items: Json[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits: items } });
const container = (name: string, resources?: Json, more: Json = {}): Json => ({ name, image: 'nginx', ...(resources === undefined ? {} : { resources }), ...more });
const pod = (name: string, containers: Json[], more: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers, ...more } });
const forbidden = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([403, message]);
};
const badRequest = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([400, message]);
};

async function namespace(s: Send, name: string): Promise<void> {
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })), 201);
}

/**
 * Sends `request` (a dry run, so nothing is kept) until its answer's status and message are `expected` (at
 * most 10 s): the reference's plugins read the LimitRanges and quotas through informers, which see a write
 * a moment later.
 */
async function until(request: () => Promise<Answer>, expected: [number, string], seconds = 10): Promise<void> {
  const got = (a: Answer): [number, string] => [a.status, a.status < 300 ? '' : a.message];
  const a = await eventually(request, (b) => got(b)[0] === expected[0] && got(b)[1] === expected[1], seconds);
  expect(got(a)).to.deep.equal(expected);
}

async function quotaStorage(s: Send): Promise<void> {
  await namespace(s, 'qs');
  const Q = quotas('qs');
  // Created: the status sent is dropped, quantities rounded up to thousandths; no generation.
  const created = answered<Obj>(await s('POST', Q, quota('q1', { hard: { pods: '10', 'requests.cpu': '1.5', memory: '1Gi', 'limits.cpu': '0.0001', 'count/widgets.example.com': '3' } }, { status: { hard: { pods: '5' }, used: { pods: '1' } } })), 201);
  expect([created.metadata.generation, created.spec, created.status]).to.deep.equal([undefined, { hard: { 'count/widgets.example.com': '3', 'limits.cpu': '1m', memory: '1Gi', pods: '10', 'requests.cpu': '1500m' } }, {}]);
  expect(created.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1])).to.deep.equal([['unknown', 'Update', { 'f:spec': { 'f:hard': { '.': {}, 'f:count/widgets.example.com': {}, 'f:limits.cpu': {}, 'f:memory': {}, 'f:pods': {}, 'f:requests.cpu': {} } } }]]);
  // A quota may be empty.
  expect(answered<Obj>(await s('POST', Q, quota('empty', {})), 201).spec).to.deep.equal({});

  // ValidateResourceQuotaSpec: names, quantities, scopes and their resources, the scope selector.
  const invalid = (name: string, errors: string): string => `ResourceQuota "${name}" is invalid: ${errors}`;
  refused(await s('POST', Q, quota('neg', { hard: { pods: '-1' } })), invalid('neg', 'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0'));
  refused(await s('POST', Q, quota('frac', { hard: { services: '1.5' } })), invalid('frac', 'spec.hard[services]: Invalid value: "1500m": must be an integer'));
  refused(await s('POST', Q, quota('count', { hard: { 'count/x': '0.5' } })), invalid('count', 'spec.hard[count/x]: Invalid value: "500m": must be an integer'));
  refused(await s('POST', Q, quota('bogus', { hard: { bogus: '1' } })), invalid('bogus', '[spec.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified, spec.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota]'));
  refused(await s('POST', Q, quota('storage', { hard: { storage: '1Gi' } })), invalid('storage', 'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota'));
  refused(await s('POST', Q, quota('bad-name', { hard: { 'a/b/c': '1' } })), invalid('bad-name', `spec.hard[a/b/c]: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`));
  // Fine: extended resources, hugepages, storage classes, counts of any resource; zero.
  expect((await s('POST', Q, quota('fine', { hard: { 'requests.example.com/gpu': '2', 'hugepages-2Mi': '1Gi', 'requests.hugepages-1Gi': '0', 'gold.storageclass.storage.k8s.io/requests.storage': '5Gi', 'count/deployments.apps': '0', 'services.nodeports': '0', 'example.com/thing': '1' } }))).status).to.equal(201);
  refused(await s('POST', Q, quota('scopes', { hard: { pods: '1', services: '2', cpu: '1' }, scopes: ['BestEffort', 'NotBestEffort', 'Bogus'] })),
    invalid('scopes', '[spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Bogus"]: unsupported scope applied to resource, spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Bogus"]: unsupported scope, spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Bogus"]: conflicting scopes]'));
  const selector = { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: ['x'] }, { scopeName: 'Weird', operator: 'Bad' }, { scopeName: 'PriorityClass', operator: 'Exists', values: ['a'] }, { scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'NotTerminating', operator: 'Exists' }] };
  const internal = '{"MatchExpressions":[{"ScopeName":"Terminating","Operator":"In","Values":["x"]},{"ScopeName":"Weird","Operator":"Bad","Values":null},{"ScopeName":"PriorityClass","Operator":"Exists","Values":["a"]},{"ScopeName":"PriorityClass","Operator":"In","Values":null},{"ScopeName":"NotTerminating","Operator":"Exists","Values":null}]}';
  const sel = answered<{ message: string; details: { causes: { field: string; message: string }[] } }>(await s('POST', Q, quota('sel', { hard: { pods: '1', services: '2' }, scopeSelector: selector })), 422);
  expect(sel.message).to.equal(invalid('sel', `[spec.scopeSelector.matchExpressions: Invalid value: ${internal}: unsupported scope applied to resource, spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${existsOnly}, spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Weird": unsupported scope, spec.scopeSelector.matchExpressions.operator: Invalid value: "Bad": not a valid selector operator, spec.scopeSelector.matchExpressions.values: Invalid value: ["a"]: must be no value when \`operator\` is 'Exist' or 'DoesNotExist' for scope selector, spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when \`operator\` is 'In' or 'NotIn' for scope selector, spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes]`));
  // The causes keep what the message's aggregate folds.
  expect(sel.details.causes.length).to.equal(10);
  expect(answered<Obj>(await s('POST', Q, quota('scoped', { hard: { pods: '3', 'requests.cpu': '1' }, scopes: ['NotTerminating'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } })), 201).spec)
    .to.deep.equal({ hard: { pods: '3', 'requests.cpu': '1' }, scopes: ['NotTerminating'], scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
  refused(await s('POST', Q, quota('Bad_Name', {})), invalid('Bad_Name', `metadata.name: Invalid value: "Bad_Name": ${subdomainRule}`));

  // The decoder: quantities, types, unknown fields under Strict.
  const cannot = 'ResourceQuota in version "v1" cannot be handled as a ResourceQuota: ';
  badRequest(await s('POST', Q, quota('abc', { hard: { pods: 'abc' } })), `${cannot}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  badRequest(await s('POST', Q, quota('obj', { hard: { pods: {} } })), `${cannot}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  badRequest(await s('POST', Q, quota('list', { hard: [] })), `${cannot}json: cannot unmarshal array into Go struct field ResourceQuotaSpec.spec.hard of type v1.ResourceList`);
  badRequest(await s('POST', Q, quota('scopes-str', { scopes: 'BestEffort' })), `${cannot}json: cannot unmarshal string into Go struct field ResourceQuotaSpec.spec.scopes of type []v1.ResourceQuotaScope`);
  badRequest(await s('POST', `${Q}?fieldValidation=Strict`, quota('strict', { hard: {}, extra: 1 })), `${cannot}strict decoding error: unknown field "spec.extra"`);
  // Nulls are nothing; numbers are quantities.
  expect(answered<Obj>(await s('POST', Q, quota('nulls', { hard: { pods: null, cpu: 2.5, memory: 1e3 }, scopes: null, scopeSelector: null })), 201).spec).to.deep.equal({ hard: { cpu: '2500m', memory: '1k', pods: '0' } });
  refused(await s('POST', Q, '{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"proto"},"spec":{"hard":{"__proto__":"1"}}}'),
    invalid('proto', `[spec.hard[__proto__]: Invalid value: "__proto__": ${nameRule}, spec.hard[__proto__]: Invalid value: "__proto__": must be a standard resource for quota]`));

  // ValidateResourceQuotaUpdate: the spec again, the scopes fixed; the status sent is the old one.
  const q1 = answered<Obj>(await s('GET', `${Q}/q1`));
  refused(await s('PUT', `${Q}/q1`, JSON.stringify({ ...q1, spec: { hard: { pods: '-1' }, scopes: ['NotBestEffort'] } })), invalid('q1', '[spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0, spec.scopes: Invalid value: ["NotBestEffort"]: field is immutable]'));
  refused(await s('PATCH', `${Q}/scoped`, JSON.stringify({ spec: { scopes: null } }), MERGE), invalid('scoped', 'spec.scopes: Invalid value: null: field is immutable'));
  // The same scopes in another order are the same set.
  const scoped = answered<Obj>(await s('GET', `${Q}/scoped`));
  expect((await s('PUT', `${Q}/scoped`, JSON.stringify({ ...scoped, spec: { ...scoped.spec, scopes: ['NotTerminating', 'NotTerminating'] } }))).status).to.equal(200);
  const put = answered<Obj>(await s('PUT', `${Q}/q1`, JSON.stringify({ ...q1, spec: { hard: { pods: '4' } }, status: { hard: { pods: '4' } } })));
  expect([put.spec, put.status]).to.deep.equal([{ hard: { pods: '4' } }, {}]);

  // /status: the spec kept, the status validated (ValidateResourceQuotaStatusUpdate).
  const status = answered<Obj>(await s('PUT', `${Q}/q1/status`, JSON.stringify({ ...put, spec: { hard: { pods: '99' } }, status: { hard: { pods: '4', cpu: '0.5' }, used: { pods: '1' } } })));
  expect([status.spec, status.status]).to.deep.equal([{ hard: { pods: '4' } }, { hard: { cpu: '500m', pods: '4' }, used: { pods: '1' } }]);
  refused(await s('PATCH', `${Q}/q1/status`, JSON.stringify({ status: { hard: { bogus: '1' } } }), MERGE), invalid('q1', '[status.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified, status.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota]'));
  refused(await s('PATCH', `${Q}/q1/status`, JSON.stringify({ status: { used: { 'count/x': '0.5' } } }), MERGE), invalid('q1', 'status.used[count/x]: Invalid value: "500m": must be an integer'));
  refused(await s('PATCH', `${Q}/q1/status`, JSON.stringify({ metadata: { labels: { 'a b': 'x' } }, status: { used: { pods: '-2' } } }), MERGE), invalid('q1', `[metadata.labels: Invalid value: "a b": ${nameRule}, status.used[pods]: Invalid value: "-2": must be greater than or equal to 0]`));
  // A status write keeps its own managed fields apart from the spec's. The entries are ordered by time in
  // seconds before the manager (sortEncodedManagedFields), so a second may pass between the writes: sorted here.
  const strategic = answered<Obj>(await s('PATCH', `${Q}/q1/status?fieldManager=controller`, JSON.stringify({ status: { used: { cpu: '0.25' } } }), STRATEGIC));
  expect([strategic.status, strategic.metadata.managedFields?.map((m) => [m.manager, m.subresource ?? '']).sort()]).to.deep.equal([{ hard: { cpu: '500m', pods: '4' }, used: { cpu: '250m', pods: '1' } }, [['controller', 'status'], ['unknown', ''], ['unknown', 'status']]]);
  // The main resource: every patch type; the status stays.
  const merged = answered<Obj>(await s('PATCH', `${Q}/q1`, JSON.stringify({ spec: { hard: { secrets: '2' } }, status: { used: { pods: '3' } } }), MERGE));
  expect([merged.spec, merged.status]).to.deep.equal([{ hard: { pods: '4', secrets: '2' } }, { hard: { cpu: '500m', pods: '4' }, used: { cpu: '250m', pods: '1' } }]);
  const json = answered<Obj>(await s('PATCH', `${Q}/q1`, JSON.stringify([{ op: 'remove', path: '/spec/hard/secrets' }, { op: 'add', path: '/spec/scopes', value: [] }]), JSON_PATCH));
  expect(json.spec).to.deep.equal({ hard: { pods: '4' } });
  const applied = answered<Obj>(await s('PATCH', `${Q}/applied?fieldManager=me`, quota('applied', { hard: { configmaps: '5' } }), APPLY), 201);
  expect([applied.spec, applied.status]).to.deep.equal([{ hard: { configmaps: '5' } }, {}]);
  expect((await s('PATCH', `${Q}/q1?fieldManager=me`, quota('q1', { hard: { pods: '7' } }), APPLY)).message).to.equal('Apply failed with 1 conflict: conflict with "unknown" using v1: .spec.hard.pods');
  const appliedStatus = answered<Obj>(await s('PATCH', `${Q}/applied/status?fieldManager=ctl`, JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'applied' }, status: { hard: { configmaps: '5' }, used: { configmaps: '0' } } }), APPLY));
  expect(appliedStatus.status).to.deep.equal({ hard: { configmaps: '5' }, used: { configmaps: '0' } });

  // Field selectors, a watch, the Table (status.hard's used/hard, limits.* in the second cell), discovery.
  expect(answered<{ items: Obj[] }>(await s('GET', `${Q}?fieldSelector=metadata.name%3Dq1`)).items.map((o) => o.metadata.name)).to.deep.equal(['q1']);
  badRequest(await s('GET', `${Q}?fieldSelector=spec.hard%3D1`), '"spec.hard" is not a known field selector: only "metadata.name", "metadata.namespace"');
  const watch = await s('GET', `${Q}?watch=1&fieldSelector=metadata.name%3Dapplied&timeoutSeconds=1`);
  expect(watch.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: Obj }; return [e.type, e.object.metadata.name, e.object.status]; }))
    .to.deep.equal([['ADDED', 'applied', { hard: { configmaps: '5' }, used: { configmaps: '0' } }]]);
  answered(await s('PATCH', `${Q}/q1/status`, JSON.stringify({ status: { hard: { 'limits.memory': '2Gi', 'limits.cpu': '2', 'requests.memory': '1Gi', pods: '4', 'count/configmaps': '3' }, used: { 'limits.cpu': '500m', pods: '1' } } }), MERGE));
  const table = JSON.parse((await s('GET', Q, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Request', 'string'], ['Limit', 'string'], ['Age', 'string']]);
  expect(table.rows.map((r) => r.cells.slice(0, 3))).to.deep.equal([
    ['applied', 'configmaps: 0/5', ''], ['empty', '', ''], ['fine', '', ''], ['nulls', '', ''],
    ['q1', 'count/configmaps: 0/3, cpu: 250m/500m, pods: 1/4, requests.memory: 0/1Gi', 'limits.cpu: 500m/2, limits.memory: 0/2Gi'], ['scoped', '', ''],
  ]);
  const discovery = JSON.parse((await s('GET', '/api/v1')).text) as { resources: { name: string }[] };
  expect(discovery.resources.filter((r) => /quota|limit/.test(r.name))).to.deep.equal([
    { name: 'limitranges', singularName: 'limitrange', namespaced: true, kind: 'LimitRange', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['limits'], storageVersionHash: 'EBKMFVe6cwo=' },
    { name: 'resourcequotas', singularName: 'resourcequota', namespaced: true, kind: 'ResourceQuota', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['quota'], storageVersionHash: '8uhSgffRX6w=' },
    { name: 'resourcequotas/status', singularName: '', namespaced: true, kind: 'ResourceQuota', verbs: ['get', 'patch', 'update'] },
  ]);
  // A DELETE answers the quota deleted.
  const deleted = answered<Obj & { kind: string }>(await s('DELETE', `${Q}/empty`));
  expect([deleted.kind, deleted.metadata.name, deleted.spec, deleted.status]).to.deep.equal(['ResourceQuota', 'empty', {}, {}]);
}

async function limitRangeStorage(s: Send): Promise<void> {
  await namespace(s, 'ls');
  const L = limits('ls');
  // SetDefaults_LimitRangeItem: a Container limit's default from max, default request from default, else min.
  const created = answered<Obj>(await s('POST', L, limitRange('l1', [
    { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Mi' }, defaultRequest: { memory: '256Mi' }, maxLimitRequestRatio: { cpu: '10' } },
    { type: 'Pod', max: { cpu: '4.0001' } },
    { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
  ])), 201);
  expect(created.spec).to.deep.equal({ limits: [
    { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Mi' }, default: { cpu: '2', memory: '1Gi' }, defaultRequest: { cpu: '2', 'ephemeral-storage': '1Mi', memory: '256Mi' }, maxLimitRequestRatio: { cpu: '10' } },
    { type: 'Pod', max: { cpu: '4001m' } },
    { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
  ] });
  // Named by the strategy when sent without a name.
  const unnamed = answered<Obj>(await s('POST', L, JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: {}, spec: {} })), 201);
  expect(unnamed.metadata.name).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  answered(await s('DELETE', `${L}/${unnamed.metadata.name}`));
  const generated = answered<Obj>(await s('POST', L, JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { generateName: 'gen-' }, spec: {} })), 201);
  expect(generated.metadata.name).to.match(/^gen-[a-z0-9]{5}$/);
  answered(await s('DELETE', `${L}/${generated.metadata.name}`));

  // ValidateLimitRange: types, resource names by type (a max's defaults are checked too), min ≤ default request ≤ default ≤ max, ratios.
  const invalid = (name: string, errors: string): string => `LimitRange "${name}" is invalid: ${errors}`;
  refused(await s('POST', L, limitRange('types', [
    { type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' }, max: { storage: '1' } }, { type: 'Pod' }, { type: 'Bogus' }, { type: 'a/b', max: { foo: '1' } },
    { type: 'PersistentVolumeClaim', max: { cpu: '1' } }, { type: '' },
  ])), invalid('types', `[spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers, spec.limits[0].default: Forbidden: may not be specified when \`type\` is 'Pod', spec.limits[0].defaultRequest: Forbidden: may not be specified when \`type\` is 'Pod', spec.limits[1].type: Duplicate value: "Pod", spec.limits[2].type: Invalid value: "Bogus": must be a standard limit type or fully qualified, spec.limits[3].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.limits[4].limits: Required value: either minimum or maximum storage value is required, but neither was provided, spec.limits[5].type: Invalid value: "": name part must be non-empty, spec.limits[5].type: Invalid value: "": ${nameRule}]`));
  refused(await s('POST', L, limitRange('order', [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '0.5' } }])),
    invalid('order', '[spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1, spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1, spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1, spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1]'));
  refused(await s('POST', L, limitRange('defaults', [{ type: 'Container', max: { memory: '1Gi' }, default: { memory: '2Gi' }, defaultRequest: { memory: '3Gi' } }])),
    invalid('defaults', '[spec.limits[0].defaultRequest[memory]: Invalid value: "3Gi": default request value 3Gi is greater than max value 1Gi, spec.limits[0].defaultRequest[memory]: Invalid value: "3Gi": default request value 3Gi is greater than default limit value 2Gi, spec.limits[0].default[memory]: Invalid value: "1Gi": default value 2Gi is greater than max value 1Gi]'));
  refused(await s('POST', L, limitRange('ratio', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '20' } }])),
    invalid('ratio', 'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "20": ratio 20 is greater than max/min = 10.000000'));
  refused(await s('POST', L, limitRange('gpu', [{ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }])),
    invalid('gpu', 'spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in example.com/gpu'));
  refused(await s('POST', L, limitRange('names', [{ type: 'Container', max: { 'requests.example.com/gpu': '1' } }, { type: 'example.com/custom', min: { anything: '1' } }])),
    invalid('names', `[${['max', 'default', 'defaultRequest'].map((l) => `spec.limits[0].${l}[requests.example.com/gpu]: Invalid value: "requests.example.com/gpu": doesn't follow extended resource name standard`).join(', ')}, spec.limits[1].min[anything]: Invalid value: "anything": must be a standard resource type or fully qualified]`));
  // What is not checked: negative quantities, hugepages and extended resources of a container.
  expect((await s('POST', L, limitRange('loose', [{ type: 'Container', min: { memory: '-1' }, max: { 'hugepages-2Mi': '1Gi', 'example.com/gpu': '2' } }, { type: 'example.com/custom', max: { 'example.com/x': '1' } }]))).status).to.equal(201);

  // An update validates the same way; the types may change.
  const l1 = answered<Obj>(await s('GET', `${L}/l1`));
  refused(await s('PUT', `${L}/l1`, JSON.stringify({ ...l1, spec: { limits: [{ type: 'Pod', default: { cpu: '1' } }] } })), invalid('l1', "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"));
  const merged = answered<Obj>(await s('PATCH', `${L}/l1`, JSON.stringify({ spec: { limits: [{ type: 'Container', max: { cpu: '3' } }] } }), MERGE));
  expect(merged.spec).to.deep.equal({ limits: [{ type: 'Container', max: { cpu: '3' }, default: { cpu: '3' }, defaultRequest: { cpu: '3' } }] });
  const json = answered<Obj>(await s('PATCH', `${L}/l1`, JSON.stringify([{ op: 'add', path: '/spec/limits/-', value: { type: 'Pod', min: { memory: '1Mi' } } }]), JSON_PATCH));
  expect(json.spec).to.deep.equal({ limits: [{ type: 'Container', max: { cpu: '3' }, default: { cpu: '3' }, defaultRequest: { cpu: '3' } }, { type: 'Pod', min: { memory: '1Mi' } }] });
  const strategic = answered<Obj>(await s('PATCH', `${L}/l1`, JSON.stringify({ spec: { limits: [{ type: 'Pod', min: { memory: '2Mi' } }] } }), STRATEGIC));
  expect(strategic.spec).to.deep.equal({ limits: [{ type: 'Pod', min: { memory: '2Mi' } }] });
  const applied = answered<Obj>(await s('PATCH', `${L}/applied?fieldManager=me`, limitRange('applied', [{ type: 'Container', min: { cpu: '1m' } }]), APPLY), 201);
  expect(applied.spec).to.deep.equal({ limits: [{ type: 'Container', min: { cpu: '1m' }, defaultRequest: { cpu: '1m' } }] });
  const cannot = 'LimitRange in version "v1" cannot be handled as a LimitRange: ';
  badRequest(await s('POST', L, limitRange('bad-q', [{ type: 'Container', max: { cpu: '1x' } }])), `${cannot}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  badRequest(await s('POST', L, JSON.stringify({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'x' }, spec: { limits: {} } })), `${cannot}json: cannot unmarshal object into Go struct field LimitRangeSpec.spec.limits of type []v1.LimitRangeItem`);

  // The default Table: Name and Created At; field selectors.
  const table = JSON.parse((await s('GET', L, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Created At', 'date']]);
  expect(table.rows.map((r) => [r.cells[0], typeof r.cells[1]])).to.deep.equal([['applied', 'string'], ['l1', 'string'], ['loose', 'string']]);
  badRequest(await s('GET', `${L}?fieldSelector=spec.limits%3D1`), '"spec.limits" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expect(answered<{ items: Obj[] }>(await s('GET', `/api/v1/limitranges?fieldSelector=metadata.namespace%3Dls,metadata.name%3Dloose`)).items.map((o) => o.metadata.name)).to.deep.equal(['loose']);
}

const resources = (p: Pod): Json[] => [...(p.spec.initContainers ?? []), ...p.spec.containers].map((c) => ({ [c.name]: c.resources }));

async function limitRanger(s: Send): Promise<void> {
  await namespace(s, 'lr');
  const L = limits('lr');
  const P = pods('lr');
  // Before any pod of the namespace: the reference's plugin looks a namespace's LimitRanges up when its informer has none.
  answered(await s('POST', L, limitRange('defaults', [
    { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m' }, defaultRequest: { memory: '128Mi' }, maxLimitRequestRatio: { memory: '8' } },
    { type: 'Pod', max: { cpu: '4' } },
    { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
  ])), 201);
  // The defaults a container lacks (its limits first taken as its requests by the pod defaults), written down.
  const created = answered<Pod>(await s('POST', P, pod('a', [container('c'), container('d', { limits: { cpu: '1' } })], { initContainers: [container('i', { requests: { memory: '200Mi' } })] })), 201);
  expect(created.metadata.annotations).to.deep.equal({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c; memory request for container d; memory limit for container d; cpu request for init container i; cpu, memory limit for init container i' });
  expect(resources(created)).to.deep.equal([
    { i: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '2', memory: '200Mi' } } },
    { c: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '2', memory: '128Mi' } } },
    { d: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '128Mi' } } },
  ]);
  expect(created.status?.qosClass).to.equal('Burstable');
  // A dry run gets them too; a pod that sets everything gets no annotation.
  expect(answered<Pod>(await s('POST', `${P}?dryRun=All`, pod('dry', [container('c')])), 201).metadata.annotations).to.deep.equal({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c' });
  const annotated = (name: string, containers: Json[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, annotations: { a: 'b', 'kubernetes.io/limit-ranger': 'mine' } }, spec: { containers } });
  const full = answered<Pod>(await s('POST', P, annotated('full', [container('c', { limits: { cpu: '500m', memory: '256Mi' } })])), 201);
  expect([full.metadata.annotations, resources(full)]).to.deep.equal([{ a: 'b', 'kubernetes.io/limit-ranger': 'mine' }, [{ c: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '500m', memory: '256Mi' } } }]]);
  // The annotation of a pod given defaults is the plugin's, the others kept.
  expect(answered<Pod>(await s('POST', P, annotated('partial', [container('c', { limits: { cpu: '500m' } })])), 201).metadata.annotations).to.deep.equal({ a: 'b', 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: memory request for container c; memory limit for container c' });

  // The refusals, in the plugin's words; several of one LimitRange aggregated.
  forbidden(await s('POST', P, pod('max', [container('c', { limits: { cpu: '3' } })])), 'pods "max" is forbidden: maximum cpu usage per Container is 2, but limit is 3');
  forbidden(await s('POST', P, pod('min', [container('c', { requests: { cpu: '50m' } })])), 'pods "min" is forbidden: minimum cpu usage per Container is 100m, but request is 50m');
  // A container's quantities are rounded up to thousandths first (SetDefaults_ResourceList).
  forbidden(await s('POST', P, pod('rounded', [container('c', { requests: { cpu: '50.0001m', memory: '1n' } })])), 'pods "rounded" is forbidden: [minimum cpu usage per Container is 100m, but request is 51m, memory max limit to request ratio per Container is 8, but provided ratio is 1073741824000.000000]');
  forbidden(await s('POST', P, pod('ratio', [container('c', { requests: { memory: '64Mi' } })])), 'pods "ratio" is forbidden: memory max limit to request ratio per Container is 8, but provided ratio is 16.000000');
  forbidden(await s('POST', P, pod('total', [container('a', { limits: { cpu: '2' } }), container('b', { limits: { cpu: '1500m' } }), container('c', { limits: { cpu: '1' } })])), 'pods "total" is forbidden: maximum cpu usage per Pod is 4, but limit is 4500m');
  forbidden(await s('POST', P, pod('both', [container('a', { requests: { cpu: '10m' } }), container('b', { limits: { cpu: '2' } }), container('c', { limits: { cpu: '2' } })])), 'pods "both" is forbidden: [minimum cpu usage per Container is 100m, but request is 10m, maximum cpu usage per Pod is 4, but limit is 6]');
  // An init container is checked as a container; a sidecar (restartPolicy Always) counts in the pod's total.
  forbidden(await s('POST', P, pod('init', [container('c')], { initContainers: [container('i', { limits: { cpu: '2500m' } })] })), 'pods "init" is forbidden: maximum cpu usage per Container is 2, but limit is 2500m');
  forbidden(await s('POST', P, pod('sidecar', [container('c', { limits: { cpu: '2' } }), container('d', { limits: { cpu: '500m' } })], { initContainers: [container('s', { limits: { cpu: '2' } }, { restartPolicy: 'Always' }), container('i', { limits: { cpu: '1' } })] })), 'pods "sidecar" is forbidden: maximum cpu usage per Pod is 4, but limit is 4500m');
  // A generated name is the pod's by then.
  const generated = await s('POST', P, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'gen-' }, spec: { containers: [container('c', { limits: { cpu: '3' } })] } }));
  expect([generated.status, /^pods "gen-[a-z0-9]{5}" is forbidden: maximum cpu usage per Container is 2, but limit is 3$/.test(generated.message)], generated.text).to.deep.equal([403, true]);
  // Validation comes first.
  refused(await s('POST', P, pod('Bad', [container('c', { limits: { cpu: '3' } })])), `Pod "Bad" is invalid: metadata.name: Invalid value: "Bad": ${subdomainRule}`);
  // A pod update is not checked.
  answered(await s('PATCH', `${P}/a`, JSON.stringify({ metadata: { labels: { x: 'y' } } }), MERGE));

  // Claims: their storage request against the PersistentVolumeClaim limit's min and max (no defaults).
  const C = `/api/v1/namespaces/lr/persistentvolumeclaims`;
  const claim = (name: string, storage: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
  expect((await s('POST', C, claim('ok', '2Gi'))).status).to.equal(201);
  forbidden(await s('POST', C, claim('small', '500Mi')), 'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
  forbidden(await s('POST', C, claim('big', '20Gi')), 'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  forbidden(await s('POST', C, claim('tiny', '0.0000001')), 'persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 1m');

  // Pod limits without defaults: what is not set is refused.
  await namespace(s, 'lr-pod');
  answered(await s('POST', limits('lr-pod'), limitRange('pod', [{ type: 'Pod', max: { memory: '1Gi' }, min: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '2' } }])), 201);
  forbidden(await s('POST', pods('lr-pod'), pod('none', [container('c')])),
    'pods "none" is forbidden: [minimum cpu usage per Pod is 100m.  No request is specified, maximum memory usage per Pod is 1Gi.  No limit is specified, cpu max limit to request ratio per Pod is 2, but no request is specified or request is 0]');
  forbidden(await s('POST', pods('lr-pod'), pod('some', [container('c', { requests: { cpu: '1' }, limits: { memory: '1Gi' } })])), 'pods "some" is forbidden: cpu max limit to request ratio per Pod is 2, but no limit is specified or limit is 0');
  expect(answered<Pod>(await s('POST', pods('lr-pod'), pod('fits', [container('c', { requests: { cpu: '1' }, limits: { cpu: '2', memory: '1Gi' } })])), 201).metadata.annotations).to.equal(undefined);
  // Huge quantities: compared as Go compares their Value or MilliValue, which wrap or give 0 beyond an int64
  // (1e30 reads as 0, so a limit of 2e30 is within a max of 1e30).
  await namespace(s, 'lr-huge');
  expect(answered<Obj>(await s('POST', limits('lr-huge'), limitRange('huge', [{ type: 'Container', max: { cpu: '1e30', memory: '8E' }, min: { memory: '1' }, maxLimitRequestRatio: { memory: '1e20' } }, { type: 'Pod', max: { cpu: '9223372036854775807' } }])), 201).spec)
    .to.deep.equal({ limits: [{ type: 'Container', max: { cpu: '1e30', memory: '8E' }, min: { memory: '1' }, default: { cpu: '1e30', memory: '8E' }, defaultRequest: { cpu: '1e30', memory: '8E' }, maxLimitRequestRatio: { memory: '100e18' } }, { type: 'Pod', max: { cpu: '9223372036854775807' } }] });
  forbidden(await s('POST', pods('lr-huge'), pod('a', [container('c', { limits: { cpu: '2e30', memory: '9E' } })])), 'pods "a" is forbidden: [maximum memory usage per Container is 8E, but limit is 9E, memory max limit to request ratio per Container is 100e18, but provided ratio is 1.000000]');
  forbidden(await s('POST', pods('lr-huge'), pod('b', [container('c', { limits: { cpu: '5', memory: '1' }, requests: { memory: '1n' } })])), 'pods "b" is forbidden: [minimum memory usage per Container is 1, but request is 1m, maximum cpu usage per Container is 1e30, but limit is 5, memory max limit to request ratio per Container is 100e18, but provided ratio is 1000.000000]');
  forbidden(await s('POST', pods('lr-huge'), pod('c', [container('c'), container('d')])), 'pods "c" is forbidden: memory max limit to request ratio per Container is 100e18, but provided ratio is 1.000000');

  // A LimitRange deleted stops applying (once the reference's informer sees it). When the informer had not
  // seen the LimitRange at the namespace's first pod, the plugin looked it up live and keeps that answer for
  // its live-lookup TTL (30 s) once the informer has none: a loaded CI machine waited past 10 s.
  answered(await s('DELETE', `${limits('lr-pod')}/pod`));
  await until(() => s('POST', `${pods('lr-pod')}?dryRun=All`, pod('none', [container('c')])), [201, ''], 40);
}

describeOnBothServers('LimitRanger admission', limitRanger);

/** Writes a quota's status through /status, as the quota controller would. */
async function setStatus(s: Send, ns: string, name: string, status: Json): Promise<Obj> {
  return answered<Obj>(await s('PATCH', `${quotas(ns)}/${name}/status`, JSON.stringify({ status }), MERGE));
}

async function usedOf(s: Send, ns: string, name: string): Promise<Json | undefined> {
  return answered<Obj>(await s('GET', `${quotas(ns)}/${name}`)).status?.used as Json | undefined;
}

async function quotaPods(s: Send): Promise<void> {
  await namespace(s, 'qa');
  const P = pods('qa');
  const sized = (name: string, cpu: string, memory: string): string => pod(name, [container('c', { requests: { cpu }, limits: { memory } })]);
  answered(await s('POST', quotas('qa'), quota('compute', { hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi' } })), 201);
  // No quota controller fills the status: a quota whose status.hard is empty limits nothing.
  expect((await s('POST', P, pod('free', [container('c')]))).status).to.equal(201);
  answered(await s('DELETE', `${P}/free`));
  // Its hard limits written, each pod must say what it uses of them, and the usage must be known.
  await setStatus(s, 'qa', 'compute', { hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi' } });
  await until(() => s('POST', `${P}?dryRun=All`, pod('bare', [container('c'), container('d', { requests: { cpu: '1m' } })], { initContainers: [container('i', { limits: { memory: '1Mi' } })] })),
    [403, 'pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: c,d; requests.cpu for: c,i']);
  forbidden(await s('POST', P, sized('unknown', '100m', '100Mi')), 'pods "unknown" is forbidden: status unknown for quota: compute, resources: limits.memory,pods,requests.cpu');
  // Once used is written, pods are charged until the quota is used up.
  await setStatus(s, 'qa', 'compute', { used: { pods: '0', 'requests.cpu': '0', 'limits.memory': '0' } });
  await until(() => s('POST', `${P}?dryRun=All`, sized('probe', '100m', '100Mi')), [201, '']);
  // A dry run charges nothing.
  expect(await usedOf(s, 'qa', 'compute')).to.deep.equal({ 'limits.memory': '0', pods: '0', 'requests.cpu': '0' });
  expect((await s('POST', P, sized('a', '500m', '512Mi'))).status).to.equal(201);
  const charged = answered<Obj>(await s('GET', `${quotas('qa')}/compute`));
  expect(charged.status).to.deep.equal({ hard: { 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1' }, used: { 'limits.memory': '512Mi', pods: '1', 'requests.cpu': '500m' } });
  // The apiserver's own status update (its loopback client's name: kube-apiserver, with a suffix in the reference build).
  const own = charged.metadata.managedFields?.filter((m) => m.manager.startsWith('kube-apiserver')).map((m) => [m.operation, m.subresource, m.fieldsV1]);
  expect(own).to.deep.equal([['Update', 'status', { 'f:status': { 'f:used': { 'f:limits.memory': {}, 'f:pods': {}, 'f:requests.cpu': {} } } }]]);
  forbidden(await s('POST', P, sized('b', '600m', '100Mi')), 'pods "b" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1');
  expect((await s('POST', P, sized('c', '500m', '512Mi'))).status).to.equal(201);
  expect(await usedOf(s, 'qa', 'compute')).to.deep.equal({ 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1' });
  forbidden(await s('POST', P, sized('d', '0', '1Mi')), 'pods "d" is forbidden: exceeded quota: compute, requested: limits.memory=1Mi,pods=1, used: limits.memory=1Gi,pods=2, limited: limits.memory=1Gi,pods=2');
  // Nothing gives it back but the quota controller: a pod deleted stays counted.
  answered(await s('DELETE', `${P}/a`));
  forbidden(await s('POST', P, sized('e', '0', '1Mi')), 'pods "e" is forbidden: exceeded quota: compute, requested: limits.memory=1Mi,pods=1, used: limits.memory=1Gi,pods=2, limited: limits.memory=1Gi,pods=2');
  // The Table shows the usage.
  const table = JSON.parse((await s('GET', quotas('qa'), undefined, undefined, TABLE)).text) as { rows: { cells: unknown[] }[] };
  expect(table.rows.map((r) => r.cells.slice(0, 3))).to.deep.equal([['compute', 'pods: 2/2, requests.cpu: 1/1', 'limits.memory: 1Gi/1Gi']]);

  // With a LimitRange, the defaults are what a pod uses; sidecars and init containers count as the scheduler counts them.
  await namespace(s, 'qb');
  answered(await s('POST', limits('qb'), limitRange('defaults', [{ type: 'Container', default: { cpu: '250m', memory: '64Mi' } }])), 201);
  answered(await s('POST', quotas('qb'), quota('compute', { hard: { 'requests.cpu': '2', 'requests.memory': '1Gi', cpu: '2', memory: '1Gi', 'count/pods': '5' } })), 201);
  await setStatus(s, 'qb', 'compute', { hard: { 'requests.cpu': '2', 'requests.memory': '1Gi', cpu: '2', memory: '1Gi', 'count/pods': '5' }, used: { 'requests.cpu': '0', 'requests.memory': '0', cpu: '0', memory: '0', 'count/pods': '0' } });
  await until(() => s('POST', `${pods('qb')}?dryRun=All`, pod('probe', [container('c', { limits: { cpu: '3' } })])), [403, 'pods "probe" is forbidden: exceeded quota: compute, requested: cpu=3,requests.cpu=3, used: cpu=0,requests.cpu=0, limited: cpu=2,requests.cpu=2']);
  expect((await s('POST', pods('qb'), pod('defaulted', [container('c'), container('d')], { initContainers: [container('i', { requests: { cpu: '200m', memory: '50Mi' } })] }))).status).to.equal(201);
  expect(await usedOf(s, 'qb', 'compute')).to.deep.equal({ 'count/pods': '1', cpu: '500m', memory: '128Mi', 'requests.cpu': '500m', 'requests.memory': '128Mi' });
  expect((await s('POST', pods('qb'), pod('sidecar', [container('c')], { initContainers: [container('s', { requests: { cpu: '1', memory: '1Mi' }, limits: { cpu: '1' } }, { restartPolicy: 'Always' }), container('i', { requests: { cpu: '100m', memory: '300Mi' }, limits: { memory: '300Mi' } })] }))).status).to.equal(201);
  expect(await usedOf(s, 'qb', 'compute')).to.deep.equal({ 'count/pods': '2', cpu: '1750m', memory: '429Mi', 'requests.cpu': '1750m', 'requests.memory': '429Mi' });
}

async function quotaCounts(s: Send): Promise<void> {
  await namespace(s, 'qc');
  const base = `/api/v1/namespaces/qc`;
  const hard = { 'count/configmaps': '1', secrets: '1', services: '2', 'services.nodeports': '1', 'services.loadbalancers': '0', persistentvolumeclaims: '2', 'requests.storage': '5Gi', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '0', 'count/jobs.batch': '0', 'count/events': '0', resourcequotas: '1' };
  answered(await s('POST', quotas('qc'), quota('counts', { hard })), 201);
  await setStatus(s, 'qc', 'counts', { hard });
  const cm = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  await until(() => s('POST', `${base}/configmaps?dryRun=All`, cm('probe')), [403, 'configmaps "probe" is forbidden: status unknown for quota: counts, resources: count/configmaps']);
  await setStatus(s, 'qc', 'counts', { used: Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])) });
  await until(() => s('POST', `${base}/configmaps?dryRun=All`, cm('probe')), [201, '']);
  // count/<resource> and the legacy names.
  expect((await s('POST', `${base}/configmaps`, cm('one'))).status).to.equal(201);
  forbidden(await s('POST', `${base}/configmaps`, cm('two')), 'configmaps "two" is forbidden: exceeded quota: counts, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1');
  const secret = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name } });
  expect((await s('POST', `${base}/secrets`, secret('one'))).status).to.equal(201);
  forbidden(await s('POST', `${base}/secrets`, secret('two')), 'secrets "two" is forbidden: exceeded quota: counts, requested: secrets=1, used: secrets=1, limited: secrets=1');
  // The quota itself was not counted (its status came later).
  expect((await s('POST', quotas('qc'), quota('more', {}))).status).to.equal(201);
  forbidden(await s('POST', quotas('qc'), quota('most', {})), 'resourcequotas "most" is forbidden: exceeded quota: counts, requested: resourcequotas=1, used: resourcequotas=1, limited: resourcequotas=1');
  const job = JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [container('c')] } } } });
  forbidden(await s('POST', '/apis/batch/v1/namespaces/qc/jobs', job), 'jobs.batch "j" is forbidden: exceeded quota: counts, requested: count/jobs.batch=1, used: count/jobs.batch=0, limited: count/jobs.batch=0');
  // Events are never charged; an update of a counted object is not either.
  expect((await s('POST', `${base}/events`, JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'ConfigMap', name: 'one', namespace: 'qc' }, reason: 'R', message: 'm' }))).status).to.equal(201);
  expect((await s('PATCH', `${base}/configmaps/one`, JSON.stringify({ data: { a: 'b' } }), MERGE)).status).to.equal(200);

  // Services: their count, node ports (a NodePort's ports, a LoadBalancer's unless it allocates none) and load balancers.
  const svc = (name: string, type: string, ports: number, more: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ name: `p${i}`, port: 80 + i })), ...more } });
  expect((await s('POST', `${base}/services`, svc('plain', 'ClusterIP', 2))).status).to.equal(201);
  forbidden(await s('POST', `${base}/services`, svc('two-ports', 'NodePort', 2)), 'services "two-ports" is forbidden: exceeded quota: counts, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
  forbidden(await s('POST', `${base}/services`, svc('lb', 'LoadBalancer', 1)), 'services "lb" is forbidden: exceeded quota: counts, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
  // An update is charged for what it adds.
  forbidden(await s('PATCH', `${base}/services/plain`, JSON.stringify({ spec: { type: 'NodePort' } }), MERGE), 'services "plain" is forbidden: exceeded quota: counts, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
  expect((await s('POST', `${base}/services`, svc('node', 'NodePort', 1))).status).to.equal(201);
  expect(await usedOf(s, 'qc', 'counts')).to.deep.include({ services: '2', 'services.nodeports': '1', 'services.loadbalancers': '0' });
  forbidden(await s('POST', `${base}/services`, svc('third', 'ClusterIP', 1)), 'services "third" is forbidden: exceeded quota: counts, requested: services=1, used: services=2, limited: services=2');

  // Claims: their count and storage (whole bytes), per storage class too.
  const claim = (name: string, storage: string, more: Json = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...more } });
  expect((await s('POST', `${base}/persistentvolumeclaims`, claim('a', '2Gi'))).status).to.equal(201);
  forbidden(await s('POST', `${base}/persistentvolumeclaims`, claim('b', '4Gi')), 'persistentvolumeclaims "b" is forbidden: exceeded quota: counts, requested: requests.storage=4Gi, used: requests.storage=2Gi, limited: requests.storage=5Gi');
  forbidden(await s('POST', `${base}/persistentvolumeclaims`, claim('gold', '1Gi', { storageClassName: 'gold' })), 'persistentvolumeclaims "gold" is forbidden: exceeded quota: counts, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: gold.storageclass.storage.k8s.io/persistentvolumeclaims=0, limited: gold.storageclass.storage.k8s.io/persistentvolumeclaims=0');
  expect((await s('POST', `${base}/persistentvolumeclaims`, claim('c', '1.5'))).status).to.equal(201);
  expect(await usedOf(s, 'qc', 'counts')).to.deep.include({ persistentvolumeclaims: '2', 'requests.storage': '2147483650' });
  // A claim's status write is charged too (its allocated storage, when above its request), never refused.
  answered(await s('PATCH', `${base}/persistentvolumeclaims/a/status`, JSON.stringify({ status: { allocatedResources: { storage: '8Gi' } } }), MERGE));
  expect(await usedOf(s, 'qc', 'counts')).to.deep.include({ persistentvolumeclaims: '2', 'requests.storage': '8589934594' });

  // count/<resource>.<group> of a custom resource.
  const widgets = await createWidgets(s, 'quota.example.com', { type: 'object' });
  answered(await s('POST', quotas('default'), quota('widgets', { hard: { 'count/widgets.quota.example.com': '1' } })), 201);
  await setStatus(s, 'default', 'widgets', { hard: { 'count/widgets.quota.example.com': '1' }, used: { 'count/widgets.quota.example.com': '0' } });
  const widget = (name: string): string => JSON.stringify({ apiVersion: 'quota.example.com/v1', kind: 'Widget', metadata: { name }, spec: {} });
  await until(() => s('POST', `${widgets}?dryRun=All`, widget('probe')), [201, '']);
  expect((await s('POST', widgets, widget('one'))).status).to.equal(201);
  forbidden(await s('POST', widgets, widget('two')), 'widgets.quota.example.com "two" is forbidden: exceeded quota: widgets, requested: count/widgets.quota.example.com=1, used: count/widgets.quota.example.com=1, limited: count/widgets.quota.example.com=1');
}

async function quotaScopes(s: Send): Promise<void> {
  await namespace(s, 'qd');
  const P = pods('qd');
  answered(await s('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'quota-high' }, value: 1000 })), 201);
  const scoped: [string, Json][] = [
    ['best-effort', { hard: { pods: '1' }, scopes: ['BestEffort'] }],
    ['terminating', { hard: { pods: '0' }, scopes: ['Terminating'] }],
    ['high', { hard: { pods: '0' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['quota-high'] }] } }],
  ];
  for (const [name, spec] of scoped) {
    answered(await s('POST', quotas('qd'), quota(name, spec)), 201);
    await setStatus(s, 'qd', name, { hard: spec.hard, used: { pods: '0' } });
  }
  await until(() => s('POST', `${P}?dryRun=All`, pod('probe', [container('c')], { activeDeadlineSeconds: 10 })), [403, 'pods "probe" is forbidden: exceeded quota: terminating, requested: pods=1, used: pods=0, limited: pods=0']);
  await until(() => s('POST', `${P}?dryRun=All`, pod('probe', [container('c', { requests: { cpu: '1m' } })], { priorityClassName: 'quota-high' })), [403, 'pods "probe" is forbidden: exceeded quota: high, requested: pods=1, used: pods=0, limited: pods=0']);
  // A best-effort pod is charged to the BestEffort quota only; a pod with requests is not.
  expect((await s('POST', P, pod('first', [container('c')]))).status).to.equal(201);
  forbidden(await s('POST', P, pod('second', [container('c')])), 'pods "second" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1');
  expect((await s('POST', P, pod('burstable', [container('c', { requests: { cpu: '1m' } })]))).status).to.equal(201);
  expect([await usedOf(s, 'qd', 'best-effort'), await usedOf(s, 'qd', 'terminating'), await usedOf(s, 'qd', 'high')]).to.deep.equal([{ pods: '1' }, { pods: '0' }, { pods: '0' }]);
  // A pod that starts terminating is charged to the Terminating quotas then (its other quotas see no change).
  forbidden(await s('PATCH', `${P}/first`, JSON.stringify({ spec: { activeDeadlineSeconds: 30 } }), MERGE), 'pods "first" is forbidden: exceeded quota: terminating, requested: pods=1, used: pods=0, limited: pods=0');
  await setStatus(s, 'qd', 'terminating', { hard: { pods: '1' } });
  await until(() => s('PATCH', `${P}/first?dryRun=All`, JSON.stringify({ spec: { activeDeadlineSeconds: 30 } }), MERGE), [200, '']);
  answered(await s('PATCH', `${P}/first`, JSON.stringify({ spec: { activeDeadlineSeconds: 30 } }), MERGE));
  expect([await usedOf(s, 'qd', 'best-effort'), await usedOf(s, 'qd', 'terminating')]).to.deep.equal([{ pods: '1' }, { pods: '1' }]);
  // Any other update of a pod is not looked at.
  answered(await s('PATCH', `${P}/first`, JSON.stringify({ spec: { activeDeadlineSeconds: 20 } }), MERGE));
  expect(await usedOf(s, 'qd', 'terminating')).to.deep.equal({ pods: '1' });
}

describeOnBothServers('ResourceQuota admission', async (s) => {
  await quotaPods(s);
  await quotaCounts(s);
  await quotaScopes(s);
});

describeOnBothServers('ResourceQuotas and LimitRanges (core/v1): storage', async (s) => {
  await quotaStorage(s);
  await limitRangeStorage(s);
});
