// Regression for issue #16: predicates were factories only, so `.for(shirts, generationChangedPredicate)`
// (without the call, as controller-runtime's `predicate.GenerationChangedPredicate{}` reads) failed with a
// cryptic TS2559. The built-in predicates now work both ways.
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import {
  Controller, allPredicates, annotationsChangedPredicate, anyPredicate, generationChangedPredicate, labelsChangedPredicate, resourceVersionChangedPredicate,
  type EventSource, type Predicate,
} from '@kubekit/controller';

interface Shirt extends KubeObject { spec?: { color?: string } }

const shirt = (generation: number, resourceVersion = '1', labels?: Record<string, string>, annotations?: Record<string, string>): Shirt => ({
  apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'a', namespace: 'default', generation, resourceVersion, labels, annotations },
});

describe('predicates', () => {
  it('filter the same whether passed bare or called', () => {
    const cases: [string, Predicate<Shirt>, Predicate<Shirt>, Shirt, Shirt, boolean][] = [
      ['generation', generationChangedPredicate, generationChangedPredicate<Shirt>(), shirt(2), shirt(1), true],
      ['generation', generationChangedPredicate, generationChangedPredicate<Shirt>(), shirt(1, '2'), shirt(1, '1'), false],
      ['resourceVersion', resourceVersionChangedPredicate, resourceVersionChangedPredicate<Shirt>(), shirt(1, '1'), shirt(1, '1'), false],
      ['resourceVersion', resourceVersionChangedPredicate, resourceVersionChangedPredicate<Shirt>(), shirt(1, '2'), shirt(1, '1'), true],
      ['labels', labelsChangedPredicate, labelsChangedPredicate<Shirt>(), shirt(1, '2', { a: 'b' }), shirt(1, '1', { a: 'b' }), false],
      ['labels', labelsChangedPredicate, labelsChangedPredicate<Shirt>(), shirt(1, '2', { a: 'c' }), shirt(1, '1', { a: 'b' }), true],
      ['annotations', annotationsChangedPredicate, annotationsChangedPredicate<Shirt>(), shirt(1, '2', undefined, {}), shirt(1, '1'), false],
      ['annotations', annotationsChangedPredicate, annotationsChangedPredicate<Shirt>(), shirt(1, '2', undefined, { x: 'y' }), shirt(1, '1'), true],
    ];
    for (const [name, bare, called, obj, old, passes] of cases) {
      expect(bare.update!(obj, old), `${name} bare`).to.equal(passes);
      expect(called.update!(obj, old), `${name} called`).to.equal(passes);
      expect(bare.create, name).to.equal(undefined);
      expect(bare.delete, name).to.equal(undefined);
    }
  });

  it('combine bare and called predicates in anyPredicate and allPredicates', () => {
    const labelsOnly = [shirt(1, '2', { a: 'c' }), shirt(1, '1', { a: 'b' })] as const;
    expect(anyPredicate<Shirt>(generationChangedPredicate, labelsChangedPredicate()).update!(...labelsOnly)).to.equal(true);
    expect(allPredicates<Shirt>(generationChangedPredicate, labelsChangedPredicate()).update!(...labelsOnly)).to.equal(false);
  });

  it('type-check on a controller either way', () => {
    const source: EventSource<Shirt> = { waitForSync: () => Promise.resolve(), addEventHandler: () => ({ remove: () => {} }) };
    const c = new Controller({ name: 'shirts', reconciler: () => {} })
      .for(source, generationChangedPredicate)
      .watches(source, () => [], generationChangedPredicate(), labelsChangedPredicate);
    expect(c).to.be.instanceOf(Controller);
  });
});
