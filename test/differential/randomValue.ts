/**
 * Seeded objects for the randomized differential suite: values that conform to a generated schema, and
 * values with one deliberate fault (wrong type, unknown field, out-of-range or too long value, a value
 * outside the enum or the pattern, null where not nullable, a required field missing).
 */
import { formatSamples, patterns, type Rng, type Schema } from './randomSchema.js';

/** A value for `s`; `faults` counts down the faults still to inject (shared over the whole walk). */
export function randomValue(r: Rng, s: Schema, faults: { left: number; p: number }, depth = 0): unknown {
  if (faults.left > 0 && r.chance(faults.p)) {
    faults.left--;
    return faulty(r, s);
  }
  if (s.nullable === true && r.chance(0.08)) return null;
  if (Array.isArray(s.enum)) return r.pick(s.enum as unknown[]);
  if (s['x-kubernetes-int-or-string'] === true) return r.chance(0.5) ? r.int(0, 20) : r.chance(0.5) ? r.word(1, 3) : `${r.int(1, 99)}%`;
  switch (s.type) {
    case 'string': {
      if (typeof s.format === 'string' && Object.hasOwn(formatSamples, s.format) && r.chance(0.75)) return formatSamples[s.format];
      const p = patterns.find((x) => x.pattern === s.pattern);
      let v = p ? p.sample(r) : r.word(0, 7);
      if (typeof s.maxLength === 'number') v = v.slice(0, s.maxLength);
      if (typeof s.minLength === 'number') while (v.length < s.minLength) v += 'a';
      return v;
    }
    case 'integer':
    case 'number': {
      const lo = typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? 1 : 0) : -5;
      const hi = typeof s.maximum === 'number' ? s.maximum : lo + 12;
      let v = r.int(Math.min(lo, hi), Math.max(lo, hi));
      if (s.multipleOf === 2 && v % 2 !== 0) v++;
      if (s.type === 'number' && s.multipleOf === undefined && r.chance(0.2)) v += 0.5;
      return v;
    }
    case 'boolean': return r.chance(0.5);
    case 'array': {
      const max = typeof s.maxItems === 'number' ? s.maxItems : 3;
      const n = r.int(typeof s.minItems === 'number' ? s.minItems : 0, Math.min(max, 3));
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) out.push(randomValue(r, s.items as Schema, faults, depth + 1));
      // A set's items must differ; repeat one only as a fault.
      if (s['x-kubernetes-list-type'] === 'set') return [...new Set(out.map((x) => JSON.stringify(x)))].map((x) => JSON.parse(x) as unknown);
      return out;
    }
    default: break;
  }
  if (s['x-kubernetes-embedded-resource'] === true) {
    // apiVersion, kind and metadata as an object has them, now and then one of them missing or bad.
    const out: Record<string, unknown> = { apiVersion: r.pick(['v1', 'apps/v1', 'x.example.com/v2']), kind: r.pick(['Pod', 'Thing', 'ConfigMap']), metadata: { name: r.pick(['e1', 'e-2', 'Bad_Name']) } };
    const meta = out.metadata as Record<string, unknown>;
    if (r.chance(0.3)) meta.labels = { app: r.pick(['a', '-bad-']) };
    if (r.chance(0.2)) meta.bogus = 1;
    if (r.chance(0.1)) meta.namespace = 'ns';
    if (r.chance(0.15)) delete out[r.pick(['apiVersion', 'kind', 'metadata'])];
    const props = s.properties as Record<string, Schema> | undefined;
    if (props?.spec !== undefined) out.spec = randomValue(r, props.spec, faults, depth + 1);
    else if (r.chance(0.5)) out.data = { k: 'v' };
    return out;
  }
  if (s.type === 'object' || s['x-kubernetes-preserve-unknown-fields'] === true) {
    const out: Record<string, unknown> = {};
    const props = s.properties as Record<string, Schema> | undefined;
    const required = new Set((s.required as string[] | undefined) ?? []);
    if (props !== undefined) {
      for (const k of Object.keys(props)) {
        // Leaving fields out is how defaults get to apply.
        if (required.has(k) || r.chance(0.6)) out[k] = randomValue(r, props[k], faults, depth + 1);
      }
    }
    if (s.additionalProperties !== undefined && typeof s.additionalProperties === 'object') {
      const max = typeof s.maxProperties === 'number' ? s.maxProperties : 3;
      const n = r.int(0, Math.min(max, 3));
      for (let i = 0; i < n; i++) out[r.word(1, 4)] = randomValue(r, s.additionalProperties as Schema, faults, depth + 1);
    }
    if (s['x-kubernetes-preserve-unknown-fields'] === true && r.chance(0.5)) out[`free${r.int(0, 9)}`] = r.pick([1, 'x', { deep: [1, { y: null }] }, [true]]);
    return out;
  }
  return r.word(1, 3);
}

/** A value for `s` that is wrong in one way. */
function faulty(r: Rng, s: Schema): unknown {
  const options: (() => unknown)[] = [
    () => null,
    () => r.pick([true, 'str', 7, 1.5, [1], { a: 1 }]),
  ];
  if (typeof s.maxLength === 'number') options.push(() => 'z'.repeat(s.maxLength as number + 1 + r.int(0, 3)));
  if (typeof s.minLength === 'number' && s.minLength > 0) options.push(() => '');
  if (typeof s.pattern === 'string') options.push(() => r.pick(['UPPER', 'has space', '-', '9lives']));
  if (Array.isArray(s.enum)) options.push(() => (s.type === 'string' ? 'notinenum' : 42));
  if (typeof s.minimum === 'number') options.push(() => (s.minimum as number) - r.int(0, 2));
  if (typeof s.maximum === 'number') options.push(() => (s.maximum as number) + r.int(1, 3));
  if (s.type === 'integer') options.push(() => 2.5, () => '5', () => 2 ** 40);
  if (s.type === 'object' && s.properties !== undefined) {
    options.push(() => ({ unknownField: 'u' }));
    if (Array.isArray(s.required)) options.push(() => ({}));
  }
  if (s.type === 'array') {
    if (typeof s.maxItems === 'number') options.push(() => Array.from({ length: (s.maxItems as number) + 1 }, (_, i) => randomValue(r, s.items as Schema, { left: 0, p: 0 }) ?? i));
    if (s['x-kubernetes-list-type'] === 'set') options.push(() => { const v = randomValue(r, s.items as Schema, { left: 0, p: 0 }); return [v, v]; });
    options.push(() => ({ not: 'an array' }));
  }
  if (s['x-kubernetes-int-or-string'] === true) options.push(() => false, () => 1.25);
  return r.pick(options)();
}
