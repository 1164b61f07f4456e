import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { FieldPath } from '@kubekit/core';
import { decodeSchema } from '../src/internal/decode.js';
import { validateSchema } from '../src/internal/schemaValidation.js';
import { validateValue } from '../src/validateValue.js';
import type { JSONSchemaProps } from '../src/types.js';

// Upstream: apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go
// TestValidateCustomResourceDefinitionValidation, run against the internal equivalent of
// validateCustomResourceDefinitionValidation with the same (ratcheting) options.
interface Case {
  name: string;
  schema?: JSONSchemaProps;
  statusEnabled: boolean;
  opts: Record<string, string>;
  errors: { type: string; field: string; contains?: string }[];
}
const { cases } = JSON.parse(readFileSync(new URL('./fixtures/crd_validation_validation_cases.json', import.meta.url), 'utf8')) as { cases: Case[] };

const types: Record<string, string> = {
  invalid: 'FieldValueInvalid', required: 'FieldValueRequired', forbidden: 'FieldValueForbidden', unsupported: 'FieldValueNotSupported',
  invalidtypecode: 'FieldValueTypeInvalid', duplicate: 'FieldValueDuplicate', tooMany: 'FieldValueTooMany',
};

/**
 * Cases whose expectations come from compiling or evaluating CEL rules (compile errors, cost limits,
 * oldSelf correlation), which belongs to the CEL issue and plugs in through `compileValidationRules`.
 */
const celCases = new Set([
  'invalid rule in x-kubernetes-validations',
  'invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)',
  'valid x-kubernetes-validations for escaping',
  'invalid x-kubernetes-validations for unknown property',
  'invalid default with x-kubernetes-validations',
  'forbid transition rule on element of list of type atomic',
  'forbid transition rule on element of list defaulting to type atomic',
  'forbid transition rule on element of list of type set',
  'forbid transition rule on element of map of unrecognized type',
  'forbid double-nested rule with no limit set',
  'forbid double-nested rule with one limit set',
  'forbid validation rules where cost total exceeds total limit',
  'x-kubernetes-validations rule validated for escaped property name',
  'x-kubernetes-validations rule validated under array items',
  'x-kubernetes-validations rule validated under array items, parent has rule',
  'x-kubernetes-validations rule validated under additionalProperties',
  'x-kubernetes-validations rule validated under additionalProperties, parent has rule',
  'x-kubernetes-validations rule validated under unescaped property name',
  'x-kubernetes-validations rule validated under unescaped property name, parent has rule',
  'x-kubernetes-validations rule validated under escaped property name',
  'x-kubernetes-validations rule validated under escaped property name, parent has rule',
  'x-kubernetes-validations rule validated under unescapable property name',
  'x-kubernetes-validations rule validated under unescapable property name, parent has rule',
  'x-kubernetes-validations rule invalidated by messageExpression not returning a string',
  'x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit',
  'x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit',
  'forbid transition rule on element of list of type atomic when optionalOldSelf is set',
  'forbid transition rule on element of list defaulting to type atomic when optionalOldSelf is set',
  'forbid transition rule on element of list of type set when optionalOldSelf is set',
  'forbid transition rule on element of map of unrecognized type when optionalOldSelf is set',
  'forbid setting optionalOldSelf to true if oldSelf is not used',
  'forbid setting optionalOldSelf to false if oldSelf is not used',
]);

function hasRules(s: unknown): boolean {
  return JSON.stringify(s ?? null).includes('"x-kubernetes-validations"');
}

describe('validateSchema (the apiserver\'s validateCustomResourceDefinitionValidation)', () => {
  it('leaves out only cases with x-kubernetes-validations rules', () => {
    const left = cases.filter((c) => celCases.has(c.name));
    expect(left).to.have.length(celCases.size);
    for (const c of left) expect(hasRules(c.schema), c.name).to.equal(true);
  });

  for (const c of cases.filter((x) => !celCases.has(x.name))) {
    it(`reports exactly what upstream expects for "${c.name}"`, () => {
      const path = FieldPath.root('spec', 'validation', 'openAPIV3Schema');
      const { schema, errors } = decodeSchema(c.schema, path);
      expect(errors.map(String)).to.deep.equal([]);
      const got = schema === undefined ? [] : validateSchema(schema, path, {
        statusEnabled: c.statusEnabled,
        allowDefaults: c.opts.allowDefaults === 'true',
        requireStructuralSchema: c.opts.requireStructuralSchema === 'true',
        requirePrunedDefaults: c.opts.requirePrunedDefaults === 'true',
        requireValidPropertyType: c.opts.requireValidPropertyType === 'true',
        requireAtomicSetType: c.opts.requireAtomicSetType === 'true',
        requireMapListKeysMapSetValidation: c.opts.requireMapListKeysMapSetValidation === 'true',
        validateValue: (s, v, p) => validateValue(s, v, p),
      });
      const remaining = [...got];
      for (const want of c.errors) {
        const i = remaining.findIndex((e) => e.type === types[want.type] && e.field === want.field && (want.contains === undefined || e.toString().includes(want.contains)));
        expect(i, `expected ${want.type} at ${want.field}${want.contains ? ` containing ${want.contains}` : ''}, got ${got.map(String).join('\n')}`).to.be.greaterThan(-1);
        remaining.splice(i, 1);
      }
      expect(remaining.map(String), 'unexpected errors').to.deep.equal([]);
    });
  }
});
