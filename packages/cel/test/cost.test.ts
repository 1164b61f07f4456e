// Runtime and estimated CEL cost. Runtime costs are the apiserver's own, from
// apiextensions-apiserver celcoststability_test.go (copied to fixtures/cost_stability.json).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseJSON } from '@kubekit/core';
import type { Schema as JSONSchemaProps } from '../src/index.js';
import { estimateCost } from '../src/index.js';
import { celRuntime, compileExpression, ruleEnvironment } from '../src/celEnvironment.js';
import { costErrorMessage } from '../src/cost.js';
import { evaluate } from '../src/internal/interpreter.js';
import { BoolType } from '../src/internal/types.js';
import { fromJSON } from '../src/internal/values.js';
import { ruleDeclType } from '../src/schemaTypes.js';

interface Case {
  name: string;
  schema: Record<string, JSONSchemaProps>;
  obj: Record<string, unknown>;
  expectCost: Record<string, number>;
}

const fixture = parseJSON(readFileSync(new URL('./fixtures/cost_stability.json', import.meta.url), 'utf8')) as { cases: Case[] };

function runtimeCost(schema: JSONSchemaProps, obj: unknown, expr: string): { value: unknown; cost: number } {
  const decl = ruleDeclType(schema, false)!;
  const compiled = compileExpression(expr, ruleEnvironment({ self: decl, optionalOldSelf: false }), decl, BoolType, '', 'not a bool');
  if (!compiled.ok) throw new Error(compiled.detail);
  return evaluate(compiled.expr.checked, celRuntime, new Map([['self', fromJSON(obj, schema)]]), 1_000_000);
}

describe('cost', () => {
  describe('runtime cost (TestCelCostStability)', () => {
    for (const c of fixture.cases) {
      const schema: JSONSchemaProps = { type: 'object', properties: c.schema };
      for (const [expr, cost] of Object.entries(c.expectCost)) {
        it(`charges ${cost} for ${expr} (${c.name})`, () => {
          const r = runtimeCost(schema, c.obj, expr);
          expect(r.value, 'the expression holds').to.equal(true);
          expect(r.cost).to.equal(cost);
        });
      }
    }
  });

  describe('estimated cost of values without a path (issue #12)', () => {
    // cel-go's checker/cost.go appends '@items' (or '@keys', a field name, '@values') to the path of
    // the range, the operand or the indexed value even when that has no path, e.g. the result of
    // filter or map; the apiserver's CRD sizeEstimator (apiextensions-apiserver schema/cel
    // compilation.go) then drops the first element as if it were 'self' and resolves the rest on
    // self's own type. Figures from cel-go v0.26 with apiextensions-apiserver v0.34.
    const name = { type: 'string', maxLength: 63 } as const;
    const spec: JSONSchemaProps = {
      type: 'object',
      properties: {
        envars: { type: 'array', maxItems: 16, items: { type: 'object', properties: { name, value: name } } },
        value: { type: 'string', maxLength: 10 },
      },
    };
    const estimate = (rule: string): bigint => estimateCost(rule, spec).max;
    const filterAll = "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))";

    it('sizes e.value of an iteration over filter() by self.value (590, not MaxUint64)', () => {
      expect(estimate(filterAll)).to.equal(590n);
    });

    it('sizes the items of map() by self (350, not 1550)', () => {
      expect(estimate("self.envars.map(e, e.value).all(v, v.matches('^[a-zA-Z]*$'))")).to.equal(350n);
    });

    it('sizes a field of an indexed filter() result, or of a list or map literal, by self\'s field', () => {
      expect(estimate("self.envars.filter(e, true)[0].value.matches('^[a-zA-Z]*$')")).to.equal(238n);
      expect(estimate("[self.envars[0]][0].value.matches('^[a-zA-Z]*$')")).to.equal(30n);
      expect(estimate("self.envars.map(e, {'value': e.value}).all(m, m.value.matches('^[a-zA-Z]*$'))")).to.equal(1038n);
      expect(estimate("self.envars.map(e, e.value)[0].matches('^[a-zA-Z]*$')")).to.equal(316n);
    });
  });

  describe('estimated cost of optional selections and optMap', () => {
    // cel-go parses `a.?b` as a call of `_?._` (one unit, no field selection, no path into the schema)
    // and expands `t.optMap(v, e)` into `t.hasValue() ? optional.of(cel.bind(v, t.value(), e)) :
    // optional.none()`, copying `t`; kubekit binds `t` once and estimates it as the copies. Figures from
    // apiextensions-apiserver v0.34.4 cel.Compile.
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        o: { type: 'object', properties: { s: { type: 'string', maxLength: 20 }, n: { type: 'integer' } } },
        m: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 8 } },
        l: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 6 } },
        u: { type: 'object', properties: { s: { type: 'string' } } },
      },
    };
    const cases: [string, bigint][] = [
      ["self.?o.?s.optMap(v, v.size()).orValue(0) > 1", 23n],
      ["self.o.?s.optFlatMap(v, v == '' ? optional.none() : optional.of(v)).hasValue()", 22n],
      ["self.o.?s.optMap(v, v + 'x').optMap(w, w.size()).orValue(0) >= 0", 3689348814741910585n],
      ["self.?o.?s.orValue('').startsWith('a')", 5n],
      ["[?self.o.?s, ?self.m[?'k']].size() >= 0", 18n],
      ["{?'a': self.o.?s}.size() >= 0", 35n],
      ["self.m[?'k'].orValue('') == self.o.?s.orValue('')", 1844674407370955272n],
      ["self.l[?1].optMap(x, x.matches('^a+$')).orValue(false)", 1844674407370955285n],
    ];
    for (const [rule, max] of cases) {
      it(`estimates ${max} for ${rule}`, () => {
        expect(estimateCost(rule, schema).max).to.equal(max);
      });
    }

    it('does not size an optional selection by the schema (the apiserver rejects this rule on an unbounded string)', () => {
      expect(estimateCost("self.?u.?s == optional.of('value')", schema).max).to.equal(1844674407370955268n);
    });
  });

  describe('runtime and estimated cost of the lists library, folding and relative attributes', () => {
    // Figures from apiextensions-apiserver v0.34.4 (cel-go v0.26): cel.Compile's MaxCost and the
    // program's ActualCost. ext.Lists version 3 (as Kubernetes declares it) estimates and charges
    // sort, distinct, slice, reverse, flatten and lists.range by list size; cel-go folds only type
    // conversions of constants; a selection or index on anything but a variable's attribute (a call's
    // result, a literal) starts a relative attribute, one unit more.
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        l: { type: 'array', items: { type: 'integer' } },
        s: { type: 'array', items: { type: 'string' } },
        n: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
        m: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    };
    const obj = { l: [5, 3, 1, 3, 2], s: ['b', 'a', 'c', 'a'], n: [[1], [2, 3], []], m: { a: 1 } };
    const cases: [string, bigint, number][] = [
      ['self.l.sort() == [1,2,3,3,5]', 4947796033562n, 64],
      ["self.s.sort() == ['a','a','b','c']", 2308970014337n, 47],
      ['self.l.distinct().size() == 4', 4947796033553n, 65],
      ['self.s.distinct().size() == 3', 2199019061265n, 48],
      ['self.l.slice(1, 3) == [3, 1]', 26n, 16],
      ['self.l.reverse()[0] == 2', 1572877n, 21],
      ['lists.range(4).size() == 4', 17n, 17],
      ['self.n.flatten().size() == 3', 1048590n, 18],
      ['dyn(self.n).flatten(2).size() == 3', 2097166n, 22],
      ['[].sort() == []', 31n, 11],
      ['self.l[0] == 5', 3n, 4],
      ['dyn(self.l)[0] == 5', 4n, 6],
      ['[1,2][0] == 1', 12n, 3],
      ["self.m['a'] == 1", 3n, 4],
      ["{'a': self.l}['a'][0] == 5", 35n, 36],
      ['(self.l + [1])[0] == 5', 14n, 6],
      ["'abc'.size() == 3", 2n, 2],
      ['size([1,2]) == 2', 12n, 2],
      ["ip('1.2.3.4').family() == 4", 3n, 3],
      ["string(1) == '1'", 2n, 1],
      ["int('1') == 1", 2n, 1],
    ];
    for (const [rule, estimate, cost] of cases) {
      it(`estimates ${estimate} and charges ${cost} for ${rule}`, () => {
        const decl = ruleDeclType(schema, false)!;
        const compiled = compileExpression(rule, ruleEnvironment({ self: decl, optionalOldSelf: false }), decl, BoolType, '', 'not a bool');
        if (!compiled.ok) throw new Error(compiled.detail);
        expect(compiled.expr.cost.max).to.equal(estimate);
        const r = evaluate(compiled.expr.checked, celRuntime, new Map([['self', fromJSON(obj, schema)]]), 1_000_000);
        expect(r.value).to.equal(true);
        expect(r.cost).to.equal(cost);
      });
    }
  });

  describe('costErrorMessage', () => {
    it('prints the factor as the apiserver does', () => {
      const tail = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
      expect(costErrorMessage('estimated rule cost', 10_000_001n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 1.000000x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 25_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 2.5x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 2_000_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of more than 100x ${tail}`);
    });
  });
});
