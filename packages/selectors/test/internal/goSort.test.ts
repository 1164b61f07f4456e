import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { goSort } from '../../src/internal/goSort.js';
import { parseLabelSelector } from '@kubekit/selectors';

interface SortCase {
  name: string;
  keys: string[];
  order: number[];
}

// Orders produced by Go's own sort.Sort (see the fixture's `source`): for more than twelve elements
// the sort is unstable, and the apiserver's label selectors print requirements in exactly this order.
const cases = (JSON.parse(readFileSync(new URL('../fixtures/go_sort.json', import.meta.url), 'utf8')) as { cases: SortCase[] }).cases;

describe('goSort', () => {
  for (const c of cases) {
    it(`orders equal keys as Go's sort.Sort does: ${c.name}`, () => {
      const items = c.keys.map((key, i) => ({ key, i }));
      goSort(items, (a, b) => a.key < b.key);
      expect(items.map((x) => x.i)).to.deep.equal(c.order);
    });
  }

  it('gives labels.Parse the same requirement order as the apiserver for many requirements on one key', () => {
    const c = cases.find((x) => x.name === 'random n=33 distinct=2');
    if (c === undefined) throw new Error('fixture case missing');
    const text = c.keys.map((k, i) => `${k}=v${i}`).join(',');
    const expected = c.order.map((i) => `${c.keys[i]}=v${i}`).join(',');
    expect(parseLabelSelector(text).toString()).to.equal(expected);
  });

  it('sorts any array (property)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), (xs) => {
      const sorted = goSort([...xs], (a, b) => a < b);
      expect(sorted).to.deep.equal([...xs].sort((a, b) => a - b));
    }));
  });

  it("is stable up to twelve elements, as Go's insertion sort is", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 12 }), (xs) => {
      const items = xs.map((k, i) => ({ k, i }));
      goSort(items, (a, b) => a.k < b.k);
      expect(items).to.deep.equal(xs.map((k, i) => ({ k, i })).sort((a, b) => a.k - b.k || a.i - b.i));
    }));
  });
});
