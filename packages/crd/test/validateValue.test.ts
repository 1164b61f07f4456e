import { readFileSync, readdirSync } from 'node:fs';
import { FieldPath, parseJSON } from '@kubekit/core';
import { expect } from 'chai';
import fc from 'fast-check';
import type { JSONSchemaProps } from '../src/types.js';
import { validateValue } from '../src/validateValue.js';

const fixtures = new URL('./fixtures/value/', import.meta.url);
const load = (name: string): unknown => parseJSON(readFileSync(new URL(name, fixtures), 'utf8'));

const texts = (schema: JSONSchemaProps, value: unknown, path = ''): string[] => validateValue(schema, value, path).map(String);
const one = (schema: JSONSchemaProps, value: unknown, path = 'spec.x'): string[] => texts(schema, value, path);
const obj = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties: props, ...extra });

interface UpstreamCase {
  name: string;
  schema: JSONSchemaProps;
  objects: unknown[];
  failing: { object: unknown; errors: string[] }[];
}

describe('validateValue', () => {
  describe('the docs page CronTab', () => {
    const crd = load('crontab-crd.json') as { spec: { versions: { schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;

    it('reports the two messages the page shows for replicas 15 and cronSpec "* * * *"', () => {
      expect(texts(schema, load('crontab-invalid.json'))).to.deep.equal([
        `spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
        'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
      ]);
    });

    it('accepts the page\'s valid CronTab', () => {
      expect(texts(schema, load('crontab-valid.json'))).to.deep.equal([]);
    });
  });

  describe('upstream TestValidateCustomResource (apiextensions-apiserver pkg/apiserver/validation)', () => {
    const { cases } = load('validate_custom_resource_cases.json') as { cases: UpstreamCase[] };
    for (const c of cases) {
      it(`does the "${c.name}" case`, () => {
        for (const o of c.objects) expect(texts(c.schema, o), JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).to.deep.equal([]);
        for (const f of c.failing) expect(new Set(texts(c.schema, f.object))).to.deep.equal(new Set(f.errors));
      });
    }
  });

  describe('JSON-Schema-Test-Suite draft 4, as kube-openapi runs it (pkg/validation/validate/jsonschema_test.go)', () => {
    const dir = new URL('jsonschema_suite/', fixtures);
    // The suite's Go harness decodes every number as float64; the apiserver decodes integers as
    // int64, and kube-openapi then compares integers with int64(multipleOf): 35 passes multipleOf 1.5.
    const int64Decoding = new Map([['35 is not multiple of 1.5', true]]);
    for (const file of readdirSync(dir).sort()) {
      const suites = load(`jsonschema_suite/${file}`) as { description: string; schema: JSONSchemaProps; tests: { description: string; data: unknown; valid: boolean }[] }[];
      it(`does ${file}`, () => {
        for (const s of suites) {
          for (const t of s.tests) {
            const errors = validateValue(s.schema, t.data, 'data', { stripUnsupportedFormats: false });
            expect(errors.length === 0, `${s.description}: ${t.description}: ${errors.join('; ')}`).to.equal(int64Decoding.get(t.description) ?? t.valid);
          }
        }
      });
    }
  });

  describe('type', () => {
    it('accepts values of the declared type', () => {
      for (const [type, v] of [['string', 'a'], ['integer', 3], ['number', 1.5], ['number', 2], ['boolean', false], ['array', []], ['object', {}]] as const) {
        expect(one({ type }, v)).to.deep.equal([]);
      }
    });

    it('reports the JSON type of a mismatch as the bad value', () => {
      expect(one({ type: 'string' }, 5)).to.deep.equal(['spec.x: Invalid value: "integer":  in body must be of type string: "integer"']);
      // v1.34's kube-openapi has no "Checked value must be of type integer" range error (later ones do).
      expect(one({ type: 'integer' }, 1.5)).to.deep.equal(['spec.x: Invalid value: "number":  in body must be of type integer: "number"']);
    });

    it('accepts an integral number where an integer is expected and an integer where a number is', () => {
      expect(one({ type: 'integer' }, 4.0)).to.deep.equal([]);
      expect(one({ type: 'number' }, 4)).to.deep.equal([]);
    });

    it('accepts both forms of x-kubernetes-int-or-string and nothing else', () => {
      const s: JSONSchemaProps = { 'x-kubernetes-int-or-string': true };
      expect(one(s, 80)).to.deep.equal([]);
      expect(one(s, '80%')).to.deep.equal([]);
      expect(one(s, false)).to.deep.equal(['spec.x: Invalid value: "boolean":  in body must be of type integer,string: "boolean"']);
    });
  });

  describe('nullable', () => {
    it('accepts null only when nullable', () => {
      expect(one({ type: 'string', nullable: true }, null)).to.deep.equal([]);
      expect(one({ type: 'string' }, null)).to.deep.equal(['spec.x: Invalid value: "null":  in body must be of type string: "null"']);
    });

    it('rejects null for an enum even when nullable, as kube-openapi does', () => {
      expect(one({ type: 'string', nullable: true, enum: ['a'] }, null)).to.deep.equal(['spec.x: Unsupported value: null: supported values: "a"']);
    });
  });

  describe('enum', () => {
    it('accepts a listed value and reports others with the supported values', () => {
      const s: JSONSchemaProps = { type: 'string', enum: ['Always', 'Never'] };
      expect(one(s, 'Never')).to.deep.equal([]);
      expect(one(s, 'Sometimes')).to.deep.equal(['spec.x: Unsupported value: "Sometimes": supported values: "Always", "Never"']);
    });

    it('prints non-string enum values as Go JSON', () => {
      expect(one({ enum: [1, 2.5, true, null, { b: 1, a: [1] }] }, 3)).to.deep.equal([
        'spec.x: Unsupported value: 3: supported values: "1", "2.5", "true", "null", "{\\"a\\":[1],\\"b\\":1}"',
      ]);
    });

    it('compares as Go converts: an integer matches a float enum value and a string of that rune', () => {
      expect(one({ enum: [2.0] }, 2)).to.deep.equal([]);
      expect(one({ enum: ['5'] }, 53)).to.deep.equal([]);
      expect(one({ enum: [1] }, 1.5)).to.deep.equal([]);
      expect(one({ enum: [[1, 2]] }, [1, 2])).to.deep.equal([]);
      expect(one({ enum: [[1, 2]] }, [2, 1])).to.have.length(1);
    });
  });

  describe('minimum and maximum', () => {
    it('checks inclusive bounds', () => {
      const s: JSONSchemaProps = { type: 'integer', minimum: 1, maximum: 10 };
      expect(one(s, 1)).to.deep.equal([]);
      expect(one(s, 10)).to.deep.equal([]);
      expect(one(s, 0)).to.deep.equal(['spec.x: Invalid value: 0:  in body should be greater than or equal to 1']);
    });

    it('checks exclusive bounds', () => {
      const s: JSONSchemaProps = { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true };
      expect(one(s, 0.5)).to.deep.equal([]);
      expect(one(s, 0)).to.deep.equal(['spec.x: Invalid value: 0:  in body should be greater than 0']);
      expect(one(s, 1)).to.deep.equal(['spec.x: Invalid value: 1:  in body should be less than 1']);
    });

    it('prints float bounds as Go does', () => {
      expect(one({ type: 'number', maximum: 1e21 }, 2e21)).to.deep.equal(['spec.x: Invalid value: 2e+21:  in body should be less than or equal to 1e+21']);
      expect(one({ type: 'number', minimum: 0.5 }, 0.25)).to.deep.equal(['spec.x: Invalid value: 0.25:  in body should be greater than or equal to 0.5']);
    });

    it('does not check a fractional bound of an integer field against the type, as v1.34\'s kube-openapi does not', () => {
      expect(one({ type: 'integer', maximum: 10.5 }, 3)).to.deep.equal([]);
    });
  });

  describe('big integers', () => {
    it('compares int64 values beyond 2^53 exactly', () => {
      // The bound is a float64 (9007199254740992); the value an exact int64 one above it.
      const s: JSONSchemaProps = { type: 'integer', format: 'int64', maximum: 9007199254740992 };
      expect(one(s, 9007199254740992n)).to.deep.equal([]);
      expect(one(s, 9007199254740993n)).to.deep.equal(['spec.x: Invalid value: 9007199254740993:  in body should be less than or equal to 9007199254740992']);
      expect(one({ type: 'integer', minimum: 0 }, -9223372036854775808n)).to.deep.equal(['spec.x: Invalid value: -9223372036854775808:  in body should be greater than or equal to 0']);
    });

    it('keeps bigint values from parseJSON exact in messages', () => {
      const value = parseJSON('{"n": 12345678901234567890}') as { n: unknown };
      expect(typeof value.n).to.equal('number');
      const big = parseJSON('{"n": 1234567890123456789}') as { n: unknown };
      expect(one({ type: 'integer', maximum: 10 }, big.n)).to.deep.equal(['spec.x: Invalid value: 1234567890123456789:  in body should be less than or equal to 10']);
    });

    it('treats integers beyond int64 as float64, as Go decodes them', () => {
      expect(one({ type: 'integer' }, 2n ** 64n)).to.deep.equal(['spec.x: Invalid value: "number":  in body must be of type integer: "number"']);
    });

    it('does not check int32 ranges, as v1.34\'s kube-openapi does not', () => {
      expect(one({ type: 'integer', format: 'int32' }, 2147483647)).to.deep.equal([]);
      expect(one({ type: 'integer', format: 'int32' }, 2147483648)).to.deep.equal([]);
    });
  });

  describe('multipleOf', () => {
    it('checks integer and float factors', () => {
      expect(one({ type: 'integer', multipleOf: 3 }, 9)).to.deep.equal([]);
      expect(one({ type: 'integer', multipleOf: 3 }, 10)).to.deep.equal(['spec.x: Invalid value: 10:  in body should be a multiple of 3']);
      expect(one({ type: 'number', multipleOf: 0.1 }, 0.3)).to.deep.equal([]);
      expect(one({ type: 'number', multipleOf: 0.25 }, 0.3)).to.deep.equal(['spec.x: Invalid value: 0.3:  in body should be a multiple of 0.25']);
    });
  });

  describe('minLength, maxLength and pattern', () => {
    it('counts characters as Go counts runes, not UTF-16 units', () => {
      expect(one({ type: 'string', maxLength: 2 }, '😀😀')).to.deep.equal([]);
      expect(one({ type: 'string', maxLength: 2 }, '😀😀😀')).to.deep.equal(['spec.x: Too long: may not be more than 2 bytes']);
      expect(one({ type: 'string', minLength: 3 }, 'éé')).to.deep.equal(['spec.x: Invalid value: "éé":  in body should be at least 3 chars long']);
      expect(one({ type: 'string', minLength: 2 }, 'éé')).to.deep.equal([]);
    });

    it('reports only the first string failure, as kube-openapi does', () => {
      expect(one({ type: 'string', maxLength: 1, pattern: '^a$' }, 'bbb')).to.deep.equal(['spec.x: Too long: may not be more than 1 byte']);
    });

    it('gives ^body$ patterns (run as whole-input matches) the same answers as the full RE2 search', () => {
      const bodies = ['(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}', 'a|b', 'a*b?', '[a-c]+\\.x', '(a|ab)(c|bcd)', 'a$|b', '(?i)ab', '[$]', 'x\\$'];
      fc.assert(fc.property(fc.constantFrom(...bodies), fc.stringMatching(/^[ab*1 /.$\nxc]{0,12}$/), (body, input) => {
        const fast = validateValue({ type: 'string', pattern: `^${body}$` }, input, 'p').length;
        const full = validateValue({ type: 'string', pattern: `(?:^${body}$)` }, input, 'p').length;
        expect(fast, `${body} ${JSON.stringify(input)}`).to.equal(full);
      }), { numRuns: 3000 });
    });

    it('matches patterns unanchored with RE2 semantics', () => {
      expect(one({ type: 'string', pattern: 'b' }, 'abc')).to.deep.equal([]);
      expect(one({ type: 'string', pattern: '^b' }, 'abc')).to.deep.equal(['spec.x: Invalid value: "abc":  in body should match \'^b\'']);
      // \d is ASCII-only in RE2 (in ECMAScript with the u flag too), \pL works, lookahead does not exist.
      expect(one({ type: 'string', pattern: '^\\d+$' }, '٣')).to.have.length(1);
      expect(one({ type: 'string', pattern: '^\\pL+$' }, 'héllo')).to.deep.equal([]);
      expect(one({ type: 'string', pattern: '^(?=a)' }, 'a')).to.deep.equal([
        'spec.x: Invalid value: "a":  in body should match \'^(?=a), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`\'',
      ]);
    });
  });

  describe('minItems, maxItems and uniqueItems', () => {
    it('checks item counts', () => {
      expect(one({ type: 'array', minItems: 1, maxItems: 2 }, ['a'])).to.deep.equal([]);
      expect(one({ type: 'array', minItems: 2 }, ['a'])).to.deep.equal(['spec.x: Invalid value: 1:  in body should have at least 2 items']);
      expect(one({ type: 'array', maxItems: 1 }, ['a', 'b'])).to.deep.equal(['spec.x: Too many: 2: must have at most 1 item']);
    });

    it('finds duplicates with Go deep equality', () => {
      expect(one({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 2 }])).to.deep.equal([]);
      expect(one({ type: 'array', uniqueItems: true }, [{ a: 1 }, { a: 1 }])).to.deep.equal(['spec.x: Invalid value: "":  in body shouldn\'t contain duplicates']);
      expect(one({ type: 'array', uniqueItems: true }, [1, 1n])).to.have.length(1);
    });

    it('reports item errors with their index', () => {
      expect(texts(obj({ list: { type: 'array', items: { type: 'string' } } }), { list: ['a', 2] })).to.deep.equal([
        'list[1]: Invalid value: "integer": list[1] in body must be of type string: "integer"',
      ]);
    });
  });

  describe('minProperties, maxProperties, required and additionalProperties', () => {
    it('checks property counts', () => {
      expect(one({ type: 'object', minProperties: 1, maxProperties: 2 }, { a: 1 })).to.deep.equal([]);
      expect(one({ type: 'object', minProperties: 2 }, { a: 1 })).to.deep.equal(['spec.x: Invalid value: 1:  in body should have at least 2 properties']);
      expect(one({ type: 'object', maxProperties: 1 }, { a: 1, b: 2 })).to.deep.equal(['spec.x: Too many: 2: must have at most 1 item']);
    });

    it('requires listed properties (present with null counts as present)', () => {
      expect(texts(obj({}, { required: ['a'] }), { a: null })).to.deep.equal([]);
      expect(texts(obj({ s: obj({}, { required: ['a'] }) }), { s: {} })).to.deep.equal(['s.a: Required value']);
    });

    it('validates map values against additionalProperties', () => {
      const s = obj({ m: { type: 'object', additionalProperties: { type: 'integer' } } });
      expect(texts(s, { m: { a: 1 } })).to.deep.equal([]);
      expect(texts(s, { m: { a: 'x' } })).to.deep.equal(['m.a: Invalid value: "string": m.a in body must be of type integer: "string"']);
    });

    it('forbids unknown properties with additionalProperties false', () => {
      expect(texts(obj({ m: obj({ a: {} }, { additionalProperties: false }) }), { m: { a: 1, b: 2 } })).to.deep.equal([
        'm: Invalid value: "b": m.b in body is a forbidden property',
      ]);
    });
  });

  describe('allOf, anyOf, oneOf and not', () => {
    const s = (x: JSONSchemaProps): JSONSchemaProps => obj({ f: x });

    it('requires every allOf branch', () => {
      const x = s({ type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] });
      expect(texts(x, { f: 3 })).to.deep.equal([]);
      expect(texts(x, { f: 9 })).to.deep.equal(['f: Invalid value: 9: f in body should be less than or equal to 5', '<nil>: Invalid value: "": "f" must validate all the schemas (allOf)']);
    });

    it('requires one anyOf branch and reports the closest failing one', () => {
      const x = s({ type: 'string', anyOf: [{ maxLength: 2 }, { pattern: '^a' }] });
      expect(texts(x, { f: 'abcd' })).to.deep.equal([]);
      expect(texts(x, { f: 'bbbb' })).to.deep.equal(['<nil>: Invalid value: "": "f" must validate at least one schema (anyOf)', 'f: Too long: may not be more than 2 bytes']);
    });

    it('requires exactly one oneOf branch', () => {
      const x = s({ type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 10 }] });
      expect(texts(x, { f: 1 })).to.deep.equal([]);
      expect(texts(x, { f: 7 })).to.deep.equal(['<nil>: Invalid value: "": "f" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
    });

    it('rejects what matches not', () => {
      const x = s({ type: 'string', not: { enum: ['forbidden'] } });
      expect(texts(x, { f: 'fine' })).to.deep.equal([]);
      expect(texts(x, { f: 'forbidden' })).to.deep.equal(['<nil>: Invalid value: "": "f" must not validate the schema (not)']);
    });
  });

  describe('paths', () => {
    it('prefixes paths below a given field path, as the apiserver does for defaults', () => {
      const base = FieldPath.root('spec', 'validation', 'openAPIV3Schema').child('properties').key('spec').child('default');
      expect(validateValue(obj({ n: { type: 'integer' } }), { n: 'x' }, base).map(String)).to.deep.equal([
        'spec.validation.openAPIV3Schema.properties[spec].default.n: Invalid value: "string": n in body must be of type integer: "string"',
      ]);
    });

    it('reports errors about the root itself at <nil>, as the apiserver does with a nil path', () => {
      expect(texts({ type: 'object', minProperties: 1 }, {})).to.deep.equal(['<nil>: Invalid value: 0:  in body should have at least 1 properties']);
    });
  });

  describe('robustness', () => {
    it('never throws for random JSON values against random-ish schemas', () => {
      const schemas: JSONSchemaProps[] = [
        { type: 'object', properties: { a: { type: 'integer', minimum: 0, multipleOf: 2 }, b: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^x' } } }, required: ['a'] },
        { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        { type: 'string', format: 'date-time', maxLength: 5 },
        { enum: [1, 'a', null, { k: [1] }], oneOf: [{ type: 'number' }, { type: 'string' }], not: { type: 'boolean' } },
        { type: 'object', additionalProperties: { type: 'number', format: 'float', maximum: 1.5 }, maxProperties: 3 },
      ];
      fc.assert(fc.property(fc.jsonValue(), fc.nat(schemas.length - 1), (v, i) => {
        const errors = validateValue(schemas[i], v, 'spec');
        for (const e of errors) expect(String(e)).to.be.a('string');
      }), { numRuns: 2000 });
    });

    it('reports a value nested 10,000 levels deep clearly instead of overflowing the stack', () => {
      let deep: unknown = 'leaf';
      for (let i = 0; i < 10_000; i++) deep = { a: deep };
      const errors = validateValue({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }, { spec: deep }, '');
      expect(errors.map(String)).to.deep.equal(['<nil>: Invalid value: "": value nested more than 10000 levels deep (the apiserver\'s JSON decoder rejects it)']);
    });

    it('validates a value nested just within the limit without overflowing', () => {
      let deep: unknown = [1, 1];
      for (let i = 0; i < 9_998; i++) deep = [deep];
      expect(validateValue({ type: 'array', uniqueItems: true }, [deep, deep], 'x').map(String)).to.deep.equal(['x: Invalid value: "":  in body shouldn\'t contain duplicates']);
    });
  });
});
