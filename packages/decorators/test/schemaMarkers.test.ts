import { expect } from 'chai';
import type { JSONSchemaProps } from '@kubekit/crd';
import {
  CustomResource,
  Description,
  EmbeddedResource,
  Field,
  IntOrString,
  ListType,
  MapType,
  Optional,
  PreserveUnknownFields,
  Required,
  customResourceDefinition,
} from '@kubekit/decorators';

function specOf(cls: abstract new () => unknown): JSONSchemaProps {
  return customResourceDefinition(cls).spec.versions[0].schema!.openAPIV3Schema!.properties!.spec;
}

describe('schema markers', () => {
  it('set the x-kubernetes extensions under their own names', () => {
    class Port { @Required() @Field('string') name?: string; @Field('integer') port?: number }
    @MapType('atomic')
    class Labels { @Field('string') app?: string }
    class Spec {
      @IntOrString() maxSurge?: number | string;
      @PreserveUnknownFields() @Field('object') config?: object;
      @PreserveUnknownFields() free?: unknown;
      @EmbeddedResource() @PreserveUnknownFields() @Field('object') template?: object;
      @ListType('map', ['name']) @Field(() => [Port]) ports?: Port[];
      @ListType('set') @Field({ type: 'array', items: { type: 'string' } }) tags?: string[];
      @MapType('granular') @Field({ type: 'object', additionalProperties: { type: 'string' } }) annotations?: Record<string, string>;
      @Field(() => Labels) labels?: Labels;
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    const p = specOf(Thing).properties!;
    expect(p.maxSurge).to.deep.equal({ 'x-kubernetes-int-or-string': true });
    expect(p.config).to.deep.equal({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.free).to.deep.equal({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.template).to.deep.equal({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
    expect(p.ports['x-kubernetes-list-type']).to.equal('map');
    expect(p.ports['x-kubernetes-list-map-keys']).to.deep.equal(['name']);
    expect(p.tags).to.deep.equal({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' });
    expect(p.annotations['x-kubernetes-map-type']).to.equal('granular');
    expect(p.labels['x-kubernetes-map-type']).to.equal('atomic');
  });

  it('take descriptions on classes and properties; an explicit @Field description wins over @Description', () => {
    @Description('The spec.')
    class Spec {
      @Description('The color.') @Field('string') color?: string;
      @Field({ type: 'string', description: 'From @Field.' }) @Description('From @Description.') size?: string;
    }
    @Description('A thing.')
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    const root = customResourceDefinition(Thing).spec.versions[0].schema!.openAPIV3Schema!;
    expect(root.description).to.equal('A thing.');
    expect(root.properties!.spec.description).to.equal('The spec.');
    expect(root.properties!.spec.properties!.color.description).to.equal('The color.');
    // Decorators apply bottom-up: @Description runs first, then @Field sets its own description.
    expect(root.properties!.spec.properties!.size.description).to.equal('From @Field.');

    @CustomResource({ group: 'g.example.com', version: 'v2', kind: 'Other', description: 'From the options.' })
    @Description('Loses to the options.')
    class Other { @Field(() => Spec) spec?: Spec }
    expect(customResourceDefinition(Other).spec.versions[0].schema!.openAPIV3Schema!.description).to.equal('From the options.');
  });

  it('@Optional overrides an inherited @Required', () => {
    class Base { @Required() @Field('string') name?: string }
    class Spec extends Base { @Optional() override name?: string = undefined }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    expect(specOf(Thing).required).to.equal(undefined);
    expect(specOf(Thing).properties!.name).to.deep.equal({ type: 'string' });
  });

  it('work on accessor fields', () => {
    class Spec { @Field('string') accessor color: string | undefined }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    expect(specOf(Thing).properties).to.deep.equal({ color: { type: 'string' } });
  });

  it('types: the compiler checks values and defaults against the declared type', () => {
    class Spec {
      // @ts-expect-error -- a string field declared as a number
      @Field('string') count?: number;
      // @ts-expect-error -- a default of the wrong type with the shorthand
      @Field('integer', { default: 'one' }) replicas?: number;
      // @ts-expect-error -- @IntOrString on a boolean
      @IntOrString() flag?: boolean;
      // @ts-expect-error -- @ListType on a scalar
      @ListType('set') @Field('string') one?: string;
      @Field('integer', { default: 1, minimum: 0 }) ok?: number;
    }
    expect(Spec).to.be.a('function');
  });
});
