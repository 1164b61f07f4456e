// Cost of validating custom resources against the docs page's CronTab schema, against structuredClone
// of the same objects, measured in one run. 10,000 CronTab objects, a tenth of them invalid.
// Run: node --import tsx --conditions=kubekit-source bench/crd/valueValidation.ts
import { readFileSync } from 'node:fs';
import type { CustomResourceDefinition, JSONSchemaProps } from '@kubekit/crd';
import { validateCustomResource } from '../../packages/crd/src/validateCustomResource.js';
import { validateValue } from '../../packages/crd/src/validateValue.js';
import { measure, ratio, report } from '../internal/measure.js';

const crd = JSON.parse(readFileSync(new URL('../../packages/crd/test/fixtures/value/crontab-crd.json', import.meta.url), 'utf8')) as CustomResourceDefinition;
const schema = crd.spec.versions[0].schema!.openAPIV3Schema as JSONSchemaProps;

const objects = Array.from({ length: 10_000 }, (_, i) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: `cron-${i}`, namespace: 'default', labels: { app: 'cron', shard: String(i % 7) }, resourceVersion: String(1000 + i) },
  spec: {
    cronSpec: i % 10 === 0 ? '* * * *' : `${i % 60} * * * */5`,
    image: `registry.example.com/cron:${i % 13}`,
    replicas: i % 10 === 0 ? 15 : 1 + (i % 10),
  },
}));

let errors = 0;
for (const o of objects) errors += validateCustomResource(crd, 'v1', o).length;
console.log(`${objects.length} CronTab objects, ${errors} errors in total (expected ${2 * objects.length / 10})`);

const clone = measure('structuredClone(object)', objects, (o) => structuredClone(o));
const value = measure('validateValue(schema, object)', objects, (o) => validateValue(schema, o, ''));
const resource = measure('validateCustomResource(crd, v1, object)', objects, (o) => validateCustomResource(crd, 'v1', o));
report([clone, value, resource]);
ratio('validateValue / structuredClone', value, clone);
ratio('validateCustomResource / structuredClone', resource, clone);
