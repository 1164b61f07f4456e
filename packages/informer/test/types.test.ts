import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { Informer } from '../src/informer.js';
import type { KubeConfigLike } from '../src/kubeConfig.js';
import type { FieldPath } from '../src/types.js';

interface ShirtSpec {
  color?: string;
  size?: 'S' | 'M' | 'L';
  quantity?: number;
  branded?: boolean;
  tags?: string[];
  print?: { text?: string; layers?: { ink: string }[] };
}

interface Shirt extends KubeObject<ShirtSpec> {
  spec?: ShirtSpec;
}

const kc: KubeConfigLike = {
  getCurrentCluster: () => ({ server: 'http://127.0.0.1:1' }),
  applyToHTTPSOptions: async () => {},
};

describe('FieldPath', () => {
  it('does type the field paths of a resource for byField and field selectors', () => {
    const paths: FieldPath<Shirt>[] = ['metadata.name', 'metadata.namespace', 'spec.color', 'spec.size', 'spec.quantity', 'spec.branded', 'spec.print.text'];
    // @ts-expect-error — misspelt
    const misspelt: FieldPath<Shirt> = 'spec.colour';
    // @ts-expect-error — lists are not selectable
    const list: FieldPath<Shirt> = 'spec.tags';
    // @ts-expect-error — objects are not selectable, only their scalars
    const object: FieldPath<Shirt> = 'spec.print';
    const any: FieldPath<KubeObject> = 'anything.at.all';
    expect([...paths, misspelt, list, object, any]).to.have.length(11);

    const informer = new Informer<Shirt>(kc, {
      apiVersion: 'stable.example.com/v1',
      plural: 'shirts',
      fieldSelector: { 'spec.color': 'blue', 'spec.quantity': { '!=': 2 }, 'spec.branded': true },
    });
    expect(informer.fieldSelector.toString()).to.equal('spec.branded=true,spec.color=blue,spec.quantity!=2');
    expect(informer.byField('spec.size', 'M')).to.deep.equal([]);
    // @ts-expect-error — misspelt
    expect(() => informer.byField('spec.sise', 'M')).to.not.throw();
    expect(() => new Informer<Shirt>(kc, {
      apiVersion: 'stable.example.com/v1',
      plural: 'shirts',
      // @ts-expect-error — misspelt
      fieldSelector: { 'spec.colour': 'blue' },
    })).to.not.throw();
  });
});

describe('Informer of a @CustomResource class', () => {
  it('does give typed objects, typed field paths and the decorators\' typed field selectors', async () => {
    const { CustomResource, CustomResourceObject, Field, Selectable, customResourceInfo, fieldSelector } = await import('@kubekit/decorators');
    const { FakeApiServer } = await import('./helpers/fakeApiServer.js');
    const { noopLogger } = await import('@kubekit/core');

    class ShirtSpec {
      @Selectable() @Field('string') color?: string;
      @Field('string') size?: string;
    }
    @CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
    class Shirt extends CustomResourceObject {
      @Field(() => ShirtSpec) spec?: ShirtSpec;
    }

    const server = await new FakeApiServer().start();
    server.create({ metadata: { name: 'a', namespace: 'default' }, spec: { color: 'blue', size: 'M' } });
    server.create({ metadata: { name: 'b', namespace: 'default' }, spec: { color: 'red', size: 'M' } });
    const { apiVersion, plural } = customResourceInfo(Shirt);
    const informer = new Informer<Shirt>(server.kubeConfig(), {
      apiVersion, plural, logger: noopLogger, streamingList: 'never',
      fieldSelector: fieldSelector(Shirt, { 'spec.color': 'blue' }),
    });
    const stop = new AbortController();
    const done = informer.start(stop.signal);
    await informer.waitForSync();
    const colors: (string | undefined)[] = informer.list().map((s) => s.spec?.color);
    expect(colors).to.deep.equal(['blue']);
    expect(informer.byField('spec.size', 'M').map((s) => s.metadata.name)).to.deep.equal(['a']);
    // @ts-expect-error — not a field of Shirt
    informer.byField('spec.colour', 'blue');
    stop.abort();
    await done;
    await server.close();
  });
});
