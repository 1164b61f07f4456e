import { expect } from 'chai';
import fc from 'fast-check';
import { escapeFieldValue, unescapeFieldValue } from '@kubekit/selectors';
import { fieldCases, group, parseError, title } from './helpers/fixtures.js';

describe('escapeFieldValue', () => {
  for (const c of group(fieldCases, 'escape').filter((x) => x.fn === 'EscapeValue')) {
    it(`does ${title(c)}`, () => {
      expect(escapeFieldValue(c.input as string)).to.equal((c.expected as { output: string }).output);
    });
  }
});

describe('unescapeFieldValue', () => {
  for (const c of group(fieldCases, 'escape').filter((x) => x.fn === 'UnescapeValue')) {
    const e = c.expected as { output?: string; error?: string };
    it(`does ${title(c)}`, () => {
      if (e.error === undefined) expect(unescapeFieldValue(c.input as string)).to.equal(e.output);
      else expect(parseError(() => unescapeFieldValue(c.input as string)).message).to.equal(e.error);
    });
  }

  it('names an unescaped , or = by its decimal character code (UnescapedRune)', () => {
    expect(parseError(() => unescapeFieldValue('a,b')).message).to.equal('invalid field selector: unescaped character in value: 44');
    expect(parseError(() => unescapeFieldValue('a=b')).message).to.equal('invalid field selector: unescaped character in value: 61');
  });

  it('names the whole character of a bad escape, even outside the BMP', () => {
    expect(parseError(() => unescapeFieldValue('\\😀')).message).to.equal('invalid field selector: invalid escape sequence: \\😀');
  });

  it('round-trips any string through escapeFieldValue (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
      expect(unescapeFieldValue(escapeFieldValue(s))).to.equal(s);
    }));
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('\\', ',', '=', 'a', 'é'), maxLength: 60 }), (s) => {
      const escaped = escapeFieldValue(s);
      expect(unescapeFieldValue(escaped)).to.equal(s);
      expect(escapeFieldValue(unescapeFieldValue(escaped))).to.equal(escaped);
    }));
  });

  it('throws nothing but SelectorParseError on arbitrary input (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('\\', ',', '=', 'a', '\ud800', '😀'), maxLength: 64 }), (s) => {
      try {
        const v = unescapeFieldValue(s);
        expect(escapeFieldValue(v)).to.equal(s);
      } catch (err) {
        parseError(() => {
          throw err;
        });
      }
    }));
  });
});
