import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { FieldError } from '@kubekit/core';
import { validateCustomResourceDefinition, validateStructuralSchema } from '@kubekit/crd';
import type { CustomResourceDefinition, JSONSchemaProps } from '@kubekit/crd';

// Upstream vectors: apiextensions-apiserver test/integration/validation_test.go
// (TestNonStructuralSchemaConditionForCRDV1Beta1MigratedData, TestNonStructuralSchemaConditionForCRDV1) and
// pkg/apiserver/schema/validation_test.go (TestValidateStructuralCompleteness, TestValidateStructuralMetadataInvariants).
interface Case {
  id: string;
  name: string;
  upstream: string;
  schemas?: Record<string, JSONSchemaProps>;
  schema?: JSONSchemaProps;
  options?: Record<string, boolean>;
  expected: {
    structural?: boolean;
    violationsContained?: string[];
    violationsNotContained?: string[] | null;
    createSucceeds?: boolean;
    errorContains?: string[] | string | null;
    errorNotContains?: string[] | null;
    valid?: boolean;
  };
}
const vectors = JSON.parse(readFileSync(new URL('./fixtures/structural_schema.json', import.meta.url), 'utf8')) as { cases: Case[] };

function crdWith(...schemas: JSONSchemaProps[]): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'foos', kind: 'Foo' },
      versions: schemas.map((s, i) => ({ name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: s } })),
    },
  };
}

function text(errors: { toString(): string }[]): string {
  return errors.map(String).join('\n');
}

describe('validateStructuralSchema', () => {
  describe('upstream vectors (structural_schema.json)', () => {
    for (const c of vectors.cases) {
      it(`does what ${c.upstream.split(' ').pop()} expects for ${c.id} ${c.name}`, () => {
        if (c.id.startsWith('nonStructuralCondition/')) {
          const schemas = Object.values(c.schemas ?? {});
          if (schemas.length === 0) {
            // "empty": a v1beta1 CRD without schema that preserves unknown fields. In v1 such a CRD is
            // refused at spec.preserveUnknownFields (the v1beta1 migration condition words it "must be false").
            const crd = crdWith();
            crd.spec.versions = [{ name: 'v1', served: true, storage: true }];
            crd.spec.preserveUnknownFields = true;
            expect(text(validateCustomResourceDefinition(crd))).to.contain('spec.preserveUnknownFields: Invalid value: true: ');
            return;
          }
          // The condition lists the structural violations of each version's schema.
          const all = schemas.flatMap((s, i) => validateStructuralSchema(s, `spec.versions[${i}].schema.openAPIV3Schema`)).map(String);
          const relative = schemas.flatMap((s) => validateStructuralSchema(s)).map(String);
          if (c.expected.structural === true) {
            expect(all).to.deep.equal([]);
          } else {
            expect(all.length).to.be.greaterThan(0);
            const contained = (c.expected as { violationsContainedRelative?: string[] }).violationsContainedRelative ?? [];
            for (const v of contained) expect(relative, v).to.include(v);
            if (schemas.length === 1) for (const v of c.expected.violationsContained ?? []) expect(all, v).to.include(v);
            for (const v of c.expected.violationsNotContained ?? []) expect(text(validateStructuralSchema(schemas[0], 'spec.versions[0].schema.openAPIV3Schema'))).to.not.contain(v);
          }
          return;
        }
        if (c.id.startsWith('v1CreateValidation/')) {
          // One global schema, so the apiserver reports at spec.validation.openAPIV3Schema.
          const crd = crdWith(c.schemas!.global);
          const errs = validateCustomResourceDefinition(crd).map(String);
          if (c.expected.createSucceeds) {
            expect(errs).to.deep.equal([]);
          } else {
            for (const v of (c.expected.errorContains as string[]) ?? []) expect(errs, v).to.include(v);
            for (const v of c.expected.errorNotContains ?? []) expect(errs.join('\n')).to.not.contain(v);
          }
          return;
        }
        if (c.id.startsWith('completeness/')) {
          // validateStructuralCompleteness with a nil root path: no prefix.
          const errs = validateStructuralSchema(c.schema!, '', {
            allowValidationPropertiesWithAdditionalProperties: c.options?.AllowValidationPropertiesWithAdditionalProperties ?? false,
            allowNestedAdditionalProperties: c.options?.AllowNestedAdditionalProperties ?? false,
          }).map(String).filter((e) => e.includes('because it is defined in'));
          if (c.expected.valid) expect(errs).to.deep.equal([]);
          else expect(errs).to.include(c.expected.errorContains as string);
          return;
        }
        // metadataInvariants
        const errs = validateStructuralSchema(c.schema!).map(String);
        if (c.expected.valid) expect(errs).to.deep.equal([]);
        else expect(errs).to.include(c.expected.errorContains as string);
      });
    }
  });

  describe('keyword rules', () => {
    const obj = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });
    const check = (s: JSONSchemaProps, options = {}) => validateStructuralSchema(s, 'openAPIV3Schema', options).map(String);

    it('forbids the keywords the apiserver does not support, and says only that', () => {
      expect(check(obj({ a: { type: 'string', id: 'x' } as JSONSchemaProps }))).to.deep.equal(['openAPIV3Schema.properties[a].id: Forbidden: id is not supported']);
      expect(check(obj({ a: { type: 'string', $ref: '#/x' } }))).to.deep.equal(['openAPIV3Schema.properties[a].$ref: Forbidden: $ref is not supported']);
      expect(check(obj({ a: { type: 'object', definitions: { x: { type: 'string' } } } }))).to.deep.equal(['openAPIV3Schema.properties[a].definitions: Forbidden: definitions is not supported']);
      expect(check(obj({ a: { type: 'object', dependencies: { x: ['y'] } } }))).to.deep.equal(['openAPIV3Schema.properties[a].dependencies: Forbidden: dependencies is not supported']);
      expect(check(obj({ a: { type: 'object', patternProperties: { '^x': { type: 'string' } } } }))).to.deep.equal(['openAPIV3Schema.properties[a].patternProperties: Forbidden: patternProperties is not supported']);
      expect(check(obj({ a: { type: 'array', items: { type: 'string' }, additionalItems: false } }))).to.deep.equal(['openAPIV3Schema.properties[a].additionalItems: Forbidden: additionalItems is not supported']);
      // $schema is only refused by the structural conversion, shown when nothing else is wrong.
      expect(check(obj({ a: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } }))).to.deep.equal(['openAPIV3Schema: Invalid value: "": OpenAPIV3Schema \'schema\' is not supported']);
    });

    it('refuses unknown keywords as strict decoding does', () => {
      expect(check(obj({ a: { type: 'string', readOnly: true } as JSONSchemaProps }))).to.deep.equal(['openAPIV3Schema.properties[a].readOnly: Forbidden: unknown field']);
    });

    it('requires valid types and refuses type null', () => {
      expect(check(obj({ a: { type: 'null' as 'string' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"',
        'openAPIV3Schema.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative',
      ]);
      expect(check(obj({ a: { type: 'float' as 'number' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].type: Unsupported value: "float": supported values: "array", "boolean", "integer", "number", "object", "string"',
      ]);
    });

    it('forbids uniqueItems: true but not false', () => {
      expect(check(obj({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ]);
      expect(check(obj({ a: { type: 'array', items: { type: 'string' }, uniqueItems: false } }))).to.deep.equal([]);
    });

    it('makes additionalProperties and properties mutually exclusive (additionalProperties: true aside)', () => {
      expect(check(obj({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
      ]);
      expect(check(obj({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
      ]);
      expect(check(obj({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: true } }))).to.deep.equal([]);
      expect(check(obj({ a: { type: 'object', additionalProperties: { type: 'string' } } }))).to.deep.equal([]);
    });

    it('requires items to be a single schema', () => {
      expect(check(obj({ a: { type: 'array', items: [{ type: 'string' }] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items: Forbidden: items must be a schema object and not an array',
      ]);
    });

    it('requires x-kubernetes-preserve-unknown-fields to be true or unset', () => {
      expect(check(obj({ a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined',
      ]);
    });

    it('forbids nullable at the root', () => {
      expect(check({ type: 'object', nullable: true })).to.deep.equal(['openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root']);
    });

    it('checks x-kubernetes-list-type and x-kubernetes-list-map-keys', () => {
      const item = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } as JSONSchemaProps;
      expect(check(obj({ a: { type: 'array', items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } }))).to.deep.equal([]);
      expect(check(obj({ a: { type: 'object', 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified',
      ]);
      expect(check(obj({ a: { type: 'array', items: item, 'x-kubernetes-list-type': 'bag' as 'set' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"',
      ]);
      expect(check(obj({ a: { type: 'array', items: item, 'x-kubernetes-list-type': 'map' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map',
      ]);
      expect(check(obj({ a: { type: 'array', items: item, 'x-kubernetes-list-map-keys': ['name'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty',
      ]);
      expect(check(obj({ a: { type: 'array', items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'nope', 'name'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","nope","name"]: entries must all be names of item properties',
        'openAPIV3Schema.properties[a].x-kubernetes-list-map-keys: Invalid value: ["name","nope","name"]: must not contain duplicate entries',
      ]);
      expect(check(obj({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.type: Invalid value: "string": must be object if parent array\'s x-kubernetes-list-type is map',
      ]);
      const objectKey = { type: 'object', required: ['name'], properties: { name: { type: 'object' } } } as JSONSchemaProps;
      expect(check(obj({ a: { type: 'array', items: objectKey, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.properties[name].type: Invalid value: "object": must be a scalar type if parent array\'s x-kubernetes-list-type is map',
      ]);
      const optionalKey = { type: 'object', properties: { name: { type: 'string', nullable: true } } } as JSONSchemaProps;
      expect(check(obj({ a: { type: 'array', items: optionalKey, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        'openAPIV3Schema.properties[a].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
      ]);
      expect(check(obj({ a: { type: 'array', items: { type: 'string', nullable: true }, 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set',
      ]);
      expect(check(obj({ a: { type: 'array', items: { type: 'object', properties: { x: { type: 'string' } } }, 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
      ]);
      expect(check(obj({ a: { type: 'array', items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { x: { type: 'string' } } }, 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([]);
      expect(check(obj({ a: { type: 'array', items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }, 'x-kubernetes-list-type': 'set' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set',
      ]);
    });

    it('checks x-kubernetes-map-type', () => {
      expect(check(obj({ a: { type: 'object', 'x-kubernetes-map-type': 'atomic' } }))).to.deep.equal([]);
      expect(check(obj({ a: { type: 'string', 'x-kubernetes-map-type': 'granular' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified',
      ]);
      expect(check(obj({ a: { type: 'object', 'x-kubernetes-map-type': 'fine' as 'atomic' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-map-type: Unsupported value: "fine": supported values: "atomic", "granular"',
      ]);
    });

    it('checks x-kubernetes-validations entries (not their CEL)', () => {
      const rules = [
        { rule: '  ' },
        { rule: 'self > 0', message: ' ' },
        { rule: 'self > 0', message: 'a\nb' },
        { rule: 'self >\n0' },
        { rule: 'self > 0', messageExpression: ' ', reason: 'FieldValueBad' },
        { rule: 'self.a > 0', fieldPath: '.b' },
        { rule: 'self.a > 0', fieldPath: '.a' },
      ];
      expect(check(obj({ a: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].x-kubernetes-validations[0].rule: Required value: rule is not specified',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[1].message: Invalid value: " ": must be non-empty if specified',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[2].message: Invalid value: "a\\nb": must not contain line breaks',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[3].message: Required value: message must be specified if rule contains line breaks',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[4].reason: Unsupported value: "FieldValueBad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
        'openAPIV3Schema.properties[a].x-kubernetes-validations[5].fieldPath: Invalid value: ".b": must be a valid path',
      ]);
    });

    it('forbids embedded resources inside resource metadata', () => {
      expect(check(obj({ metadata: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }))).to.deep.equal([
        'openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
        'openAPIV3Schema.properties[metadata].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta',
      ]);
    });

    it('checks embedded resources: type object, no additionalProperties, string kind and apiVersion', () => {
      expect(check(obj({ r: { type: 'object', 'x-kubernetes-embedded-resource': true, additionalProperties: { type: 'string' } } }))).to.deep.equal([
        'openAPIV3Schema.properties[r].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set',
        'openAPIV3Schema.properties[r].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ]);
      expect(check(obj({ r: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' }, apiVersion: { type: 'string' }, metadata: { type: 'string' } } } }))).to.deep.equal([
        'openAPIV3Schema.properties[r].properties[kind].type: Invalid value: "integer": must be string',
        'openAPIV3Schema.properties[r].properties[metadata].type: Invalid value: "string": must be object',
      ]);
    });

    it('refuses int-or-string patterns with variations', () => {
      expect(check(obj({ a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string', pattern: 'x' }] } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural',
        'openAPIV3Schema.properties[a].anyOf[1].type: Forbidden: must be empty to be structural',
      ]);
    });

    it('forbids in junctors what the docs page lists, and reports invalid patterns with Go\'s text', () => {
      const junctor = { allOf: [{ default: 'x', 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-map-type': 'atomic', 'x-kubernetes-list-map-keys': ['a'], 'x-kubernetes-validations': [{ rule: 'true' }] }] } as JSONSchemaProps;
      expect(check(obj({ a: { type: 'string', ...junctor } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].allOf[0].default: Forbidden: must be undefined to be structural',
        'openAPIV3Schema.properties[a].allOf[0].x-kubernetes-list-map-keys: Forbidden: must be empty to be structural',
        'openAPIV3Schema.properties[a].allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural',
        'openAPIV3Schema.properties[a].allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural',
        'openAPIV3Schema.properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural',
        // The keyword rules look into junctors too.
        'openAPIV3Schema.properties[a].allOf[0].type: Required value: must be object if x-kubernetes-map-type is specified',
        'openAPIV3Schema.properties[a].allOf[0].type: Required value: must be array if x-kubernetes-list-type is specified',
        'openAPIV3Schema.properties[a].allOf[0].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty',
      ]);
      expect(check(obj({ a: { type: 'string', pattern: '(' } }))).to.deep.equal([
        'openAPIV3Schema.properties[a].pattern: Invalid value: "(": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ): `(`',
      ]);
    });
  });

  describe('the CEL hook', () => {
    it('compiles rules only outside junctors and only where the subtree has no other error', () => {
      const seen: string[] = [];
      const compile = (schema: JSONSchemaProps, fieldPath: string) => {
        seen.push(fieldPath);
        return schema['x-kubernetes-validations']![0].rule === 'bad' ? [new FieldError('FieldValueInvalid', `${fieldPath}.x-kubernetes-validations[0].rule`, 'bad', 'compilation failed')] : [];
      };
      const schema = {
        type: 'object',
        'x-kubernetes-validations': [{ rule: 'true' }],
        properties: {
          ok: { type: 'string', 'x-kubernetes-validations': [{ rule: 'bad' }] },
          broken: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }], properties: { x: { type: 'array', items: { type: 'string' }, uniqueItems: true } } },
        },
      } as JSONSchemaProps;
      const errs = validateStructuralSchema(schema, 'openAPIV3Schema', { compileValidationRules: compile }).map(String);
      expect(seen.sort()).to.deep.equal(['openAPIV3Schema.properties[ok]']);
      expect(errs).to.deep.equal([
        'openAPIV3Schema.properties[broken].properties[x].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
        'openAPIV3Schema.properties[ok].x-kubernetes-validations[0].rule: Invalid value: "bad": compilation failed',
      ]);
      seen.length = 0;
      validateStructuralSchema({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] }, 'openAPIV3Schema', { compileValidationRules: compile });
      expect(seen).to.deep.equal(['openAPIV3Schema']);
      seen.length = 0;
      // Not for non-structural schemas.
      validateStructuralSchema({ 'x-kubernetes-validations': [{ rule: 'true' }] } as JSONSchemaProps, 'openAPIV3Schema', { compileValidationRules: compile });
      expect(seen).to.deep.equal([]);
    });
  });

  describe('the status subresource', () => {
    const check = (s: JSONSchemaProps) => validateStructuralSchema(s, 'openAPIV3Schema', { statusSubresource: true }).map(String);
    it('allows only type object and a few keywords at the root', () => {
      expect(check({ type: 'object', description: 'x', required: ['spec'], properties: { spec: { type: 'object' } }, 'x-kubernetes-preserve-unknown-fields': true })).to.deep.equal([]);
      expect(check({ type: 'object', minProperties: 1 })).to.have.length(1);
      expect(check({ type: 'object', minProperties: 1 })[0]).to.match(/^openAPIV3Schema: Invalid value: \{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object",.*"MinProperties":1,.*"XValidations":null\}: only \[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations\] fields are allowed at the root of the schema if the status subresource is enabled$/);
      expect(check({ type: 'object', nullable: true }).length).to.equal(2);
      expect(validateStructuralSchema({ type: 'object', minProperties: 1 })).to.deep.equal([]);
    });
  });

  describe('defaults', () => {
    const check = (s: JSONSchemaProps) => validateStructuralSchema(s).map(String);
    const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps =>
      ({ type: 'object', properties: { spec: { type: 'object', properties, ...extra } } });

    it('accepts defaults that are pruned and valid', () => {
      expect(check(spec({ replicas: { type: 'integer', minimum: 1, default: 1 }, tags: { type: 'array', items: { type: 'string' }, default: ['a'] } }))).to.deep.equal([]);
      expect(check(spec({ obj: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x' } } }))).to.deep.equal([]);
      expect(check(spec({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { anything: { goes: 1 } } } }))).to.deep.equal([]);
      expect(check(spec({ m: { type: 'object', additionalProperties: { type: 'integer' }, default: { a: 1 } } }))).to.deep.equal([]);
    });

    it('requires defaults to be pruned', () => {
      expect(check(spec({ obj: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } }))).to.deep.equal([
        'openAPIV3Schema.properties[spec].properties[obj].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields',
      ]);
    });

    it('requires defaults to validate against their schema', () => {
      const errs = check(spec({ replicas: { type: 'integer', maximum: 10, default: 15 }, name: { type: 'string', default: 5 as unknown as string } }));
      expect(errs).to.have.length(2);
      expect(errs[0]).to.match(/^openAPIV3Schema\.properties\[spec\]\.properties\[replicas\]\.default: Invalid value: 15: .*should be less than or equal to 10$/);
      expect(errs[1]).to.match(/^openAPIV3Schema\.properties\[spec\]\.properties\[name\]\.default: Invalid value: "integer": .*must be of type string: "integer"$/);
    });

    it('keeps nullable in mind: null passes only where nullable is true', () => {
      const nullable = check(spec({ obj: { type: 'object', properties: { a: { type: 'string', nullable: true } }, default: { a: null } } }));
      expect(nullable).to.deep.equal([]);
      const notNullable = check(spec({ obj: { type: 'object', properties: { a: { type: 'string' } }, default: { a: null } } }));
      expect(notNullable).to.have.length(1);
      expect(notNullable[0]).to.match(/^openAPIV3Schema\.properties\[spec\]\.properties\[obj\]\.default\.a: Invalid value: "null": .*must be of type string: "null"$/);
      // `default: null` is no default at all (the v1 API drops it).
      expect(check(spec({ a: { type: 'string', default: null } }))).to.deep.equal([]);
    });

    it('forbids defaults in the root metadata and in additionalProperties of embedded metadata', () => {
      expect(check({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } } })).to.deep.equal([
        'openAPIV3Schema.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata',
      ]);
      const embedded = (metadata: JSONSchemaProps): JSONSchemaProps => spec({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata, spec: { type: 'object' } } } });
      expect(check(embedded({ type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } } } }))).to.deep.equal([
        'openAPIV3Schema.properties[spec].properties[template].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata',
      ]);
    });

    it('validates defaults inside embedded metadata as metadata, without pruning them', () => {
      const embedded = (metadata: JSONSchemaProps): JSONSchemaProps => spec({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata, spec: { type: 'object' } } } });
      expect(check(embedded({ type: 'object', default: { name: 'ok', labels: { app: 'x' } } }))).to.deep.equal([]);
      const bad = check(embedded({ type: 'object', properties: { name: { type: 'string', default: 'a/b' } } }));
      expect(bad).to.deep.equal([
        'openAPIV3Schema.properties[spec].properties[template].properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain \'/\'',
      ]);
      const badType = check(embedded({ type: 'object', properties: { name: { type: 'integer', default: 5 } } }));
      expect(badType).to.deep.equal([
        'openAPIV3Schema.properties[spec].properties[template].properties[metadata].properties[name].default: Invalid value: 5: must result in valid metadata: metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
      ]);
    });

    it('checks embedded resources inside a default', () => {
      const s = spec({ obj: { type: 'object', properties: { r: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }, default: { r: { kind: 'Pod' } } } });
      expect(check(s)).to.deep.equal(['openAPIV3Schema.properties[spec].properties[obj].default.r.apiVersion: Required value']);
    });
  });

  describe('the docs page (Specifying a structural schema)', () => {
    it('reports the six violations of non-structural example 3', () => {
      const example3 = {
        properties: {
          foo: { pattern: 'abc' },
          metadata: {
            type: 'object',
            properties: {
              name: { type: 'string', pattern: '^a' },
              finalizers: { type: 'array', items: { type: 'string', pattern: 'my-finalizer' } },
            },
          },
        },
        anyOf: [{ properties: { bar: { type: 'integer', minimum: 42 } }, required: ['bar'], description: 'foo bar object' }],
      } as JSONSchemaProps;
      expect(validateStructuralSchema(example3).map(String)).to.deep.equal([
        // bar's description is within anyOf (rule 3)
        'openAPIV3Schema.anyOf[0].description: Forbidden: must be empty to be structural',
        // bar's type is within anyOf (rule 3)
        'openAPIV3Schema.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural',
        // bar inside of anyOf is not specified outside (rule 2)
        'openAPIV3Schema.properties[bar]: Required value: because it is defined in openAPIV3Schema.anyOf[0].properties[bar]',
        // the type of foo is missing (rule 1)
        'openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields',
        // metadata.finalizers might not be restricted (rule 4)
        'openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified',
        // the type at the root is missing (rule 1)
        'openAPIV3Schema.type: Required value: must not be empty at the root',
      ]);
    });

    it('accepts the structural counterpart of example 3', () => {
      const corrected = {
        type: 'object',
        description: 'foo bar object',
        properties: {
          foo: { type: 'string', pattern: 'abc' },
          bar: { type: 'integer' },
          metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^a' } } },
        },
        anyOf: [{ properties: { bar: { minimum: 42 } }, required: ['bar'] }],
      } as JSONSchemaProps;
      expect(validateStructuralSchema(corrected)).to.deep.equal([]);
    });

    it('reports rule 2 for example 1 and accepts its correction', () => {
      const example1 = { type: 'object', allOf: [{ properties: { foo: { minLength: 1 } } }] } as JSONSchemaProps;
      expect(validateStructuralSchema(example1).map(String)).to.deep.equal([
        'openAPIV3Schema.properties[foo]: Required value: because it is defined in openAPIV3Schema.allOf[0].properties[foo]',
      ]);
      const correct = { type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ properties: { foo: { minLength: 1 } } }] } as JSONSchemaProps;
      expect(validateStructuralSchema(correct)).to.deep.equal([]);
    });

    it('reports rule 2 for example 2 and accepts its correction', () => {
      // Completeness is checked from the root's junctors (as upstream's validateStructuralCompleteness does).
      const example2 = { type: 'object', allOf: [{ items: { properties: { foo: { minLength: 1 } } } }] } as JSONSchemaProps;
      expect(validateStructuralSchema(example2).map(String)).to.deep.equal([
        'openAPIV3Schema.items: Required value: because it is defined in openAPIV3Schema.allOf[0].items',
      ]);
      const correct = {
        type: 'object',
        properties: {
          list: {
            type: 'array',
            items: { type: 'object', properties: { foo: { type: 'string' } } },
            allOf: [{ items: { properties: { foo: { minLength: 1 } } } }],
          },
        },
      } as JSONSchemaProps;
      expect(validateStructuralSchema(correct)).to.deep.equal([]);
    });

    it('accepts the int-or-string node and both int-or-string patterns', () => {
      const schema = {
        type: 'object',
        properties: {
          a: { 'x-kubernetes-int-or-string': true },
          b: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          c: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+%?$' }] },
        },
      } as JSONSchemaProps;
      expect(validateStructuralSchema(schema)).to.deep.equal([]);
    });

    it('accepts embedded resources, with or without preserved unknown fields', () => {
      const schema = {
        type: 'object',
        properties: {
          foo: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          bar: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        },
      } as JSONSchemaProps;
      expect(validateStructuralSchema(schema)).to.deep.equal([]);
    });
  });
});
