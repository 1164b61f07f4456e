// The label selector lexer of k8s.io/apimachinery/pkg/labels/selector.go, byte for byte: the input is
// scanned as UTF-16 code units, which gives the same tokens as Go's scan of UTF-8 bytes because every
// character the lexer treats specially is ASCII (and a NUL ends the input, as Go reads a 0 byte as
// the end of the string).

/** Token kinds, numbered as in Go. */
export enum Token {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

/** Go's names of the tokens, for tests and messages. */
export const tokenNames: readonly string[] = [
  'ErrorToken', 'EndOfStringToken', 'ClosedParToken', 'CommaToken', 'DoesNotExistToken', 'DoubleEqualsToken',
  'EqualsToken', 'GreaterThanToken', 'IdentifierToken', 'InToken', 'LessThanToken', 'NotEqualsToken', 'NotInToken',
  'OpenParToken',
];

const string2token: ReadonlyMap<string, Token> = new Map([
  [')', Token.ClosedPar],
  [',', Token.Comma],
  ['!', Token.DoesNotExist],
  ['==', Token.DoubleEquals],
  ['=', Token.Equals],
  ['>', Token.GreaterThan],
  ['in', Token.In],
  ['<', Token.LessThan],
  ['!=', Token.NotEquals],
  ['notin', Token.NotIn],
  ['(', Token.OpenPar],
]);

/** One scanned token and its text. */
export interface ScannedItem {
  readonly tok: Token;
  readonly literal: string;
}

function isWhitespace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}

function isSpecialSymbol(ch: number): boolean {
  switch (ch) {
    case 0x3d: case 0x21: case 0x28: case 0x29: case 0x2c: case 0x3e: case 0x3c:
      return true;
    default:
      return false;
  }
}

/** Splits a label selector into tokens (`labels.Lexer`). */
export class Lexer {
  private pos = 0;

  constructor(private readonly s: string) {}

  private read(): number {
    if (this.pos < this.s.length) return this.s.charCodeAt(this.pos++);
    return 0;
  }

  private unread(): void {
    this.pos--;
  }

  /** The next token and its literal. */
  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === 0) return { tok: Token.EndOfString, literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIDOrKeyword();
  }

  private scanIDOrKeyword(): ScannedItem {
    const start = this.pos;
    let end = start;
    for (;;) {
      const ch = this.read();
      if (ch === 0) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      end = this.pos;
    }
    const literal = this.s.slice(start, end);
    return { tok: string2token.get(literal) ?? Token.Identifier, literal };
  }

  private scanSpecialSymbol(): ScannedItem {
    let last: ScannedItem | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === 0) break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += String.fromCharCode(ch);
      const tok = string2token.get(buffer);
      if (tok !== undefined) {
        last = { tok, literal: buffer };
      } else if (last !== undefined) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
  }
}
