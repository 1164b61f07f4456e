// Compilation of x-kubernetes-validations when a CRD is validated: the docs page's compilation-error
// examples and "Resource use by validation functions" examples, and apiextensions-apiserver's CEL
// checks in ValidateCustomResourceDefinitionOpenAPISchema (validation.go; cases after its
// TestValidateCustomResourceDefinitionValidation CEL entries).
import { expect } from 'chai';
import type { JSONSchemaProps, ValidationRule } from '../../src/index.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from '../../src/index.js';
import { compileRules, preexistingExpressions } from '../../src/validationRules/compileRules.js';
import { goValidationRule } from '../../src/internal/goRule.js';
import { crdWith, object, specSchema } from './helpers.js';

const root = 'spec.validation.openAPIV3Schema';

function crdErrors(schema: JSONSchemaProps): string[] {
  return validateCustomResourceDefinition(crdWith(schema)).map(String);
}

/** A root schema with `foo` (of the given schema) as its only property. */
function withFoo(foo: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { foo } };
}

function ruleOn(s: JSONSchemaProps, ...rules: ValidationRule[]): JSONSchemaProps {
  return { ...s, 'x-kubernetes-validations': rules };
}

// kube-apiserver 1.34 prints the rule as Go's json.Marshal of the internal struct (HTML-escaped), as
// the differential suite's crd/cel-compile-errors recorded: {"Rule":"self.x \u003c=",…}.
const goRule = (rule: string): string =>
  `{"Rule":${JSON.stringify(rule).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`;

describe('goValidationRule', () => {
  it('prints the rule as 1.34 does: Go field names in order, HTML-escaped strings, set pointers as values', () => {
    expect(goValidationRule({ rule: 'a < b && c > d', message: 'm', reason: 'FieldValueForbidden', fieldPath: '.x', optionalOldSelf: true })).to.equal(
      '{"Rule":"a \\u003c b \\u0026\\u0026 c \\u003e d","Message":"m","MessageExpression":"","Reason":"FieldValueForbidden","FieldPath":".x","OptionalOldSelf":true}');
  });
});

describe('compileRules', () => {
  describe('the docs page compilation errors', () => {
    it("reports no_matching_overload: self == true on an integer", () => {
      expect(crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'self == true' })))).to.deep.equal([
        `${root}.properties[foo].x-kubernetes-validations[0].rule: Invalid value: ${goRule('self == true')}: ` +
        "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^",
      ]);
    });

    it('reports no_such_field: self.nonExistingField > 0', () => {
      expect(crdErrors(withFoo(ruleOn(object({ a: { type: 'integer' } }), { rule: 'self.nonExistingField > 0' })))).to.deep.equal([
        `${root}.properties[foo].x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.nonExistingField > 0')}: ` +
        "compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^",
      ]);
    });

    it('reports invalid argument to has() macro (at the argument, as cel-go has since 2024; the docs show 1:4)', () => {
      const e = crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'has(self)' })));
      expect(e).to.have.length(1);
      expect(e[0]).to.contain('compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^');
    });

    it('requires a bool result and a string messageExpression', () => {
      expect(crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'self + 1' })))).to.deep.equal([
        `${root}.properties[foo].x-kubernetes-validations[0].rule: Invalid value: ${goRule('self + 1')}: cel expression must evaluate to a bool`,
      ]);
      const e = crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'self > 0', messageExpression: 'self' })));
      expect(e).to.have.length(1);
      expect(e[0]).to.match(/x-kubernetes-validations\[0\]\.messageExpression: Invalid value: \{"Rule":"self \\u003e 0",.*"MessageExpression":"self",.*\}: messageExpression must evaluate to a string$/);
      const e2 = crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'self > 0', messageExpression: 'self.x' })));
      expect(e2[0]).to.contain("messageExpression compilation failed: ERROR: <input>:1:5: type 'int' does not support field selection");
    });

    it('rejects the docs table rules written with their typos, as the apiserver would', () => {
      const map1 = object({ map1: { type: 'object', additionalProperties: { type: 'string' } } });
      const e = crdErrors(withFoo(ruleOn(map1, { rule: "!('MY_KEY' in self.map1) || self['MY_KEY'].matches('^[a-zA-Z]*$')" })));
      expect(e[0]).to.contain("found no matching overload for '_[_]' applied to '(selfType");
      const envars = object({ envars: { type: 'array', items: object({ name: { type: 'string' }, value: { type: 'string' } }) } });
      const e2 = crdErrors(withFoo(ruleOn(envars, { rule: "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$')" })));
      expect(e2[0]).to.contain('compilation failed: ERROR: <input>:1:');
      expect(e2[0]).to.contain('Syntax error');
    });

    // kube-apiserver 1.34 compiles new expressions at compatibility version 1.33, without cel-go's ext.Lists
    // (sort, sortBy, distinct, flatten, lists.range, reverse, slice), and expressions its old version had in
    // its environment for stored ones, with them (findPreexistingExpressions; test/hostile/celEnvironments.test.ts
    // has the reference's answers for a create).
    it('compiles new rules without ext.Lists, as kube-apiserver 1.34 does', () => {
      const list = { type: 'array', maxItems: 10, items: { type: 'integer' } } as const;
      for (const [rule, at, name] of [['self.sort() == self', 10, 'sort'], ['self.distinct() == self', 14, 'distinct'], ['self.reverse() == self', 13, 'reverse'],
        ['self.slice(0, 1) == self', 11, 'slice'], ['[[1]].flatten() == [1]', 14, 'flatten'], ['self.sortBy(x, x) == self', 12, 'sortBy']] as const) {
        const e = crdErrors(withFoo(ruleOn(list, { rule })));
        expect(e, rule).to.have.length(1);
        expect(e[0], rule).to.contain(`compilation failed: ERROR: <input>:1:${at}: undeclared reference to '${name}' (in container '')`);
      }
      expect(crdErrors(withFoo(ruleOn(list, { rule: 'lists.range(2) == [0, 1]' })))[0]).to.contain(
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'lists' (in container '')\n | lists.range(2) == [0, 1]\n | ^\nERROR: <input>:1:12: undeclared reference to 'range' (in container '')");
      // first() and last() are the optional library's, in both environments.
      expect(crdErrors(withFoo(ruleOn(list, { rule: 'self.first() == optional.of(1)' })))).to.deep.equal([]);
    });

    it('finds the preexisting rules of a schema nested 100,000 levels without running out of stack', () => {
      let schema: JSONSchemaProps = ruleOn({ type: 'integer' }, { rule: 'self > 0' });
      for (let i = 0; i < 100_000; i++) schema = { type: 'object', properties: { a: schema } };
      const found = preexistingExpressions(crdWith(schema));
      expect([...found.rules]).to.deep.equal(['self > 0']);
    });

    it('compiles an update\'s preexisting rules and messageExpressions with ext.Lists, and its new ones without', () => {
      const list = { type: 'array', maxItems: 10, items: { type: 'integer' } } as const;
      const stored = { rule: 'self.sort() == self', messageExpression: "string(self.distinct().size())" };
      const old = crdWith(withFoo(ruleOn(list, stored)));
      expect(validateCustomResourceDefinitionUpdate(crdWith(withFoo(ruleOn(list, stored))), old).map(String)).to.deep.equal([]);
      // The same rule elsewhere in the schema is preexisting too: the apiserver looks rules up by their text.
      const moved = crdWith({ type: 'object', properties: { foo: list, bar: ruleOn(list, { rule: stored.rule }) } });
      expect(validateCustomResourceDefinitionUpdate(moved, old).map(String)).to.deep.equal([]);
      const added = validateCustomResourceDefinitionUpdate(crdWith(withFoo(ruleOn(list, stored, { rule: 'self.reverse() == self' }))), old).map(String);
      expect(added).to.have.length(1);
      expect(added[0]).to.contain("x-kubernetes-validations[1].rule: Invalid value: ");
      expect(added[0]).to.contain("undeclared reference to 'reverse'");
      const newMessage = validateCustomResourceDefinitionUpdate(crdWith(withFoo(ruleOn(list, { ...stored, messageExpression: 'string(self.reverse().size())' }))), old).map(String);
      expect(newMessage).to.have.length(1);
      expect(newMessage[0]).to.contain("messageExpression compilation failed: ERROR: <input>:1:20: undeclared reference to 'reverse'");
    });
  });

  describe('estimated cost', () => {
    it('accepts the docs example filter().all() rule, whose items are sized by self (issue #12; the apiserver estimates 590)', () => {
      const name = { type: 'string', maxLength: 63 } as const;
      const spec: JSONSchemaProps = {
        type: 'object',
        properties: {
          envars: { type: 'array', maxItems: 16, items: { type: 'object', properties: { name, value: name } } },
          value: { type: 'string', maxLength: 10 },
        },
        'x-kubernetes-validations': [{ rule: "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))" }],
      };
      expect(crdErrors(specSchema(spec))).to.deep.equal([]);
      expect(compileRules(spec, false)![0].maxCost).to.equal(590n);
    });
  });

  describe('type declarations of self', () => {
    const ok = (s: JSONSchemaProps, rule: string): void => {
      expect(crdErrors(withFoo(ruleOn(s, { rule }))), rule).to.deep.equal([]);
    };
    const bad = (s: JSONSchemaProps, rule: string, message: string): void => {
      const e = crdErrors(withFoo(ruleOn(s, { rule })));
      expect(e, rule).to.have.length(1);
      expect(e[0], rule).to.contain(message);
    };

    it('maps formats to timestamp, duration and bytes', () => {
      const s = object({ d: { type: 'string', format: 'date' }, dt: { type: 'string', format: 'date-time' }, du: { type: 'string', format: 'duration' }, b: { type: 'string', format: 'byte' } });
      ok(s, 'type(self.d) == google.protobuf.Timestamp && type(self.dt) == google.protobuf.Timestamp');
      ok(s, 'self.dt + self.du > self.d && size(self.b) >= 0');
      bad(s, 'self.du == "1h"', "found no matching overload for '_==_' applied to '(duration, string)'");
    });

    it('types int-or-string as dyn, maps as map(string, V), lists as list(T)', () => {
      ok(object({ v: { 'x-kubernetes-int-or-string': true } }), 'self.v == 1 || self.v == "1"');
      ok(object({ m: { type: 'object', additionalProperties: { type: 'integer' } } }), "self.m.all(k, self.m[k] > 0 && k != '')");
      bad(object({ l: { type: 'array', items: { type: 'string' } } }), 'self.l[0] > 1', "found no matching overload for '_>_' applied to '(string, int)'");
    });

    it('hides unknown fields of preserve-unknown-fields objects and untyped properties', () => {
      const s = object({ known: { type: 'string' }, anything: { 'x-kubernetes-preserve-unknown-fields': true } }, [], { 'x-kubernetes-preserve-unknown-fields': true });
      ok(s, 'self.known != ""');
      bad(s, 'self.other == 1', "undefined field 'other'");
      bad(s, 'has(self.anything)', "undefined field 'anything'");
    });

    it('exposes apiVersion, kind, metadata.name and metadata.generateName at embedded resources only', () => {
      const emb = object({ spec: object({ x: { type: 'integer' } }) }, [], { 'x-kubernetes-embedded-resource': true });
      ok(emb, "self.apiVersion != '' && self.kind != '' && self.metadata.name != '' && self.metadata.generateName != ''");
      bad(emb, 'has(self.metadata.namespace)', "undefined field 'namespace'");
      bad(object({ x: { type: 'integer' } }), "self.kind == ''", "undefined field 'kind'");
    });

    it('requires escaping of property names and reserved words', () => {
      const s = object({ 'x-prop': { type: 'integer' }, namespace: { type: 'integer' }, sprint: { type: 'integer' } });
      ok(s, 'self.x__dash__prop > 0 && self.__namespace__ > 0 && self.sprint > 0');
      // Kubernetes 1.31+ also accepts a reserved word as a field name.
      ok(s, 'self.namespace > 0');
      bad(s, 'self.x-prop > 0', "undefined field 'x'");
    });
  });

  describe('transition rules', () => {
    it('forbids oldSelf below a list that is not a list-type map', () => {
      const items = object({ a: { type: 'integer' } }, [{ rule: 'self.a == oldSelf.a' }]);
      expect(crdErrors(withFoo({ type: 'array', items }))).to.deep.equal([
        `${root}.properties[foo].items.x-kubernetes-validations[0].rule: Invalid value: "self.a == oldSelf.a": oldSelf cannot be used on the uncorrelatable portion of the schema within ${root}.properties[foo]`,
      ]);
      const mapList: JSONSchemaProps = { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { ...items, required: ['a'] } };
      expect(crdErrors(withFoo(mapList))).to.deep.equal([]);
    });

    it('forbids optionalOldSelf on rules without oldSelf', () => {
      expect(crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'self > 0', optionalOldSelf: true })))).to.deep.equal([
        `${root}.properties[foo].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
      ]);
      expect(crdErrors(withFoo(ruleOn({ type: 'integer' }, { rule: 'oldSelf.orValue(0) <= self', optionalOldSelf: true })))).to.deep.equal([]);
    });

    it('marks rules using oldSelf', () => {
      const [a, b] = compileRules(ruleOn({ type: 'integer' }, { rule: 'self >= oldSelf' }, { rule: 'self >= 0' }), false)!;
      expect([a.usesOldSelf, b.usesOldSelf]).to.deep.equal([true, false]);
    });
  });

  describe('the docs page "Resource use by validation functions" examples', () => {
    const contains = { rule: "self.all(x, x.contains('a string'))" };
    const budget = 'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

    it('rejects self.all(x, x.contains(...)) on an unbounded list of strings', () => {
      // The docs show the message of the first (alpha) implementation, "CEL rule exceeded budget by more than 100x".
      // The docs show the first line; the rule alone also exceeds the per-CRD limit.
      expect(crdErrors(withFoo(ruleOn({ type: 'array', items: { type: 'string' } }, contains)))).to.deep.equal([
        `${root}.properties[foo].x-kubernetes-validations[0].rule: Forbidden: ${budget}`,
        `${root}.properties[foo].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
        `${root}: Forbidden: x-kubernetes-validations ${budget.replace('estimated rule cost', 'estimated rule cost total for entire OpenAPIv3 schema')}`,
      ]);
    });

    it('accepts it with maxItems: 25 and maxLength: 10', () => {
      expect(crdErrors(withFoo(ruleOn({ type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 } }, contains)))).to.deep.equal([]);
    });

    it('accepts the rule moved onto the items (same estimated cost)', () => {
      const items = ruleOn({ type: 'string', maxLength: 10 }, { rule: "self.contains('a string')" });
      expect(crdErrors(withFoo({ type: 'array', maxItems: 25, items }))).to.deep.equal([]);
      const [onList] = compileRules(ruleOn({ type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 } }, contains), false)!;
      const [onItem] = compileRules(items, false)!;
      expect(Number(onItem.maxCost) * 25).to.be.at.most(Number(onList.maxCost));
    });

    it('accepts self.all(x, x == 5) on an unbounded list of integers, and rejects it on nested lists', () => {
      expect(crdErrors(withFoo(ruleOn({ type: 'array', items: { type: 'integer' } }, { rule: 'self.all(x, x == 5)' })))).to.deep.equal([]);
      const nested: JSONSchemaProps = { type: 'array', items: ruleOn({ type: 'array', items: { type: 'integer' } }, { rule: 'self.all(x, x == 5)' }) };
      expect(crdErrors(withFoo(nested))[0]).to.equal(`${root}.properties[foo].items.x-kubernetes-validations[0].rule: Forbidden: ${budget}`);
    });

    it('limits the estimated cost of the whole CRD', () => {
      // Each rule is below the per-rule limit, together they exceed the per-CRD one.
      const rule = { rule: "self.all(x, x.contains('a string'))" };
      const props: Record<string, JSONSchemaProps> = {};
      for (let i = 0; i < 12; i++) props[`f${i}`] = ruleOn({ type: 'array', maxItems: 4000, items: { type: 'string', maxLength: 5600 } }, rule);
      const e = crdErrors({ type: 'object', properties: props });
      expect(e.at(-1)).to.match(new RegExp(`^${root.replace(/\./g, '\\.')}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of \\d\\.\\d+x`));
      expect(e.filter((x) => x.endsWith('contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'))).to.have.length(4);
    });
  });
});
