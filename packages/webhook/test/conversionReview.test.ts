// The rules a conversion response must meet are the apiserver's checks of a webhook's answer
// (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go: uid, object count,
// groupVersion and kind, validateConvertedObject, restoreObjectMeta).
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { reviewConversion, type Converter } from '@kubekit/webhook';

const renameHue: Converter = {
  convert(o, to) {
    const spec = { ...(o.spec as Record<string, unknown>) };
    if (to.endsWith('/v1')) {
      spec.color = spec.hue;
      delete spec.hue;
    }
    return { ...o, spec, metadata: { name: 'renamed', uid: 'other', labels: { converted: 'yes' } } };
  },
};

function review(objects: KubeObject[], desiredAPIVersion = 'tests.example.com/v1'): unknown {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u-1', desiredAPIVersion, objects } };
}

const shirt = (name: string, apiVersion = 'tests.example.com/v1beta1'): KubeObject => ({
  apiVersion, kind: 'Shirt', metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', annotations: { a: 'b' } }, spec: { hue: 'blue' },
});

describe('reviewConversion', () => {
  it('echoes the uid and converts every object, in order, to desiredAPIVersion', async () => {
    const out = await reviewConversion(review([shirt('one'), shirt('two')]), renameHue);
    expect(out).to.include({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' });
    expect(out.response!.uid).to.equal('u-1');
    expect(out.response!.result).to.deep.equal({ status: 'Success' });
    expect(out.response!.convertedObjects.map((o) => [o.apiVersion, o.kind, o.metadata.name, o.spec])).to.deep.equal([
      ['tests.example.com/v1', 'Shirt', 'one', { color: 'blue' }],
      ['tests.example.com/v1', 'Shirt', 'two', { color: 'blue' }],
    ]);
  });

  it('keeps the original metadata except labels and annotations, as the apiserver restores it', async () => {
    const [converted] = (await reviewConversion(review([shirt('one')]), renameHue)).response!.convertedObjects;
    // name and uid changes undone, resourceVersion kept, labels from the conversion, annotations dropped by it.
    expect(converted.metadata).to.deep.equal({ name: 'one', namespace: 'default', uid: 'uid-one', resourceVersion: '7', labels: { converted: 'yes' } });
  });

  it('keeps metadata untouched when the conversion leaves it out', async () => {
    const [converted] = (await reviewConversion(review([shirt('one')]), { convert: (o) => ({ spec: o.spec }) as KubeObject })).response!.convertedObjects;
    expect(converted.metadata).to.deep.equal(shirt('one').metadata);
  });

  it('returns objects already of the desired version as they are, without converting them', async () => {
    let calls = 0;
    const out = await reviewConversion(review([shirt('one', 'tests.example.com/v1')]), { convert: (o) => { calls++; return o; } });
    expect(calls).to.equal(0);
    expect(out.response!.convertedObjects[0]).to.deep.equal(shirt('one', 'tests.example.com/v1'));
  });

  it('fails the whole review with result.status Failure and a message naming the object', async () => {
    const out = await reviewConversion(review([shirt('one'), shirt('two')]), {
      convert: (o) => { if (o.metadata.name === 'two') throw new Error('hue "ultraviolet" has no colour'); return o; },
    });
    expect(out.response!.uid).to.equal('u-1');
    expect(out.response!.convertedObjects).to.deep.equal([]);
    expect(out.response!.result).to.deep.equal({
      status: 'Failure', message: 'converting tests.example.com/v1beta1, Kind=Shirt "two" to tests.example.com/v1: hue "ultraviolet" has no colour',
    });
  });

  it('fails when a conversion returns labels that are not strings', async () => {
    const out = await reviewConversion(review([shirt('one')]), { convert: (o) => ({ ...o, metadata: { ...o.metadata, labels: { n: 1 } } }) as unknown as KubeObject });
    expect(out.response!.result.status).to.equal('Failure');
    expect(out.response!.result.message).to.match(/metadata\.labels\[n\] must be a string/);
  });

  it('refuses bodies that are not a ConversionReview with a request, naming what is wrong', async () => {
    await reviewConversion({ apiVersion: 'v1', kind: 'ConversionReview' }, renameHue).then(() => expect.fail(), (e: Error) => expect(e.message).to.match(/unsupported apiVersion "v1"/));
    await reviewConversion({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }, renameHue).then(() => expect.fail(), (e: Error) => expect(e.message).to.equal('ConversionReview has no request'));
    await reviewConversion({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'x', desiredAPIVersion: 'v1', objects: [] } }, renameHue)
      .then(() => expect.fail(), (e: Error) => expect(e.message).to.match(/desiredAPIVersion: must be group\/version/));
    await reviewConversion(review([{ apiVersion: 'a/b' } as KubeObject]), renameHue).then(() => expect.fail(), (e: Error) => expect(e.message).to.match(/objects\[0\]: must be an object with metadata/));
  });

  it('does not let a __proto__ key in a review reach a prototype', async () => {
    const body = JSON.parse('{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"g/v1","objects":[{"apiVersion":"g/v2","kind":"K","metadata":{"name":"n","__proto__":{"polluted":1},"labels":{"__proto__":"x"}},"spec":{"__proto__":{"polluted":1}}}]}}') as unknown;
    const out = await reviewConversion(body, { convert: (o) => ({ ...o, spec: { ...(o.spec as object) } }) });
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    const text = JSON.stringify(out);
    expect(text).to.include('"labels":{"__proto__":"x"}');
    expect(text).to.include('"spec":{"__proto__":{"polluted":1}}');
  });
});
