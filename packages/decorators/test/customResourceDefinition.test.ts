import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { InvalidError, KubeError } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';
import {
  CustomResource,
  CustomResourceDeclarationError,
  Field,
  PrinterColumn,
  Required,
  Selectable,
  Validation,
  customResourceDefinition,
  customResourceDefinitions,
} from '@kubekit/decorators';

const integrationFixture = JSON.parse(
  readFileSync(new URL('./fixtures/fieldselector-integration-crd.json', import.meta.url), 'utf8'),
) as { crd: CustomResourceDefinition };

/** Runs `fn`, expecting a CustomResourceDeclarationError, and returns it. */
function declarationError(fn: () => unknown): CustomResourceDeclarationError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(CustomResourceDeclarationError);
    return err as CustomResourceDeclarationError;
  }
  expect.fail('expected a CustomResourceDeclarationError');
}

const typeDetail = 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.';

describe('customResourceDefinition', () => {
  it('builds the issue\'s Shirt: names, status subresource, selectable fields, printer columns, defaults', () => {
    class ShirtSpec {
      @Selectable() @PrinterColumn() @Field({ enum: ['red', 'green', 'blue'] }) color!: string;
      @Selectable() @PrinterColumn() @Field({ default: 'M' }) size?: string;
      @Field({ type: 'integer', minimum: 1, maximum: 10, default: 1 }) replicas?: number;
    }
    class ShirtStatus { @Field('string') phase?: string }
    @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt', shortNames: ['sh'], categories: ['all'], subresources: { status: true } })
    class Shirt { @Field(() => ShirtSpec) spec!: ShirtSpec; @Field(() => ShirtStatus) status?: ShirtStatus }

    expect(customResourceDefinition(Shirt)).to.deep.equal({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'shirts.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt', shortNames: ['sh'], categories: ['all'] },
        scope: 'Namespaced',
        versions: [{
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    color: { type: 'string', enum: ['red', 'green', 'blue'] },
                    size: { type: 'string', default: 'M' },
                    replicas: { type: 'integer', default: 1, minimum: 1, maximum: 10 },
                  },
                },
                status: { type: 'object', properties: { phase: { type: 'string' } } },
              },
            },
          },
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Size', type: 'string', jsonPath: '.spec.size' },
          ],
          selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
        }],
      },
    });
  });

  it('derives selectable paths and printer columns at any depth, plus class-level ones by jsonPath', () => {
    class Deep { @Selectable() @PrinterColumn({ name: 'Leaf', priority: 1, description: 'the leaf' }) @Field('string') leaf?: string }
    class Nested { @Field(() => Deep) deep?: Deep }
    class Spec {
      @Field(() => Nested) nested?: Nested;
      @PrinterColumn() @Field({ type: 'string', format: 'date-time' }) since?: string;
      @PrinterColumn() @Field('boolean') ready?: boolean;
    }
    @Selectable({ jsonPath: '.spec.other' })
    @PrinterColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
    @PrinterColumn({ name: 'Other', type: 'string', jsonPath: '.spec.other', format: 'password' })
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    // The class-level @Selectable names a path the schema lacks: the apiserver's own check says so.
    const err = declarationError(() => customResourceDefinition(Thing));
    expect(err.fieldErrors.map(String)).to.deep.equal([
      'spec.selectableFields[1].jsonPath: Invalid value: ".spec.other": is an invalid path: does not refer to a valid field',
    ]);
    expect(err.message).to.contain('@Selectable() on class Thing: spec.selectableFields[1].jsonPath');

    @Selectable({ jsonPath: '.spec.since' })
    @PrinterColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing2 { @Field(() => Spec) spec?: Spec }
    const version = customResourceDefinition(Thing2).spec.versions[0];
    expect(version.selectableFields).to.deep.equal([{ jsonPath: '.spec.nested.deep.leaf' }, { jsonPath: '.spec.since' }]);
    expect(version.additionalPrinterColumns).to.deep.equal([
      { name: 'Leaf', type: 'string', description: 'the leaf', priority: 1, jsonPath: '.spec.nested.deep.leaf' },
      { name: 'Since', type: 'date', jsonPath: '.spec.since' },
      { name: 'Ready', type: 'boolean', jsonPath: '.spec.ready' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
  });

  it('adds CEL rules on fields and classes, in source order', () => {
    @Validation({ rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' })
    @Validation({ rule: 'self.replicas <= self.maxReplicas', message: 'replicas should be smaller than or equal to maxReplicas.' })
    class Spec {
      @Required() @Field('integer') minReplicas?: number;
      @Required() @Field('integer') replicas?: number;
      @Required() @Field('integer') maxReplicas?: number;
      @Validation({ rule: "self.startsWith('kube')", messageExpression: '"bad: " + self', reason: 'FieldValueForbidden', fieldPath: '' })
      @Field('string') name?: string;
    }
    @Validation({ rule: 'self.spec.replicas >= 0' })
    @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' })
    class CronTab { @Field(() => Spec) spec?: Spec }
    const root = customResourceDefinition(CronTab).spec.versions[0].schema!.openAPIV3Schema!;
    expect(root['x-kubernetes-validations']).to.deep.equal([{ rule: 'self.spec.replicas >= 0' }]);
    expect(root.properties!.spec['x-kubernetes-validations']).to.deep.equal([
      { rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' },
      { rule: 'self.replicas <= self.maxReplicas', message: 'replicas should be smaller than or equal to maxReplicas.' },
    ]);
    expect(root.properties!.spec.required).to.deep.equal(['minReplicas', 'replicas', 'maxReplicas']);
    expect(root.properties!.spec.properties!.name['x-kubernetes-validations']).to.deep.equal([
      { rule: "self.startsWith('kube')", messageExpression: '"bad: " + self', reason: 'FieldValueForbidden', fieldPath: '' },
    ]);
  });

  it('makes one CRD of several versions, each with its own selectable fields (the KEP integration test\'s Shirt)', () => {
    // staging/src/k8s.io/apiextensions-apiserver/test/integration/fieldselector_test.go: spec.color in v1 is spec.hue in v1beta1.
    class ShirtSpecV1 {
      @Selectable() @Field('string') color?: string;
      @Selectable() @Field('integer') quantity?: number;
      @Selectable() @Field({ type: 'string', enum: ['S', 'M', 'L', 'XL'] }) size?: string;
      @Selectable() @Field('boolean') branded?: boolean;
    }
    class ShirtSpecV1beta1 {
      @Selectable() @Field('string') hue?: string;
      @Selectable() @Field('integer') quantity?: number;
      @Selectable() @Field({ type: 'string', enum: ['S', 'M', 'L', 'XL'] }) size?: string;
      @Selectable() @Field('boolean') branded?: boolean;
    }
    const options = { group: 'tests.example.com', kind: 'Shirt', scope: 'Cluster', listKind: 'ShirtList' } as const;
    @CustomResource({ ...options, version: 'v1beta1' })
    class ShirtV1beta1 { @Field(() => ShirtSpecV1beta1) spec?: ShirtSpecV1beta1 }
    @CustomResource({ ...options, version: 'v1', storage: true })
    class ShirtV1 { @Field(() => ShirtSpecV1) spec?: ShirtSpecV1 }
    expect(customResourceDefinition(ShirtV1beta1, ShirtV1)).to.deep.equal(integrationFixture.crd);
  });

  it('lists versions by Kubernetes version priority and keeps served, deprecated and deprecationWarning', () => {
    class Spec { @Field('string') a?: string }
    const common = { group: 'g.example.com', kind: 'Widget' } as const;
    @CustomResource({ ...common, version: 'v1alpha1', served: false })
    class A { @Field(() => Spec) spec?: Spec }
    @CustomResource({ ...common, version: 'v2', storage: true })
    class B { @Field(() => Spec) spec?: Spec }
    @CustomResource({ ...common, version: 'v1beta1', deprecated: true, deprecationWarning: 'use v2' })
    class C { @Field(() => Spec) spec?: Spec }
    const crd = customResourceDefinition(A, B, C);
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.deprecated, v.deprecationWarning])).to.deep.equal([
      ['v2', true, true, undefined, undefined],
      ['v1beta1', true, false, true, 'use v2'],
      ['v1alpha1', false, false, undefined, undefined],
    ]);
  });

  it('derives plural and singular names, and takes given ones', () => {
    class Spec { @Field('string') a?: string }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'NetworkPolicy' })
    class P { @Field(() => Spec) spec?: Spec }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Box', scope: 'Cluster' })
    class Q { @Field(() => Spec) spec?: Spec }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Mouse', plural: 'mice', singular: 'mouse', listKind: 'MouseList' })
    class R { @Field(() => Spec) spec?: Spec }
    const [p, q, r] = customResourceDefinitions([P, Q, R]);
    expect([p.metadata.name, p.spec.names]).to.deep.equal(['networkpolicies.g.example.com', { plural: 'networkpolicies', singular: 'networkpolicy', kind: 'NetworkPolicy' }]);
    expect([q.metadata.name, q.spec.scope, q.spec.names.plural]).to.deep.equal(['boxes.g.example.com', 'Cluster', 'boxes']);
    expect(r.spec.names).to.deep.equal({ plural: 'mice', singular: 'mouse', kind: 'Mouse', listKind: 'MouseList' });
  });

  it('refuses classes without @CustomResource and classes of several kinds', () => {
    class Plain { @Field('string') a?: string }
    expect(() => customResourceDefinition(Plain)).to.throw(TypeError, 'Plain is not decorated with @CustomResource');
    class Spec { @Field('string') a?: string }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'One' })
    class One { @Field(() => Spec) spec?: Spec }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Two' })
    class Two { @Field(() => Spec) spec?: Spec }
    expect(() => customResourceDefinition(One, Two)).to.throw(TypeError, 'takes the classes of one kind, got One.g.example.com, Two.g.example.com');
    expect(customResourceDefinitions([One, Two]).map((c) => c.metadata.name)).to.deep.equal(['ones.g.example.com', 'twos.g.example.com']);
  });

  it('reports versions of one kind that disagree on shared names', () => {
    class Spec { @Field('string') a?: string }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing', shortNames: ['th'], storage: true })
    class V1 { @Field(() => Spec) spec?: Spec }
    @CustomResource({ group: 'g.example.com', version: 'v2', kind: 'Thing', shortNames: ['t'] })
    class V2 { @Field(() => Spec) spec?: Spec }
    const err = declarationError(() => customResourceDefinition(V1, V2));
    expect(err.fieldErrors.map((e) => [e.type, e.field, e.badValue, e.detail])).to.deep.equal([
      ['FieldValueInvalid', 'spec.names.shortNames', ['th'], 'declared differently by @CustomResource on V2 (["t"]) and on V1'],
    ]);
    expect(err.message).to.equal(
      `CustomResourceDefinition.apiextensions.k8s.io "things.g.example.com" is invalid: @CustomResource() on class V1: ${err.fieldErrors[0].toString()}`,
    );
  });

  describe('mistakes, reported with the apiserver\'s message and the declaring class and property', () => {
    it('a selectable field on an object', () => {
      class Spec { @Field('string') color?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt {
        // @ts-expect-error -- @Selectable() accepts only scalar properties; the apiserver's rule backs the compiler up.
        @Selectable() @Field(() => Spec) spec?: Spec;
      }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err).to.be.instanceOf(InvalidError).and.to.be.instanceOf(KubeError);
      expect(err.reason).to.equal('Invalid');
      expect(err.code).to.equal(422);
      expect(err.fieldErrors.map(String)).to.deep.equal([`spec.selectableFields[0].jsonPath: Invalid value: ".spec": ${typeDetail}`]);
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          `@Selectable() on Shirt.spec: spec.selectableFields[0].jsonPath: Invalid value: ".spec": ${typeDetail}`,
      );
      expect(err.causes).to.deep.equal([{
        reason: 'FieldValueInvalid', field: 'spec.selectableFields[0].jsonPath', message: `Invalid value: ".spec": ${typeDetail}`,
      }]);
    });

    it('a selectable field of type number', () => {
      class ShirtSpec { @Selectable() @Field('number') price?: number }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          `@Selectable() on ShirtSpec.price: spec.selectableFields[0].jsonPath: Invalid value: ".spec.price": ${typeDetail}`,
      );
      expect(err.sources).to.deep.equal(['@Selectable() on ShirtSpec.price']);
    });

    it('more than 8 selectable fields in a version', () => {
      class ShirtSpec {
        @Selectable() @Field('string') a1?: string;
        @Selectable() @Field('string') a2?: string;
        @Selectable() @Field('string') a3?: string;
        @Selectable() @Field('string') a4?: string;
        @Selectable() @Field('string') a5?: string;
        @Selectable() @Field('string') a6?: string;
        @Selectable() @Field('string') a7?: string;
        @Selectable() @Field('string') a8?: string;
        @Selectable() @Field('string') a9?: string;
      }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.fieldErrors.map(String)).to.deep.equal(['spec.selectableFields: Too many: 9: must have at most 8 items']);
      const declared = Array.from({ length: 9 }, (_, i) => `ShirtSpec.a${i + 1}`).join(', ');
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          `@Selectable() on ${declared}: spec.selectableFields: Too many: 9: must have at most 8 items`,
      );
    });

    it('a default that is not valid for its field', () => {
      class CronTabSpec { @Field({ type: 'integer', minimum: 1, maximum: 10, default: 11 }) replicas?: number }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' })
      class CronTab { @Field(() => CronTabSpec) spec?: CronTabSpec }
      const err = declarationError(() => customResourceDefinition(CronTab));
      // Upstream: defaulting.ValidateDefaults → validation.ValidateCustomResource(path.Child("default"), …) with the
      // kube-openapi validator rooted at "" (hence the empty name before "in body").
      const text = 'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 11:  in body should be less than or equal to 10';
      expect(err.fieldErrors.map(String)).to.deep.equal([text]);
      expect(err.message).to.equal(`CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: CronTabSpec.replicas: ${text}`);
    });

    it('a default of the wrong type', () => {
      class CronTabSpec {
        // @ts-expect-error -- an integer field's default must be a number; the apiserver's rule backs the compiler up.
        @Field({ type: 'integer', default: 'one' }) replicas?: number;
      }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' })
      class CronTab { @Field(() => CronTabSpec) spec?: CronTabSpec }
      const err = declarationError(() => customResourceDefinition(CronTab));
      expect(err.fieldErrors).to.have.length(1);
      expect(err.fieldErrors[0].field).to.equal('spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default');
      expect(err.sources).to.deep.equal(['CronTabSpec.replicas']);
    });

    it('two storage versions', () => {
      class Spec { @Field('string') color?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt', storage: true })
      class ShirtV1 { @Field(() => Spec) spec?: Spec }
      @CustomResource({ group: 'stable.example.com', version: 'v2', kind: 'Shirt', storage: true })
      class ShirtV2 { @Field(() => Spec) spec?: Spec }
      const err = declarationError(() => customResourceDefinition(ShirtV1, ShirtV2));
      // Upstream validation.go: the versions check, and the stored-versions check of the status the
      // create strategy prepares (status.storedVersions = the first storage version).
      expect(err.fieldErrors.map((e) => [e.type, e.field, e.detail])).to.deep.equal([
        ['FieldValueInvalid', 'spec.versions', 'must have exactly one version marked as storage version'],
        ['FieldValueInvalid', 'status.storedVersions', 'must have the storage version v1'],
      ]);
      expect(err.fieldErrors[1].badValue).to.deep.equal(['v2']);
      const declared = '@CustomResource() on classes ShirtV2 (v2), ShirtV1 (v1)';
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          `[${declared}: ${err.fieldErrors[0].toString()}, ${declared}: ${err.fieldErrors[1].toString()}]`,
      );
    });

    it('no storage version among several', () => {
      class Spec { @Field('string') color?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class ShirtV1 { @Field(() => Spec) spec?: Spec }
      @CustomResource({ group: 'stable.example.com', version: 'v2', kind: 'Shirt' })
      class ShirtV2 { @Field(() => Spec) spec?: Spec }
      const err = declarationError(() => customResourceDefinition(ShirtV1, ShirtV2));
      expect(err.fieldErrors.map((e) => e.detail)).to.deep.equal([
        'must have exactly one version marked as storage version',
        'must have at least one stored version',
      ]);
      expect(err.sources).to.deep.equal(['@CustomResource() on classes ShirtV2 (v2), ShirtV1 (v1)', '@CustomResource() on classes ShirtV2 (v2), ShirtV1 (v1)']);
    });

    it('a selectable path into metadata', () => {
      class ShirtMeta { @Selectable() @Field('string') name?: string }
      class ShirtSpec { @Field('string') color?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtMeta) metadata?: ShirtMeta; @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          '@Selectable() on ShirtMeta.name: spec.selectableFields[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata',
      );
    });

    it('a class-level selectable path into undeclared metadata', () => {
      class ShirtSpec { @Field('string') color?: string }
      @Selectable({ jsonPath: '.metadata.name' })
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ' +
          '@Selectable() on class Shirt: spec.selectableFields[0].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
      );
    });

    it('a selectable field inside a list', () => {
      class Item { @Selectable() @Field('string') name?: string }
      class ShirtSpec { @Field(() => [Item]) items?: Item[] }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.fieldErrors.map(String)).to.deep.equal([
        'spec.selectableFields[0].jsonPath: Invalid value: ".spec.items[*].name": is an invalid path: array notation is not allowed',
      ]);
      expect(err.sources).to.deep.equal(['@Selectable() on Item.name']);
    });

    it('a CEL rule that does not compile, named by the class that declared it', () => {
      @Validation({ rule: 'self.replicas == true' })
      class BaseSpec { @Field('integer') replicas?: number }
      class CronTabSpec extends BaseSpec { @Field('string') image?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'CronTab' })
      class CronTab { @Field(() => CronTabSpec) spec?: CronTabSpec }
      const err = declarationError(() => customResourceDefinition(CronTab));
      expect(err.fieldErrors).to.have.length(1);
      expect(err.fieldErrors[0].field).to.equal('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule');
      // The docs' no_matching_overload example: "found no matching overload for '_==_' applied to '(int, bool)'".
      expect(err.fieldErrors[0].detail).to.contain("found no matching overload for '_==_' applied to '(int, bool)'");
      expect(err.sources).to.deep.equal(['@Validation() on class BaseSpec']);
      expect(err.message).to.equal(
        `CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: @Validation() on class BaseSpec: ${err.fieldErrors[0].toString()}`,
      );
    });

    it('a field without a type', () => {
      class ShirtSpec { @Field({ description: 'no type' }) color?: string }
      @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
      class Shirt { @Field(() => ShirtSpec) spec?: ShirtSpec }
      const err = declarationError(() => customResourceDefinition(Shirt));
      expect(err.message).to.equal(
        'CustomResourceDefinition.apiextensions.k8s.io "shirts.stable.example.com" is invalid: ShirtSpec.color: ' +
          'spec.validation.openAPIV3Schema.properties[spec].properties[color].type: Required value: must not be empty for specified object fields',
      );
    });
  });
});
