// Cost of the depth-safe (iterative) walks of the embedded server's write path on ordinary, shallow
// objects, against the recursive versions they replaced (kept below as the baseline), in one run: merge
// patch, structural equality, and JSON text with the stack-overflow fallback. Issue 15 asks that depth
// safety cost the shallow case no more than a few percent. Rounds alternate and are timed in CPU time
// (other processes share the cores), the fastest of 20 kept. The deep case (10,000 levels, which the
// recursive versions cannot do) is printed for context.
//
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/nesting.ts
import { stringifyJSON } from '@kubekit/core';
import { stringify as losslessStringify } from 'lossless-json';
import { applyMergePatch } from '../../packages/apiserver/src/patch.js';
import { deepEqual } from '../../packages/apiserver/src/internal/deepEqual.js';
import { cloneJSON, getOwn, isObject, setOwn } from '../../packages/apiserver/src/internal/own.js';
import { measure, ratio, report, type Measurement } from '../internal/measure.js';

/** The recursive merge patch the iterative one replaced. */
function recursiveMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJSON(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, recursiveMergePatch(getOwn(out, k), v));
  }
  return out;
}

/** stringifyJSON before: the same fast path, lossless-json (recursive) for big integers only. */
function stringifyBefore(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
    return losslessStringify(value) ?? 'null';
  }
}

/** The recursive equality the iterative one replaced. */
function recursiveDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'bigint' || typeof b === 'bigint' ? String(a) === String(b) && typeof a !== 'object' : false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!recursiveDeepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!Object.hasOwn(bo, k) || !recursiveDeepEqual(ao[k], bo[k])) return false;
  return true;
}

function object(i: number): Record<string, unknown> {
  return {
    apiVersion: 'stable.example.com/v1', kind: 'Shirt',
    metadata: {
      name: `shirt-${i}`, namespace: 'default', uid: `6f1b6f0e-${i}-4c1a-9d3b-2b7f1c9e${i}`, resourceVersion: String(100000 + i), generation: 3,
      creationTimestamp: '2026-11-21T10:00:00Z', labels: { app: 'shop', tier: i % 2 ? 'a' : 'b' }, annotations: { 'example.com/note': 'x'.repeat(64) },
      managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'stable.example.com/v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:color': {}, 'f:size': {} } } }],
    },
    spec: { color: ['red', 'green', 'blue'][i % 3], size: 'M', replicas: 3, template: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
    status: { phase: 'Ready', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-21T10:00:00Z' }] },
  };
}

const objects = Array.from({ length: 500 }, (_, i) => object(i));
const pairs = objects.map((o) => [o, structuredClone(o)] as const);
const patches = objects.map((o, i) => [o, { metadata: { labels: { tier: null, extra: `e${i}` } }, spec: { size: 'L', template: { containers: [{ name: 'c', image: 'nginx:2' }] } } }] as const);

/** CPU time (user + system) per call of `fn` over `inputs`, for about `ms` of wall time. */
function cpuPerCall<T>(name: string, inputs: readonly T[], fn: (x: T) => unknown, ms: number): Measurement {
  let sink: unknown;
  let calls = 0;
  const start = process.cpuUsage();
  const end = performance.now() + ms;
  do {
    for (const x of inputs) sink = fn(x);
    calls += inputs.length;
  } while (performance.now() < end);
  const used = process.cpuUsage(start);
  if (sink === Symbol.for('never')) console.log(sink);
  return { name, nsPerOp: ((used.user + used.system) * 1000) / calls };
}

/**
 * Measures `before` and `now` alternately in short rounds and keeps the fastest round of each, in CPU
 * time: other processes share the machine's cores, and a load change between two long wall-clock
 * measurements would show up as a ratio.
 */
function compare<T>(label: string, inputs: readonly T[], before: (x: T) => unknown, now: (x: T) => unknown, pairs = 20): [Measurement, Measurement] {
  measure(`${label}, warm-up`, inputs, before, 1, 100);
  measure(`${label}, warm-up`, inputs, now, 1, 100);
  let a: Measurement | undefined;
  let b: Measurement | undefined;
  for (let i = 0; i < pairs; i++) {
    const x = cpuPerCall(`${label}, before`, inputs, before, 40);
    const y = cpuPerCall(`${label}, now`, inputs, now, 40);
    if (a === undefined || x.nsPerOp < a.nsPerOp) a = x;
    if (b === undefined || y.nsPerOp < b.nsPerOp) b = y;
  }
  return [a!, b!];
}

const [mergeOld, mergeNew] = compare('merge patch (recursive before, iterative now)', patches, ([o, p]) => recursiveMergePatch(o, p), ([o, p]) => applyMergePatch(o, p));
const [eqOld, eqNew] = compare('deepEqual of equal objects (recursive before, iterative now)', pairs, ([a, b]) => recursiveDeepEqual(a, b), ([a, b]) => deepEqual(a, b));
const [strOld, strNew] = compare('JSON text (stringifyJSON before, with its fallback now)', objects, (o) => stringifyBefore(o), (o) => stringifyJSON(o));
const deep = [JSON.parse('{"a":'.repeat(9_998) + '1' + '}'.repeat(9_998)) as unknown];
const deepMerge = measure('merge patch of 10,000 levels, iterative', deep, (d) => applyMergePatch({}, d), 3, 100);
const deepCopy = cloneJSON(deep[0]);
const deepEq = measure('deepEqual of 10,000 levels, iterative', deep, (d) => deepEqual(d, deepCopy), 3, 100);
const deepStr = measure('stringifyJSON of 10,000 levels (iterative fallback)', deep, (d) => stringifyJSON(d), 3, 100);
report([mergeOld, mergeNew, eqOld, eqNew, strOld, strNew, deepMerge, deepEq, deepStr]);
ratio('merge patch iterative / recursive (shallow)', mergeNew, mergeOld);
ratio('deepEqual iterative / recursive (shallow)', eqNew, eqOld);
ratio('stringifyJSON now / before (shallow)', strNew, strOld);

