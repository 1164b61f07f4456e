// Cost of core's big-integer-safe parseJSON against JSON.parse on the same text, from one run.
// Run: node --import tsx --conditions=kubekit-source bench/core/json.ts
import { parseJSON } from '@kubekit/core';
import { measure, ratio, report } from '../internal/measure.js';

function object(i: number, bigInt: boolean): string {
  const resourceVersion = String(100000 + i);
  return JSON.stringify({
    apiVersion: 'stable.example.com/v1', kind: 'Shirt',
    metadata: {
      name: `shirt-${i}`, namespace: 'default', uid: `6f1b6f0e-${i}-4c1a-9d3b-2b7f1c9e${i}`, resourceVersion, generation: 3,
      creationTimestamp: '2026-11-21T10:00:00Z', labels: { app: 'shop', tier: i % 2 ? 'a' : 'b' },
      annotations: { 'example.com/note': 'x'.repeat(64) },
      managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'stable.example.com/v1', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:color': {}, 'f:size': {} } } }],
    },
    spec: { color: ['red', 'green', 'blue'][i % 3], size: 'M', replicas: 3, serial: bigInt ? '__BIG__' : 42 },
  }).replace('"__BIG__"', '12345678901234567');
}

const plain = Array.from({ length: 2000 }, (_, i) => object(i, false));
const withBig = Array.from({ length: 2000 }, (_, i) => object(i, true));

const base = measure('JSON.parse (no big integers)', plain, (t) => JSON.parse(t));
const fast = measure('parseJSON (no big integers: fast path)', plain, (t) => parseJSON(t));
const baseBig = measure('JSON.parse (one 17-digit integer, rounded)', withBig, (t) => JSON.parse(t));
const slow = measure('parseJSON (one 17-digit integer: exact path)', withBig, (t) => parseJSON(t));
report([base, fast, baseBig, slow]);
ratio('parseJSON fast path / JSON.parse', fast, base);
ratio('parseJSON exact path / JSON.parse', slow, baseBig);
