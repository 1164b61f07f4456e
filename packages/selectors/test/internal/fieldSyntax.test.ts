import { expect } from 'chai';
import { splitTerm, splitTerms } from '../../src/internal/fieldSyntax.js';
import { fieldCases, group, title } from '../helpers/fixtures.js';

describe('splitTerms', () => {
  for (const c of group(fieldCases, 'splitTerms')) {
    it(`does ${title(c)}`, () => {
      expect(splitTerms(c.input as string)).to.deep.equal((c.expected as { terms: string[] | null }).terms);
    });
  }
});

describe('splitTerm', () => {
  for (const c of group(fieldCases, 'splitTerm')) {
    const e = c.expected as { lhs: string; op: string; rhs: string; ok: boolean };
    it(`does ${title(c)}`, () => {
      const got = splitTerm(c.input as string);
      if (e.ok) expect(got).to.deep.equal([e.lhs, e.op, e.rhs]);
      else expect(got).to.equal(undefined);
    });
  }
});
