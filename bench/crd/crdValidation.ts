// Per-call cost of validating the docs page's CronTab CRD (schema with a pattern, bounds and defaults,
// printer columns, status and scale subresources) with validateCustomResourceDefinition, against
// structuredClone of the same CRD object, measured in one run. Also reported: validateStructuralSchema
// on the CRD's schema alone.
// Run: node --import tsx --conditions=kubekit-source bench/crd/crdValidation.ts
import { validateCustomResourceDefinition, validateStructuralSchema } from '@kubekit/crd';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { measure, ratio, report } from '../internal/measure.js';

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
const inputs = [crontab];

const clone = measure('structuredClone(CronTab CRD)', inputs, (c) => structuredClone(c));
const validate = measure('validateCustomResourceDefinition(CronTab CRD)', inputs, (c) => validateCustomResourceDefinition(c));
const structural = measure('validateStructuralSchema(CronTab schema)', [schema], (s) => validateStructuralSchema(s));
report([clone, validate, structural]);
ratio('validateCustomResourceDefinition / structuredClone', validate, clone);
ratio('validateStructuralSchema / structuredClone', structural, clone);
