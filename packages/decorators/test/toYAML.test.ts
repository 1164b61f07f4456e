import { expect } from 'chai';
import fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { toYAML } from '@kubekit/decorators';

describe('toYAML', () => {
  it('quotes strings that YAML 1.1 readers would take for booleans, numbers, nulls or times', () => {
    const tricky = ['yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'NO', 'True', '0777', '0x1F', '1:20', '1_000', '2021-01-01', '~', 'null', '.inf', '+12', '1e3', ''];
    const text = toYAML({ values: tricky });
    for (const value of tricky) expect(text).to.contain(`- "${value}"`);
    expect(parse(text, { version: '1.1' })).to.deep.equal({ values: tricky });
    expect(parse(text)).to.deep.equal({ values: tricky });
  });

  it('writes an object used twice in full both times, without YAML anchors and aliases', () => {
    const colours = ['red', 'blue'];
    const text = toYAML({ v1: { enum: colours }, v1beta1: { enum: colours } });
    expect(text).to.not.match(/[&*]a1/);
    expect(text.match(/- red/g)).to.have.length(2);
  });

  it('writes one document per array item, separated by ---, keys in the objects\' order', () => {
    const text = toYAML([{ kind: 'A', apiVersion: 'v1' }, { b: 1, a: [1, 2] }]);
    expect(text).to.equal('kind: A\napiVersion: v1\n---\nb: 1\na:\n- 1\n- 2\n');
    expect(parseAllDocuments(text).map((d) => d.toJS())).to.deep.equal([{ kind: 'A', apiVersion: 'v1' }, { b: 1, a: [1, 2] }]);
  });

  it('writes big integers in full and does not fold long strings', () => {
    const long = 'word '.repeat(40).trim();
    const text = toYAML({ big: 12345678901234567890n, long });
    expect(text).to.equal(`big: 12345678901234567890\nlong: ${long}\n`);
  });

  it('quotes strings a YAML 1.2 reader would take for numbers (regression: fast-check found {"0o0":false})', () => {
    const value = { '0o0': false, a: ['0o17', '1e5', '-1E+5', '.5e1', '0x1F', '1.0', 'v1', '1.2.3'] };
    const text = toYAML({ value });
    for (const version of ['1.1', '1.2'] as const) expect(parse(text, { version }), version).to.deep.equal({ value });
  });

  it('quotes a << key, which YAML 1.1 readers would take for a merge key (regression: fast-check found {"<<":null})', () => {
    const text = toYAML({ value: { '<<': null, a: { '<<': 'x' } } });
    expect(text).to.contain('"<<": null');
    expect(parse(text, { version: '1.1' })).to.deep.equal({ value: { '<<': null, a: { '<<': 'x' } } });
  });

  it('round-trips JSON values through YAML 1.1 and 1.2 readers', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = toYAML({ value });
        expect(parse(text, { version: '1.1' })).to.deep.equal({ value });
        expect(parse(text)).to.deep.equal({ value });
      }),
      { numRuns: 300 },
    );
  });
});
