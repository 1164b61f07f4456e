/**
 * One hostile differential case (hostile.test.ts): a namespace of its own holding a custom resource of a
 * fixed CRD (`w`), a ConfigMap (`cm`), a gadget with status and scale subresources (`g`,
 * hostileSubresources.ts), a Deployment (`d`, hostileDeployments.ts), a Service (`s`, hostileServices.ts), a pod and its disruption budget
 * (`p`, `b`, hostilePods.ts), an allocated ResourceClaim (`rc`, hostileClaims.ts), and a few generated
 * hostile requests against them: JSON patches
 * with prototype keys, escaped and out-of-range paths and malformed operations; merge patches and
 * updates with prototype keys, huge numbers, duplicate keys, deep nesting, BOMs, invalid UTF-8 and
 * truncated bodies; server-side apply with YAML anchors, merge keys and several documents; status and
 * scale writes, selectable-field lists and tampered managed fields; invalid
 * metadata; hostile query parameters; wrong content types and methods. After every request the state
 * of the case's objects is recorded, and at the end the state of a canary namespace that nothing may
 * touch. `runHostileCase` plays a case against one backend, recording every answer as a step.
 */
import { createHash } from 'node:crypto';
import { seededRandom } from '../support/seededRandom.js';
import { answer } from './randomCase.js';
import { Rng } from './randomSchema.js';
import { gadget, gadgetCrd, gadgetStatus, managedFieldsTamper, subresource } from './hostileSubresources.js';
import { deployment, deploymentRequest } from './hostileDeployments.js';
import { maskAllocations, service, serviceRequest } from './hostileServices.js';
import { budget, budgetStatus, pod, podRequest, podStatus } from './hostilePods.js';
import { reviewRequest } from './hostileReviews.js';
import { claim, claimRequest, claimStatus } from './hostileClaims.js';
import { componentStatusRequest, flowControlRequest } from './hostileFlowControl.js';
import { watchRequest } from './hostileWatches.js';
import { rbacRequest, role, roleBinding } from './hostileRbac.js';
import type { CrdLike, Session } from './session.js';

/** One generated request. Paths and bodies hold placeholders filled at run time (see {@link fill}). */
export interface HostileRequest {
  /** The class of request, for the tallies: `json patch`, `merge patch`, `apply`, `create`, … */
  kind: string;
  /** What is hostile about it (for the report). */
  label: string;
  method: string;
  path: string;
  contentType?: string;
  /** Send no Content-Type header. */
  noContentType?: boolean;
  /** The body as text. */
  body?: string;
  /** The body as base64 bytes (invalid UTF-8), instead of `body`. */
  bodyBase64?: string;
  /** More headers: `Impersonate-User` to send it as {@link hostileWriter}. */
  headers?: Readonly<Record<string, string>>;
  /**
   * `cluster`: the answer lists cluster-scoped objects (or is a watch of them); it is kept as the sorted
   * names of the objects no case made (bootstrap objects, computed ones) and of the case's own.
   */
  keep?: 'cluster';
}

/** A generated case; plain data, so it can be printed and replayed. */
export interface HostileCase {
  seed: number;
  index: number;
  /** The case's namespace (unique per case and per replay). */
  ns: string;
  requests: HostileRequest[];
}

export const hostileGroup = 'hostile-diff.example.com';

const rbacPath = '/apis/rbac.authorization.k8s.io/v1';

/** The user some RBAC requests are sent as (hostileRbac.ts), and its rules (a ClusterRoleBinding's). */
export const hostileWriter = 'hostile-writer';
const hostileWriterRules = [
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], verbs: ['create', 'get', 'list', 'update', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['pods', '*/status'], verbs: ['get', 'list', 'watch'] },
  { nonResourceURLs: ['/healthz', '/api/*'], verbs: ['get'] },
];
export const canaryNamespace = 'hostile-canary';

/**
 * A request sent as {@link hostileWriter} (`Impersonate-User`): most are refused, with RBAC's words for the
 * verb, resource, subresource and name the request info decodes; a few of its rules allow.
 */
export function asHostileWriter(q: HostileRequest): HostileRequest {
  return { ...q, label: `${q.label} as ${hostileWriter}`, headers: { ...q.headers, 'Impersonate-User': hostileWriter } };
}

/** The fixed CRD: typed fields, a map, a list, and a subtree that keeps unknown fields. */
export const hostileCrd: CrdLike = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${hostileGroup}` },
  spec: {
    group: hostileGroup,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                a: { type: 'string' },
                n: { type: 'integer' },
                f: { type: 'number' },
                s: { type: 'string' },
                list: { type: 'array', items: { type: 'integer' } },
                obj: { type: 'object', additionalProperties: { type: 'string' } },
                free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      },
    }],
  },
};

const W = '{cr}/w';
const G = '{gd}/g';
const CM = '{cm}/cm';
const D = '{dp}/d';
const SV = '{sv}/s';
const NS = '/api/v1/namespaces/{ns}';
const PO = '{po}/p';
const PDB = '{pdb}/b';
const RC = '{rc}/rc';
const RO = '{ro}/r';
const RB = '{rb}/rb';

/** The widget every case starts from. */
export function widget(ns: string, name = 'w'): Record<string, unknown> {
  return { apiVersion: `${hostileGroup}/v1`, kind: 'Widget', metadata: { name, namespace: ns, labels: { app: 'h' } }, spec: { a: 'x', n: 1, f: 1.5, s: 'str', list: [1, 2, 3], obj: { k: 'v', 'a/b': 'slash', 'a~b': 'tilde' }, free: { deep: { x: [1, { y: 'z' }] } } } };
}

/** The ConfigMap every case starts from. */
export function configMap(ns: string, name = 'cm'): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { app: 'h' } }, data: { a: '1', 'b.c': '2' } };
}

const nested = (n: number, leaf = '1'): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);
const nestedArrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);

/** JSON values, as text, some of them hostile. */
const values = [
  '1', '"s"', 'null', 'true', '[]', '{}', '{"k":"v"}', '[1,2]', '"v"', '{"a":{"b":{"c":[1,{"d":null}]}}}',
  '{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"toString":"x","hasOwnProperty":1}',
  '1e400', '9223372036854775808', '-0', '1.0', '"\\u0000"', '12345678901234567890123', '[1,"two",null]',
];

const crPaths = [
  '', '/', '/spec', '/spec/a', '/spec/n', '/spec/f', '/spec/list', '/spec/list/0', '/spec/list/-', '/spec/list/01', '/spec/list/3', '/spec/list/99', '/spec/list/-1',
  '/spec/obj/k', '/spec/obj/a~1b', '/spec/obj/a~0b', '/spec/obj/~2', '/spec/obj/~', '/spec/obj/new', '/spec/s/x', '/spec/a/0', '/spec/free', '/spec/free/deep/x/1/y',
  '/spec/free/__proto__', '/spec/free/__proto__/polluted', '/__proto__/polluted', '/__proto__', '/spec/constructor/prototype/polluted', '/spec/free/constructor',
  '/spec/free/prototype', '/spec/hasOwnProperty', '/spec/free/toString', '/spec/obj/__proto__', '/metadata/name', '/metadata/namespace', '/metadata/labels/x',
  '/metadata/labels', '/metadata/labels/__proto__', '/metadata/uid', '/metadata/resourceVersion', '/metadata/finalizers', '/metadata/annotations/a~1b', '/kind', '/apiVersion',
  'spec', '/spec/missing/deeper', '/spec//', '/spec/free/',
];
const cmPaths = ['', '/data', '/data/a', '/data/b.c', '/data/__proto__', '/data/constructor', '/data/-', '/data/0', '/binaryData/x', '/metadata/labels/app', '/metadata/name', '/metadata/annotations', '/immutable', '/__proto__/polluted', '/kind'];
const nsPaths = ['/metadata/labels/x', '/metadata/labels/__proto__', '/spec/finalizers/0', '/spec/finalizers/-', '/spec/finalizers', '/status/phase', '/metadata/name', '/__proto__/polluted', '/spec'];

function op(r: Rng, paths: string[]): string {
  const o = r.pick(['add', 'add', 'remove', 'replace', 'replace', 'move', 'copy', 'test', 'test', 'bogus', '', 'ADD']);
  const parts: string[] = [];
  if (o !== '' || r.chance(0.5)) parts.push(`"op":${o === '' ? r.pick(['null', '1', '""']) : JSON.stringify(o)}`);
  const path = r.pick(paths);
  if (r.chance(0.93)) parts.push(`"path":${JSON.stringify(path)}`);
  if (o === 'move' || o === 'copy') {
    // Not from the resourceVersion: a copy of it is a number of the server's, which the transcripts cannot compare.
    if (r.chance(0.9)) parts.push(`"from":${JSON.stringify(r.chance(0.25) ? path.replace(/\/[^/]*$/, '') : r.pick(paths.filter((p) => p !== '/metadata/resourceVersion')))}`);
  } else if (o !== 'remove' || r.chance(0.2)) {
    if (r.chance(0.9)) parts.push(`"value":${r.pick(values)}`);
  }
  if (r.chance(0.05)) parts.push('"extra":1');
  return `{${r.chance(0.5) ? parts.join(',') : parts.reverse().join(',')}}`;
}

function jsonPatch(r: Rng): HostileRequest {
  const target = r.pick([[W, crPaths], [W, crPaths], [CM, cmPaths], [NS, nsPaths]] as const);
  const [path, paths] = target;
  let body: string;
  let label: string;
  const shape = r.int(0, 19);
  if (shape === 0) { body = r.pick(['{"op":"add","path":"/spec/a","value":"y"}', 'null', '"s"', '1', '{}', '']); label = 'not an array'; }
  else if (shape === 1) { body = r.pick(['[]', '[1]', '[null]', '[[]]', '[{"op":"add","path":"/spec/a","value":"y"}', '[{}]']); label = 'odd array'; }
  else if (shape === 2) {
    body = r.pick([
      '[{"op":"move","from":"/spec/obj","path":"/spec/obj/k2"}]', '[{"op":"move","from":"/spec","path":"/spec/free/x"}]', '[{"op":"copy","from":"/spec/free","path":"/spec/free/deep/again"}]',
      '[{"op":"test","path":"/spec/free","value":{"deep":{"x":[1,{"y":"z"}]}}}]', '[{"op":"test","path":"/spec/free","value":{"deep":{"x":[1,{"y":"Z"}]}}}]',
      '[{"op":"test","path":"/spec/list","value":[1,2,3]},{"op":"remove","path":"/spec/list/1"}]', '[{"op":"test","path":"/spec/n","value":1.0},{"op":"replace","path":"/spec/n","value":2}]',
      '[{"op":"test","path":"/spec/missing","value":null}]', '[{"op":"add","path":"/spec/free/__proto__","value":{"polluted":"yes"}},{"op":"add","path":"/spec/free/__proto__/x","value":1}]',
      '[{"op":"replace","path":"","value":{"apiVersion":"v1","kind":"ConfigMap"}}]', '[{"op":"remove","path":""}]', '[{"op":"copy","from":"/spec/obj/k","path":"/spec/obj/__proto__"}]',
      '[{"op":"add","path":"/metadata/labels/a~1b","value":"c"}]', '[{"op":"add","path":"/spec/list/00","value":5}]', '[{"op":"add","path":"/spec/list/4","value":5}]',
      '[{"op":"add","path":"/spec/list/3","value":5}]', '[{"op":"remove","path":"/spec/list/-"}]', '[{"op":"replace","path":"/spec/list/-","value":9}]',
      '[{"op":"add","path":"/spec/list/+1","value":5}]', '[{"op":"add","path":"/spec/list/1e0","value":5}]',
    ]);
    label = 'crafted';
  } else {
    const n = r.int(1, 4);
    body = `[${Array.from({ length: n }, () => op(r, paths)).join(',')}]`;
    label = `${n} random ops`;
  }
  return { kind: 'json patch', label, method: 'PATCH', path: path + patchQuery(r), contentType: 'application/json-patch+json', body };
}

function patchQuery(r: Rng): string {
  return r.pick(['', '', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldValidation=Warn', '?fieldValidation=Ignore', '?fieldManager=hostile']);
}

function invalidUtf8(prefix: string, suffix: string): string {
  return Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(suffix)]).toString('base64');
}

function mergePatch(r: Rng): HostileRequest {
  const onCm = r.chance(0.25);
  const path = onCm ? CM : r.chance(0.1) ? NS : W;
  const inner = onCm ? 'data' : path === NS ? 'metadata' : 'spec';
  const deepAt = r.pick([100, 2000, 9_998, 10_001]);
  const choices: [string, () => Partial<HostileRequest>][] = [
    ['__proto__ at the root', () => ({ body: '{"__proto__":{"polluted":"yes"},"metadata":{"labels":{"m":"1"}}}' })],
    ['__proto__ inside', () => ({ body: `{"${inner}":{"__proto__":{"polluted":"yes"}}}` })],
    ['__proto__ in free', () => ({ body: '{"spec":{"free":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"p":1}}}}}' })],
    ['__proto__ in labels', () => ({ body: '{"metadata":{"labels":{"__proto__":"x","constructor":"y"}}}' })],
    ['constructor.prototype', () => ({ body: `{"constructor":{"prototype":{"polluted":"yes"}},"${inner}":{"toString":"t"}}` })],
    ['null at the root', () => ({ body: 'null' })],
    ['array at the root', () => ({ body: r.pick(['[]', '[{"spec":{}}]']) })],
    ['scalar at the root', () => ({ body: r.pick(['"s"', '1', 'true']) })],
    ['array where an object goes', () => ({ body: r.pick([`{"${inner}":[]}`, '{"spec":{"obj":[1]}}', '{"metadata":[]}', '{"metadata":{"labels":[]}}']) })],
    ['huge number', () => ({ body: `{"spec":{"${r.pick(['n', 'f', 'a'])}":${r.pick(['1e400', '9223372036854775808', '-9223372036854775809', '-0', '1.0', '1e2', '0.1e1', '12345678901234567890123'])}}}` })],
    ['duplicate keys', () => ({ body: r.pick([`{"${inner}":{"a":"x","a":"y"}}`, '{"metadata":{"labels":{"d":"1"},"labels":{"e":"2"}}}', `{"${inner}":{"a":"1"},"${inner}":{"b.c":"3"}}`]) })],
    [`nested ${deepAt}`, () => ({ body: `{"spec":{"free":${nested(deepAt)}}}` })],
    ['nested arrays', () => ({ body: `{"spec":{"free":{"x":${nestedArrays(r.pick([100, 9_999, 10_001]))}}}}` })],
    ['BOM', () => ({ body: `\ufeff{"${inner}":{"a":"bom"}}` })],
    ['invalid UTF-8', () => ({ bodyBase64: invalidUtf8(`{"${inner}":{"a":"`, '"}}') })],
    ['truncated', () => ({ body: r.pick([`{"${inner}":{"a":`, '{', '{"spec"', '{"spec":{"a":"x"}}}', '{"spec":{"a":"x"} trailing']) })],
    ['empty body', () => ({ body: '' })],
    ['name in body', () => ({ body: '{"metadata":{"name":"other"}}' })],
    ['resourceVersion precondition', () => ({ body: `{"metadata":{"resourceVersion":${r.pick(['"abc"', '"1"', '"0"', '""', '1', '"{rv}"'])}},"${inner}":{"a":"rv"}}` })],
    ['uid in body', () => ({ body: `{"metadata":{"uid":${r.pick(['"x"', '"{uid}"', '1'])}}}` })],
    ['timestamps', () => ({ body: `{"metadata":{${r.pick(['"creationTimestamp":"yesterday"', '"deletionTimestamp":"2026-11-26T10:00:00+02:00"', '"deletionTimestamp":""', '"creationTimestamp":"2026-11-26T1:00:00Z"', '"deletionTimestamp":"0001-01-01T00:00:00Z"'])}}}` })],
    ['wrong types', () => ({ body: r.pick(['{"data":{"k":1}}', '{"data":{"k":null,"a":true}}', '{"spec":{"list":["x"]}}', '{"spec":{"n":"1"}}', '{"metadata":{"labels":{"a":1}}}', '{"metadata":{"finalizers":"x"}}', '{"kind":"Other"}', '{"apiVersion":"v2"}']) })],
    ['control characters', () => ({ body: `{"${inner}":{"a":"\u0001\u007f"}}` })],
    ['unknown fields', () => ({ body: `{"${inner}":{"zz":1},"topUnknown":1,"metadata":{"bogus":1}}` })],
  ];
  const [label, make] = r.pick(choices);
  return { kind: 'merge patch', label, method: 'PATCH', path: path + patchQuery(r), contentType: r.chance(0.1) ? 'application/merge-patch+json; charset=utf-8' : 'application/merge-patch+json', ...make() };
}

function update(r: Rng): HostileRequest {
  const onCm = r.chance(0.3);
  const base = onCm ? '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"{ns}"META},"data":{"a":"u"}}'
    : '{"apiVersion":"hostile-diff.example.com/v1","kind":"Widget","metadata":{"name":"w"META},"spec":{"a":"u","n":2SPEC}}';
  const rv = r.pick([',"resourceVersion":"{rv}"', ',"resourceVersion":"{rv}"', '', ',"resourceVersion":"abc"', ',"resourceVersion":"1"', ',"resourceVersion":"0"', ',"resourceVersion":""']);
  const choices: [string, string, string][] = [
    ['__proto__ at the root', rv, ''], ['__proto__ in metadata', `${rv},"__proto__":{"polluted":"yes"}`, ''], ['__proto__ in spec', rv, ',"__proto__":{"polluted":"yes"}'],
    ['__proto__ in free', rv, ',"free":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"x":1}}}'], ['labels __proto__', `${rv},"labels":{"__proto__":"x"}`, ''],
    ['plain', rv, ''], ['huge number', rv, ',"f":1e400'], ['big integer', rv, ',"free":{"i":9223372036854775808}'], ['duplicate key', `${rv},"name":"w2"`, ''],
    ['deep', rv, `,"free":${nested(r.pick([500, 10_001]))}`], ['generateName', `${rv},"generateName":"x-"`, ''], ['finalizers', `${rv},"finalizers":["Bad Finalizer","a/b/c","kubernetes"]`, ''],
  ];
  const [label, meta, spec] = r.pick(choices);
  let body = base.replace('META', meta).replace('SPEC', onCm ? '' : spec);
  if (label === '__proto__ at the root') body = body.replace(/^\{/, '{"__proto__":{"polluted":"yes"},');
  const mangle = r.int(0, 12);
  let mangled = label;
  if (mangle === 0) { body = body.replace('"name":"w"', '"name":"other"').replace('"name":"cm"', '"name":"other"'); mangled += ', name mismatch'; }
  else if (mangle === 1) { body = body.replace('"kind":"Widget"', '"kind":"Gadget"').replace('"kind":"ConfigMap"', '"kind":"Secret"'); mangled += ', kind mismatch'; }
  else if (mangle === 2) { body = body.replace('hostile-diff.example.com/v1', 'hostile-diff.example.com/v2').replace('"apiVersion":"v1"', '"apiVersion":"apps/v1"'); mangled += ', apiVersion mismatch'; }
  else if (mangle === 3) { body = body.slice(0, Math.floor(body.length / 2)); mangled += ', truncated'; }
  else if (mangle === 4) { body = r.pick(['null', '[]', '', '"x"']); mangled = 'not an object'; }
  else if (mangle === 5) { body = `\ufeff${body}`; mangled += ', BOM'; }
  else if (mangle === 6) { body = body.replace('"namespace":"{ns}"', '"namespace":"other"').replace('"name":"w"', '"name":"w","namespace":"other"'); mangled += ', namespace mismatch'; }
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldValidation=Warn', '?fieldManager=x']);
  return { kind: 'update', label: mangled, method: 'PUT', path: (onCm ? CM : W) + q, contentType: r.chance(0.1) ? 'application/json; charset=utf-8' : 'application/json', body };
}

function apply(r: Rng): HostileRequest {
  const name = r.pick(['w', 'w', 'applied']);
  const head = `apiVersion: ${hostileGroup}/v1\nkind: Widget\nmetadata:\n  name: ${name}\n`;
  const choices: [string, string][] = [
    ['plain', `${head}spec:\n  a: applied\n`],
    ['anchors and aliases', `${head}spec:\n  obj: &o\n    k: anchored\n  free:\n    copy: *o\n`],
    ['merge key', `${head}spec:\n  free:\n    base: &b {x: 1, y: 2}\n    merged:\n      <<: *b\n      y: 3\n`],
    ['multiple documents', `${head}spec:\n  a: one\n---\n${head}spec:\n  a: two\n`],
    ['leading document separator', `---\n${head}spec:\n  a: sep\n`],
    ['JSON in YAML', JSON.stringify({ apiVersion: `${hostileGroup}/v1`, kind: 'Widget', metadata: { name }, spec: { a: 'json' } })],
    ['kind mismatch', head.replace('kind: Widget', 'kind: Gadget') + 'spec:\n  a: k\n'],
    ['apiVersion mismatch', head.replace(`${hostileGroup}/v1`, `${hostileGroup}/v2`) + 'spec:\n  a: k\n'],
    ['no apiVersion and kind', `metadata:\n  name: ${name}\nspec:\n  a: k\n`],
    ['name mismatch', head.replace(`name: ${name}`, 'name: elsewhere') + 'spec:\n  a: k\n'],
    ['no name', `apiVersion: ${hostileGroup}/v1\nkind: Widget\nspec:\n  a: k\n`],
    ['__proto__ key', `${head}spec:\n  free:\n    __proto__:\n      polluted: yes\n    constructor:\n      prototype:\n        polluted: yes\n`],
    ['duplicate key', `${head}spec:\n  a: one\n  a: two\n`],
    ['tab indentation', `${head}spec:\n\ta: tab\n`],
    ['empty', ''],
    ['null', 'null\n'],
    ['a list', '- a\n- b\n'],
    ['a scalar', 'hello\n'],
    ['huge number', `${head}spec:\n  n: 9223372036854775808\n  f: 1e400\n`],
    ['yaml 1.1 booleans', `${head}spec:\n  a: yes\n  s: on\n`],
    ['binary tag', `${head}spec:\n  a: !!binary aGVsbG8=\n`],
    ['unknown fields', `${head}spec:\n  zz: 1\nextra: 2\n`],
    ['managedFields in body', `${head}  managedFields:\n  - manager: m\n    operation: Apply\nspec:\n  a: mf\n`],
    ['deep flow', `${head}spec:\n  free:\n    x: ${nestedArrays(r.pick([100, 10_001]))}\n`],
    ['invalid UTF-8', ''],
  ];
  const [label, body] = r.pick(choices);
  const q = r.pick(['?fieldManager=hostile', '?fieldManager=hostile', '?fieldManager=hostile&force=true', '', '?fieldManager=hostile&force=maybe', '?fieldManager=hostile&dryRun=All', '?fieldManager=hostile&fieldValidation=Strict', '?fieldManager=other']);
  const req: HostileRequest = { kind: 'apply', label, method: 'PATCH', path: `{cr}/${name}${q}`, contentType: 'application/apply-patch+yaml', body };
  if (label === 'invalid UTF-8') { delete req.body; req.bodyBase64 = invalidUtf8(`${head}spec:\n  a: "`, '"\n'); }
  return req;
}

function create(r: Rng): HostileRequest {
  const where = r.pick(['cr', 'cr', 'cm', 'ns'] as const);
  const names = ['Bad', 'a'.repeat(254), 'a'.repeat(253), 'a.b', 'a..b', '..', '.', '', 'a_b', '-a', 'a-', `x${'.y'.repeat(3)}`, 'ok-{i}', 'ok.{i}', '__proto__', 'constructor', 'a/b', 'a%2Fb'];
  const meta: string[] = [];
  let label: string;
  const kindOf = r.int(0, 9);
  if (kindOf <= 2) {
    let n = r.pick(names);
    // A namespace name that could be valid is made the case's own (namespaces are shared by all cases).
    if (where === 'ns' && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n) && n.length <= 63) n = `{ns}-${n}`;
    meta.push(`"name":${JSON.stringify(n)}`); label = `name ${n.length > 20 ? `${n.length} chars` : JSON.stringify(n)}`; }
  else if (kindOf === 3) { const g = r.pick(['gen-', 'Gen_', '', 'a'.repeat(300), 'ok.{i}.']); meta.push(`"generateName":${JSON.stringify(g)}`); label = `generateName ${g.length > 20 ? `${g.length} chars` : JSON.stringify(g)}`; }
  else if (kindOf === 4) {
    const [k, v] = r.pick([['bad key', 'v'], ['a/b/c', 'v'], ['-x', 'v'], ['k'.repeat(64), 'v'], ['ok', 'v'.repeat(64)], ['ok', 'bad value'], ['ok', '-v'], ['__proto__', 'x'], ['example.com/', 'v'], ['A.B/c', 'v'], ['ok', '']]);
    meta.push(`"name":"l-{i}"`, `"labels":{${JSON.stringify(k)}:${JSON.stringify(v)}}`);
    label = `label ${k.slice(0, 20)}=${v.slice(0, 20)}`;
  } else if (kindOf === 5) {
    const size = r.pick([262_144 - 10, 262_145, 300_000]);
    meta.push(`"name":"big-{i}"`, `"annotations":{"big":"${'x'.repeat(size)}"}`);
    label = `annotation of ${size} bytes`;
  } else if (kindOf === 6) {
    const [k, v] = r.pick([['bad key', 'v'], ['a/b/c', 'v'], ['__proto__', 'x'], ['constructor', 'y'], ['ok', 1]] as [string, unknown][]);
    meta.push(`"name":"a-{i}"`, `"annotations":{${JSON.stringify(k)}:${JSON.stringify(v)}}`);
    label = `annotation ${k}`;
  } else if (kindOf === 7) {
    const f = r.pick([['Bad'], ['a/b/c'], ['kubernetes'], ['example.com/ok', 'example.com/ok'], ['a'.repeat(64)], [''], ['example.com/Bad']]);
    meta.push(`"name":"f-{i}"`, `"finalizers":${JSON.stringify(f)}`);
    label = `finalizers ${JSON.stringify(f).slice(0, 40)}`;
  } else if (kindOf === 8) {
    meta.push(`"name":"m-{i}"`, r.pick(['"namespace":"other"', '"uid":"abc"', '"resourceVersion":"5"', '"creationTimestamp":"yesterday"', '"ownerReferences":[{"apiVersion":"v1","kind":"X","name":"","uid":""}]', '"deletionTimestamp":"2020-01-01T00:00:00Z"', '"__proto__":{"polluted":"yes"}',
      '"creationTimestamp":"2026-11-26 10:00:00Z"', '"deletionTimestamp":"2026-02-30T10:00:00Z"', '"creationTimestamp":5', '"creationTimestamp":"2026-11-26T1:00:00,5+24:00"']));
    label = `metadata ${meta[1].slice(0, 40)}`;
  } else {
    meta.push('"name":"w"');
    label = 'already exists';
  }
  const metaText = `{${meta.join(',')}}`;
  let body: string;
  let path: string;
  if (where === 'cr') { body = `{"apiVersion":"${hostileGroup}/v1","kind":"Widget","metadata":${metaText},"spec":{"a":"c"}}`; path = '{cr}'; }
  else if (where === 'cm') { body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":${metaText},"data":{"a":"c"}}`; path = '{cm}'; }
  else { body = `{"apiVersion":"v1","kind":"Namespace","metadata":${metaText.replace('"name":"w"', '"name":"{ns}"').replace(/"name":"([a-z]+)-\{i\}"/, '"name":"{ns}-$1"')}}`; path = '/api/v1/namespaces'; }
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?dryRun=Some', '?fieldValidation=bogus']);
  return { kind: 'create', label: `${where} ${label}`, method: 'POST', path: path + q, contentType: 'application/json', body };
}

function del(r: Rng): HostileRequest {
  const path = r.pick([W, W, CM]);
  const choices: [string, string | undefined, string][] = [
    ['uid precondition bogus', '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"bogus"}}', ''],
    ['uid precondition right', '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"{uid}"}}', ''],
    ['rv precondition stale', '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"1"}}', ''],
    ['rv precondition abc', '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"abc"}}', ''],
    ['rv precondition right, dry run', '{"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"resourceVersion":"{rv}"},"dryRun":["All"]}', ''],
    ['gracePeriodSeconds -1', '{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":-1}', ''],
    ['orphan and propagation', '{"kind":"DeleteOptions","apiVersion":"v1","orphanDependents":true,"propagationPolicy":"Foreground"}', ''],
    ['body not DeleteOptions', r.pick(['[]', '"x"', '{"kind":"Pod","apiVersion":"v1"}', '{"kind":"DeleteOptions","apiVersion":"v1"', 'null', '{"__proto__":{"polluted":"yes"},"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}']), ''],
    ['query dryRun', undefined, r.pick(['?dryRun=All', '?dryRun=all', '?dryRun=All&dryRun=All', '?dryRun=', '?gracePeriodSeconds=abc', '?propagationPolicy=Sideways', '?preconditions.uid=x'])],
    ['missing object', undefined, ''],
  ];
  const [label, body, q] = r.pick(choices);
  return { kind: 'delete', label, method: 'DELETE', path: (label === 'missing object' ? path.replace(/\/(w|cm)$/, '/ghost') : path) + q, contentType: 'application/json', body };
}

/** A path with percent escapes: Go decodes it once before routing, and refuses a bad escape before any handler. */
function escapedPath(r: Rng): HostileRequest {
  const [label, method, path] = r.pick<[string, string, string]>([
    ['escaped name', 'GET', CM.replace(/cm$/, '%63m')], ['escaped slash in a name', 'GET', `${CM}%2Fstatus`], ['escaped segment', 'GET', '{cm}%2Fcm'],
    ['bad escape', 'GET', `${CM}%zz`], ['bad escape, delete', 'DELETE', `${CM}%`], ['bad escape in a custom resource', 'PATCH', `${W}%4`], ['escaped dots', 'DELETE', `${CM}%2F..%2F..`],
    ['escaped dot name', 'GET', `${W.replace(/w$/, '')}%2E%2E`], ['escaped quote', 'GET', `${CM}%22x`], ['escaped NUL', 'GET', `${W}%00`], ['escaped question mark', 'GET', '{cr}%3Fx'],
  ]);
  return { kind: 'escaped path', label, method, path, contentType: 'application/merge-patch+json', body: method === 'PATCH' ? '{}' : undefined };
}

/** A DELETE of a collection: a page with `limit`, from a `continue` token, answered in the format asked for. */
function collectionDelete(r: Rng): HostileRequest {
  const coll = r.pick(['{cm}', '{cr}']);
  const q = r.pick(['limit=1', 'limit=1&labelSelector=app%3Dh', 'limit=2&dryRun=All', 'continue=abc', 'limit=1&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ3XHUwMDAwIn0', 'includeObject=x', 'labelSelector=nothing%3Dhere', 'limit=1&resourceVersion=0']);
  const accept = r.pick([undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io']);
  return { kind: 'collection delete', label: `${coll} ${q}${accept === undefined ? '' : ` as ${/as=(\w+)/.exec(accept)![1]}`}`, method: 'DELETE', path: `${coll}?${q}`, headers: accept === undefined ? undefined : { Accept: accept } };
}

function query(r: Rng): HostileRequest {
  const coll = r.pick(['{cr}', '{cm}', '{cr}', '/api/v1/namespaces']);
  const q = r.pick([
    'labelSelector=a%20in%20(', 'labelSelector=!', 'labelSelector=a%3D%3Db%3D%3Dc', 'labelSelector=%3Dx', 'labelSelector=x%3D', 'labelSelector=a,', 'labelSelector=app%3Dh', 'labelSelector=a%20notin%20()',
    'labelSelector=a%21%3D', 'labelSelector=A%2FB%3Dc', 'labelSelector=%5F%5Fproto%5F%5F%3Dx', 'fieldSelector=spec.a%3Dx', 'fieldSelector=metadata.name%3D', 'fieldSelector=%3D%3D', 'fieldSelector=metadata.name%20in%20(a)',
    'fieldSelector=metadata.namespace%3D{ns}', 'fieldSelector=metadata.name%3Dw,metadata.name%21%3Dw', 'fieldSelector=status.phase%3DActive', 'fieldSelector=__proto__%3Dx',
    'limit=-1', 'limit=abc', 'limit=1', 'limit=0', 'continue=abc', 'continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ3XHUwMDAwIn0', 'limit=1&continue=%20',
    'resourceVersion=abc', 'resourceVersion=0', 'resourceVersion=1&resourceVersionMatch=Exact', 'resourceVersionMatch=bogus', 'resourceVersionMatch=NotOlderThan', 'resourceVersion=99999999999&resourceVersionMatch=NotOlderThan',
    'sendInitialEvents=true', 'unknown=param', 'pretty=maybe', 'timeoutSeconds=abc', 'allowWatchBookmarks=maybe',
    'watch=true&resourceVersion=abc&timeoutSeconds=1', 'watch=true&timeoutSeconds=abc', 'watch=yes&timeoutSeconds=abc', 'watch=true&resourceVersionMatch=Exact&resourceVersion=1&timeoutSeconds=1', 'watch=true&labelSelector=a%20in%20(&timeoutSeconds=1',
    'watch=true&fieldSelector=spec.a%3Dx&timeoutSeconds=1', 'watch=true&sendInitialEvents=true&timeoutSeconds=1', 'watch=true&continue=abc&timeoutSeconds=1', 'watch=true&limit=abc&timeoutSeconds=1',
    // Pairs Go's ParseQuery leaves out (a `;`, an escape that is not %XX), and escaped keys.
    'labelSelector=app%3Dh;x=1', 'labelSelector=app%3Dh%zz', 'limit=1;', 'label%53elector=app%3Dh', 'fieldSelector=metadata.name%3Dw&fieldSelector=x%zz', 'limit=1&%zz=1', 'labelSelector=app+in+(h)',
  ]);
  return { kind: 'query', label: q.replace(/%([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), method: 'GET', path: `${coll}?${q}` };
}

function writeQuery(r: Rng): HostileRequest {
  const q = r.pick([
    'dryRun=All', 'dryRun=all', 'dryRun=All&dryRun=Some', 'dryRun=', 'fieldValidation=Strict', 'fieldValidation=Warn', 'fieldValidation=Ignore', 'fieldValidation=bogus', 'fieldValidation=strict',
    `fieldManager=${'m'.repeat(129)}`, `fieldManager=${'m'.repeat(128)}`, 'fieldManager=a%0Ab', 'fieldManager=%C3%A9', 'fieldManager=', 'unknown=1', 'force=true', 'fieldValidation=Strict&fieldValidation=Ignore',
  ]);
  const onCm = r.chance(0.4);
  const body = onCm ? '{"data":{"a":"q","unknownish":"x"},"unknown":1}' : '{"spec":{"a":"q","zz":1},"unknown":1}';
  const method = r.pick(['PATCH', 'PATCH', 'POST']);
  if (method === 'POST') {
    const created = onCm ? '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q-{i}"},"data":{"a":"q"},"unknown":1}' : `{"apiVersion":"${hostileGroup}/v1","kind":"Widget","metadata":{"name":"q-{i}"},"spec":{"a":"q","zz":1},"unknown":1}`;
    return { kind: 'write query', label: `create ${q.slice(0, 60)}`, method, path: `${onCm ? '{cm}' : '{cr}'}?${q}`, contentType: 'application/json', body: created };
  }
  return { kind: 'write query', label: `merge patch ${q.slice(0, 60)}`, method, path: `${onCm ? CM : W}?${q}`, contentType: 'application/merge-patch+json', body };
}

function transport(r: Rng): HostileRequest {
  const choices: (() => HostileRequest)[] = [
    () => ({ kind: 'content type', label: 'PATCH as application/json', method: 'PATCH', path: W, contentType: 'application/json', body: '{"spec":{"a":"j"}}' }),
    () => ({ kind: 'content type', label: 'PATCH as text/plain', method: 'PATCH', path: r.pick([W, CM]), contentType: 'text/plain', body: '{"spec":{"a":"t"}}' }),
    () => ({ kind: 'content type', label: 'PATCH without Content-Type', method: 'PATCH', path: W, noContentType: true, body: '{"spec":{"a":"t"}}' }),
    () => ({ kind: 'content type', label: 'strategic merge patch on a custom resource', method: 'PATCH', path: W, contentType: 'application/strategic-merge-patch+json', body: '{"spec":{"a":"smp"}}' }),
    () => ({ kind: 'content type', label: 'strategic merge patch with __proto__ on a ConfigMap', method: 'PATCH', path: CM, contentType: 'application/strategic-merge-patch+json', body: r.pick(['{"data":{"__proto__":{"polluted":"yes"}}}', '{"__proto__":{"polluted":"yes"}}', '{"metadata":{"$patch":"delete"}}', '{"$patch":"replace","data":{"x":"y"}}', '{"metadata":{"labels":{"$patch":"replace","z":"1"}}}', '{"$setElementOrder/finalizers":["a"]}']) }),
    () => ({ kind: 'content type', label: 'create with charset', method: 'POST', path: '{cm}', contentType: r.pick(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset=latin1', 'APPLICATION/JSON']), body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cs-{i}"}}' }),
    () => ({ kind: 'content type', label: 'create as YAML', method: 'POST', path: r.pick(['{cm}', '{cr}']), contentType: 'application/yaml', body: r.pick(['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y-{i}\ndata:\n  a: "1"\n', `apiVersion: ${hostileGroup}/v1\nkind: Widget\nmetadata:\n  name: y-{i}\nspec:\n  a: &x y\n  s: *x\n`, 'a: [\n', '']) }),
    () => ({ kind: 'content type', label: 'create as something else', method: 'POST', path: r.pick(['{cm}', '{cr}']), contentType: r.pick(['text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/json-patch+json', 'application/vnd.kubernetes.protobuf']), body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ct-{i}"}}' }),
    () => ({ kind: 'content type', label: 'create without Content-Type', method: 'POST', path: '{cm}', noContentType: true, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"nct-{i}"}}' }),
    () => ({ kind: 'content type', label: 'create without body', method: 'POST', path: r.pick(['{cm}', '{cr}']), contentType: 'application/json' }),
    () => ({ kind: 'method', label: 'POST on an object', method: 'POST', path: r.pick([W, CM]), contentType: 'application/json', body: '{}' }),
    () => ({ kind: 'method', label: 'PUT on a collection', method: 'PUT', path: r.pick(['{cr}', '{cm}']), contentType: 'application/json', body: '{}' }),
    () => ({ kind: 'method', label: 'PATCH on a collection', method: 'PATCH', path: r.pick(['{cr}', '{cm}']), contentType: 'application/merge-patch+json', body: '{}' }),
    () => ({ kind: 'method', label: 'DELETE collection with a bad selector', method: 'DELETE', path: `${r.pick(['{cr}', '{cm}'])}?labelSelector=${r.pick(['a%20in%20(', 'nomatch%3Dx'])}` }),
    () => ({ kind: 'method', label: 'OPTIONS', method: 'OPTIONS', path: r.pick([W, '{cm}']) }),
    () => ({ kind: 'method', label: 'unknown subresource', method: r.pick(['GET', 'PUT', 'PATCH']), path: `${r.pick([W, CM])}/${r.pick(['status', 'scale', 'bogus', '..', '%2e%2e'])}`, contentType: 'application/merge-patch+json', body: '{}' }),
    () => ({ kind: 'method', label: 'path oddities', method: 'GET', path: r.pick(['{cr}/', '{cr}//w', '{cr}/w/', '{cr}/W', '{cr}/%77', '/apis/hostile-diff.example.com/v2/namespaces/{ns}/widgets', '/apis/hostile-diff.example.com/v1/widgets', '/apis/hostile-diff.example.com/v1/namespaces/{ns}/widgets/w/status/x']) }),
  ];
  return r.pick(choices)();
}

const generators: [number, (r: Rng) => HostileRequest][] = [[5, jsonPatch], [4, mergePatch], [2, update], [3, apply], [3, create], [2, del], [2, query], [2, writeQuery], [2, transport], [3, subresource], [2, managedFieldsTamper], [4, deploymentRequest], [3, serviceRequest], [3, podRequest], [2, reviewRequest], [3, claimRequest], [2, flowControlRequest], [1, componentStatusRequest], [2, watchRequest], [2, rbacRequest], [1, escapedPath], [1, collectionDelete]];

/** Generates case number `index` of a run with `seed`. */
export function generateHostileCase(seed: number, index: number): HostileCase {
  const r = new Rng(seededRandom((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b) ^ 0x5bd1e995) >>> 0));
  const total = generators.reduce((a, [w]) => a + w, 0);
  const requests: HostileRequest[] = [];
  for (let i = r.int(2, 4); i > 0; i--) {
    let x = r.float() * total;
    const g = generators.find(([w]) => (x -= w) < 0) ?? generators[0];
    const q = g[1](r);
    // The RBAC family sends a third of its own as the writer; the others one in ten.
    requests.push(g[1] !== rbacRequest && r.chance(0.1) ? asHostileWriter(q) : q);
  }
  return { seed, index, ns: `h${seed}-${index}`, requests };
}

/** A copy of a case under a new namespace (a replay's objects are fresh). */
export function withNamespace(c: HostileCase, ns: string): HostileCase {
  return { ...(JSON.parse(JSON.stringify(c)) as HostileCase), ns };
}

interface Meta { metadata?: { resourceVersion?: string; uid?: string } }

/**
 * Fills a request's placeholders: `{cr}`, `{cm}`, `{gd}` and `{dp}` (the case's collections), `{ns}`, `{i}` (the
 * request's number, for unique names), `{rv}` and `{uid}` (the current ones of the object the path names).
 */
function fill(text: string, c: HostileCase, i: number, current: Meta | undefined): string {
  return text.replaceAll('{cr}', `/apis/${hostileGroup}/v1/namespaces/{ns}/widgets`).replaceAll('{cm}', '/api/v1/namespaces/{ns}/configmaps').replaceAll('{gd}', `/apis/${hostileGroup}/v1/namespaces/{ns}/gadgets`).replaceAll('{dp}', '/apis/apps/v1/namespaces/{ns}/deployments').replaceAll('{sv}', '/api/v1/namespaces/{ns}/services').replaceAll('{po}', '/api/v1/namespaces/{ns}/pods').replaceAll('{pdb}', '/apis/policy/v1/namespaces/{ns}/poddisruptionbudgets').replaceAll('{rc}', '/apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims').replaceAll('{ro}', '/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles').replaceAll('{rb}', '/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings').replaceAll('{ns}', c.ns).replaceAll('{i}', String(i))
    .replaceAll('{rv}', current?.metadata?.resourceVersion ?? '').replaceAll('{uid}', current?.metadata?.uid ?? '');
}

/** How deep a recorded answer is kept as is; below, a subtree stands as its digest (normalize.ts recurses). */
const keptDepth = 100;

/**
 * A copy of `v` whose subtrees below {@link keptDepth} levels are replaced by `{"<digest>": sha256 of their
 * JSON}`: objects nested 10,000 levels deep (which both servers store) compare without a deep recursion.
 */
export function shallow(v: unknown): unknown {
  const root: { v: unknown } = { v: undefined };
  const stack: [unknown, Record<string, unknown> | unknown[], string | number, number][] = [[v, root as Record<string, unknown>, 'v', 0]];
  while (stack.length > 0) {
    const [x, parent, key, depth] = stack.pop()!;
    let out: unknown = x;
    if (x !== null && typeof x === 'object') {
      if (depth >= keptDepth) out = { '<digest>': createHash('sha256').update(JSON.stringify(x)).digest('hex') };
      else if (Array.isArray(x)) {
        const a: unknown[] = new Array<unknown>(x.length);
        x.forEach((y, i) => stack.push([y, a, i, depth + 1]));
        out = a;
      } else {
        const o: Record<string, unknown> = {};
        for (const k of Object.keys(x)) stack.push([(x as Record<string, unknown>)[k], o, k, depth + 1]);
        out = o;
      }
    }
    if (Array.isArray(parent)) parent[key as number] = out;
    else Object.defineProperty(parent, key, { value: out, enumerable: true, writable: true, configurable: true });
  }
  return root.v;
}

/**
 * What a step keeps of an object: the object, or the Status fields of an error, with the record's
 * resourceVersion and uid that a delete precondition's conflict quotes masked (normalize.ts maps them only
 * where they are fields).
 */
const keepObject = (b: unknown): unknown => {
  // What the servers allocate differently (a Service's cluster IPs and node ports) is masked.
  const a = maskAllocations(answer(shallow(b))) as { message?: unknown } | undefined;
  if (a === undefined || a === null || typeof a.message !== 'string' || a === b) return a;
  return { ...a, message: a.message.replace(/ in record \([^)]*\)/, ' in record (<current>)').replace(/UID in object meta: [0-9a-f-]+/, 'UID in object meta: <current>') };
};

/**
 * Whether a listed object belongs to the case: the objects of its own namespaces, and of the namespaces
 * only its own (other cases create and change theirs concurrently, which a list across all namespaces sees).
 */
type Mine = (name: string, namespace: string | undefined) => boolean;

/** A list's names, or the Status of an error. */
const keepList = (mine: Mine) => (b: unknown): unknown => {
  const o = b as { kind?: string; items?: { metadata: { name: string; namespace?: string } }[] };
  // An error as an object's (a collection delete's precondition conflict quotes the record's version).
  if (o?.kind === 'Status') return keepObject(b);
  if (typeof b !== 'object' || b === null) return b;
  return { kind: o.kind, names: (o.items ?? []).filter((x) => mine(x.metadata.name, x.metadata.namespace)).map((x) => x.metadata.name) };
};

/** A kept list with its names sorted (the apiserver lists ComponentStatuses as the components answer). */
function sortedNames(kept: unknown): unknown {
  const o = kept as { names?: string[] } | undefined;
  return Array.isArray(o?.names) ? { ...o, names: [...o.names].sort() } : kept;
}

/** A watch stream's events (types and names, ERROR events as Status fields), or the Status of an error. */
const keepWatch = (mine: Mine) => (b: unknown): unknown => {
  if (typeof b !== 'string') return (b as { type?: string }).type !== undefined ? [watchEvent(b, mine)].filter((e) => e !== undefined) : keepList(mine)(b);
  return b.split('\n').filter((l) => l.trim() !== '').map((l) => { try { return watchEvent(JSON.parse(l), mine); } catch { return l; } }).filter((e) => e !== undefined);
};

function watchEvent(e: unknown, mine: Mine): unknown {
  const ev = e as { type?: string; object?: { metadata?: { name?: string; namespace?: string } } };
  // The bookmark that ends the initial events is part of the answer; a periodic one depends on timing.
  if (ev.type === 'BOOKMARK') return (ev.object as { metadata?: { annotations?: Record<string, string> } } | undefined)?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true' ? 'BOOKMARK initial-events-end' : undefined;
  if (ev.type === 'ERROR') return { ERROR: answer(ev.object) };
  if (!mine(ev.object?.metadata?.name ?? '', ev.object?.metadata?.namespace)) return undefined;
  return `${ev.type} ${ev.object?.metadata?.name ?? ''}`;
}

/** The object and kind paths a request's path names (to read the `{rv}` and `{uid}` it needs). */
function objectOf(path: string): string | undefined {
  if (path.startsWith(W)) return W;
  if (path.startsWith(CM)) return CM;
  if (path.startsWith(G)) return G;
  if (path.startsWith(D)) return D;
  if (path.startsWith(SV)) return SV;
  if (path.startsWith(PO)) return PO;
  if (path.startsWith(PDB)) return PDB;
  if (path.startsWith(RC)) return RC;
  if (path.startsWith(RO)) return RO;
  if (path.startsWith(RB)) return RB;
  if (path.startsWith(NS)) return NS;
  return undefined;
}

/**
 * The cluster-scoped object a request's path names (a FlowSchema, a PriorityLevelConfiguration, a
 * ComponentStatus), without its subresource and query: read for `{rv}` and `{uid}`, and, but for the computed
 * ComponentStatuses, after the request as its state.
 */
function clusterObjectOf(path: string): string | undefined {
  return /^(\/apis\/flowcontrol\.apiserver\.k8s\.io\/v1\/(?:flowschemas|prioritylevelconfigurations)|\/api\/v1\/componentstatuses)\/[^/?]+/.exec(path)?.[0];
}

/** The canaries' resourceVersions after setup, per server URL. */
const canaryVersions = new Map<string, Map<string, string>>();

/** A canary as a step keeps it: unchanged (`resourceVersion` as after setup) or not, and its content. */
function canaryView(s: Session, path: string, b: unknown): unknown {
  const o = b as { metadata?: { resourceVersion?: string; uid?: string; creationTimestamp?: string; managedFields?: unknown } } | undefined;
  if (o?.metadata === undefined) return answer(b);
  const { resourceVersion, uid: _uid, creationTimestamp: _t, managedFields: _m, ...meta } = o.metadata;
  return { ...o, metadata: meta, unchanged: canaryVersions.get(s.target.url)?.get(path) === resourceVersion };
}

/** Sets up a backend for the hostile suite: the CRD, and the canary namespace with a ConfigMap and a Widget. */
export async function setupHostile(s: Session): Promise<void> {
  await s.setupCRD(hostileCrd);
  await s.setupCRD(gadgetCrd);
  const versions = new Map<string, string>();
  const keep = async (path: string, body: unknown, collection: string) => {
    const r = await s.must('POST', collection, { body });
    versions.set(path, (r.body as Meta).metadata?.resourceVersion ?? '');
  };
  await keep(`/api/v1/namespaces/${canaryNamespace}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: canaryNamespace, labels: { canary: 'yes' } } }, '/api/v1/namespaces');
  await keep(`/api/v1/namespaces/${canaryNamespace}/configmaps/canary`, configMap(canaryNamespace, 'canary'), `/api/v1/namespaces/${canaryNamespace}/configmaps`);
  await keep(`/apis/${hostileGroup}/v1/namespaces/${canaryNamespace}/widgets/canary`, widget(canaryNamespace, 'canary'), `/apis/${hostileGroup}/v1/namespaces/${canaryNamespace}/widgets`);
  canaryVersions.set(s.target.url, versions);
  // A user outside system:masters who may write every RBAC kind (not escalate or bind), read the ConfigMaps
  // named `cm` (the case's Role `r` grants that) and pods, and get /healthz: RBAC requests sent as this user
  // meet the storage's escalation check. The reference authorizes from its informers: wait until it may.
  await s.must('POST', `${rbacPath}/clusterroles`, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: hostileWriter }, rules: hostileWriterRules } });
  await s.must('POST', `${rbacPath}/clusterrolebindings`, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: hostileWriter }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: hostileWriter }, subjects: [{ kind: 'User', name: hostileWriter }] } });
  for (let i = 0; i < 100; i++) {
    if ((await s.raw('GET', `${rbacPath}/namespaces/${canaryNamespace}/roles`, { headers: { 'Impersonate-User': hostileWriter } })).status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${s.target.name}: ${hostileWriter} may still not list roles after 10 s`);
}

/** Plays a case against one backend. */
export async function runHostileCase(s: Session, c: HostileCase): Promise<void> {
  await s.must('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: c.ns, labels: { case: 'h' } } } });
  await s.must('POST', fill('{cr}', c, 0, undefined), { body: widget(c.ns) });
  await s.must('POST', fill('{cm}', c, 0, undefined), { body: configMap(c.ns) });
  const created = (await s.must('POST', fill('{gd}', c, 0, undefined), { body: gadget(c.ns) })).body as Record<string, unknown>;
  const ready = (await s.must('PUT', fill(`${G}/status`, c, 0, undefined), { body: { ...created, status: gadgetStatus } })).body as Meta;
  await s.must('POST', fill('{dp}', c, 0, undefined), { body: deployment(c.ns) });
  await s.must('POST', fill('{sv}', c, 0, undefined), { body: service(c.ns) });
  await s.must('POST', fill('{po}', c, 0, undefined), { body: pod(c.ns) });
  await s.must('PATCH', fill(`${PO}/status`, c, 0, undefined), { body: podStatus, contentType: 'application/merge-patch+json' });
  await s.must('POST', fill('{pdb}', c, 0, undefined), { body: budget(c.ns) });
  await s.must('PATCH', fill(`${PDB}/status`, c, 0, undefined), { body: budgetStatus, contentType: 'application/merge-patch+json' });
  await s.must('POST', fill('{rc}', c, 0, undefined), { body: claim(c.ns) });
  await s.must('PATCH', fill(`${RC}/status`, c, 0, undefined), { body: claimStatus, contentType: 'application/merge-patch+json' });
  await s.must('POST', fill('{ro}', c, 0, undefined), { body: role(c.ns) });
  await s.must('POST', fill('{rb}', c, 0, undefined), { body: roleBinding(c.ns) });
  // Every write of the case, as watches selected by a field (KEP-4358) and by a label see them from here.
  const start = ready.metadata?.resourceVersion ?? '';
  const ours = (ns: string): boolean => ns === c.ns || ns.startsWith(`${c.ns}-`);
  const mine: Mine = (name, namespace) => ours(namespace ?? name);
  for (const [i, q] of c.requests.entries()) {
    const clusterTarget = clusterObjectOf(q.path);
    const target = objectOf(q.path) ?? clusterTarget;
    const current = target === undefined ? undefined : (await s.raw('GET', fill(target, c, i, undefined))).body as Meta;
    const path = fill(q.path, c, i, current);
    const raw = q.bodyBase64 !== undefined ? Buffer.from(q.bodyBase64, 'base64') : q.body === undefined ? undefined : fill(q.body, c, i, current);
    // A collection's answer (a list, or what a DELETE of the collection deleted) is compared by its names:
    // its resourceVersion is the server's current one, which moves with the other case played at the same
    // time and, on the reference, with its own background writes (leases), so it would compare equal or not
    // by timing (the seed of 2026-12-21, case 25, differed in one run: every state read after it had its
    // versions numbered one apart).
    const isList = (q.method === 'GET' || q.method === 'DELETE') && target === undefined;
    // A watch by its parameter, or under the deprecated `/watch/` prefix (a watch whatever `watch=` says).
    const watching = /[?&]watch=(true|yes|1)/.test(path) || /^\/apis?\/(?:[^/]+\/)?v1\/watch\/./.test(path);
    // A name generated from an invalid generateName appears only in the error's message.
    const generate = typeof raw === 'string' ? /"generateName":"([^"]*)"/.exec(raw)?.[1] : undefined;
    const keepAnswer = (b: unknown): unknown => {
      const a = keepObject(b) as { message?: unknown } | undefined;
      if (generate === undefined || generate === '' || a === undefined || a === null || typeof a.message !== 'string' || a === b) return a;
      // The apiserver keeps at most 58 characters of the prefix (names.SimpleNameGenerator).
      const prefix = generate.length > 58 ? generate.slice(0, 58) : generate;
      const mask = (m: string): string => m.split(prefix).map((part, k) => (k === 0 ? part : part.replace(/^[a-z0-9]{5}(\\?")/, '<generated>$1'))).join(prefix);
      const causes = (a as { causes?: { message?: string }[] }).causes?.map((c) => (typeof c.message === 'string' ? { ...c, message: mask(c.message) } : c));
      return { ...a, message: mask(a.message), ...(causes === undefined ? {} : { causes }) };
    };
    // A cluster-scoped kind's objects are the bootstrap ones and those of the cases played at the same time.
    const listed: Mine = q.keep === 'cluster' ? (name, namespace) => mine(name, namespace) || !/^h\d+-\d+/.test(name) : mine;
    const keepListed = q.keep === 'cluster' ? (b: unknown) => sortedNames(keepList(listed)(b)) : keepList(mine);
    await s.req(`${q.kind}: ${q.label}`, q.method, path, { raw, contentType: q.contentType, noContentType: q.noContentType, headers: q.headers, keep: watching ? keepWatch(listed) : isList ? keepListed : keepAnswer });
    if (clusterTarget !== undefined && !clusterTarget.startsWith('/api/v1/componentstatuses')) await s.req(`state ${clusterTarget} after ${i}`, 'GET', clusterTarget, { keep: keepObject });
    for (const [what, p] of [['w', W], ['cm', CM], ['g', G], ['d', D], ['s', SV], ['p', PO], ['b', PDB], ['rc', RC], ['r', RO], ['rb', RB], ['ns', NS]] as const) await s.req(`state ${what} after ${i}`, 'GET', fill(p, c, i, undefined), { keep: keepObject });
  }
  for (const [label, path] of [['gadgets selected by spec.color=blue', `${fill('{gd}', c, 0, undefined)}?fieldSelector=spec.color%3Dblue`], ['widgets selected by app=h', `${fill('{cr}', c, 0, undefined)}?labelSelector=app%3Dh`], ['deployments selected by metadata.name=d', `${fill('{dp}', c, 0, undefined)}?fieldSelector=metadata.name%3Dd`], ['services selected by metadata.name=s', `${fill('{sv}', c, 0, undefined)}?fieldSelector=metadata.name%3Ds`]] as const) {
    await s.req(`watch ${label} since the setup`, 'GET', `${path}&watch=true&resourceVersion=${start}&timeoutSeconds=1`, { keep: keepWatch(mine) });
  }
  const cr = `/apis/${hostileGroup}/v1/namespaces/${canaryNamespace}/widgets`;
  const cm = `/api/v1/namespaces/${canaryNamespace}/configmaps`;
  // The canaries' resourceVersions compare with the ones they had after setup, not in the order of
  // first appearance (which an earlier difference would shift).
  for (const p of [`/api/v1/namespaces/${canaryNamespace}`, `${cm}/canary`, `${cr}/canary`]) {
    await s.req(`canary ${p}`, 'GET', p, { keep: (b) => canaryView(s, p, b) });
  }
  for (const p of [cm, cr]) await s.req(`canary ${p}`, 'GET', p, { keep: keepList(() => true) });
}
