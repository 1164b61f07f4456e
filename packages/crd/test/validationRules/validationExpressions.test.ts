// apiextensions-apiserver's TestValidationExpressions cases, copied to fixtures/validation_expressions.json:
// each valid rule holds for the case's object, each error rule fails with the upstream message.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { JSONSchemaProps } from '../../src/index.js';
import { validateCustomResourceRules } from '../../src/validationRules/evaluateRules.js';

interface Case {
  name: string;
  obj: unknown;
  oldObj?: unknown;
  schema: JSONSchemaProps;
  valid: string[];
  errors: Record<string, string>;
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/validation_expressions.json', import.meta.url), 'utf8')) as { cases: Case[] };

function withRule(schema: JSONSchemaProps, rule: string): JSONSchemaProps {
  return { ...schema, 'x-kubernetes-validations': [{ rule }] };
}

describe('validateCustomResourceRules (TestValidationExpressions)', () => {
  for (const c of fixture.cases) {
    describe(c.name, () => {
      for (const rule of c.valid) {
        it(`holds: ${rule}`, () => {
          expect(validateCustomResourceRules(withRule(c.schema, rule), c.obj, c.oldObj).map(String)).to.deep.equal([]);
        });
      }
      for (const [rule, message] of Object.entries(c.errors)) {
        it(`fails: ${rule}`, () => {
          const errs = validateCustomResourceRules(withRule(c.schema, rule), c.obj, c.oldObj).map(String);
          expect(errs).to.have.length(1);
          expect(errs[0]).to.contain(message);
        });
      }
    });
  }
});
