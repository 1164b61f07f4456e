// Runtime and estimated CEL cost. Runtime costs are the apiserver's own, from
// apiextensions-apiserver celcoststability_test.go (copied to fixtures/cost_stability.json).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseJSON } from '@kubekit/core';
import type { JSONSchemaProps } from '../../src/index.js';
import { celRuntime, compileExpression, ruleEnvironment } from '../../src/cel/celEnvironment.js';
import { ruleDeclType } from '../../src/cel/compileRules.js';
import { costErrorMessage } from '../../src/cel/cost.js';
import { evaluate } from '../../src/cel/internal/interpreter.js';
import { BoolType } from '../../src/cel/internal/types.js';
import { fromJSON } from '../../src/cel/internal/values.js';

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

  describe('costErrorMessage', () => {
    it('prints the factor as the apiserver does', () => {
      const tail = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
      expect(costErrorMessage('estimated rule cost', 10_000_001n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 1.000000x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 25_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of 2.5x ${tail}`);
      expect(costErrorMessage('estimated rule cost', 2_000_000_000n, 10_000_000)).to.equal(`estimated rule cost exceeds budget by factor of more than 100x ${tail}`);
    });
  });
});
