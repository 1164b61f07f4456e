import { expect } from 'chai';
import { cloneJSON } from '../src/index.js';

describe('cloneJSON', () => {
  it('copies objects and arrays and shares scalars, bigint included', () => {
    const src = { a: [1, { b: 'x' }, null], c: { d: 12345678901234567890n }, e: true };
    const out = cloneJSON(src);
    expect(out).to.deep.equal(src);
    expect(out.a).to.not.equal(src.a);
    expect(out.a[1]).to.not.equal(src.a[1]);
    expect(out.c).to.not.equal(src.c);
  });

  it('copies an own __proto__ key as data, never as the prototype', () => {
    const src = JSON.parse('{"__proto__":{"polluted":true},"x":{"__proto__":[1]}}') as Record<string, unknown>;
    const out = cloneJSON(src);
    expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).to.equal(true);
    expect((out as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(Object.keys(out.x as object)).to.deep.equal(['__proto__']);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
  });

  it('copies a value nested 100,000 levels deep without recursion', () => {
    const deep = JSON.parse('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)) as unknown;
    let v = cloneJSON(deep) as { a?: unknown };
    let depth = 0;
    while (typeof v === 'object' && v !== null) { v = v.a as { a?: unknown }; depth++; }
    expect(depth).to.equal(100_000);
    expect(v).to.equal(1);
  });
});
