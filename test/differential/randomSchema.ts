/**
 * Seeded generation of custom resource schemas for the randomized differential suite: structural
 * schemas with nested objects, arrays and maps (additionalProperties), x-kubernetes-preserve-unknown-fields
 * at several levels, defaults (also inside arrays and maps, and defaults that are objects), enum, minimum,
 * maximum, maxLength, pattern, required, nullable, x-kubernetes-int-or-string and simple CEL rules, plus
 * selectableFields. Most schemas are valid; a few carry one deliberate mistake so that the CRD rejections
 * are compared too.
 *
 * The vocabulary comes from the CRD docs page (https://kubernetes.io/docs/tasks/extend-kubernetes/
 * custom-resources/custom-resource-definitions/) and the structural-schema rules of KEP-575; what the
 * servers answer is whatever the real kube-apiserver says.
 */

/** A JSON schema node as sent in a CRD. */
export type Schema = Record<string, unknown>;

/** A seeded source of choices. */
export class Rng {
  constructor(private readonly next: () => number) {}
  /** A number in [0, 1). */
  float(): number { return this.next(); }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  /** True with probability p. */
  chance(p: number): boolean { return this.next() < p; }
  /** One element of a non-empty list. */
  pick<T>(xs: readonly T[]): T { return xs[Math.floor(this.next() * xs.length)]; }
  /** A lowercase word of `lo`..`hi` letters. */
  word(lo = 1, hi = 6): string {
    const n = this.int(lo, hi);
    let s = '';
    for (let i = 0; i < n; i++) s += 'abcdefghij'[this.int(0, 9)];
    return s;
  }
}

/** The string patterns the generator uses, with a value generator for each (RE2 and ECMAScript agree on them). */
export const patterns: { pattern: string; sample(r: Rng): string }[] = [
  { pattern: '^[a-z]+$', sample: (r) => r.word(1, 6) },
  { pattern: '^[a-z0-9-]*$', sample: (r) => `${r.word(0, 3)}-${r.int(0, 99)}` },
  { pattern: '^v[0-9]+$', sample: (r) => `v${r.int(0, 999)}` },
];

/** String formats with a valid value each: supported ones, and two the apiserver ignores. */
export const formatSamples: Record<string, string> = {
  'date-time': '2026-01-02T03:04:05Z', date: '2026-01-02', uuid: '123e4567-e89b-12d3-a456-426614174000', email: 'a@b.example',
  ipv4: '10.0.0.1', hostname: 'host.example', byte: 'aGVsbG8=', duration: '5s', 'k8s-short-name': 'abc-1', cidr: '10.0.0.0/8',
  int32: '7', colour: 'red',
};

/** Field names: short, distinct from CEL reserved words. */
const fieldNames = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'theta', 'kappa', 'mu', 'nu', 'omega', 'rho'];

/** Knobs for one schema. */
interface Budget { nodes: number }

/** Generates one schema node of `depth` levels at most. */
export function randomNode(r: Rng, depth: number, budget: Budget): Schema {
  budget.nodes--;
  const kinds = depth <= 0 || budget.nodes <= 0
    ? ['string', 'string', 'integer', 'integer', 'boolean', 'number', 'intOrString']
    : ['string', 'string', 'integer', 'boolean', 'number', 'intOrString', 'object', 'object', 'object', 'map', 'array', 'array', 'preserve', 'embedded'];
  const kind = r.pick(kinds);
  let s: Schema;
  switch (kind) {
    case 'string': {
      s = { type: 'string' };
      if (r.chance(0.2)) s.enum = Array.from(new Set([r.word(1, 4), r.word(1, 4), r.word(1, 4)]));
      else if (r.chance(0.12)) s.format = r.pick(Object.keys(formatSamples));
      else {
        if (r.chance(0.3)) s.maxLength = r.int(1, 8);
        if (r.chance(0.15)) s.minLength = r.int(0, 3);
        if (r.chance(0.25)) s.pattern = r.pick(patterns).pattern;
        if (r.chance(0.15)) s['x-kubernetes-validations'] = [{ rule: `size(self) < ${r.int(2, 10)}`, ...(r.chance(0.5) ? { message: 'too long' } : {}) }];
      }
      break;
    }
    case 'integer':
    case 'number': {
      s = { type: kind };
      if (r.chance(0.15)) s.enum = [r.int(-3, 3), r.int(4, 9)];
      else {
        if (r.chance(0.35)) s.minimum = r.int(-5, 5);
        if (r.chance(0.3)) s.maximum = (typeof s.minimum === 'number' ? s.minimum : 0) + r.int(0, 20);
        if (r.chance(0.1)) s.exclusiveMinimum = true;
        if (kind === 'number' && r.chance(0.1)) s.multipleOf = r.pick([0.5, 2]);
      }
      if (kind === 'integer' && r.chance(0.1)) s.format = r.pick(['int32', 'int64']);
      break;
    }
    case 'boolean':
      s = { type: 'boolean' };
      break;
    case 'intOrString':
      s = { 'x-kubernetes-int-or-string': true };
      if (r.chance(0.2)) s.anyOf = [{ type: 'integer' }, { type: 'string' }];
      break;
    case 'object': s = randomObject(r, depth, budget); break;
    case 'map': {
      s = { type: 'object', additionalProperties: randomNode(r, depth - 1, budget) };
      if (r.chance(0.2)) s.maxProperties = r.int(1, 4);
      break;
    }
    case 'array': {
      s = { type: 'array', items: randomNode(r, depth - 1, budget) };
      if (r.chance(0.3)) s.maxItems = r.int(1, 5);
      if (r.chance(0.1)) s.minItems = r.int(0, 2);
      const itemType = (s.items as Schema).type;
      if (r.chance(0.15) && (itemType === 'string' || itemType === 'integer')) s['x-kubernetes-list-type'] = 'set';
      else if (r.chance(0.15) && depth > 1) {
        // A list-type map of objects keyed by name.
        const item = randomObject(r, depth - 1, budget);
        (item.properties as Record<string, Schema>).name = { type: 'string', maxLength: 8 };
        item.required = ['name'];
        delete item['x-kubernetes-preserve-unknown-fields'];
        Object.assign(s, { items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
      }
      break;
    }
    case 'embedded': {
      // An embedded resource (KEP-575: its apiVersion, kind and metadata are kept, the metadata pruned
      // and validated as an object's), sometimes with a spec of its own.
      s = { type: 'object', 'x-kubernetes-embedded-resource': true };
      if (r.chance(0.5)) s['x-kubernetes-preserve-unknown-fields'] = true;
      else s.properties = { spec: randomObject(r, depth - 1, budget) };
      break;
    }
    default: { // preserve
      s = r.chance(0.8) ? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } : { 'x-kubernetes-preserve-unknown-fields': true };
      if (s.type === 'object' && r.chance(0.5)) Object.assign(s, { properties: randomProperties(r, depth - 1, budget) });
      break;
    }
  }
  // A transition rule now and then (refused where the schema cannot correlate old and new values).
  if ((s.type === 'string' || s.type === 'integer') && s['x-kubernetes-validations'] === undefined && r.chance(0.05)) {
    s['x-kubernetes-validations'] = [{ rule: 'self == oldSelf', message: 'is immutable' }];
  }
  if (r.chance(0.12)) s.nullable = true;
  if (r.chance(0.25)) {
    const d = defaultFor(r, s);
    if (d !== undefined) s.default = d;
  }
  return s;
}

function randomProperties(r: Rng, depth: number, budget: Budget): Record<string, Schema> {
  const n = r.int(1, 4);
  const props: Record<string, Schema> = {};
  for (let i = 0; i < n; i++) props[r.pick(fieldNames)] = randomNode(r, depth - 1, budget);
  return props;
}

/** An object with properties, maybe required ones, maybe a CEL rule relating two integer properties. */
export function randomObject(r: Rng, depth: number, budget: Budget): Schema {
  const props = randomProperties(r, depth, budget);
  const s: Schema = { type: 'object', properties: props };
  const names = Object.keys(props);
  if (r.chance(0.25)) s.required = [r.pick(names)];
  const ints = names.filter((n) => props[n].type === 'integer' && props[n].nullable !== true);
  if (ints.length >= 2 && r.chance(0.6)) {
    const [a, b] = ints;
    const guarded = r.chance(0.5);
    const rule = guarded ? `!has(self.${a}) || !has(self.${b}) || self.${a} <= self.${b}` : `self.${a} <= self.${b}`;
    const v: Schema = { rule };
    if (r.chance(0.3)) v.messageExpression = `'${a} must not exceed ' + string(${guarded ? `self.${b}` : `self.${b}`})`;
    else if (r.chance(0.5)) v.message = `${a} exceeds ${b}`;
    if (r.chance(0.2)) v.fieldPath = `.${a}`;
    s['x-kubernetes-validations'] = [v];
  }
  if (r.chance(0.1)) s['x-kubernetes-preserve-unknown-fields'] = true;
  return s;
}

/** A value valid for a node (used as its default), or undefined when none is easy to make. */
export function defaultFor(r: Rng, s: Schema): unknown {
  if (Array.isArray(s.enum)) return r.pick(s.enum as unknown[]);
  if (s['x-kubernetes-int-or-string'] === true) return r.chance(0.5) ? r.int(0, 9) : r.word(1, 3);
  switch (s.type) {
    case 'string': {
      if (typeof s.format === 'string' && Object.hasOwn(formatSamples, s.format)) return formatSamples[s.format];
      const p = patterns.find((x) => x.pattern === s.pattern);
      let v = p ? p.sample(r) : r.word(1, 5);
      if (typeof s.maxLength === 'number') v = v.slice(0, s.maxLength);
      if (typeof s.minLength === 'number') while (v.length < s.minLength) v += 'a';
      return v;
    }
    case 'integer':
    case 'number': {
      const lo = typeof s.minimum === 'number' ? s.minimum + (s.exclusiveMinimum === true ? 1 : 0) : -3;
      const hi = typeof s.maximum === 'number' ? s.maximum : lo + 10;
      let v = r.int(Math.min(lo, hi), Math.max(lo, hi));
      if (typeof s.multipleOf === 'number' && s.multipleOf === 2) v = v % 2 === 0 ? v : v + 1;
      return v;
    }
    case 'boolean': return r.chance(0.5);
    case 'object':
      // Objects as defaults: {} (the nested defaults fill it) or one property with its own valid value.
      if (s.properties !== undefined) {
        const props = s.properties as Record<string, Schema>;
        const out: Record<string, unknown> = {};
        for (const k of (s.required as string[] | undefined) ?? []) out[k] = defaultFor(r, props[k]);
        if (Object.values(out).some((v) => v === undefined)) return undefined;
        if (s['x-kubernetes-validations'] !== undefined) return undefined;
        return out;
      }
      if (s.additionalProperties !== undefined) {
        const v = defaultFor(r, s.additionalProperties as Schema);
        return v === undefined || r.chance(0.4) ? {} : { [r.word(1, 3)]: v };
      }
      return {};
    case 'array': {
      const v = defaultFor(r, s.items as Schema);
      return v === undefined || r.chance(0.5) || s['x-kubernetes-list-type'] === 'set' ? [] : [v];
    }
    default: return undefined;
  }
}

/** The scalar fields (string, integer, boolean, and sometimes others) reachable through properties only. */
export function scalarPaths(s: Schema, prefix = ''): { path: string; schema: Schema }[] {
  const out: { path: string; schema: Schema }[] = [];
  const props = s.properties as Record<string, Schema> | undefined;
  if (props === undefined) return out;
  for (const k of Object.keys(props)) {
    const child = props[k];
    const path = `${prefix}.${k}`;
    if (child.type === 'object' && child.properties !== undefined) out.push(...scalarPaths(child, path));
    else out.push({ path, schema: child });
  }
  return out;
}
