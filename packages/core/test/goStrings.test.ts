// Go's strings.TrimSpace (unicode.IsSpace): the Latin-1 spaces, U+0085 and U+00A0, and the White_Space
// characters above U+00FF; not U+FEFF, which JavaScript's \s holds.
import { expect } from 'chai';
import { isSpace, trimSpace } from '@kubekit/core';

describe('trimSpace (Go strings.TrimSpace)', () => {
  it('trims Go\'s white space and nothing else', () => {
    expect(trimSpace(' \t\n\v\f\r\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000a b\u3000 ')).to.equal('a b');
    expect(trimSpace('\ufeffa\ufeff')).to.equal('\ufeffa\ufeff');
    expect(trimSpace('\u200bx')).to.equal('\u200bx');
    expect(trimSpace('   ')).to.equal('');
    expect(trimSpace('')).to.equal('');
    expect([0x20, 0x09, 0x0d, 0x85, 0xa0, 0x3000].every(isSpace)).to.equal(true);
    expect([0x08, 0x0e, 0xfeff, 0x200b, 0x41].some(isSpace)).to.equal(false);
  });

  // Regression: the copies it replaced were /^\s+|\s+$/-style expressions, which retry from every character
  // of an inner run of spaces (28 s for 100,000); this one walks each end once.
  it('keeps an inner run of spaces as it is, however long', () => {
    const s = `a${' '.repeat(1_000_000)}b`;
    expect(trimSpace(` ${s} `)).to.equal(s);
  });
});
