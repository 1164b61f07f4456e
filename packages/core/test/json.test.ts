import { expect } from 'chai';
import fc from 'fast-check';
import { KubeError, parseJSON, stringifyJSON } from '@kubekit/core';

describe('parseJSON', () => {
  it('keeps integers beyond 2^53 exact as bigint and leaves safe ones as numbers', () => {
    const v = parseJSON('{"a":1234567890123456789,"b":9007199254740991,"c":-9223372036854775808,"d":1.5}') as Record<string, unknown>;
    expect(v.a).to.equal(1234567890123456789n);
    expect(v.b).to.equal(9007199254740991);
    expect(v.c).to.equal(-9223372036854775808n);
    expect(v.d).to.equal(1.5);
  });
  it('keeps a big integer exact wherever it sits in the text (the scan for long digit runs looks at every 16th character)', () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const digits of ['9007199254740993', '12345678901234567', '1234567890123456789']) {
        const v = parseJSON(`{"${'p'.repeat(pad)}":"0123456789","n":${digits},"m":"${'7'.repeat(pad % 17)}"}`) as { n: unknown };
        expect(v.n, `padding ${pad}, ${digits}`).to.equal(BigInt(digits));
      }
    }
  });
  it('treats integers beyond int64 as float64, as Go does', () => {
    const v = parseJSON('[99999999999999999999999, 12345678901234567890]') as unknown[];
    expect(v[0]).to.equal(1e23);
    expect(v[1]).to.equal(12345678901234567890);
  });
  it('keeps __proto__ as plain data on both paths', () => {
    const fast = parseJSON('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    const slow = parseJSON('{"__proto__":{"polluted":1},"n":12345678901234567890}') as Record<string, unknown>;
    expect(Object.keys(fast)).to.deep.equal(['__proto__']);
    expect(Object.keys(slow)).to.deep.equal(['__proto__', 'n']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
  it('throws a BadRequest KubeError naming the problem for bad text', () => {
    expect(() => parseJSON('{"a":')).to.throw(KubeError, /invalid JSON/);
    expect(() => parseJSON('[' .repeat(200000) + '12345678901234567890')).to.throw(KubeError, /invalid JSON/);
  });
  it('agrees with JSON.parse on any JSON, up to the exactness of big integers (property)', () => {
    const asNumbers = (v: unknown): unknown => JSON.parse(stringifyJSON(v));
    fc.assert(fc.property(fc.json(), (text) => {
      expect(asNumbers(parseJSON(text))).to.deep.equal(JSON.parse(text));
    }), { numRuns: 300 });
  });
  it('round-trips big integers through stringifyJSON (property)', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
      const text = stringifyJSON({ n, s: 'x' });
      const back = parseJSON(text) as { n: number | bigint };
      expect(BigInt(back.n)).to.equal(n);
    }), { numRuns: 300 });
  });
});
