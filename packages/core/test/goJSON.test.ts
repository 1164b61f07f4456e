import { expect } from 'chai';
import { goJSON, goJSONString, goSprint } from '@kubekit/core';

describe('goJSONString', () => {
  it("escapes as Go's json.Marshal does: HTML characters, U+2028/U+2029, \\b and \\f", () => {
    expect(goJSONString('a<b>&c')).to.equal('"a\\u003cb\\u003e\\u0026c"');
    expect(goJSONString('\u2028\u2029')).to.equal('"\\u2028\\u2029"');
    expect(goJSONString('"\\\b\f\n\r\t\u0001\u007f')).to.equal('"\\"\\\\\\b\\f\\n\\r\\t\\u0001\u007f"');
    expect(goJSONString('ü😀')).to.equal('"ü😀"');
    expect(goJSONString('\ud800x')).to.equal('"\ufffdx"');
  });

  it('prints a nil slice as null and an empty one as []', () => {
    expect(goJSON(null)).to.equal('null');
    expect(goJSON([])).to.equal('[]');
    expect(goJSON(['bar', 'foo'])).to.equal('["bar","foo"]');
  });
});

describe('goJSON', () => {
  it('sorts map keys, drops undefined, keeps big integers exact', () => {
    expect(goJSON({ b: 1, a: [true, null], c: undefined, d: 12345678901234567n })).to.equal('{"a":[true,null],"b":1,"d":12345678901234567}');
  });
  // encoding/json sorts map keys with strings.Compare and fmt with fmtsort: bytes of UTF-8, where a
  // character above U+FFFF (F0…) follows U+E000–U+FFFF (EE…, EF…); JavaScript's sort() puts it first.
  it('sorts map keys in Go\'s byte order of UTF-8, shallow, deep and in goSprint', () => {
    const value = { '\u{1f600}': 1, '\uffff': 2, '\ue000': 3 };
    expect(goJSON(value)).to.equal('{"\ue000":3,"\uffff":2,"\u{1f600}":1}');
    const deep = JSON.parse('{"a":'.repeat(50_000) + JSON.stringify(value) + '}'.repeat(50_000)) as unknown;
    expect(goJSON(deep).slice(50_000 * 5)).to.equal('{"\ue000":3,"\uffff":2,"\u{1f600}":1}' + '}'.repeat(50_000));
    expect(goSprint(value)).to.equal('map[\ue000:3 \uffff:2 \u{1f600}:1]');
  });
});

describe('goJSON at depth', () => {
  it('writes a value nested 50,000 levels deep as it writes a shallow one (sorted keys, Go escapes)', () => {
    const value = JSON.parse('{"a":'.repeat(50_000) + '{"z":1,"b":"<&>","a":[1,2]}' + '}'.repeat(50_000)) as unknown;
    expect(goJSON(value)).to.equal('{"a":'.repeat(50_000) + '{"a":[1,2],"b":"\\u003c\\u0026\\u003e","z":1}' + '}'.repeat(50_000));
  });
});
