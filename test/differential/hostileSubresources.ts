/**
 * Hostile requests against the status and scale subresources of a custom resource, against its
 * selectable fields, and against `metadata.managedFields` (hostileCase.ts plays them): the second fixed
 * CRD of the hostile suite (`gadgets`, with both subresources, selectable fields, printer columns,
 * defaults and a CEL rule), the gadget every case starts from, and two request generators. What an
 * operator writes most (status updates, scale, field-selected lists) with what it should never send.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import type { CrdLike } from './session.js';

const group = 'hostile-diff.example.com';
const G = '{gd}/g';
const W = '{cr}/w';

/** The second fixed CRD: status and scale subresources, selectable fields, defaults, a CEL rule. */
export const gadgetCrd: CrdLike = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.on' }],
      additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }, { name: 'Ready', type: 'integer', jsonPath: '.status.replicas' }],
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                replicas: { type: 'integer', minimum: 0, maximum: 1000 },
                color: { type: 'string', default: 'red', enum: ['red', 'blue', 'green'] },
                size: { type: 'integer', default: 1 },
                on: { type: 'boolean' },
                tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
              },
              'x-kubernetes-validations': [{ rule: 'self.size <= 100', message: 'size too big' }],
            },
            status: {
              type: 'object',
              properties: {
                replicas: { type: 'integer' },
                selector: { type: 'string' },
                phase: { type: 'string', enum: ['Ready', 'Failed'] },
                conditions: {
                  type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'],
                  items: { type: 'object', required: ['type'], properties: { type: { type: 'string' }, status: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    }],
  },
};

/** The gadget every case starts from (its status is written through the subresource after it is created). */
export function gadget(ns: string, name = 'g'): Record<string, unknown> {
  return { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name, namespace: ns, labels: { app: 'h' } }, spec: { replicas: 1, color: 'blue', size: 3, on: true, tags: ['a'] } };
}

/** The status the gadget's setup writes. */
export const gadgetStatus = { replicas: 1, selector: 'app=h', phase: 'Ready', conditions: [{ type: 'Ready', status: 'True' }] };

const writeQuery = ['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldValidation=Warn', '?fieldManager=hostile'];
const statusBodies: [string, string][] = [
  ['status and spec changed', '"spec":{"replicas":7,"color":"green","size":3},"status":{"replicas":5,"phase":"Failed"}'],
  ['status only', '"spec":{"replicas":1,"color":"blue","size":3,"on":true,"tags":["a"]},"status":{"replicas":2,"selector":"app=h","phase":"Ready"}'],
  ['status of the wrong type', '"status":{"replicas":"five"}'],
  ['status null', '"status":null'],
  ['no status', '"spec":{"size":3}'],
  ['status enum violated', '"status":{"phase":"Meh"}'],
  ['status with unknown fields', '"status":{"replicas":3,"zz":1,"deep":{"x":1}}'],
  ['status conditions with a duplicate key', '"status":{"conditions":[{"type":"A","status":"True"},{"type":"A","status":"False"}]}'],
  ['status condition without its key', '"status":{"conditions":[{"status":"True"}]}'],
  ['status __proto__', '"status":{"__proto__":{"polluted":"yes"},"replicas":4}'],
  ['status huge number', '"status":{"replicas":1e400}'],
  ['status float', '"status":{"replicas":2.0}'],
  ['spec invalid, status fine', '"spec":{"size":500,"color":"pink"},"status":{"replicas":6}'],
  ['status as a list', '"status":[1]'],
];

function statusUpdate(r: Rng): HostileRequest {
  const [label, content] = r.pick(statusBodies);
  const meta = r.pick([
    ['', ',"resourceVersion":"{rv}"'], ['', ',"resourceVersion":"{rv}"'], ['', ',"resourceVersion":"{rv}"'], ['without resourceVersion', ''], ['stale resourceVersion', ',"resourceVersion":"1"'],
    ['bad resourceVersion', ',"resourceVersion":"abc"'], ['labels changed', ',"resourceVersion":"{rv}","labels":{"app":"h","added":"yes"},"annotations":{"a":"b"}'],
    ['finalizers added', ',"resourceVersion":"{rv}","finalizers":["example.com/f"]'], ['uid changed', ',"resourceVersion":"{rv}","uid":"other"'],
    ['name mismatch', ',"resourceVersion":"{rv}","name":"other"'],
  ] as const);
  const kind = r.chance(0.08) ? 'Widget' : 'Gadget';
  const body = `{"apiVersion":"${group}/v1","kind":"${kind}","metadata":{"name":"g"${meta[1]}},${content}}`;
  const l = [label, meta[0], kind === 'Gadget' ? '' : 'kind mismatch'].filter((x) => x !== '').join(', ');
  return { kind: 'status', label: `update: ${l}`, method: 'PUT', path: `${G}/status${r.pick(writeQuery)}`, contentType: 'application/json', body };
}

function statusPatch(r: Rng): HostileRequest {
  const how = r.int(0, 3);
  const q = r.pick(writeQuery);
  if (how === 0) {
    const body = r.pick([
      '{"status":{"replicas":3}}', '{"spec":{"replicas":9},"status":{"replicas":9}}', '{"metadata":{"labels":{"s":"1"}}}', '{"status":null}', '{"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"Ready"}]}}',
      '{"status":{"replicas":1e400}}', '{"status":{"__proto__":{"polluted":"yes"}}}', '{"status":{"phase":"Nope"}}', '{"metadata":{"resourceVersion":"1"},"status":{"replicas":2}}',
      '{"metadata":{"resourceVersion":"{rv}"},"status":{"replicas":2}}', '{"status":{"conditions":null}}', '{"status":{"conditions":[{"type":"New","status":"True"}]}}', '{"status":"x"}', '{"kind":"Widget"}',
      '{"metadata":{"finalizers":["example.com/s"]},"status":{"replicas":0}}', '{"status":{"selector":"a in ("}}',
    ]);
    return { kind: 'status', label: `merge patch ${body.slice(0, 50)}`, method: 'PATCH', path: `${G}/status${q}`, contentType: 'application/merge-patch+json', body };
  }
  if (how === 1) {
    const body = r.pick([
      '[{"op":"replace","path":"/status/replicas","value":4}]', '[{"op":"remove","path":"/status"}]', '[{"op":"add","path":"/status/conditions/-","value":{"type":"Extra","status":"True"}}]',
      '[{"op":"add","path":"/status/conditions/-","value":{"type":"Ready","status":"False"}}]', '[{"op":"replace","path":"/spec/color","value":"green"}]', '[{"op":"test","path":"/status/replicas","value":1},{"op":"replace","path":"/status/replicas","value":8}]',
      '[{"op":"test","path":"/status/replicas","value":2}]', '[{"op":"add","path":"/metadata/labels/s","value":"1"}]', '[{"op":"move","from":"/spec/replicas","path":"/status/replicas"}]',
      '[{"op":"copy","from":"/spec","path":"/status/copied"}]', '[{"op":"add","path":"/status/__proto__","value":{"polluted":"yes"}}]', '[{"op":"replace","path":"/status/replicas","value":1.5}]',
    ]);
    return { kind: 'status', label: `json patch ${body.slice(0, 60)}`, method: 'PATCH', path: `${G}/status${q}`, contentType: 'application/json-patch+json', body };
  }
  if (how === 2) {
    const head = `apiVersion: ${group}/v1\nkind: Gadget\nmetadata:\n  name: g\n`;
    const [label, body] = r.pick([
      ['status', `${head}status:\n  replicas: 3\n`], ['status and spec', `${head}spec:\n  color: green\nstatus:\n  replicas: 4\n`], ['a condition', `${head}status:\n  conditions:\n  - type: Applied\n    status: "True"\n`],
      ['the Ready condition', `${head}status:\n  conditions:\n  - type: Ready\n    status: "False"\n`], ['wrong type', `${head}status:\n  replicas: many\n`], ['no status', head],
      ['labels', `${head}  labels:\n    applied: yes\nstatus:\n  phase: Failed\n`], ['name mismatch', head.replace('name: g', 'name: other') + 'status:\n  replicas: 1\n'],
    ] as const);
    const mq = r.pick(['?fieldManager=hostile', '?fieldManager=hostile', '?fieldManager=other&force=true', '?fieldManager=hostile&dryRun=All', '']);
    return { kind: 'status', label: `apply ${label}`, method: 'PATCH', path: `${G}/status${mq}`, contentType: 'application/apply-patch+yaml', body };
  }
  return { kind: 'status', label: 'strategic merge patch', method: 'PATCH', path: `${G}/status`, contentType: 'application/strategic-merge-patch+json', body: '{"status":{"replicas":2}}' };
}

function scale(r: Rng): HostileRequest {
  const how = r.int(0, 4);
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?fieldManager=scaler']);
  if (how === 0) return { kind: 'scale', label: 'get', method: 'GET', path: `${G}/scale${r.pick(['', '', '?resourceVersion=0', '?resourceVersion=abc'])}` };
  if (how === 1) {
    const replicas = r.pick(['3', '0', '-1', '"3"', 'null', '2147483648', '1.5', '1e400', '1000', '1001', '2.0']);
    const [label, meta, rest] = r.pick([
      ['', ',"resourceVersion":"{rv}"', ''], ['', ',"resourceVersion":"{rv}"', ''], ['without resourceVersion', '', ''], ['stale resourceVersion', ',"resourceVersion":"1"', ''],
      ['name mismatch', ',"resourceVersion":"{rv}","name":"other"', ''], ['namespace mismatch', ',"resourceVersion":"{rv}","namespace":"other"', ''],
      ['status set', ',"resourceVersion":"{rv}"', ',"status":{"replicas":9,"selector":"x=y"}'], ['labels set', ',"resourceVersion":"{rv}","labels":{"scaled":"yes"}', ''],
      ['unknown field', ',"resourceVersion":"{rv}"', ',"extra":1'],
    ] as const);
    const kind = r.pick(['"apiVersion":"autoscaling/v1","kind":"Scale"', '"apiVersion":"autoscaling/v1","kind":"Scale"', '"apiVersion":"autoscaling/v1","kind":"Scale"', '"apiVersion":"autoscaling/v2","kind":"Scale"', '"apiVersion":"autoscaling/v1","kind":"Deployment"', '"kind":"Scale"', '']);
    const body = `{${kind}${kind === '' ? '' : ','}"metadata":{"name":"g","namespace":"{ns}"${meta}},"spec":{"replicas":${replicas}}${rest}}`;
    return { kind: 'scale', label: `update replicas ${replicas}${label === '' ? '' : `, ${label}`}${kind.includes('Scale') && kind.includes('/v1') ? '' : `, ${kind || 'no type'}`}`, method: 'PUT', path: `${G}/scale${q}`, contentType: 'application/json', body };
  }
  if (how === 2) {
    const body = r.pick(['{"spec":{"replicas":4}}', '{"spec":{"replicas":-2}}', '{"spec":{"replicas":"x"}}', '{"status":{"replicas":9}}', '{"metadata":{"labels":{"x":"y"}}}', '{"spec":null}', '{"spec":{"replicas":null}}', '{"spec":{"replicas":5000}}', '{"metadata":{"resourceVersion":"1"},"spec":{"replicas":2}}', '{"kind":"Gadget"}']);
    return { kind: 'scale', label: `merge patch ${body}`, method: 'PATCH', path: `${G}/scale${q}`, contentType: 'application/merge-patch+json', body };
  }
  if (how === 3) {
    const body = r.pick(['[{"op":"replace","path":"/spec/replicas","value":6}]', '[{"op":"remove","path":"/spec/replicas"}]', '[{"op":"test","path":"/status/replicas","value":1}]', '[{"op":"add","path":"/spec/extra","value":1}]', '[{"op":"replace","path":"/status/selector","value":"a=b"}]']);
    return { kind: 'scale', label: `json patch ${body.slice(0, 60)}`, method: 'PATCH', path: `${G}/scale${q}`, contentType: 'application/json-patch+json', body };
  }
  const [label, contentType, body] = r.pick([
    ['apply', 'application/apply-patch+yaml', 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: g\nspec:\n  replicas: 2\n'],
    ['apply without type', 'application/apply-patch+yaml', 'metadata:\n  name: g\nspec:\n  replicas: 2\n'],
    ['apply negative', 'application/apply-patch+yaml', 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: g\nspec:\n  replicas: -3\n'],
    ['strategic merge patch', 'application/strategic-merge-patch+json', '{"spec":{"replicas":2}}'],
  ] as const);
  const mq = contentType === 'application/apply-patch+yaml' ? r.pick(['?fieldManager=scaler', '?fieldManager=scaler&force=true', '']) : '';
  return { kind: 'scale', label, method: 'PATCH', path: `${G}/scale${mq}`, contentType, body };
}

function selected(r: Rng): HostileRequest {
  const sel = r.pick([
    'spec.color%3Dblue', 'spec.color%3Dred', 'spec.size%3D3', 'spec.size%3D03', 'spec.size%3Dabc', 'spec.size%3D', 'spec.on%3Dtrue', 'spec.on%3DTrue', 'spec.on%21%3Dfalse', 'spec.replicas%3D1',
    'spec.color%3Dblue,spec.size%21%3D3', 'spec.tags%3Da', 'spec.color%3D%3Dblue', 'spec.color%20%3D%20blue', 'spec.color%3Dblue%2Cspec.color%3Dred', 'status.replicas%3D1', 'spec.color%3Db%5C,lue', 'spec.color%3D%5C', 'spec.color',
  ]);
  const watch = r.chance(0.2);
  return { kind: 'selectable field', label: `${watch ? 'watch' : 'list'} ${decodeURIComponent(sel)}`, method: 'GET', path: `{gd}?fieldSelector=${sel}${watch ? '&watch=true&timeoutSeconds=1' : ''}` };
}

/** Requests on the gadget's subresources and selectable fields. */
export function subresource(r: Rng): HostileRequest {
  const g = r.int(0, 9);
  if (g <= 3) return statusPatch(r);
  if (g <= 5) return statusUpdate(r);
  if (g <= 8) return scale(r);
  return selected(r);
}

const managedFieldsValues = [
  '[]', '[{}]', 'null', '"x"', '{}', '[1]',
  `[{"manager":"x","operation":"Update","apiVersion":"${group}/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{}}}}]`,
  `[{"manager":"x","operation":"Update","apiVersion":"${group}/v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:size":{}}}}]`,
  '[{"manager":"x","operation":"Bogus"}]', '[{"manager":"x","operation":"Apply","fieldsType":"FieldsV2","fieldsV1":{}}]', '[{"manager":"x","operation":"Update","fieldsType":"FieldsV1","fieldsV1":{"bogus":1}}]',
  '[{"manager":"x","operation":"Update","time":"yesterday"}]', `[{"manager":"a","operation":"Update","apiVersion":"${group}/v1"},{"manager":"a","operation":"Update","apiVersion":"${group}/v1"}]`,
  `[{"manager":"s","operation":"Update","apiVersion":"${group}/v1","subresource":"status","fieldsType":"FieldsV1","fieldsV1":{"f:status":{}}}]`, '[{"__proto__":{"polluted":"yes"},"manager":"p"}]',
];

/** Writes that set, clear or corrupt `metadata.managedFields` of the widget or the gadget. */
export function managedFieldsTamper(r: Rng): HostileRequest {
  const onGadget = r.chance(0.4);
  const path = onGadget ? G : W;
  const value = r.pick(managedFieldsValues);
  const how = r.int(0, 3);
  const q = r.pick(['', '', '?fieldManager=tamper', '?dryRun=All']);
  const short = value.length > 48 ? `${value.slice(0, 48)}…` : value;
  if (how === 0 || how === 1) {
    return { kind: 'managed fields', label: `merge patch ${short}`, method: 'PATCH', path: path + q, contentType: 'application/merge-patch+json', body: `{"metadata":{"managedFields":${value}}${how === 1 ? onGadget ? ',"spec":{"size":4}' : ',"spec":{"a":"mf"}' : ''}}` };
  }
  if (how === 2) {
    const op = r.pick([`{"op":"replace","path":"/metadata/managedFields","value":${value}}`, '{"op":"remove","path":"/metadata/managedFields"}', `{"op":"add","path":"/metadata/managedFields/-","value":{"manager":"z","operation":"Update","apiVersion":"${group}/v1"}}`, '{"op":"remove","path":"/metadata/managedFields/0"}']);
    return { kind: 'managed fields', label: `json patch ${op.slice(0, 70)}`, method: 'PATCH', path: path + q, contentType: 'application/json-patch+json', body: `[${op}]` };
  }
  const body = onGadget
    ? `{"apiVersion":"${group}/v1","kind":"Gadget","metadata":{"name":"g","managedFields":${value}},"spec":{"replicas":2,"color":"green","size":3}}`
    : `{"apiVersion":"${group}/v1","kind":"Widget","metadata":{"name":"w","managedFields":${value}},"spec":{"a":"u"}}`;
  return { kind: 'managed fields', label: `update ${short}`, method: 'PUT', path: path + q, contentType: 'application/json', body };
}
