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

  describe('costErrorMessage', () => {
    it('prints the factor as the apiserver does', () => {
      const tail = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
      expect(costErrorMessage('estimated rule cost', 10_000_001n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 1.000000x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 25_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 2.5x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 2_000_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of more than 100x ${tail}`);
    });
  });
});
