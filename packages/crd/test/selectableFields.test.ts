import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  maxSelectableFields, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate, validateSelectableFields,
} from '@kubekit/crd';
import type { CustomResourceDefinition, JSONSchemaProps, SelectableField } from '@kubekit/crd';

// Upstream vectors: apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go
// (TestSelectableFields, TestValidateCustomResourceDefinitionUpdate).
interface VectorVersion { fieldPath: string; schema: JSONSchemaProps; selectableFields: SelectableField[] }
interface VectorError { type: string; field: string; message: string }
interface Case {
  id: string;
  name: string;
  upstream: string;
  versions: VectorVersion[];
  oldSelectableFieldsUnchanged?: boolean;
  expected: { errors: VectorError[] };
}
const vectors = JSON.parse(readFileSync(new URL('./fixtures/selectable_fields_validation.json', import.meta.url), 'utf8')) as {
  schemas: { shirt: JSONSchemaProps };
  cases: Case[];
};
const shirt = vectors.schemas.shirt;

function crd(versions: { schema: JSONSchemaProps; selectableFields: SelectableField[] }[]): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'shirts.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
      versions: versions.map((v, i) => ({
        name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: v.schema }, selectableFields: v.selectableFields,
      })),
    },
  };
}

function errorsOf(list: { type: string; field: string; toString(): string }[]): { type: string; field: string; message: string }[] {
  return list.map((e) => ({ type: e.type, field: e.field, message: e.toString() }));
}

function sortErrors<T extends { message: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
}

describe('validateSelectableFields', () => {
  describe('upstream vectors (selectable_fields_validation.json)', () => {
    for (const c of vectors.cases) {
      const expected = sortErrors(c.expected.errors.map(({ type, field, message }) => ({ type, field, message })));
      if (c.oldSelectableFieldsUnchanged === undefined) {
        it(`reports what ${c.upstream.split(' ').pop()} expects for ${c.id} (per list)`, () => {
          const got = c.versions.flatMap((v) => errorsOf(validateSelectableFields(v.schema, v.selectableFields, v.fieldPath)));
          expect(sortErrors(got)).to.deep.equal(expected);
        });
      }
      it(`reports what ${c.upstream.split(' ').pop()} expects for ${c.id} (whole v1 CRD)`, () => {
        // Upstream's table is on the internal version. Through the v1 API, per-version fields that are
        // identical in every version move to the top of the spec first (a single version's always do).
        const next = crd(c.versions);
        const single = c.versions.length === 1;
        const identicalFields = !single && c.versions.every((v) => JSON.stringify(v.selectableFields) === JSON.stringify(c.versions[0].selectableFields));
        let got;
        if (c.oldSelectableFieldsUnchanged === undefined) {
          got = validateCustomResourceDefinition(next);
        } else {
          const old = structuredClone(next);
          if (!c.oldSelectableFieldsUnchanged) old.spec.versions[0].selectableFields = [...c.versions[0].selectableFields.slice(0, 8), { jsonPath: '.different' }];
          got = validateCustomResourceDefinitionUpdate(next, old);
        }
        if (identicalFields) {
          // Differing schemas stay per version, the identical lists move up: the apiserver then finds no
          // top-level schema for them.
          expect(errorsOf(got).map((e) => e.message)).to.deep.equal(['spec.selectableFields: Invalid value: "": may only be set when validations.schema is included']);
          return;
        }
        const hoisted = (t: string) => (single ? t.replace('spec.versions[0].selectableFields', 'spec.selectableFields') : t);
        expect(sortErrors(errorsOf(got))).to.deep.equal(sortErrors(expected.map((e) => ({ ...e, field: hoisted(e.field), message: hoisted(e.message) }))));
      });
    }
  });

  describe('KEP-4358 rules', () => {
    const path = 'spec.versions[0].selectableFields';
    const check = (fields: string[]) => validateSelectableFields(shirt, fields.map((jsonPath) => ({ jsonPath })), path).map(String);

    it('accepts string, integer and boolean leaves, enums and formats included', () => {
      expect(check(['.spec.color', '.spec.quantity', '.spec.size', '.spec.branded', '.spec.when', '.status.phase'])).to.deep.equal([]);
    });

    it('accepts a map value reached through additionalProperties', () => {
      expect(check(['.spec.labels.team'])).to.deep.equal([]);
    });

    it('refuses number, object, array and int-or-string fields', () => {
      const detail = 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.';
      expect(check(['.spec.price', '.spec.nested', '.spec.tags', '.spec.ios'])).to.deep.equal([
        `${path}[0].jsonPath: Invalid value: ".spec.price": ${detail}`,
        `${path}[1].jsonPath: Invalid value: ".spec.nested": ${detail}`,
        `${path}[2].jsonPath: Invalid value: ".spec.tags": ${detail}`,
        `${path}[3].jsonPath: Invalid value: ".spec.ios": ${detail}`,
      ]);
    });

    it('refuses paths into metadata', () => {
      expect(check(['.metadata.name'])).to.deep.equal([`${path}[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata`]);
    });

    it('refuses array notation, missing leading dots and unfinished paths with the apiserver\'s reasons', () => {
      expect(check([".spec['color']", 'spec.color', '.spec.', '.spec.nested.deep.leaf]', '.spec.items.name', '.spec.free.x'])).to.deep.equal([
        `${path}[0].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed`,
        `${path}[1].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec`,
        `${path}[2].jsonPath: Invalid value: ".spec.": is an invalid path: unexpected end of JSON path`,
        `${path}[3].jsonPath: Invalid value: ".spec.nested.deep.leaf]": is an invalid path: expected [ or . but got: ]`,
        `${path}[4].jsonPath: Invalid value: ".spec.items.name": is an invalid path: does not refer to a valid field`,
        `${path}[5].jsonPath: Invalid value: ".spec.free.x": is an invalid path: does not refer to a valid field`,
      ]);
    });

    it('requires a jsonPath', () => {
      expect(check(['', '.spec.color'])).to.deep.equal([`${path}[0].jsonPath: Required value`]);
    });

    it('reports duplicates by their canonical path', () => {
      expect(check(['.spec.color', '.spec.labels.a', '.spec.color', '.spec.labels.a'])).to.deep.equal([
        `${path}[2].jsonPath: Duplicate value: ".spec.color"`,
        `${path}[3].jsonPath: Duplicate value: ".spec.labels.a"`,
      ]);
    });

    it(`accepts ${maxSelectableFields} fields and refuses more, counting unique paths`, () => {
      const eight = ['.spec.color', '.spec.quantity', '.spec.size', '.spec.branded', '.spec.when', '.status.phase', '.spec.labels.a', '.spec.labels.b'];
      expect(check(eight)).to.deep.equal([]);
      expect(check([...eight, '.spec.color'])).to.deep.equal([`${path}[8].jsonPath: Duplicate value: ".spec.color"`]);
      expect(check([...eight, '.spec.labels.c'])).to.deep.equal([`${path}: Too many: 9: must have at most 8 items`]);
      expect(validateSelectableFields(shirt, [...eight, '.spec.labels.c'].map((jsonPath) => ({ jsonPath })), path, { allowTooMany: true })).to.deep.equal([]);
    });

    it('needs a schema', () => {
      expect(validateSelectableFields(undefined, [{ jsonPath: '.spec.color' }], path).map(String)).to.deep.equal([
        `${path}: Invalid value: "": may only be set when \`version.schema.openAPIV3Schema\` is not included`,
      ]);
      const noSchema = crd([{ schema: shirt, selectableFields: [{ jsonPath: '.spec.color' }] }]);
      delete noSchema.spec.versions[0].schema;
      noSchema.spec.preserveUnknownFields = false;
      expect(validateCustomResourceDefinition(noSchema).map(String)).to.include(
        'spec.selectableFields: Invalid value: "": may only be set when validations.schema is included');
    });

    it('reports per version when identical schemas are hoisted but the selectable fields differ, as the apiserver does', () => {
      const c = crd([{ schema: shirt, selectableFields: [{ jsonPath: '.spec.color' }] }, { schema: shirt, selectableFields: [{ jsonPath: '.spec.size' }] }]);
      expect(validateCustomResourceDefinition(c).map(String)).to.deep.equal([
        'spec.versions[0].selectableFields: Invalid value: "": may only be set when `version.schema.openAPIV3Schema` is not included',
        'spec.versions[1].selectableFields: Invalid value: "": may only be set when `version.schema.openAPIV3Schema` is not included',
      ]);
    });

    it('never throws for malformed input', () => {
      expect(validateSelectableFields(shirt, 'nope' as unknown as SelectableField[], path).map(String)).to.deep.equal([
        `${path}: Invalid value: "nope": json: cannot unmarshal string into Go value of type []v1.SelectableField`,
      ]);
      expect(validateSelectableFields(shirt, [{ jsonPath: 5 } as unknown as SelectableField], path)).to.have.length(1);
    });
  });
});
