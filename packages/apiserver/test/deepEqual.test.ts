import { expect } from 'chai';
import { deepEqual, semanticEqual } from '../src/internal/deepEqual.js';

describe('deepEqual and semanticEqual', () => {
  it('compares JSON values whatever their key order; undefined members are absent', () => {
    expect(deepEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).to.equal(true);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).to.equal(true);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).to.equal(false);
    expect(deepEqual(10n, 10)).to.equal(true);
  });

  it('tells null and [] from a missing member (unstructured JSON)', () => {
    expect(deepEqual({ a: null }, {})).to.equal(false);
    expect(deepEqual({ a: [] }, {})).to.equal(false);
    expect(deepEqual({ a: [] }, { a: null })).to.equal(false);
  });

  it('takes absent, null and [] for the same member, as Go holds them all as nil (typed objects)', () => {
    expect(semanticEqual({ spec: { dataSource: { kind: 'K', apiGroup: null } } }, { spec: { dataSource: { kind: 'K' } } })).to.equal(true);
    expect(semanticEqual({ rules: [] }, { rules: null })).to.equal(true);
    expect(semanticEqual([], null)).to.equal(true);
    expect(semanticEqual(undefined, [])).to.equal(true);
    expect(semanticEqual([null], [[]])).to.equal(true);
  });

  it('keeps an empty object apart from none (a pointer to an empty struct is not nil), and a value apart from nil', () => {
    expect(semanticEqual({ securityContext: {} }, {})).to.equal(false);
    expect(semanticEqual({ rules: [{}] }, { rules: null })).to.equal(false);
    expect(semanticEqual({ a: '' }, { a: null })).to.equal(false);
    expect(semanticEqual({ a: 0 }, {})).to.equal(false);
  });

  it('compares objects nested 10,000 levels deep without the stack', () => {
    const nest = (): unknown => { let v: unknown = {}; for (let i = 0; i < 10_000; i++) v = { v }; return v; };
    expect(deepEqual(nest(), nest())).to.equal(true);
    expect(semanticEqual(nest(), nest())).to.equal(true);
  });
});
