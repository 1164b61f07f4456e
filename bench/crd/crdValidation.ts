// Per-call cost of validating the docs page's CronTab CRD (schema with a pattern, bounds and defaults,
// printer columns, status and scale subresources) with validateCustomResourceDefinition, against
// structuredClone of the same CRD object, measured in one run. Also reported: validateStructuralSchema
// on the CRD's schema alone.
// Method: after a warm-up, 21 rounds of ~100 ms each interleave the three operations, so each round's
// ratio sees the same machine load; the median per-round ratio is reported next to median ns/op.
// Run: node --import tsx --conditions=kubekit-source bench/crd/crdValidation.ts
import { validateCustomResourceDefinition, validateStructuralSchema } from '@kubekit/crd';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { report, type Measurement } from '../internal/measure.js';

const crontab: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', default: '5 0 * * *' },
                image: { type: 'string' },
                replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
              },
            },
            status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
          },
        },
      },
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
      additionalPrinterColumns: [
        { name: 'Spec', type: 'string', description: 'The cron spec defining the interval a CronJob is run', jsonPath: '.spec.cronSpec' },
        { name: 'Replicas', type: 'integer', description: 'The number of jobs launched by the CronJob', jsonPath: '.spec.replicas' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    }],
  },
};

if (validateCustomResourceDefinition(crontab).length !== 0) throw new Error('the CronTab CRD must be valid');
const schema = crontab.spec.versions[0].schema!.openAPIV3Schema!;

function timeRound(fn: () => unknown, ms: number): number {
  let calls = 0;
  const start = process.hrtime.bigint();
  const end = performance.now() + ms;
  do {
    for (let i = 0; i < 20; i++) fn();
    calls += 20;
  } while (performance.now() < end);
  return Number(process.hrtime.bigint() - start) / calls;
}

const ops: [string, () => unknown][] = [
  ['structuredClone(CronTab CRD)', () => structuredClone(crontab)],
  ['validateCustomResourceDefinition(CronTab CRD)', () => validateCustomResourceDefinition(crontab)],
  ['validateStructuralSchema(CronTab schema)', () => validateStructuralSchema(schema)],
];
for (const [, fn] of ops) timeRound(fn, 300);
const samples = ops.map(() => [] as number[]);
for (let r = 0; r < 21; r++) ops.forEach(([, fn], i) => samples[i].push(timeRound(fn, 100)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results: Measurement[] = ops.map(([name], i) => ({ name, nsPerOp: median(samples[i]) }));
report(results);
for (const i of [1, 2]) {
  const ratios = samples[i].map((ns, r) => ns / samples[0][r]);
  console.log(`ratio ${ops[i][0].split('(')[0]} / structuredClone: ${median(ratios).toFixed(2)} (median of ${ratios.length} interleaved rounds)`);
}
