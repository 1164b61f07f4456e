import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import {
  CustomResource,
  CustomResourceDeclarationError,
  CustomResourceObject,
  Field,
  Selectable,
  customResourceDefinition,
  customResourceDefinitions,
  hubAndSpokeConversion,
} from '@kubekit/decorators';

class SpecV1 {
  @Selectable() @Field({ type: 'string' }) color?: Selectable<string>;
  @Field({ type: 'string' }) size?: string;
}
@CustomResource({ group: 'tests.example.com', version: 'v1', kind: 'Shirt', storage: true })
class ShirtV1 extends CustomResourceObject {
  @Field(() => SpecV1) spec?: SpecV1;
}

class SpecV1beta1 {
  @Selectable() @Field({ type: 'string' }) hue?: Selectable<string>;
  @Field({ type: 'string' }) size?: string;
}
@CustomResource({ group: 'tests.example.com', version: 'v1beta1', kind: 'Shirt' })
class ShirtV1beta1 extends CustomResourceObject {
  @Field(() => SpecV1beta1) spec?: SpecV1beta1;
}

class SpecV1alpha1 {
  @Field({ type: 'string' }) tint?: string;
}
@CustomResource({ group: 'tests.example.com', version: 'v1alpha1', kind: 'Shirt' })
class ShirtV1alpha1 extends CustomResourceObject {
  @Field(() => SpecV1alpha1) spec?: SpecV1alpha1;
}

@CustomResource({ group: 'tests.example.com', version: 'v2', kind: 'Hat' })
class Hat extends CustomResourceObject {}

const conversion = hubAndSpokeConversion(ShirtV1)
  .spoke(ShirtV1beta1, {
    toHub: ({ spec }) => ({ spec: { color: spec?.hue, size: spec?.size } }),
    fromHub: ({ spec, metadata }) => ({ spec: { hue: spec?.color, size: spec?.size }, metadata: { labels: { ...metadata.labels, from: 'v1' } } }),
  })
  .spoke(ShirtV1alpha1, {
    toHub: ({ spec }) => ({ spec: { color: spec?.tint } }),
    fromHub: ({ spec }) => ({ spec: { tint: spec?.color } }),
  });

const v1beta1 = (hue: string): KubeObject => ({ apiVersion: 'tests.example.com/v1beta1', kind: 'Shirt', metadata: { name: 's', uid: 'u', labels: { a: 'b' } }, spec: { hue, size: 'M' } });

describe('hubAndSpokeConversion', () => {
  it('converts a spoke to the hub and back, setting apiVersion and keeping kind and metadata', () => {
    const hub = conversion.convert(v1beta1('blue'), 'tests.example.com/v1');
    expect(hub).to.deep.equal({ apiVersion: 'tests.example.com/v1', kind: 'Shirt', metadata: { name: 's', uid: 'u', labels: { a: 'b' } }, spec: { color: 'blue', size: 'M' } });
    const back = conversion.convert(hub, 'tests.example.com/v1beta1');
    expect(back).to.deep.equal({ ...v1beta1('blue'), metadata: { name: 's', uid: 'u', labels: { a: 'b', from: 'v1' } } });
  });

  it('keeps metadata keys named like prototype members as data when it applies the conversion\'s labels', () => {
    const o = JSON.parse('{"apiVersion":"tests.example.com/v1","kind":"Shirt","metadata":{"name":"s","__proto__":{"polluted":true},"labels":{"a":"b"}},"spec":{"color":"red"}}') as KubeObject;
    const spoke = conversion.convert(o, 'tests.example.com/v1beta1');
    expect(Object.getPrototypeOf(spoke.metadata)).to.equal(Object.prototype);
    expect((spoke.metadata as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.hasOwn(spoke.metadata, '__proto__')).to.equal(true);
    expect(spoke.metadata.labels).to.deep.equal({ a: 'b', from: 'v1' });
  });

  it('converts spoke to spoke through the hub', () => {
    expect(conversion.convert(v1beta1('red'), 'tests.example.com/v1alpha1')).to.deep.include({ apiVersion: 'tests.example.com/v1alpha1', spec: { tint: 'red' } });
  });

  it('returns an object already of the desired version as it is', () => {
    const o = v1beta1('blue');
    expect(conversion.convert(o, 'tests.example.com/v1beta1')).to.equal(o);
  });

  it('names the known versions when asked for another', () => {
    expect(conversion.apiVersions).to.deep.equal(['tests.example.com/v1', 'tests.example.com/v1beta1', 'tests.example.com/v1alpha1']);
    expect(() => conversion.convert(v1beta1('blue'), 'tests.example.com/v9')).to.throw('no conversion to tests.example.com/v9 for Shirt: expected one of tests.example.com/v1, tests.example.com/v1beta1, tests.example.com/v1alpha1');
    expect(() => conversion.convert({ ...v1beta1('blue'), apiVersion: 'x/v1' }, 'tests.example.com/v1')).to.throw(/no conversion from x\/v1 for Shirt/);
  });

  it('refuses spokes of another kind and versions declared twice', () => {
    expect(() => hubAndSpokeConversion(ShirtV1).spoke(Hat, { toHub: () => ({}), fromHub: () => ({}) })).to.throw('hubAndSpokeConversion: Hat is Hat.tests.example.com, not Shirt.tests.example.com as the hub ShirtV1');
    expect(() => hubAndSpokeConversion(ShirtV1).spoke(ShirtV1, { toHub: (o) => o, fromHub: (o) => o })).to.throw(/version v1 of Shirt is declared twice/);
    expect(() => hubAndSpokeConversion(class NotDecorated {})).to.throw('hubAndSpokeConversion: NotDecorated is not decorated with @CustomResource');
  });

  it('types the conversion functions by the classes', () => {
    hubAndSpokeConversion(ShirtV1).spoke(ShirtV1alpha1, {
      // @ts-expect-error: the hub's spec has no `tint`
      toHub: ({ spec }) => ({ spec: { tint: spec?.tint } }),
      // @ts-expect-error: a v1alpha1 spec has no `color`
      fromHub: ({ spec }) => ({ spec: { color: spec?.color } }),
    });
  });
});

describe('customResourceDefinitions with a hub-and-spoke conversion', () => {
  it('emits spec.conversion with strategy Webhook, review version v1 and the client config, and every version\'s schema and selectable fields', () => {
    const caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64');
    const [crd] = customResourceDefinitions([ShirtV1, ShirtV1beta1, ShirtV1alpha1], { conversionWebhook: { service: { namespace: 'shirts', name: 'shirts-webhook', path: '/convert', port: 9443 }, caBundle } });
    expect(crd.spec.conversion).to.deep.equal({
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'shirts', name: 'shirts-webhook', path: '/convert', port: 9443 }, caBundle } },
    });
    expect(crd.spec.versions.map((v) => [v.name, v.storage, v.selectableFields])).to.deep.equal([
      ['v1', true, [{ jsonPath: '.spec.color' }]],
      ['v1beta1', false, [{ jsonPath: '.spec.hue' }]],
      ['v1alpha1', false, undefined],
    ]);
    expect(crd.spec.versions[1]?.schema?.openAPIV3Schema?.properties?.spec?.properties).to.have.keys('hue', 'size');
  });

  it('refuses a webhook conversion without a client config, naming the declaration and the option', () => {
    let error: unknown;
    try {
      customResourceDefinition(ShirtV1, ShirtV1beta1);
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(CustomResourceDeclarationError);
    const e = error as CustomResourceDeclarationError;
    expect(e.fieldErrors.map(String)).to.deep.equal(['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook']);
    expect(e.sources[0]).to.match(/^hubAndSpokeConversion\(ShirtV1\) with the conversionWebhook option/);
  });
});
