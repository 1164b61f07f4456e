/**
 * Hostile requests around Dynamic Resource Allocation (resource.k8s.io/v1; hostileCase.ts plays them): a
 * ResourceClaim (`rc`, allocated, with two requests, a constraint and an opaque configuration) written through
 * every patch type, updates and its status (allocations, reservations, devices' status), new claims and
 * DeviceClasses built from hostile pieces (CEL selectors that do not compile, cost too much, nest too deep or
 * use `cel.bind`; counts, allocation modes, tolerations, sub-requests, constraints and opaque parameters of
 * every wrong shape), and the namespace label that admits admin access. DeviceClasses are created with a dry
 * run only or under the case's own names (they are cluster-scoped).
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import { jsonPatchBody, patchRequest } from './hostileKinds.js';

const RC = '{rc}/rc';
const DC = '/apis/resource.k8s.io/v1/deviceclasses';
const driver = 'gpu.example.com';

/** The claim every case starts from. */
export function claim(ns: string): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'rc', namespace: ns, labels: { app: 'h' } },
    spec: {
      devices: {
        requests: [
          { name: 'gpu', exactly: { deviceClassName: driver, selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] } },
          { name: 'any', firstAvailable: [{ name: 'big', deviceClassName: driver, allocationMode: 'All' }, { name: 'small', deviceClassName: driver, count: 2 }] },
        ],
        constraints: [{ requests: ['gpu', 'any/big'], matchAttribute: `${driver}/model` }],
        config: [{ requests: ['gpu'], opaque: { driver, parameters: { mode: 'fast' } } }],
      },
    },
  };
}

const device = { driver, pool: 'node-1', device: 'gpu-0' };
const nodeSelector = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] };

/** What a scheduler would write: one device allocated to `gpu`, on node-1. */
export const claimStatus = { status: { allocation: { devices: { results: [{ request: 'gpu', ...device }] }, nodeSelector } } };

const nested = (n: number): string => `${'('.repeat(n)}true${')'.repeat(n)}`;
const loops = (n: number): string => {
  let body = 'true';
  for (let i = n; i > 0; i--) body = i % 2 === 1 ? `device.attributes.all(d${i}, ${body})` : `device.attributes[d${i - 1}].all(k${i}, ${body})`;
  return body;
};

/** Device selectors: some compile, some do not, some cost too much. */
const expressions = [
  'true', `device.driver == "${driver}"`, 'device.driver ==', '1', 'device', 'device.foo', 'device.allowMultipleAllocations', '',
  `cel.bind(a, device.attributes["${driver}"], a.model == "x")`, 'cel.bind(1, 2, true)', 'cel.bind(x, 1, x)', 'cel.bind(x, 1)', 'cel.bind(device, 1, device > 0)',
  loops(3), loops(4), 'device.attributes.a.s.matches("x.*y")', `device.attributes["${driver}"].s.matches("x.*y")`, 'device.driver.matches("[")', 'device.driver.find("[") == ""',
  `device.attributes["${driver}"].v.isGreaterThan(semver("1.0.0"))`, 'semver("bad") == semver("1.0.0")', 'quantity("1Gi") < quantity("2Gi")', 'quantity("x") == quantity("1")',
  `device.capacity["${driver}"].memory.compareTo(quantity("1Gi")) >= 0`, `has(device.attributes["${driver}"].model)`, `device.attributes["${driver}"].?model.orValue("") == ""`,
  '[3, 1].sortBy(x, x) == [1, 3]', 'device.driver == "ü\\u0000"', 'device.driver.matches("(a+)+$")', nested(120), nested(300), `"${'a'.repeat(10_241)}" == device.driver`,
  'device.attributes.exists(d, device.attributes[d].exists(k, k == "model"))', 'device.attributes.__proto__ == 1', 'size(device.capacity) > 0 ? 1 : 2',
];

const selectors = (r: Rng): unknown => r.pick<unknown>([
  [{ cel: { expression: r.pick(expressions) } }],
  [{ cel: { expression: r.pick(expressions) } }, { cel: { expression: r.pick(expressions) } }],
  [{}], [{ cel: null }], [{ cel: {} }], null, 'x', Array.from({ length: 33 }, () => ({ cel: { expression: 'true' } })),
]);

const tolerations = (r: Rng): unknown => r.pick<unknown>([
  [{ key: 'k', effect: 'NoSchedule' }], [{ key: 'a b', operator: 'Bad', effect: 'X' }], [{ operator: 'Exists', value: 'v' }], [{ operator: 'Exists' }],
  [{ key: 'k', operator: 'Equal', value: 'bad value!', effect: 'NoExecute', tolerationSeconds: 5 }], [{ key: 'k', tolerationSeconds: -1, effect: 'NoSchedule' }],
  Array.from({ length: 17 }, (_, i) => ({ key: `k${i}`, operator: 'Exists' })), [null], 'x',
]);

/** One device request of the `exactly` kind, or of sub-requests. */
function request(r: Rng, name: string): Record<string, unknown> {
  const exact = (): Record<string, unknown> => {
    const e: Record<string, unknown> = { deviceClassName: r.pick([driver, driver, '', 'Bad_Class', 'a'.repeat(254)]) };
    if (r.chance(0.6)) e.selectors = selectors(r);
    if (r.chance(0.4)) e.allocationMode = r.pick(['All', 'ExactCount', '', 'Some', null]);
    if (r.chance(0.4)) e.count = r.pick([0, -1, 1, 2, 2 ** 31, 1.5, '2']);
    if (r.chance(0.2)) e.adminAccess = r.pick([true, false, null]);
    if (r.chance(0.3)) e.tolerations = tolerations(r);
    if (r.chance(0.1)) e.capacity = { requests: { memory: r.pick(['1Gi', 'x']) } };
    return e;
  };
  const g = r.int(0, 9);
  if (g <= 5) return { name, exactly: exact() };
  if (g <= 7) return { name, firstAvailable: Array.from({ length: r.pick([0, 1, 2, 9]) }, (_, i) => ({ name: r.pick([`s${i}`, `s${i}`, 'S_1', 's0']), ...exact() })) };
  if (g === 8) return { name, exactly: exact(), firstAvailable: [{ name: 's', deviceClassName: driver }] };
  return { name };
}

const constraints = (r: Rng): unknown => r.pick<unknown>([
  [{ requests: ['r0'], matchAttribute: `${driver}/model` }], [{ requests: ['nope', 'r0/s0', 'a/b/c', 'r0'], matchAttribute: 'noDomain' }], [{ matchAttribute: 'Bad Domain/x' }],
  [{ requests: ['r0', 'r0'] }], [{ distinctAttribute: `${driver}/model` }], Array.from({ length: 33 }, () => ({ matchAttribute: `${driver}/m` })), [null],
]);

const parameters = (r: Rng): unknown => r.pick<unknown>([
  { mode: 'fast' }, [1], null, 'x', 1, {}, JSON.parse('{"__proto__":{"polluted":"yes"}}') as unknown, { deep: JSON.parse('{"a":'.repeat(100) + '1' + '}'.repeat(100)) as unknown },
  { big: 'x'.repeat(10_241) }, { n: 12345678901234567890 }, { b: 1, a: [true], c: { z: 1, y: '<' } },
]);

const configs = (r: Rng): unknown => r.pick<unknown>([
  [{ requests: ['r0'], opaque: { driver, parameters: parameters(r) } }], [{ opaque: { driver: r.pick(['', 'Bad', 'a'.repeat(64), driver]), parameters: parameters(r) } }],
  [{ requests: ['R_1'] }], [{ opaque: null }], Array.from({ length: 33 }, () => ({ opaque: { driver, parameters: {} } })),
]);

function createClaim(r: Rng): HostileRequest {
  const n = r.pick([1, 1, 2, 3]);
  const names = Array.from({ length: n }, (_, i) => r.pick([`r${i}`, `r${i}`, `r${i}`, 'R_1', 'r0', '']));
  const devices: Record<string, unknown> = { requests: names.map((name) => request(r, name)) };
  if (r.chance(0.3)) devices.constraints = constraints(r);
  if (r.chance(0.3)) devices.config = configs(r);
  if (r.chance(0.05)) devices.requests = Array.from({ length: 33 }, (_, i) => ({ name: `r${i}`, exactly: { deviceClassName: driver } }));
  const body = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c-{i}' }, spec: r.chance(0.05) ? r.pick([null, {}, { devices: null }]) : { devices }, ...(r.chance(0.1) ? { status: claimStatus.status } : {}) };
  const q = r.pick(['', '', '?dryRun=All', '?fieldValidation=Strict']);
  return { kind: 'claim', label: `create: ${n} request(s)`, method: 'POST', path: `{rc}${q}`, contentType: 'application/json', body: JSON.stringify(body) };
}

function createClass(r: Rng): HostileRequest {
  const spec: Record<string, unknown> = {};
  if (r.chance(0.8)) spec.selectors = selectors(r);
  if (r.chance(0.3)) spec.config = configs(r);
  if (r.chance(0.3)) spec.extendedResourceName = r.pick(['example.com/gpu', 'gpu', 'kubernetes.io/gpu', 'requests.example.com/gpu', 'example.com/Bad Name', '']);
  const dryRun = r.chance(0.7);
  const body = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: dryRun ? r.pick(['c', 'Bad_Class', 'a.b']) : '{ns}-dc-{i}' }, spec };
  return { kind: 'claim', label: `device class${dryRun ? ' (dry run)' : ''}`, method: 'POST', path: `${DC}${dryRun ? '?dryRun=All' : ''}`, contentType: 'application/json', body: JSON.stringify(body) };
}

const spec = (devices: string): string => `{"spec":{"devices":${devices}}}`;

/** Patches of the claim: its metadata may change, its spec may not. */
const claimPatches: [string, string][] = [
  ['labels', '{"metadata":{"labels":{"tier":"gpu"}}}'],
  ['a finalizer', '{"metadata":{"finalizers":["example.com/hold"]}}'],
  ['another class', spec(`{"requests":[{"name":"gpu","exactly":{"deviceClassName":"other"}}]}`)],
  ['a request added', spec(`{"requests":[{"name":"gpu","exactly":{"deviceClassName":"${driver}"}},{"name":"more","exactly":{"deviceClassName":"${driver}"}}]}`)],
  ['a selector that does not compile', spec(`{"requests":[{"name":"gpu","exactly":{"deviceClassName":"${driver}","selectors":[{"cel":{"expression":"device.driver =="}}]}}]}`)],
  ['the same spec', spec(`{"requests":[{"name":"gpu","exactly":{"deviceClassName":"${driver}","selectors":[{"cel":{"expression":"device.driver == \\"${driver}\\""}}]}},{"name":"any","firstAvailable":[{"name":"big","deviceClassName":"${driver}","allocationMode":"All"},{"name":"small","deviceClassName":"${driver}","count":2}]}],"constraints":[{"requests":["gpu","any/big"],"matchAttribute":"${driver}/model"}],"config":[{"requests":["gpu"],"opaque":{"driver":"${driver}","parameters":{"mode":"fast"}}}]}`)],
  ['opaque parameters changed', spec(`{"config":[{"requests":["gpu"],"opaque":{"driver":"${driver}","parameters":{"b":1,"a":[true],"c":{"z":1,"y":"<"}}}}]}`)],
  ['spec null', '{"spec":null}'],
  ['devices null', '{"spec":{"devices":null}}'],
  ['status in the main resource', '{"status":{"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}}'],
  ['requests replaced', spec('{"requests":[{"$patch":"replace"},{"name":"x","exactly":{"deviceClassName":"c"}}]}')],
  ['a request deleted by name', spec('{"requests":[{"name":"any","$patch":"delete"}]}')],
  ['__proto__ in the spec', '{"spec":{"__proto__":{"polluted":"yes"},"devices":{"__proto__":{"x":1}}}}'],
];

const claimPaths = [
  '/spec/devices/requests/0/exactly/deviceClassName', '/spec/devices/requests/0/exactly/count', '/spec/devices/requests/1/firstAvailable/0', '/spec/devices/requests/-',
  '/spec/devices/constraints/0/requests/0', '/spec/devices/config/0/opaque/parameters/mode', '/spec/devices/config/0/opaque/parameters', '/metadata/labels/app', '/status',
  '/status/allocation', '/status/allocation/devices/results/0/device', '/status/reservedFor', '/spec',
];
const values = ['1', '-1', '"x"', 'null', '{}', '[]', `"${driver}"`, '{"name":"more","exactly":{"deviceClassName":"c"}}', '{"polluted":"yes"}', '[{"resource":"pods","name":"p","uid":"u"}]'];

const jsonPatch = (r: Rng): string => jsonPatchBody(r, claimPaths, values);
const query = (r: Rng): string => r.pick(['', '', '', '?fieldValidation=Strict', '?dryRun=All', '?fieldManager=hostile']);

/** Statuses a scheduler, kubelet or driver might write, some of them wrong. */
function statusContent(r: Rng): string {
  const reservation = (i: number): string => `{"resource":"pods","name":"p${i}","uid":"u${i}"}`;
  const allocation = `"allocation":{"devices":{"results":[{"request":"gpu","driver":"${driver}","pool":"node-1","device":"gpu-0"}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}}`;
  return r.pick([
    `{"reservedFor":[${reservation(0)}]}`, `{"reservedFor":[${reservation(0)},${reservation(0)}]}`, `{"reservedFor":[${reservation(0)},{"resource":"pods","name":"other","uid":"u0"}]}`,
    '{"reservedFor":[{"resource":"","name":"","uid":""}]}', '{"reservedFor":[{"apiGroup":"apps","resource":"Deployments","name":"Bad_Name","uid":"u"}]}',
    `{"reservedFor":[${Array.from({ length: 257 }, (_, i) => reservation(i)).join(',')}]}`, '{"reservedFor":null}', '{"reservedFor":"x"}',
    '{"allocation":null}', '{"allocation":null,"reservedFor":null}', `{${allocation}}`,
    `{"allocation":{"devices":{"results":[{"request":"nope","driver":"Bad","pool":"a//b","device":"Bad_Device"}]}}}`,
    `{"allocation":{"devices":{"results":[{"request":"any/small","driver":"${driver}","pool":"node-1","device":"gpu-1","adminAccess":true}]}}}`,
    `{"allocation":{"devices":{"results":[],"config":[{"source":"Bad","opaque":{"driver":"${driver}","parameters":{}}}]}}}`,
    `{"allocation":{"devices":{"results":[{"request":"gpu","driver":"${driver}","pool":"node-1","device":"gpu-0"}]},"nodeSelector":{"nodeSelectorTerms":[]}}}`,
    `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-0","conditions":[{"type":"Ready","status":"True","reason":"Ok","message":"","lastTransitionTime":"2026-11-29T00:00:00Z"}]}]}`,
    `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-0","networkData":{"interfaceName":"eth0","ips":["10.0.0.1/24","bad","10.0.0.1/24"],"hardwareAddress":"${'a'.repeat(129)}"}}]}`,
    `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-9"}]}`, `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-0"},{"driver":"${driver}","pool":"node-1","device":"gpu-0"}]}`,
    `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-0","data":[1]}]}`, `{"devices":[{"driver":"${driver}","pool":"node-1","device":"gpu-0","conditions":[{"type":"Ready"}]}]}`,
    '{"__proto__":{"polluted":"yes"}}', 'null',
  ]);
}

function status(r: Rng): HostileRequest {
  const content = statusContent(r);
  if (r.chance(0.4)) {
    return { kind: 'claim', label: `status update ${content.slice(0, 60)}`, method: 'PUT', path: `${RC}/status`, contentType: 'application/json', body: `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"rc","resourceVersion":"{rv}"},"status":${content}}` };
  }
  return { kind: 'claim', label: `status merge patch ${content.slice(0, 60)}`, method: 'PATCH', path: `${RC}/status`, contentType: r.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']), body: `{"status":${content}}` };
}

/** The claim as a PUT sends it, with one thing changed. */
function update(r: Rng): HostileRequest {
  const c = claim('{ns}') as { metadata: Record<string, unknown>; spec: { devices: Record<string, unknown> & { requests: Record<string, unknown>[] } }; status?: unknown };
  const changes: [string, () => void][] = [
    ['plain', () => {}],
    ['another class', () => { c.spec.devices.requests[0] = { name: 'gpu', exactly: { deviceClassName: 'other' } }; }],
    ['status set', () => { c.status = claimStatus.status; }],
    ['an unknown field', () => { c.spec.devices.extra = 1; }],
    ['labels', () => { c.metadata.labels = { app: 'h', tier: 'x' }; }],
  ];
  const [label, change] = r.pick(changes);
  change();
  const rv = r.pick([',"resourceVersion":"{rv}"', ',"resourceVersion":"{rv}"', '']);
  const body = JSON.stringify(c).replace('"namespace":"{ns}"', `"namespace":"{ns}"${rv}`);
  return { kind: 'claim', label: `update: ${label}${rv === '' ? ', without resourceVersion' : ''}`, method: 'PUT', path: RC + query(r), contentType: 'application/json', body };
}

function apply(r: Rng): HostileRequest {
  const head = 'apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: rc\n';
  const [label, body] = r.pick([
    ['labels', `${head}  labels:\n    tier: gpu\n`],
    ['another class', `${head}spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: other\n`],
    ['status', `${head}status:\n  reservedFor:\n  - resource: pods\n    name: p\n    uid: u\n`],
  ] as const);
  const q = r.pick(['?fieldManager=hostile', '?fieldManager=hostile&force=true']);
  return { kind: 'claim', label: `apply ${label}`, method: 'PATCH', path: RC + q, contentType: 'application/apply-patch+yaml', body };
}

/** One hostile request of the DRA family. */
export function claimRequest(r: Rng): HostileRequest {
  const g = r.int(0, 14);
  const patch = patchRequest(r, g, 'claim', RC, claimPatches, query, jsonPatch);
  if (patch !== undefined) return patch;
  if (g <= 8) return createClaim(r);
  if (g === 9) return createClass(r);
  if (g === 10) return status(r);
  if (g === 11) return update(r);
  if (g === 12) return apply(r);
  if (g === 13) return { kind: 'claim', label: 'admit admin access in the namespace', method: 'PATCH', path: '/api/v1/namespaces/{ns}', contentType: 'application/merge-patch+json', body: '{"metadata":{"labels":{"resource.kubernetes.io/admin-access":"true"}}}' };
  return status(r);
}
