// CEL: the cost of compiling rules (parse, type-check, cost estimate) and of evaluating them on an object,
// against structuredClone of the same object measured in the same run. Compilation is measured twice: for
// rules seen before (a CRD is compiled when it is validated and again when its validator is built; the
// parsed trees and the schema's declarations are cached), and for sources never seen (a unique comment
// line in front of each rule, so every iteration parses anew). CPU time per operation is printed beside
// the wall-clock figures, which a loaded machine inflates.
//
// Run: npm run bench -- cel
import type { JSONSchemaProps } from '@kubekit/crd';
import { validateCustomResourceRules } from '@kubekit/crd';
import { compile } from '@kubekit/cel';
import { compileRules } from '../../packages/crd/src/validationRules/compileRules.js';
import type { Measurement } from '../internal/measure.js';
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
let fresh = 0;
const freshSpec = (): JSONSchemaProps => ({ ...spec, 'x-kubernetes-validations': rules.map((rule) => ({ rule: `// ${fresh++}\n${rule}` })) });
const freshSchemas = Array.from({ length: 64 }, freshSpec);

/** `measure`, and the CPU time per call (user + system) over the same calls. */
function measureCPU<T>(name: string, inputs: readonly T[], fn: (input: T) => unknown, minMs = 150): Measurement & { cpuNsPerOp: number } {
  let calls = 0;
  const c0 = process.cpuUsage();
  const m = measure(name, inputs, (x) => {
    calls++;
    return fn(x);
  }, 7, minMs);
  const c = process.cpuUsage(c0);
  return { ...m, cpuNsPerOp: ((c.user + c.system) * 1000) / calls };
}

const clone = measureCPU('structuredClone(object)', objects, (o) => structuredClone(o));
const evaluate = measureCPU(`validateCustomResourceRules (${rules.length} rules)`, objects, (o) => validateCustomResourceRules(schema, o));
const programs = rules.map((rule) => compile(rule, { schema: spec }));
const evaluatePrograms = measureCPU(`Program.evaluate (${rules.length} rules, @kubekit/cel)`, objects, (o) => programs.map((p) => p.evaluate(o.spec)));
// Compilation runs through much more code than evaluation (parser, checker, estimator), which the JIT
// takes longer to optimise: a warm-up of both kinds first, and longer rounds, keep it out of the figures.
for (const end = performance.now() + 2000; performance.now() < end;) {
  compileRules(freshSpec(), false);
  compileRules(spec, false);
}
const compileSeen = measureCPU(`compile ${rules.length} rules seen before`, schemas, (s) => compileRules(s, false), 600);
const compileNew = measureCPU(`compile ${rules.length} rules never seen`, freshSchemas, () => compileRules(freshSpec(), false), 600);
const all = [clone, evaluate, evaluatePrograms, compileSeen, compileNew];
report(all);
for (const m of all) console.log(`cpu ${m.name}: ${(m.cpuNsPerOp / 1000).toFixed(1)} µs/op`);
ratio('evaluate / structuredClone', evaluate, clone);
const perRule = (m: Measurement, name: string): Measurement => ({ name, nsPerOp: m.nsPerOp / rules.length });
ratio('compile per rule seen before / structuredClone', perRule(compileSeen, 'seen'), clone);
ratio('compile per rule never seen / structuredClone', perRule(compileNew, 'new'), clone);
console.log(`compile per rule: ${(compileSeen.nsPerOp / rules.length / 1e6).toFixed(3)} ms seen before, ${(compileNew.nsPerOp / rules.length / 1e6).toFixed(3)} ms never seen (wall); ` +
  `${(compileSeen.cpuNsPerOp / rules.length / 1e6).toFixed(3)} ms, ${(compileNew.cpuNsPerOp / rules.length / 1e6).toFixed(3)} ms (cpu)`);
