import { expect } from 'chai';
import { Lexer, Token, tokenNames } from '../../src/internal/labelLexer.js';
import { scan } from '../../src/internal/labelParser.js';
import { group, labelCases, title } from '../helpers/fixtures.js';

function lexAll(s: string): { token: string; literal: string }[] {
  return scan(s).map((item) => ({ token: tokenNames[item.tok], literal: item.literal }));
}

describe('Lexer', () => {
  for (const c of group(labelCases, 'lexer')) {
    const e = c.expected as { firstToken?: string; literal?: string; tokens?: { token: string; literal: string }[] };
    it(`does ${title(c)}`, () => {
      const input = c.input as string;
      if (e.tokens !== undefined) {
        expect(lexAll(input)).to.deep.equal(e.tokens);
      } else {
        const first = new Lexer(input).lex();
        expect(tokenNames[first.tok]).to.equal(e.firstToken);
        expect(first.literal).to.equal(e.literal);
      }
    });
  }

  it('lexes the sequences of upstream TestLexerSequence', () => {
    const seq = (s: string): string[] => lexAll(s).map((t) => t.token.replace(/Token$/, '')).filter((t) => t !== 'EndOfString');
    expect(seq('key in ( value )')).to.deep.equal(['Identifier', 'In', 'OpenPar', 'Identifier', 'ClosedPar']);
    expect(seq('key notin ( value )')).to.deep.equal(['Identifier', 'NotIn', 'OpenPar', 'Identifier', 'ClosedPar']);
    expect(seq('key in ( value1, value2 )')).to.deep.equal(['Identifier', 'In', 'OpenPar', 'Identifier', 'Comma', 'Identifier', 'ClosedPar']);
    expect(seq('key')).to.deep.equal(['Identifier']);
    expect(seq('!key')).to.deep.equal(['DoesNotExist', 'Identifier']);
    expect(seq('()')).to.deep.equal(['OpenPar', 'ClosedPar']);
    expect(seq('x in (),y')).to.deep.equal(['Identifier', 'In', 'OpenPar', 'ClosedPar', 'Comma', 'Identifier']);
    expect(seq('== != (), = notin')).to.deep.equal(['DoubleEquals', 'NotEquals', 'OpenPar', 'ClosedPar', 'Comma', 'Equals', 'NotIn']);
    expect(seq('key>2')).to.deep.equal(['Identifier', 'GreaterThan', 'Identifier']);
    expect(seq('key<1')).to.deep.equal(['Identifier', 'LessThan', 'Identifier']);
  });

  it('takes the longest special-symbol token and splits runs of symbols after it', () => {
    expect(lexAll('!==')).to.deep.equal([
      { token: 'NotEqualsToken', literal: '!=' }, { token: 'EqualsToken', literal: '=' }, { token: 'EndOfStringToken', literal: '' },
    ]);
    expect(lexAll('<=>')).to.deep.equal([
      { token: 'LessThanToken', literal: '<' }, { token: 'EqualsToken', literal: '=' }, { token: 'GreaterThanToken', literal: '>' },
      { token: 'EndOfStringToken', literal: '' },
    ]);
  });

  it('reads a NUL character as the end of the input, as Go reads a 0 byte', () => {
    expect(lexAll('a\u0000b')).to.deep.equal([
      { token: 'IdentifierToken', literal: 'a' }, { token: 'IdentifierToken', literal: 'b' }, { token: 'EndOfStringToken', literal: '' },
    ]);
    expect(lexAll('\u0000a')).to.deep.equal([{ token: 'EndOfStringToken', literal: '' }]);
  });

  it('keeps non-ASCII characters inside identifiers', () => {
    expect(lexAll('ключ=значение')[0]).to.deep.equal({ token: 'IdentifierToken', literal: 'ключ' });
    expect(Token.Identifier).to.equal(8);
  });
});
