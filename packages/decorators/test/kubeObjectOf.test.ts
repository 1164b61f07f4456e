// Regression for issue #16 (found by the registry test): a stranger's operator wrote
// `client.resource<Shirt>()` with the decorated class, which does not satisfy KubeObject (TS2344, its
// index signature). KubeObjectOf<typeof Shirt> is the object type clients and informers take.
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { CustomResource, CustomResourceObject, Field, Selectable, type KubeObjectOf } from '@kubekit/decorators';

class ShirtSpec {
  @Selectable() @Field({ type: 'string' }) color?: Selectable<string>;
}

class ShirtStatus {
  @Field({ type: 'string' }) phase?: string;
}

@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
class Shirt extends CustomResourceObject {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
  @Field(() => ShirtStatus) status?: ShirtStatus;
}

/** Stands in for `KubeClient.resource<T>()`, `Informer<T>`: the constraint they share. */
const takesKubeObject = <T extends KubeObject>(obj: T): T => obj;

describe('KubeObjectOf', () => {
  it('types a decorated class\'s objects for clients and informers, keeping spec and status', () => {
    const shirt: KubeObjectOf<typeof Shirt> = { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'a' }, spec: { color: 'blue' }, status: { phase: 'Selected' } };
    const color: string | undefined = takesKubeObject(shirt).spec?.color;
    const phase: string | undefined = shirt.status?.phase;
    expect([color, phase]).to.deep.equal(['blue', 'Selected']);
    // @ts-expect-error the spec keeps its type: color is a string
    const wrong: KubeObjectOf<typeof Shirt> = { metadata: {}, spec: { color: 1 } };
    expect(wrong.metadata).to.deep.equal({});
    // @ts-expect-error the class itself lacks KubeObject's index signature (the reason for KubeObjectOf)
    takesKubeObject(new Shirt());
  });
});
