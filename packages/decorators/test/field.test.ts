import { expect } from 'chai';
import type { JSONSchemaProps } from '@kubekit/crd';
import { CustomResource, Field, Required, customResourceDefinition } from '@kubekit/decorators';

function rootSchema(cls: abstract new () => unknown): JSONSchemaProps {
  return customResourceDefinition(cls).spec.versions[0].schema!.openAPIV3Schema!;
}

function specSchema(cls: abstract new () => unknown): JSONSchemaProps {
  return rootSchema(cls).properties!.spec;
}

describe('Field', () => {
  it('writes the keywords under their own names, in a stable order', () => {
    class Spec {
      @Field({ maximum: 10, minimum: 1, type: 'integer', default: 1, description: 'How many.' }) replicas?: number;
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    const replicas = specSchema(Thing).properties!.replicas;
    expect(replicas).to.deep.equal({ description: 'How many.', type: 'integer', default: 1, minimum: 1, maximum: 10 });
    expect(Object.keys(replicas)).to.deep.equal(['description', 'type', 'default', 'minimum', 'maximum']);
  });

  it('infers the type from enum, default, items, properties and string keywords', () => {
    class Spec {
      @Field({ enum: ['red', 'green'] }) color?: string;
      @Field({ default: 'M' }) size?: string;
      @Field({ default: 3 }) count?: number;
      @Field({ default: 1.5 }) ratio?: number;
      @Field({ enum: [1, 2.5] }) mixed?: number;
      @Field({ default: false }) flag?: boolean;
      @Field({ items: { type: 'string' } }) tags?: string[];
      @Field({ additionalProperties: { type: 'string' } }) labels?: Record<string, string>;
      @Field({ pattern: '^a' }) name?: string;
      @Field({ format: 'int64' }) id?: number;
      @Field({ format: 'double' }) weight?: number;
      @Field({ format: 'date-time' }) when?: string;
      @Field({ maxItems: 3, items: { type: 'integer' } }) few?: number[];
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    const p = specSchema(Thing).properties!;
    const types = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.type]));
    expect(types).to.deep.equal({
      color: 'string', size: 'string', count: 'integer', ratio: 'number', mixed: 'number', flag: 'boolean',
      tags: 'array', labels: 'object', name: 'string', id: 'integer', weight: 'number', when: 'string', few: 'array',
    });
  });

  it('takes the type as a first argument', () => {
    class Spec {
      @Field('string', { minLength: 1 }) name?: string;
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    expect(specSchema(Thing).properties!.name).to.deep.equal({ type: 'string', minLength: 1 });
  });

  it('nests classes given by thunks, lists of them and maps of them', () => {
    class Port { @Field('integer') port?: number; @Required() @Field('string') name?: string }
    class Spec {
      @Field(() => [Port], { maxItems: 4, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }) ports?: Port[];
      @Field(() => Port, { description: 'The main one.' }) main?: Port;
      @Field({ type: 'object', additionalProperties: () => Port }) byName?: Record<string, Port>;
      @Field({ type: 'array', items: () => Port }) more?: Port[];
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    const port: JSONSchemaProps = { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } }, required: ['name'] };
    const p = specSchema(Thing).properties!;
    expect(p.ports).to.deep.equal({
      type: 'array', maxItems: 4, items: port, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
    });
    expect(p.main).to.deep.equal({ description: 'The main one.', ...port });
    expect(p.byName).to.deep.equal({ type: 'object', additionalProperties: port });
    expect(p.more).to.deep.equal({ type: 'array', items: port });
  });

  it('lists required properties in declaration order; others are optional', () => {
    class Spec {
      @Required() @Field('string') b?: string;
      @Field('string') optional?: string;
      @Field({ type: 'string', required: true }) a?: string;
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Required() @Field(() => Spec) spec?: Spec }
    expect(rootSchema(Thing).required).to.deep.equal(['spec']);
    expect(specSchema(Thing).required).to.deep.equal(['b', 'a']);
  });

  it('accepts inline object properties with their own required flags', () => {
    class Spec {
      @Field({ properties: { host: { type: 'string', required: true }, port: { type: 'integer' } } }) endpoint?: { host: string; port?: number };
    }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    expect(specSchema(Thing).properties!.endpoint).to.deep.equal({
      type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' } }, required: ['host'],
    });
  });

  it('inherits fields from a decorated parent class, the subclass overriding', () => {
    class Base { @Field('string') name?: string; @Field('string') kindOf?: string }
    class Spec extends Base { @Field({ type: 'string', enum: ['a'] }) override kindOf?: string = undefined; @Field('integer') extra?: number }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Spec) spec?: Spec }
    expect(specSchema(Thing).properties).to.deep.equal({
      name: { type: 'string' }, kindOf: { type: 'string', enum: ['a'] }, extra: { type: 'integer' },
    });
  });

  it('rejects recursive schemas, naming the cycle', () => {
    class Node { @Field(() => [Node]) children?: Node[] }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Tree' })
    class Tree { @Field(() => Node) spec?: Node }
    expect(() => customResourceDefinition(Tree)).to.throw(TypeError, 'Node.children: CRD schemas cannot be recursive, but Node → Node is');
  });

  it('rejects a class that has no decorated fields, naming where it is used', () => {
    class Plain { name?: string }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(() => Plain) spec?: Plain }
    expect(() => customResourceDefinition(Thing)).to.throw(TypeError, 'Thing.spec: class Plain has no kubekit decorators');
  });

  it('asks for a thunk when given a class', () => {
    class Spec { @Field('string') name?: string }
    @CustomResource({ group: 'g.example.com', version: 'v1', kind: 'Thing' })
    class Thing { @Field(Spec as unknown as () => typeof Spec) spec?: Spec }
    expect(() => customResourceDefinition(Thing)).to.throw(TypeError, 'Thing.spec: pass the class as a thunk');
  });

  it('is refused on static members and methods', () => {
    expect(() => {
      class Bad { @Field('string') static x?: string }
      return Bad;
    }).to.throw(TypeError, '@Field applies to public instance fields');
    expect(() => {
      class Bad { @(Field('string') as unknown as (value: unknown, context: unknown) => void) m(): void {} }
      return Bad;
    }).to.throw(TypeError, '@Field applies to class fields, not to a method');
  });
});
