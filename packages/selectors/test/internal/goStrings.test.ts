import { expect } from 'chai';
import fc from 'fast-check';
import { compareGoStrings, utf8ByteLength } from '../../src/internal/goStrings.js';

function utf8Bytes(s: string): number[] {
  return [...Buffer.from(s, 'utf8')];
}

describe('compareGoStrings', () => {
  it('orders strings by their UTF-8 bytes, as Go compares strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      const x = utf8Bytes(a);
      const y = utf8Bytes(b);
      let want = x.length - y.length;
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) {
          want = x[i] - y[i];
          break;
        }
      }
      expect(Math.sign(compareGoStrings(a, b))).to.equal(Math.sign(want));
    }));
  });

  it('puts a character above U+FFFF after U+FFFD, unlike JavaScript', () => {
    expect(compareGoStrings('\u{1f600}', '\ufffd')).to.be.greaterThan(0);
    expect('\u{1f600}' < '\ufffd').to.equal(true);
  });
});

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes, and a lone surrogate as the three bytes of U+FFFD', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      expect(utf8ByteLength(s)).to.equal(Buffer.byteLength(s, 'utf8'));
    }));
    expect(utf8ByteLength('\ud800')).to.equal(3);
    expect(utf8ByteLength('é😀')).to.equal(6);
  });
});
