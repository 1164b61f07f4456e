import { expect } from 'chai';
import fc from 'fast-check';
import { KubeError, hasLongDigitRun, parseJSON, stringifyJSON } from '@kubekit/core';

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
  it('hasLongDigitRun finds a run of 16 digits wherever it sits in the range, and only within it, in a string or its bytes', () => {
    const forms = (text: string): [string, string | Uint8Array][] => [['string', text], ['bytes', Buffer.from(text)]];
    for (let pad = 0; pad < 40; pad++) {
      for (const digits of ['9007199254740993', '12345678901234567']) {
        for (const [form, text] of forms(`${'x'.repeat(pad)}${digits}${'y'.repeat(pad % 5)}`)) {
          expect(hasLongDigitRun(text), `${form}, padding ${pad}`).to.equal(true);
          expect(hasLongDigitRun(text, 0, pad + 15), `${form}, cut short, padding ${pad}`).to.equal(false);
          expect(hasLongDigitRun(text, pad + 1), `${form}, cut at its start, padding ${pad}`).to.equal(digits.length > 16);
        }
      }
      for (const [form, text] of forms(`${'x'.repeat(pad)}900719925474099,1`)) expect(hasLongDigitRun(text), form).to.equal(false);
      // Full-width digits (U+FF10–FF19) are no ASCII digits in either form.
      for (const [form, text] of forms(`${'x'.repeat(pad)}${'\uff11'.repeat(20)}`)) expect(hasLongDigitRun(text), form).to.equal(false);
    }
  });
  it('parseJSON with digitsChecked goes straight to JSON.parse, and still reports bad text', () => {
    expect(parseJSON('{"a":[1,2.5,"x"]}', { digitsChecked: true })).to.deep.equal({ a: [1, 2.5, 'x'] });
    // Vouched for, a long digit run is not looked at: the integer goes through JSON.parse (rounded).
    expect(parseJSON('{"n":9007199254740993}', { digitsChecked: true })).to.deep.equal({ n: 9007199254740992 });
    expect(parseJSON('{"n":9007199254740993}')).to.deep.equal({ n: 9007199254740993n });
    expect(() => parseJSON('{"a":', { digitsChecked: true })).to.throw(KubeError, /^invalid JSON: /);
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

// The apiserver accepts JSON nested 10,000 levels deep (encoding/json's maxNestingDepth); V8's
// JSON.stringify and lossless-json's parser recurse and stop after a few thousand levels on Node's
// default stack, so both have iterative fallbacks.
describe('deep JSON', () => {
  const nestedText = (n: number, leaf = '1'): string => '{"a":'.repeat(n) + leaf + '}'.repeat(n);
  const depthOf = (v: unknown): number => {
    let d = 0;
    for (let cur = v; cur !== null && typeof cur === 'object'; cur = (cur as { a: unknown }).a) d++;
    return d;
  };

  it('stringifyJSON writes a value nested 100,000 levels deep (JSON.stringify alone overflows)', () => {
    const text = nestedText(100_000);
    const value = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(value)).to.throw(RangeError);
    expect(stringifyJSON(value)).to.equal(text);
  });
  it('stringifyJSON writes big integers and indentation at depth as JSON.stringify would shallowly', () => {
    const deep = JSON.parse(nestedText(20_000, '{"n":12,"s":"x","l":[1,{},[]],"u":null}')) as unknown;
    const text = stringifyJSON(deep);
    expect(text).to.equal(nestedText(20_000, '{"n":12,"s":"x","l":[1,{},[]],"u":null}'));
    expect(stringifyJSON({ n: 12345678901234567890n, d: JSON.parse(nestedText(20_000)) as unknown }).startsWith('{"n":12345678901234567890,"d":{"a":')).to.equal(true);
    // Indentation grows with depth (quadratic text): 5,000 levels, still past JSON.stringify's reach.
    const indented = stringifyJSON(JSON.parse(nestedText(5_000, '[1,{"b":[]}]')), 2);
    expect(indented.split('\n')[2]).to.equal('    "a": {');
    expect(depthOf(JSON.parse(indented))).to.equal(5_001);
  });
  it('stringifyJSON\'s iterative path agrees with JSON.stringify on any JSON value, indented or not (property)', async () => {
    const { stringifyIterative } = await import('../src/internal/iterativeJSON.js');
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, 4), (v, space) => {
      expect(stringifyIterative(v, space)).to.equal(JSON.stringify(v, null, space));
    }), { numRuns: 500 });
    const withUndefined = { a: undefined, b: [undefined, () => 1], c: new Date(0), d: { toJSON: () => 'x' } };
    expect(stringifyIterative(withUndefined)).to.equal(JSON.stringify(withUndefined));
    expect(stringifyIterative(undefined)).to.equal(undefined);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { cyclic };
    expect(() => stringifyIterative(cyclic)).to.throw(TypeError, /circular/);
  });
  it('parseJSON reads big integers exactly at any depth (lossless-json alone overflows)', () => {
    const v = parseJSON(nestedText(100_000, '{"n":1234567890123456789,"m":[1.5,-2e3,true,false,null,"s\\u00e9",{"__proto__":1}]}'));
    expect(depthOf(v)).to.equal(100_001);
    let leaf = v as Record<string, unknown>;
    while (Object.hasOwn(leaf, 'a')) leaf = leaf.a as Record<string, unknown>;
    expect(leaf.n).to.equal(1234567890123456789n);
    expect(leaf.m).to.deep.equal([1.5, -2000, true, false, null, 's\u00e9', JSON.parse('{"__proto__":1}')]);
    expect(({} as Record<string, unknown>).n).to.equal(undefined);
  });
  it('parseJSON\'s iterative path agrees with JSON.parse on any JSON text and refuses what it refuses (property)', async () => {
    const { parseIterative } = await import('../src/internal/iterativeJSON.js');
    fc.assert(fc.property(fc.json(), (text) => {
      expect(parseIterative(text, Number)).to.deep.equal(JSON.parse(text));
    }), { numRuns: 500 });
    for (const bad of ['', '{', '{"a"}', '{"a":1,}', '[1,]', '[1 2]', '{"a":1}x', 'tru', '"\u0001"', '01', '{a:1}', '[', '"abc']) {
      expect(() => JSON.parse(bad), bad).to.throw(SyntaxError);
      expect(() => parseIterative(bad, Number), bad).to.throw(SyntaxError);
    }
  });
});
