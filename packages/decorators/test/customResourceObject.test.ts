import { expect } from 'chai';
import { CustomResource, CustomResourceObject, Field, customResourceInfo, isCustomResource } from '@kubekit/decorators';
import type { ResourceOf } from '@kubekit/decorators';

class Spec { @Field('string') color?: string }

@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Policy', scope: 'Cluster' })
class Policy extends CustomResourceObject { @Field(() => Spec) spec?: Spec }

class Undecorated extends Policy {}

describe('customResourceInfo', () => {
  it('gives the API coordinates with the CRD\'s defaults', () => {
    expect(customResourceInfo(Policy)).to.deep.equal({
      group: 'stable.example.com', version: 'v1', kind: 'Policy', apiVersion: 'stable.example.com/v1', plural: 'policies', singular: 'policy', scope: 'Cluster',
    });
    expect(() => customResourceInfo(Spec)).to.throw(TypeError, 'Spec is not decorated with @CustomResource');
  });
});

describe('isCustomResource', () => {
  it('is true only for classes decorated with @CustomResource themselves', () => {
    expect([isCustomResource(Policy), isCustomResource(Spec), isCustomResource(Undecorated), isCustomResource({}), isCustomResource(undefined)]).to.deep.equal([
      true, false, false, false, false,
    ]);
  });
});

describe('CustomResourceObject', () => {
  it('types apiVersion, kind and metadata without adding them to the schema', () => {
    const policy: Policy = { apiVersion: 'stable.example.com/v1', kind: 'Policy', metadata: { name: 'p', labels: { a: 'b' } }, spec: { color: 'blue' } };
    const typed: ResourceOf<typeof Spec> = { metadata: { name: 'x' }, color: 'red' };
    expect([policy.metadata.name, typed.color]).to.deep.equal(['p', 'red']);
    expect(Object.keys(new (Policy as unknown as new () => object)())).to.deep.equal(['spec']);
  });
});
