// The store of the compile caches: least recently used out first, bounded by count and by weight.
import { expect } from 'chai';
import { BoundedCache } from '../src/internal/boundedCache.js';

describe('BoundedCache', () => {
  it('forgets the least recently used entry past the entry bound', () => {
    const c = new BoundedCache<number>(2, 100);
    c.set('a', 1, 1);
    c.set('b', 2, 1);
    expect(c.get('a')).to.equal(1);
    c.set('c', 3, 1);
    expect(c.get('b')).to.equal(undefined);
    expect(c.get('a')).to.equal(1);
    expect(c.get('c')).to.equal(3);
    expect(c.size).to.equal(2);
  });

  it('forgets the least recently used entries until the total weight is within its bound', () => {
    const c = new BoundedCache<string>(100, 10);
    c.set('a', 'A', 4);
    c.set('b', 'B', 4);
    c.set('c', 'C', 4);
    expect(c.get('a')).to.equal(undefined);
    expect(c.weight).to.equal(8);
    c.set('b', 'B2', 1);
    expect(c.weight).to.equal(5);
    c.set('d', 'D', 5);
    expect([c.get('b'), c.get('c'), c.get('d')]).to.deep.equal(['B2', 'C', 'D']);
  });

  it('keeps no entry heavier than the whole bound, and drops the value it replaced', () => {
    const c = new BoundedCache<string>(100, 10);
    c.set('a', 'A', 2);
    c.set('a', 'huge', 11);
    expect(c.get('a')).to.equal(undefined);
    expect(c.size).to.equal(0);
    expect(c.weight).to.equal(0);
  });
});
