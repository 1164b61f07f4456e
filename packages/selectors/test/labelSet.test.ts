import { expect } from 'chai';
import fc from 'fast-check';
import {
  convertSelectorToLabelsMap, formatLabelSet, formatLabels, labelSetsConflict, labelSetsEqual, mergeLabelSets, parseLabelSelector,
} from '@kubekit/selectors';
import { fieldCases, group, labelCases, parseError, title } from './helpers/fixtures.js';

type Labels = Record<string, string>;

describe('formatLabelSet', () => {
  for (const c of group(labelCases, 'setHelpers').filter((x) => x.fn === 'Set.String')) {
    it(`does ${title(c)}`, () => {
      expect(formatLabelSet(c.set as Labels)).to.equal((c.expected as { output: string }).output);
    });
  }

  it('prints <none> for no labels in formatLabels (labels.FormatLabels)', () => {
    expect(formatLabels({})).to.equal('<none>');
    expect(formatLabels({ b: '2', a: '1' })).to.equal('a=1,b=2');
  });
});

describe('label presence (labels.Set.Has, fields.Set.Has)', () => {
  // kubekit reads sets as records, so Has is own-property presence; an empty value is present. The
  // `exists` requirement is where label presence matters.
  const cases = [...group(labelCases, 'setHelpers').filter((x) => x.fn === 'Set.Has'), ...group(fieldCases, 'setHas')];
  for (const c of cases) {
    const e = c.expected as { output?: boolean; has?: boolean };
    it(`does ${title(c)}`, () => {
      expect(parseLabelSelector(c.key as string).matches(c.set as Labels)).to.equal(e.output ?? e.has);
    });
  }
});

describe('labelSetsConflict', () => {
  for (const c of group(labelCases, 'setHelpers').filter((x) => x.fn === 'Conflicts')) {
    it(`does ${title(c)}`, () => {
      expect(labelSetsConflict(c.set as Labels, c.set2 as Labels)).to.equal((c.expected as { output: boolean }).output);
      expect(labelSetsConflict(c.set2 as Labels, c.set as Labels)).to.equal((c.expected as { output: boolean }).output);
    });
  }
});

describe('mergeLabelSets', () => {
  for (const c of group(labelCases, 'setHelpers').filter((x) => x.fn === 'Merge')) {
    it(`does ${title(c)}`, () => {
      expect(mergeLabelSets(c.set as Labels, c.set2 as Labels)).to.deep.equal((c.expected as { output: Labels }).output);
    });
  }

  it('lets the second set win and copies a __proto__ key as data', () => {
    const merged = mergeLabelSets({ a: '1' }, JSON.parse('{"a":"2","__proto__":"x"}') as Labels);
    expect(merged.a).to.equal('2');
    expect(Object.keys(merged)).to.deep.equal(['a', '__proto__']);
    expect(Object.getPrototypeOf(merged)).to.equal(Object.prototype);
  });
});

describe('labelSetsEqual', () => {
  it('compares keys and values (labels.Equals)', () => {
    expect(labelSetsEqual({ a: '1' }, { a: '1' })).to.equal(true);
    expect(labelSetsEqual({ a: '1' }, { a: '2' })).to.equal(false);
    expect(labelSetsEqual({ a: '1' }, { b: '1' })).to.equal(false);
    expect(labelSetsEqual({}, { b: '1' })).to.equal(false);
  });
});

describe('convertSelectorToLabelsMap', () => {
  for (const c of group(labelCases, 'convertSelectorToLabelsMap')) {
    const e = c.expected as { valid: boolean; labels: Labels; error: string | null };
    it(`does ${title(c)}`, () => {
      if (e.valid) expect(convertSelectorToLabelsMap(c.input as string)).to.deep.equal(e.labels);
      else expect(parseError(() => convertSelectorToLabelsMap(c.input as string)).message).to.equal(e.error);
    });
  }

  it('trims only what Go calls space', () => {
    expect(convertSelectorToLabelsMap('\u0085a\u00a0=\u3000b ')).to.deep.equal({ a: 'b' });
    expect(parseError(() => convertSelectorToLabelsMap('\ufeffa=b')).message).to.match(/^<nil>: Invalid value: "\\ufeffa"/);
    // Regression: the trim was a regular expression, quadratic in an inner run of spaces (a selector from a
    // request's query: seconds of the server's thread for 100,000 spaces); it is core's trimSpace now.
    const value = `a${' '.repeat(100_000)}b`;
    expect(parseError(() => convertSelectorToLabelsMap(`k= ${value} `)).message).to.match(/^\[k\]: Invalid value: "a {100000}b"/);
  });

  it('throws nothing but SelectorParseError, whatever the input', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ unit: fc.constantFrom('a', '=', ',', ' ', '$', '/', 'é'), maxLength: 64 }), fc.anything()), (x) => {
      try {
        convertSelectorToLabelsMap(x as string);
      } catch (err) {
        parseError(() => {
          throw err;
        });
      }
    }));
  });

  it('reports errors under the given path', () => {
    expect(parseError(() => convertSelectorToLabelsMap('x=$y', { path: 'spec.selector' })).message).to.match(/^spec\.selector\[x\]: Invalid value: "\$y"/);
  });
});
