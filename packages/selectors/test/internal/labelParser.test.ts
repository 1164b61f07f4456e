import { expect } from 'chai';
import { Parser, scan } from '../../src/internal/labelParser.js';
import { group, labelCases, title } from '../helpers/fixtures.js';

describe('Parser', () => {
  describe('parseOperator (upstream TestParseOperator vectors)', () => {
    for (const c of group(labelCases, 'parseOperator')) {
      const e = c.expected as { error: string | null };
      it(`does ${title(c)}`, () => {
        const p = new Parser(scan(c.input as string), undefined);
        if (e.error === null) {
          expect(() => p.parseOperator()).not.to.throw();
        } else {
          expect(() => p.parseOperator()).to.throw(e.error);
        }
      });
    }
  });

  it('looks ahead without consuming, and reads in/notin as identifiers in value context (TestParserLookahead)', () => {
    const p = new Parser(scan('key in ( value )'), undefined);
    const first = p.lookahead(0);
    expect(p.consume(0)).to.deep.equal(first);
    expect(p.lookahead(0).literal).to.equal('in');
    expect(p.lookahead(1).tok).to.equal(first.tok);
  });
});
