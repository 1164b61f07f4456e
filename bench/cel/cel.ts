// CEL x-kubernetes-validations: the cost of compiling rules (parse, type-check, cost estimate) and of
// evaluating them on an object, against structuredClone of the same object measured in the same run.
//
// Run: npm run bench -- cel
import type { JSONSchemaProps } from '@kubekit/crd';
import { validateCustomResourceRules } from '@kubekit/crd';
import { compileRules } from '../../packages/crd/src/validationRules/compileRules.js';
import { measure, ratio, report } from '../internal/measure.js';

const rules = [
  'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
  "'Available' in self.stateCounts",
  "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
  "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
  'size(self.clusters.filter(c, c.name == self.primary)) == 1',
  "self.image.startsWith('registry.example.com/')",
];

const str: JSONSchemaProps = { type: 'string', maxLength: 64 };
const int: JSONSchemaProps = { type: 'integer' };
const spec: JSONSchemaProps = {
  type: 'object',
  'x-kubernetes-validations': rules.map((rule) => ({ rule })),
  properties: {
    minReplicas: int, replicas: int, maxReplicas: int, image: { type: 'string', maxLength: 256 }, primary: str,
    stateCounts: { type: 'object', maxProperties: 16, additionalProperties: int },
    envars: { type: 'array', maxItems: 32, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: str, value: str } } },
    widgets: { type: 'array', maxItems: 32, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: { type: 'object', required: ['key'], properties: { key: str, foo: int } } },
    clusters: { type: 'array', maxItems: 32, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: str } } },
  },
};
const schema: JSONSchemaProps = { type: 'object', properties: { spec } };

const objects = Array.from({ length: 16 }, (_, i) => ({
  apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: `obj-${i}`, namespace: 'default' },
  spec: {
    minReplicas: 1, replicas: 2 + (i % 3), maxReplicas: 10, image: `registry.example.com/app:${i}`, primary: 'a',
    stateCounts: { Available: i, Pending: 1 },
    envars: Array.from({ length: 8 }, (_, j) => ({ name: j === 0 ? 'MY_ENV' : `VAR_${j}`, value: 'abcdef' })),
    widgets: Array.from({ length: 8 }, (_, j) => ({ key: j === 3 ? 'x' : `k${j}`, foo: j })),
    clusters: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
  },
}));

// Sanity: the objects are valid, so the benchmark measures full evaluation.
const errs = validateCustomResourceRules(schema, objects[0]);
if (errs.length > 0) throw new Error(`unexpected errors: ${errs.join('; ')}`);

const schemas = [spec];
const clone = measure('structuredClone(object)', objects, (o) => structuredClone(o));
const evaluate = measure(`validateCustomResourceRules (${rules.length} rules)`, objects, (o) => validateCustomResourceRules(schema, o));
const compile = measure(`compile ${rules.length} rules (parse, check, estimate)`, schemas, (s) => compileRules(s, false));
report([clone, evaluate, compile]);
ratio('evaluate / structuredClone', evaluate, clone);
ratio('compile per rule / structuredClone', { name: 'per rule', nsPerOp: compile.nsPerOp / rules.length }, clone);
