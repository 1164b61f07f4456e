import { expect } from 'chai';
import { readFileSync } from 'node:fs';
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
