import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import { CustomResource, CustomResourceObject, Field, Selectable, fieldSelector } from '@kubekit/decorators';
import type { FieldSelectorSet, SelectableFieldPath } from '@kubekit/decorators';

class ShirtSpec {
  @Selectable() @Field({ type: 'string', enum: ['red', 'green', 'blue'] }) color?: Selectable<'red' | 'green' | 'blue'>;
  @Selectable() @Field('string') size?: Selectable<string>;
  @Selectable() @Field('integer') quantity?: Selectable<number>;
  @Selectable() @Field('boolean') branded?: Selectable<boolean>;
  @Field('integer') replicas?: number;
}

@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
class Shirt extends CustomResourceObject {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
}

/** A resource whose properties do not use Selectable<…>: every declared scalar path is a key. */
class PlainSpec {
  @Selectable() @Field('string') color?: string;
  @Field('string') size?: string;
  @Field(() => [PlainItem]) items?: PlainItem[];
}
class PlainItem { @Field('string') name?: string }
@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'PlainShirt', scope: 'Cluster' })
class PlainShirt {
  @Field(() => PlainSpec) spec?: PlainSpec;
}

describe('fieldSelector', () => {
  it('prints the canonical selector: terms sorted, values escaped', () => {
    expect(fieldSelector(Shirt, { 'spec.color': 'blue' })).to.equal('spec.color=blue');
    expect(fieldSelector(Shirt, { 'spec.size': 'M', 'spec.color': 'green' })).to.equal('spec.color=green,spec.size=M');
    expect(fieldSelector(Shirt, { 'spec.size': 'a,b=c\\d' })).to.equal('spec.size=a\\,b\\=c\\\\d');
    expect(fieldSelector(Shirt, { 'metadata.name': 'example1', 'spec.color': { '!=': 'red' } })).to.equal('metadata.name=example1,spec.color!=red');
  });

  it('prints integers in full and booleans as true/false', () => {
    expect(fieldSelector(Shirt, { 'spec.quantity': 2, 'spec.branded': false })).to.equal('spec.branded=false,spec.quantity=2');
    expect(fieldSelector(Shirt, { 'spec.quantity': 12345678901234567890n })).to.equal('spec.quantity=12345678901234567890');
    expect(fieldSelector(Shirt, { 'spec.quantity': '7' })).to.equal('spec.quantity=7');
  });

  it('is empty for no requirements and skips undefined ones', () => {
    expect(fieldSelector(Shirt, {})).to.equal('');
    expect(fieldSelector(Shirt, { 'spec.color': undefined })).to.equal('');
  });

  it('throws the apiserver\'s error for labels the version does not accept', () => {
    // spec.size is a key at compile time here (PlainShirt has no Selectable<…> types) but not selectable.
    expect(() => fieldSelector(PlainShirt, { 'spec.size': 'M' })).to.throw(KubeError, 'field label not supported: spec.size');
    // Cluster-scoped: no metadata.namespace.
    expect(() => fieldSelector(PlainShirt, { 'metadata.namespace': 'default' })).to.throw(KubeError, 'field label not supported: metadata.namespace');
    expect(fieldSelector(PlainShirt, { 'spec.color': 'blue' })).to.equal('spec.color=blue');
    expect(() => fieldSelector(PlainShirt, { 'spec.size': 'M' })).to.throw(KubeError).with.property('reason', 'BadRequest');
  });

  it('refuses a class without @CustomResource', () => {
    expect(() => fieldSelector(ShirtSpec, {})).to.throw(TypeError, 'ShirtSpec is not decorated with @CustomResource');
  });

  it('types: accepts declared selectable fields and rejects misspelt, undeclared and non-selectable ones', () => {
    // These lines are checked by `tsc -p tsconfig.test.json`: each @ts-expect-error must be an error.
    const ok: string[] = [
      fieldSelector(Shirt, { 'spec.color': 'blue' }),
      fieldSelector(Shirt, { 'metadata.name': 'x', 'metadata.namespace': 'default' }),
      fieldSelector(Shirt, { 'spec.quantity': 3, 'spec.branded': 'true' }),
      fieldSelector(PlainShirt, { 'spec.color': 'blue' }),
    ];
    expect(ok).to.have.length(4);
    const rejected = [
      // @ts-expect-error -- misspelt field
      () => fieldSelector(Shirt, { 'spec.colour': 'blue' }),
      // @ts-expect-error -- declared but not Selectable<…>
      () => fieldSelector(Shirt, { 'spec.replicas': 1 }),
      // @ts-expect-error -- not a field of the class at all
      () => fieldSelector(Shirt, { 'status.phase': 'Running' }),
      // @ts-expect-error -- a value outside the enum
      () => fieldSelector(Shirt, { 'spec.color': 'purple' }),
      // @ts-expect-error -- metadata beyond name and namespace
      () => fieldSelector(Shirt, { 'metadata.uid': 'x' }),
      // @ts-expect-error -- misspelt field of a class without Selectable<…> types
      () => fieldSelector(PlainShirt, { 'spec.colr': 'blue' }),
      // @ts-expect-error -- through a list: never selectable
      () => fieldSelector(PlainShirt, { 'spec.items.name': 'x' }),
    ];
    expect(rejected).to.have.length(7);
    type ShirtPaths = SelectableFieldPath<Shirt>;
    const paths: ShirtPaths[] = ['metadata.name', 'metadata.namespace', 'spec.color', 'spec.size', 'spec.quantity', 'spec.branded'];
    expect(paths).to.have.length(6);
    const set: FieldSelectorSet<Shirt> = { 'spec.size': { '!=': 'XL' } };
    expect(fieldSelector(Shirt, set)).to.equal('spec.size!=XL');
  });

  it('types: Selectable<T> values read and write as plain values', () => {
    const shirt: Shirt = { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'example1' }, spec: { color: 'blue', size: 'S', quantity: 2 } };
    const color: string | undefined = shirt.spec?.color;
    const quantity: number = (shirt.spec?.quantity ?? 0) + 1;
    expect([color, quantity]).to.deep.equal(['blue', 3]);
  });
});
