// The docs page's CEL examples ("Validation rules", "Transition rules", "The messageExpression field",
// "The reason field", "The fieldPath field", "The optionalOldSelf field") enforced on objects, through
// validateCustomResourceRules and through the public validateCustomResource.
// Source: /work/shared/seeds/003 (Extend the Kubernetes API with CustomResourceDefinitions).
import { expect } from 'chai';
import type { JSONSchemaProps, ValidationRule } from '../../src/index.js';
import { validateCustomResource } from '../../src/index.js';
import { validateCustomResourceRules } from '../../src/validationRules/evaluateRules.js';
import { cronTab, crdWith, object, specSchema } from './helpers.js';

const int: JSONSchemaProps = { type: 'integer' };
const str: JSONSchemaProps = { type: 'string' };

function errors(schema: JSONSchemaProps, obj: unknown, old?: unknown): string[] {
  return validateCustomResourceRules(schema, obj, old).map(String);
}

/** A root schema whose spec carries one rule and the given properties. */
function specRule(rule: string | ValidationRule, properties: Record<string, JSONSchemaProps>): JSONSchemaProps {
  const r = typeof rule === 'string' ? { rule } : rule;
  return specSchema(object(properties, [r]));
}

describe('validateCustomResourceRules', () => {
  describe('the docs page replicas example', () => {
    const schema = specSchema(object({ minReplicas: int, replicas: int, maxReplicas: int }, [
      { rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' },
      { rule: 'self.replicas <= self.maxReplicas', message: 'replicas should be smaller than or equal to maxReplicas.' },
    ], { required: ['minReplicas', 'replicas', 'maxReplicas'] }));

    it('rejects replicas above maxReplicas with the rule message', () => {
      expect(errors(schema, cronTab({ minReplicas: 0, replicas: 20, maxReplicas: 10 })))
        .to.deep.equal(['spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.']);
    });

    it('uses "failed rule: <rule>" when the rule has no message', () => {
      const bare = specSchema(object({ minReplicas: int, replicas: int, maxReplicas: int }, [
        { rule: 'self.minReplicas <= self.replicas' }, { rule: 'self.replicas <= self.maxReplicas' },
      ]));
      expect(errors(bare, cronTab({ minReplicas: 0, replicas: 20, maxReplicas: 10 })))
        .to.deep.equal(['spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas']);
    });

    it('accepts ordered replicas', () => {
      expect(errors(schema, cronTab({ minReplicas: 1, replicas: 5, maxReplicas: 10 }))).to.deep.equal([]);
    });

    it('is enforced by validateCustomResource without any option', () => {
      const crd = crdWith(schema);
      expect(validateCustomResource(crd, 'v1', cronTab({ minReplicas: 0, replicas: 20, maxReplicas: 10 })).map(String))
        .to.deep.equal(['spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.']);
      expect(validateCustomResource(crd, 'v1', cronTab({ minReplicas: 1, replicas: 2, maxReplicas: 3 }))).to.deep.equal([]);
    });
  });

  describe('the docs page "Validation Rules Examples" table', () => {
    const cases: { rule: string; props: Record<string, JSONSchemaProps>; valid: unknown; invalid: unknown }[] = [
      {
        rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
        props: { minReplicas: int, replicas: int, maxReplicas: int },
        valid: { minReplicas: 1, replicas: 2, maxReplicas: 3 },
        invalid: { minReplicas: 3, replicas: 2, maxReplicas: 1 },
      },
      {
        rule: "'Available' in self.stateCounts",
        props: { stateCounts: { type: 'object', additionalProperties: int } },
        valid: { stateCounts: { Available: 1 } },
        invalid: { stateCounts: { Pending: 1 } },
      },
      {
        rule: '(size(self.list1) == 0) != (size(self.list2) == 0)',
        props: { list1: { type: 'array', items: str }, list2: { type: 'array', items: str } },
        valid: { list1: ['a'], list2: [] },
        invalid: { list1: ['a'], list2: ['b'] },
      },
      {
        // The docs write `self['MY_KEY']`; indexing needs the map itself (self.map1), see compileRules.test.ts.
        rule: "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
        props: { map1: { type: 'object', additionalProperties: str } },
        valid: { map1: { MY_KEY: 'abc', OTHER: '123' } },
        invalid: { map1: { MY_KEY: 'a1' } },
      },
      {
        // The docs' rule lacks its closing parenthesis.
        rule: "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
        props: {
          envars: {
            type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
            items: object({ name: str, value: str }, [], { required: ['name'] }),
          },
        },
        valid: { envars: [{ name: 'MY_ENV', value: 'abc' }, { name: 'OTHER', value: '1' }] },
        invalid: { envars: [{ name: 'MY_ENV', value: 'a-b' }] },
      },
      {
        rule: 'has(self.expired) && self.created + self.ttl < self.expired',
        props: { created: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' }, expired: { type: 'string', format: 'date-time' } },
        valid: { created: '2023-01-01T00:00:00Z', ttl: '1h', expired: '2023-01-01T02:00:00Z' },
        invalid: { created: '2023-01-01T00:00:00Z', ttl: '3h', expired: '2023-01-01T02:00:00Z' },
      },
      {
        rule: "self.health.startsWith('ok')",
        props: { health: str },
        valid: { health: 'ok: all good' },
        invalid: { health: 'degraded' },
      },
      {
        rule: "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
        props: {
          widgets: {
            type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'],
            items: object({ key: str, foo: int }, [], { required: ['key'] }),
          },
        },
        valid: { widgets: [{ key: 'y', foo: 100 }, { key: 'x', foo: 5 }] },
        invalid: { widgets: [{ key: 'x', foo: 50 }] },
      },
      {
        rule: "self.set1.all(e, !(e in self.set2))",
        props: { set1: { type: 'array', 'x-kubernetes-list-type': 'set', items: str }, set2: { type: 'array', 'x-kubernetes-list-type': 'set', items: str } },
        valid: { set1: ['a', 'b'], set2: ['c'] },
        invalid: { set1: ['a', 'b'], set2: ['b'] },
      },
      {
        rule: 'size(self.names) == size(self.details) && self.names.all(n, n in self.details)',
        props: { names: { type: 'array', 'x-kubernetes-list-type': 'set', items: str }, details: { type: 'object', additionalProperties: str } },
        valid: { names: ['a', 'b'], details: { a: '1', b: '2' } },
        invalid: { names: ['a', 'b'], details: { a: '1', c: '2' } },
      },
      {
        rule: 'size(self.clusters.filter(c, c.name == self.primary)) == 1',
        props: {
          primary: str,
          clusters: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: object({ name: str }, [], { required: ['name'] }) },
        },
        valid: { primary: 'a', clusters: [{ name: 'a' }, { name: 'b' }] },
        invalid: { primary: 'c', clusters: [{ name: 'a' }, { name: 'b' }] },
      },
    ];
    for (const c of cases) {
      it(`enforces ${c.rule}`, () => {
        const schema = specRule(c.rule, c.props);
        expect(errors(schema, cronTab(c.valid)), 'valid object').to.deep.equal([]);
        expect(errors(schema, cronTab(c.invalid)), 'invalid object').to.deep.equal([`spec: Invalid value: "object": failed rule: ${c.rule}`]);
      });
    }

    it('enforces an int-or-string rule for both cases (type(self) == string ? self == \'100%\' : self == 1000)', () => {
      const rule = "type(self) == string ? self == '100%' : self == 1000";
      const schema = specSchema(object({ value: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule }] } }));
      expect(errors(schema, cronTab({ value: '100%' }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ value: 1000 }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ value: '50%' }))).to.deep.equal([`spec.value: Invalid value: "": failed rule: ${rule}`]);
      expect(errors(schema, cronTab({ value: 5 }))).to.deep.equal([`spec.value: Invalid value: "": failed rule: ${rule}`]);
    });

    it('enforces a root rule on metadata.name (self.metadata.name.startsWith(self.prefix))', () => {
      const rule = 'self.metadata.name.startsWith(self.prefix)';
      const schema: JSONSchemaProps = { type: 'object', properties: { prefix: str }, 'x-kubernetes-validations': [{ rule }] };
      expect(errors(schema, { ...cronTab({}), prefix: 'my-' })).to.deep.equal([]);
      expect(errors(schema, { ...cronTab({}), prefix: 'other-' })).to.deep.equal([`: Invalid value: "object": failed rule: ${rule}`]);
    });
  });

  describe('the docs page scoping examples', () => {
    it('reads spec and status from a root rule', () => {
      const schema: JSONSchemaProps = {
        type: 'object', 'x-kubernetes-validations': [{ rule: 'self.status.availableReplicas >= self.spec.minReplicas' }],
        properties: { spec: object({ minReplicas: int }), status: object({ availableReplicas: int }) },
      };
      expect(errors(schema, cronTab({ minReplicas: 2 }, { status: { availableReplicas: 3 } }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ minReplicas: 4 }, { status: { availableReplicas: 3 } })))
        .to.deep.equal([': Invalid value: "object": failed rule: self.status.availableReplicas >= self.spec.minReplicas']);
    });

    it('tests presence with has(self.foo), treating null as absent', () => {
      const schema = specRule('has(self.foo)', { foo: { type: 'integer', nullable: true } });
      expect(errors(schema, cronTab({ foo: 1 }))).to.deep.equal([]);
      expect(errors(schema, cronTab({}))).to.have.length(1);
      expect(errors(schema, cronTab({ foo: null }))).to.have.length(1);
    });

    it("indexes a map of objects (self['xyz'].foo > 0)", () => {
      const schema = specSchema({ type: 'object', 'x-kubernetes-validations': [{ rule: "self['xyz'].foo > 0" }], additionalProperties: object({ foo: int }) });
      expect(errors(schema, cronTab({ xyz: { foo: 1 } }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ xyz: { foo: 0 } }))).to.deep.equal(["spec: Invalid value: \"object\": failed rule: self['xyz'].foo > 0"]);
      expect(errors(schema, cronTab({ abc: { foo: 1 } }))).to.deep.equal(["spec: Invalid value: \"object\": no such key: xyz evaluating rule: self['xyz'].foo > 0"]);
    });

    it('sizes a list (size(self) == 1) and compares a scalar (self > 0)', () => {
      const schema = specSchema(object({
        foo: { type: 'array', items: str, 'x-kubernetes-validations': [{ rule: 'size(self) == 1' }] },
        bar: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] },
      }));
      expect(errors(schema, cronTab({ foo: ['a'], bar: 1 }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ foo: ['a', 'b'], bar: 0 }))).to.deep.equal([
        'spec.foo: Invalid value: "array": failed rule: size(self) == 1',
        'spec.bar: Invalid value: "integer": failed rule: self > 0',
      ]);
    });

    it('runs the second table: root, map of objects, list of integers, string', () => {
      const schema: JSONSchemaProps = {
        type: 'object', 'x-kubernetes-validations': [{ rule: 'self.status.actual <= self.spec.maxDesired' }],
        properties: {
          spec: object({
            maxDesired: int,
            components: { type: 'object', additionalProperties: object({ priority: int }), 'x-kubernetes-validations': [{ rule: "self['Widget'].priority < 10" }] },
            values: { type: 'array', items: int, 'x-kubernetes-validations': [{ rule: 'self.all(value, value >= 0 && value < 100)' }] },
            name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }] },
          }),
          status: object({ actual: int }),
        },
      };
      const good = cronTab({ maxDesired: 5, components: { Widget: { priority: 1 } }, values: [0, 99], name: 'kubekit' }, { status: { actual: 5 } });
      expect(errors(schema, good)).to.deep.equal([]);
      const bad = cronTab({ maxDesired: 5, components: { Widget: { priority: 10 } }, values: [0, 100], name: 'kit' }, { status: { actual: 6 } });
      expect(errors(schema, bad)).to.deep.equal([
        ': Invalid value: "object": failed rule: self.status.actual <= self.spec.maxDesired',
        "spec.components: Invalid value: \"object\": failed rule: self['Widget'].priority < 10",
        'spec.values: Invalid value: "array": failed rule: self.all(value, value >= 0 && value < 100)',
        'spec.name: Invalid value: "string": failed rule: self.startsWith(\'kube\')',
      ]);
    });

    it('reaches escaped property names (__namespace__, x__dash__prop, redact__underscores__d)', () => {
      const schema = specRule('self.__namespace__ > 0 && self.x__dash__prop > 0 && self.redact__underscores__d > 0',
        { namespace: int, 'x-prop': int, redact__d: int });
      expect(errors(schema, cronTab({ namespace: 1, 'x-prop': 1, redact__d: 1 }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ namespace: 1, 'x-prop': 0, redact__d: 1 }))).to.have.length(1);
    });
  });

  describe('list types', () => {
    const schema = specSchema(object({
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: int },
      map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: object({ k: str, v: int }, [], { required: ['k'] }) },
      atomic: { type: 'array', items: int },
    }, [
      { rule: 'self.set == [2, 1]', message: 'set equality ignores order' },
      { rule: 'self.map == [self.map[1], self.map[0]]', message: 'map equality ignores order' },
      { rule: 'self.atomic != [2, 1]', message: 'atomic equality keeps order' },
      { rule: 'self.set + [3, 1] == [1, 2, 3]', message: 'set concatenation is a union' },
      { rule: "(self.map + self.map).size() == 2", message: 'map concatenation merges by key' },
    ]));

    it('compares sets and maps without order and merges their concatenations', () => {
      const obj = cronTab({ set: [1, 2], map: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], atomic: [1, 2] });
      expect(errors(schema, obj)).to.deep.equal([]);
    });
  });

  describe('messageExpression, reason and fieldPath', () => {
    it('evaluates messageExpression (the docs example)', () => {
      const schema = specRule({ rule: 'self.x <= self.maxLimit', messageExpression: '"x exceeded max limit of " + string(self.maxLimit)' }, { x: int, maxLimit: int });
      expect(errors(schema, cronTab({ x: 11, maxLimit: 10 }))).to.deep.equal(['spec: Invalid value: "object": x exceeded max limit of 10']);
    });

    it('falls back to message, then to the default, when messageExpression is empty, multi-line or fails', () => {
      const props = { x: int, maxLimit: int };
      const obj = cronTab({ x: 11, maxLimit: 10 });
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', message: 'static', messageExpression: '" "' }, props), obj))
        .to.deep.equal(['spec: Invalid value: "object": static']);
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', messageExpression: '"a\\nb"' }, props), obj))
        .to.deep.equal(['spec: Invalid value: "object": failed rule: self.x <= self.maxLimit']);
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', message: 'static', messageExpression: 'string(1 / 0)' }, props), obj))
        .to.deep.equal(['spec: Invalid value: "object": static']);
    });

    // Go's strings.TrimSpace: U+0085 and U+00A0 are white space, U+FEFF is not (JavaScript's \s has it).
    // Regression: the trim was /\s+$/, which retries from every character of an inner run of spaces:
    // 28 s of the server's thread for a name with 100,000 spaces inside, quoted by a messageExpression.
    it('trims messageExpression results as Go does, in time linear in their length', () => {
      const props = { name: str };
      const rule = { rule: 'self.name.size() < 3', messageExpression: 'self.name' };
      expect(errors(specRule(rule, props), cronTab({ name: '\u0085\u00a0 abc \u3000' }))).to.deep.equal(['spec: Invalid value: "object": abc']);
      expect(errors(specRule(rule, props), cronTab({ name: '\ufeffabc' }))).to.deep.equal(['spec: Invalid value: "object": \ufeffabc']);
      const long = `a${' '.repeat(100_000)}b`;
      // Longer than 5 KiB once trimmed: the default message, as the apiserver gives.
      expect(errors(specRule({ ...rule, messageExpression: 'self.name' }, props), cronTab({ name: long }))).to.deep.equal(['spec: Invalid value: "object": failed rule: self.name.size() < 3']);
    });

    it('reports with the reason (the docs example and each supported reason)', () => {
      const props = { x: int, maxLimit: int };
      const obj = cronTab({ x: 11, maxLimit: 10 });
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueInvalid' }, props), obj))
        .to.deep.equal(['spec: Invalid value: "object": failed rule: self.x <= self.maxLimit']);
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueForbidden' }, props), obj))
        .to.deep.equal(['spec: Forbidden: failed rule: self.x <= self.maxLimit']);
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueRequired' }, props), obj))
        .to.deep.equal(['spec: Required value: failed rule: self.x <= self.maxLimit']);
      expect(errors(specRule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueDuplicate' }, props), obj))
        .to.deep.equal(['spec: Duplicate value: "object"']);
      expect(validateCustomResourceRules(specRule({ rule: 'self.x <= self.maxLimit', reason: 'FieldValueForbidden' }, props), obj)[0].type)
        .to.equal('FieldValueForbidden');
    });

    it('reports at fieldPath (the docs example .foo.test.x, and map keys)', () => {
      const schema = specRule({ rule: 'self.foo.test.x <= self.maxLimit', fieldPath: '.foo.test.x' }, {
        maxLimit: int, foo: object({ test: object({ x: int }) }),
      });
      expect(errors(schema, cronTab({ maxLimit: 1, foo: { test: { x: 2 } } })))
        .to.deep.equal(['spec.foo.test.x: Invalid value: "object": failed rule: self.foo.test.x <= self.maxLimit']);
      const maps = specRule({ rule: "self.testMap['foo'] > 0", fieldPath: ".testMap['foo']" }, { testMap: { type: 'object', additionalProperties: int } });
      expect(errors(maps, cronTab({ testMap: { foo: 0 } }))).to.deep.equal(["spec.testMap[foo]: Invalid value: \"object\": failed rule: self.testMap['foo'] > 0"]);
    });
  });

  describe('transition rules (the docs page table)', () => {
    const cases: { name: string; schema: JSONSchemaProps; old: unknown; ok: unknown; bad: unknown; rule: string }[] = [
      {
        name: 'immutability', rule: 'self.foo == oldSelf.foo',
        schema: specRule('self.foo == oldSelf.foo', { foo: str }), old: { foo: 'a' }, ok: { foo: 'a' }, bad: { foo: 'b' },
      },
      {
        name: 'prevent modification once assigned', rule: "oldSelf != 'bar' || self == 'bar'",
        schema: specSchema(object({ v: { type: 'string', 'x-kubernetes-validations': [{ rule: "oldSelf != 'bar' || self == 'bar'" }] } })),
        old: { v: 'bar' }, ok: { v: 'bar' }, bad: { v: 'baz' },
      },
      {
        name: 'prevent removal once assigned', rule: '!has(oldSelf.field) || has(self.field)',
        schema: specRule('!has(oldSelf.field) || has(self.field)', { field: str }), old: { field: 'x' }, ok: { field: 'y' }, bad: {},
      },
      {
        name: 'append-only set', rule: 'self.all(element, element in oldSelf)',
        schema: specSchema(object({ s: { type: 'array', 'x-kubernetes-list-type': 'set', items: str, 'x-kubernetes-validations': [{ rule: 'self.all(element, element in oldSelf)' }] } })),
        old: { s: ['a', 'b'] }, ok: { s: ['a'] }, bad: { s: ['a', 'c'] },
      },
      {
        name: 'if previous value was X, new value can only be A or B', rule: "oldSelf != 'X' || self in ['A', 'B']",
        schema: specSchema(object({ v: { type: 'string', 'x-kubernetes-validations': [{ rule: "oldSelf != 'X' || self in ['A', 'B']" }] } })),
        old: { v: 'X' }, ok: { v: 'B' }, bad: { v: 'Z' },
      },
      {
        name: 'monotonic counter', rule: 'self >= oldSelf',
        schema: specSchema(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } })),
        old: { n: 5 }, ok: { n: 6 }, bad: { n: 4 },
      },
    ];
    for (const c of cases) {
      it(`is not evaluated on create and is on update: ${c.name}`, () => {
        expect(errors(c.schema, cronTab(c.bad)), 'create').to.deep.equal([]);
        expect(errors(c.schema, cronTab(c.ok), cronTab(c.old)), 'allowed update').to.deep.equal([]);
        const e = errors(c.schema, cronTab(c.bad), cronTab(c.old));
        expect(e, 'forbidden update').to.have.length(1);
        expect(e[0]).to.match(new RegExp(`failed rule: ${c.rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      });
    }

    it("forbids the docs enum transition between 'low' and 'high'", () => {
      const rule: ValidationRule = { rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')", message: "cannot transition directly between 'low' and 'high'" };
      const schema = specSchema(object({ level: { type: 'string', enum: ['low', 'medium', 'high'], 'x-kubernetes-validations': [rule] } }));
      expect(errors(schema, cronTab({ level: 'high' }), cronTab({ level: 'low' })))
        .to.deep.equal(['spec.level: Invalid value: "string": cannot transition directly between \'low\' and \'high\'']);
      expect(errors(schema, cronTab({ level: 'medium' }), cronTab({ level: 'low' }))).to.deep.equal([]);
    });

    it('skips transition rules where the old object has no value, and correlates list-type map items by key', () => {
      const schema = specSchema(object({
        items: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: object({ name: str, n: int }, [{ rule: 'self.n >= oldSelf.n', message: 'n may not decrease' }], { required: ['name'] }),
        },
      }));
      const old = cronTab({ items: [{ name: 'a', n: 5 }, { name: 'b', n: 1 }] });
      expect(errors(schema, cronTab({ items: [{ name: 'b', n: 2 }, { name: 'a', n: 4 }, { name: 'c', n: 0 }] }), old))
        .to.deep.equal(['spec.items[1]: Invalid value: "object": n may not decrease']);
    });

    it('evaluates optionalOldSelf rules on create too (the docs examples)', () => {
      const rule: ValidationRule = { rule: 'oldSelf.optMap(o, o.size()).orValue(0) < 4', optionalOldSelf: true };
      const schema = specSchema(object({ v: { type: 'string', 'x-kubernetes-validations': [rule] } }));
      expect(errors(schema, cronTab({ v: 'abc' }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ v: 'abcdef' }), cronTab({ v: 'abcd' }))).to.have.length(1);
      expect(errors(schema, cronTab({ v: 'abcdef' }), cronTab({ v: 'abc' }))).to.deep.equal([]);
      const cases: ValidationRule = { rule: '[oldSelf.orValue(""), self].all(x, ["OldCase1", "OldCase2"].exists(case, x == case))', optionalOldSelf: true };
      const s2 = specSchema(object({ v: { type: 'string', 'x-kubernetes-validations': [cases] } }));
      expect(errors(s2, cronTab({ v: 'OldCase1' }))).to.have.length(1, 'oldSelf is none on create: "" is not a case');
      expect(errors(s2, cronTab({ v: 'OldCase2' }), cronTab({ v: 'OldCase1' }))).to.deep.equal([]);
    });
  });

  describe('ratcheting', () => {
    it('drops failures of unchanged values on update, but not of changed ones', () => {
      const schema = specSchema(object({ x: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] }, y: int }));
      expect(errors(schema, cronTab({ x: 0, y: 2 }), cronTab({ x: 0, y: 1 }))).to.deep.equal([]);
      expect(errors(schema, cronTab({ x: 0, y: 2 }))).to.have.length(1);
      expect(errors(schema, cronTab({ x: -1, y: 2 }), cronTab({ x: 0, y: 1 }))).to.have.length(1);
      // A rule on spec sees a changed spec: no ratcheting.
      const onSpec = specRule('self.x > 0', { x: int, y: int });
      expect(errors(onSpec, cronTab({ x: 0, y: 2 }), cronTab({ x: 0, y: 1 }))).to.have.length(1);
      expect(errors(onSpec, cronTab({ x: 0, y: 1 }), cronTab({ x: 0, y: 1 }))).to.deep.equal([]);
    });

    it('never ratchets transition rules', () => {
      const schema = specSchema(object({ x: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf' }] } }));
      expect(errors(schema, cronTab({ x: 1 }), cronTab({ x: 1 }))).to.have.length(1);
    });
  });

  describe('runtime errors', () => {
    it('reports evaluation errors with the rule', () => {
      const schema = specRule('self.a / self.b > 0', { a: int, b: int });
      expect(errors(schema, cronTab({ a: 1, b: 0 }))).to.deep.equal(['spec: Invalid value: "object": division by zero evaluating rule: self.a / self.b > 0']);
    });

    it('reports no such overload for int-or-string values used as the wrong type', () => {
      const schema = specSchema(object({ v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'self > 1' }] } }));
      expect(errors(schema, cronTab({ v: 'x' }))).to.deep.equal([
        "spec.v: Invalid value: \"\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self > 1",
      ]);
    });

    it('skips null values', () => {
      const schema = specSchema(object({ v: { type: 'integer', nullable: true, 'x-kubernetes-validations': [{ rule: 'self > 1' }] } }));
      expect(errors(schema, cronTab({ v: null }))).to.deep.equal([]);
    });
  });

  describe('cost limits', () => {
    it('stops exponential string growth at the per-call limit with the apiserver error', () => {
      // Each map() doubles the string: 40 steps would make 10 TiB.
      const rule = `[self.s]${'.map(a, a + a)'.repeat(40)}[0].size() > 0`;
      const schema = specRule(rule, { s: str });
      const e = errors(schema, cronTab({ s: 'abcdefghij' }));
      expect(e).to.deep.equal([
        `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
      ]);
    });

    it('stops nested iteration over a deeply nested, wide object and runs no further rules', () => {
      // 10 levels of lists with 5 items each: a rule visiting every leaf does ~10^7 steps.
      let items: JSONSchemaProps = { type: 'integer' };
      let value: unknown = 1;
      for (let i = 0; i < 10; i++) {
        items = { type: 'array', items };
        value = Array.from({ length: 5 }, () => value);
      }
      const visit = 'self.deep.all(a, a.all(b, b.all(c, c.all(d, d.all(e, e.all(f, f.all(g, g.all(h, h.all(i, i.all(j, j > 0))))))))))';
      const schema = specSchema(object({ deep: items }, [{ rule: visit }, { rule: 'false', message: 'never reached' }]));
      const e = errors(schema, cronTab({ deep: value }));
      expect(e).to.have.length(1);
      expect(e[0]).to.contain("'operation cancelled: actual cost limit exceeded': no further validation rules will be run");
    });

    it('stops once the per-object budget is spent', () => {
      const schema = specSchema(object({ xs: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.contains('a')" }] } } }));
      const e = validateCustomResourceRules(schema, cronTab({ xs: Array.from({ length: 20 }, () => 'b'.repeat(1000)) }), undefined, { costBudget: 500 }).map(String);
      expect(e.at(-1)).to.match(/validation failed due to running out of cost budget, no further validation rules will be run$/);
    });
  });
});
