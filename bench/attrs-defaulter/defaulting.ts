// KEP-575's GA criterion, measured: defaulting (plus pruning) of a typical ~2 KB custom resource with
// a compiled schema against a deep copy (structuredClone) of the same object, from one run.
// Target: ratio <= 0.5 ("considerably faster than a deep copy").
// Method: rounds of 500 operations on fresh copies (prepared untimed) interleaved with rounds of 500
// structuredClone calls, so both see the same machine load; the median per-round ratio is reported.
// A hand-written recursive deep copy (Go's DeepCopyJSONValue analogue) is measured for context.
// Run: node --import tsx --conditions=kubekit-source bench/attrs-defaulter/defaulting.ts
import type { JSONSchemaProps } from '@kubekit/crd';
import { applyDefaults, compileSchema, prune } from '@kubekit/defaulter';
import { report, type Measurement } from '../internal/measure.js';

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };
const condition: JSONSchemaProps = {
  type: 'object',
  properties: {
    type: str, status: { type: 'string', enum: ['True', 'False', 'Unknown'] }, reason: str, message: str,
    lastTransitionTime: { type: 'string', format: 'date-time' }, observedGeneration: int,
  },
};

/** A database operator's CRD version schema: nested objects, lists of objects, maps, defaults at several levels. */
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: str, kind: str, metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        engine: { type: 'string', enum: ['postgres', 'mysql'], default: 'postgres' },
        version: { type: 'string', default: '16.4' },
        replicas: { type: 'integer', minimum: 1, default: 3 },
        paused: { type: 'boolean', default: false },
        storage: {
          type: 'object', default: {},
          properties: { size: { type: 'string', default: '10Gi' }, storageClassName: str, reclaimPolicy: { type: 'string', default: 'Retain' } },
        },
        resources: {
          type: 'object',
          properties: {
            requests: { type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true } },
            limits: { type: 'object', additionalProperties: { 'x-kubernetes-int-or-string': true } },
          },
        },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: str, port: int, protocol: { type: 'string', default: 'TCP' }, targetPort: { 'x-kubernetes-int-or-string': true } },
          },
        },
        backup: {
          type: 'object',
          properties: {
            schedule: { type: 'string', default: '0 3 * * *' }, retentionDays: { type: 'integer', default: 7 },
            destination: { type: 'object', properties: { bucket: str, path: str, secretRef: { type: 'object', properties: { name: str, key: str } } } },
          },
        },
        parameters: { type: 'object', additionalProperties: str },
        tolerations: {
          type: 'array',
          items: { type: 'object', properties: { key: str, operator: { type: 'string', default: 'Equal' }, value: str, effect: str } },
        },
        podTemplate: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        monitoring: { type: 'object', properties: { enabled: { type: 'boolean', default: true }, interval: { type: 'string', default: '30s' } } },
      },
    },
    status: {
      type: 'object',
      properties: {
        phase: str, observedGeneration: int, readyReplicas: int, currentVersion: str, endpoint: str,
        conditions: { type: 'array', items: condition },
      },
    },
  },
};

/** A typical stored object (~2 KB of JSON): most fields set, some defaults missing, one unknown field. */
const object = {
  apiVersion: 'db.example.com/v1', kind: 'Database',
  metadata: {
    name: 'orders', namespace: 'shop', uid: '0c1e6f0a-3b7d-4d8e-9f21-5a6b7c8d9e0f', resourceVersion: '123456', generation: 4,
    creationTimestamp: '2026-11-21T10:00:00Z', labels: { app: 'orders', tier: 'data', team: 'checkout' },
    annotations: { 'example.com/owner': 'checkout-team', 'example.com/ticket': 'OPS-1234' },
    finalizers: ['db.example.com/backup'],
  },
  spec: {
    engine: 'postgres', version: '16.2', replicas: 3,
    storage: { size: '50Gi', storageClassName: 'fast-ssd' },
    resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2, memory: '4Gi' } },
    ports: [{ name: 'sql', port: 5432, targetPort: 'sql' }, { name: 'metrics', port: 9187, protocol: 'TCP', targetPort: 9187 }],
    backup: { schedule: '0 2 * * *', destination: { bucket: 'backups', path: '/orders', secretRef: { name: 'backup-creds', key: 'token' } } },
    parameters: {
      max_connections: '200', shared_buffers: '1GB', work_mem: '16MB', log_min_duration_statement: '500',
      effective_cache_size: '3GB', maintenance_work_mem: '256MB', wal_level: 'replica', max_wal_senders: '10',
    },
    tolerations: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }, { key: 'zone', operator: 'Exists', effect: 'NoExecute' }],
    podTemplate: { metadata: { annotations: { 'sidecar.example.com/inject': 'true' } }, spec: { priorityClassName: 'high', nodeSelector: { pool: 'db' } } },
    someRandomField: 42,
  },
  status: {
    phase: 'Running', observedGeneration: 4, readyReplicas: 3, currentVersion: '16.2', endpoint: 'orders.shop.svc:5432',
    conditions: [
      { type: 'Ready', status: 'True', reason: 'AllReplicasReady', message: 'all 3 replicas are ready', lastTransitionTime: '2026-11-21T10:05:00Z', observedGeneration: 4 },
      { type: 'BackupSucceeded', status: 'True', reason: 'Completed', message: 'last backup completed in 42s', lastTransitionTime: '2026-11-21T02:00:42Z', observedGeneration: 4 },
      { type: 'Degraded', status: 'False', reason: 'AsExpected', message: 'no replica is lagging', lastTransitionTime: '2026-11-21T10:05:00Z', observedGeneration: 4 },
    ],
  },
};

/** A plain recursive deep copy of JSON values (what Go's runtime.DeepCopyJSONValue does). */
function deepCopyJSON(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(deepCopyJSON);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = deepCopyJSON((v as Record<string, unknown>)[k]);
  return out;
}

const compiled = compileSchema(schema);
const size = JSON.stringify(object).length;

// Sanity: the compiled and uncompiled forms agree on this object.
const a = structuredClone(object);
const b = structuredClone(object);
compiled.prune(a, { isResourceRoot: true });
compiled.applyDefaults(a);
prune(b, schema, { isResourceRoot: true });
applyDefaults(b, schema);
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('compiled and uncompiled results differ');

console.log(`custom resource: ${size} bytes of JSON`);

/**
 * Times `op` over fresh copies prepared outside the timed section, in rounds interleaved with the
 * structuredClone baseline (so both see the same machine load), and returns the median per-round
 * ratio with the median costs. Warm-up rounds are discarded.
 */
function compare(name: string, op: (x: typeof object) => unknown, fresh = true, rounds = 25, batch = 500): { op: Measurement; clone: Measurement; ratio: number } {
  const opNs: number[] = [];
  const cloneNs: number[] = [];
  const ratios: number[] = [];
  let sink: unknown;
  for (let r = -5; r < rounds; r++) {
    const pool = Array.from({ length: batch }, () => (fresh ? (deepCopyJSON(object) as typeof object) : steadyObject));
    const t0 = process.hrtime.bigint();
    for (const x of pool) sink = op(x);
    const t1 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) sink = structuredClone(object);
    const t2 = process.hrtime.bigint();
    if (r < 0) continue;
    const a = Number(t1 - t0) / batch;
    const b = Number(t2 - t1) / batch;
    opNs.push(a);
    cloneNs.push(b);
    ratios.push(a / b);
  }
  if (sink === Symbol.for('never')) console.log(sink);
  const median = (xs: number[]): number => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { op: { name, nsPerOp: median(opNs) }, clone: { name: 'structuredClone (same rounds)', nsPerOp: median(cloneNs) }, ratio: median(ratios) };
}

const steadyObject = structuredClone(object);
compiled.prune(steadyObject, { isResourceRoot: true });
compiled.applyDefaults(steadyObject);

const results = [
  compare('prune + applyDefaults (compiled), fresh object', (x) => {
    compiled.prune(x, { isResourceRoot: true });
    compiled.applyDefaults(x);
  }),
  compare('prune + applyDefaults (compiled), already defaulted', (x) => {
    compiled.prune(x, { isResourceRoot: true, returnPruned: false });
    compiled.applyDefaults(x);
  }, false),
  compare('prune + applyDefaults (uncompiled), fresh object', (x) => {
    prune(x, schema, { isResourceRoot: true });
    applyDefaults(x, schema);
  }),
  compare('defaultAndPrune (compiled, full decode incl. ObjectMeta), fresh object', (x) => compiled.defaultAndPrune(x, { isResourceRoot: true })),
  compare('recursive JSON deep copy (context)', (x) => deepCopyJSON(x)),
];
report([results[0].clone, ...results.map((r) => r.op)]);
for (const r of results) console.log(`ratio ${r.op.name} / structuredClone: ${r.ratio.toFixed(2)}`);
const headline = results[0].ratio;
console.log(`ratio applyDefaults + prune (compiled) / structuredClone [KEP-575 GA target <= 0.5]: ${headline.toFixed(2)} -> ${headline <= 0.5 ? 'target met' : 'target NOT met'}`);
