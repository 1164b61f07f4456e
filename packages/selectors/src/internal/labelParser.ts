// The recursive-descent parser of k8s.io/apimachinery/pkg/labels/selector.go (Parser.parse and its
// helpers), with the same lookahead rules, the same error texts, and the same order of checks, so
// that every malformed selector fails with the apiserver's message.

import { aggregateMessage, type FieldError, type FieldPath } from '@kubekit/core';
import {
  labelKeyError, makeRequirement, validateLabelRequirement, type LabelOperator, type LabelRequirement,
} from '../labelRequirement.js';
import { SelectorParseError } from '../selectorParseError.js';
import { sortGoStrings } from './goStrings.js';
import { Lexer, Token, type ScannedItem } from './labelLexer.js';

/** Where a token is read (`ParserContext`): in `Values` context the keywords `in`/`notin` are plain identifiers. */
export enum Context {
  KeyAndOperator,
  Values,
}

/** The binary operators in Go's order, for `expected: ...` messages. */
const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

/** An error of one requirement, which `parse` prefixes with `unable to parse requirement: `. */
class RequirementError extends Error {
  constructor(message: string, readonly fieldErrors: readonly FieldError[] = []) {
    super(message);
  }
}

/** Scans `selector` completely, as `Parser.scan` does before parsing. */
export function scan(selector: string): ScannedItem[] {
  const lexer = new Lexer(selector);
  const items: ScannedItem[] = [];
  for (;;) {
    const item = lexer.lex();
    items.push(item);
    if (item.tok === Token.EndOfString) return items;
  }
}

/** Parses the requirements of a label selector, unsorted (`Parser.parse`). */
export function parseRequirements(selector: string, path: FieldPath | undefined): LabelRequirement[] {
  return new Parser(scan(selector), path).parse();
}

/** The label selector parser (`labels.Parser`): a cursor over the scanned tokens. */
export class Parser {
  private position = 0;

  constructor(private readonly items: readonly ScannedItem[], private readonly path: FieldPath | undefined) {}

  /** The current token, without consuming it. */
  lookahead(context: Context): ScannedItem {
    return this.contextual(this.items[this.position], context);
  }

  /** The current token, consumed. */
  consume(context: Context): ScannedItem {
    return this.contextual(this.items[this.position++], context);
  }

  private contextual(item: ScannedItem, context: Context): ScannedItem {
    if (context === Context.Values && (item.tok === Token.In || item.tok === Token.NotIn)) {
      return { tok: Token.Identifier, literal: item.literal };
    }
    return item;
  }

  /** All requirements, in input order; throws a {@link SelectorParseError} with the apiserver's text. */
  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead(Context.Values);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          let r: LabelRequirement;
          try {
            r = this.parseRequirement();
          } catch (err) {
            if (err instanceof RequirementError) {
              throw new SelectorParseError(`unable to parse requirement: ${err.message}`, { fieldErrors: err.fieldErrors });
            }
            throw err;
          }
          requirements.push(r);
          const t = this.consume(Context.Values);
          if (t.tok === Token.EndOfString) return requirements;
          if (t.tok === Token.Comma) {
            const t2 = this.lookahead(Context.Values);
            if (t2.tok !== Token.Identifier && t2.tok !== Token.DoesNotExist) {
              throw new SelectorParseError(`found '${t2.literal}', expected: identifier after ','`);
            }
            break;
          }
          throw new SelectorParseError(`found '${t.literal}', expected: ',' or 'end of string'`);
        }
        case Token.EndOfString:
          return requirements;
        default:
          throw new SelectorParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred !== undefined) return this.newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return this.newRequirement(key, operator, sortGoStrings([...values]));
  }

  private newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
    const errs = validateLabelRequirement(key, operator, values, { path: this.path });
    if (errs.length > 0) throw new RequirementError(aggregateMessage(errs), errs);
    return makeRequirement(key, operator, values);
  }

  /** The key, and `exists`/`!` when no operator follows it. */
  private parseKeyAndInferOperator(): [string, LabelOperator | undefined] {
    let operator: LabelOperator | undefined;
    let item = this.consume(Context.Values);
    if (item.tok === Token.DoesNotExist) {
      operator = '!';
      item = this.consume(Context.Values);
    }
    if (item.tok !== Token.Identifier) throw new RequirementError(`found '${item.literal}', expected: identifier`);
    const keyError = labelKeyError(item.literal, this.path ?? '<nil>');
    if (keyError !== undefined) throw new RequirementError(keyError.toString(), [keyError]);
    const next = this.lookahead(Context.Values).tok;
    if ((next === Token.EndOfString || next === Token.Comma) && operator !== '!') operator = 'exists';
    return [item.literal, operator];
  }

  /** The operator after a key (`parseOperator`); throws for anything that is not a binary operator. */
  parseOperator(): LabelOperator {
    const { tok, literal } = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Token.In: return 'in';
      case Token.Equals: return '=';
      case Token.DoubleEquals: return '==';
      case Token.GreaterThan: return 'gt';
      case Token.LessThan: return 'lt';
      case Token.NotIn: return 'notin';
      case Token.NotEquals: return '!=';
      default: throw new RequirementError(`found '${literal}', expected: ${binaryOperators}`);
    }
  }

  /** `(a,b,c)`: a set, so de-duplicated; `()` is the single empty value. */
  private parseValues(): Set<string> {
    const open = this.consume(Context.Values);
    if (open.tok !== Token.OpenPar) throw new RequirementError(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead(Context.Values);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(Context.Values).tok !== Token.ClosedPar) throw new RequirementError(`found '${literal}', expected: ')'`);
        return s;
      }
      case Token.ClosedPar:
        this.consume(Context.Values);
        return new Set(['']);
      default:
        throw new RequirementError(`found '${literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume(Context.Values);
      switch (tok) {
        case Token.Identifier: {
          s.add(literal);
          const next = this.lookahead(Context.Values);
          if (next.tok === Token.Comma) continue;
          if (next.tok === Token.ClosedPar) return s;
          throw new RequirementError(`found '${next.literal}', expected: ',' or ')'`);
        }
        case Token.Comma: {
          if (s.size === 0) s.add('');
          const next = this.lookahead(Context.Values).tok;
          if (next === Token.ClosedPar) {
            s.add('');
            return s;
          }
          if (next === Token.Comma) s.add('');
          continue;
        }
        default:
          throw new RequirementError(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  /** The single value after `=`, `==`, `!=`, `>` or `<`; nothing before `,` or the end is `""`. */
  private parseExactValue(): Set<string> {
    const next = this.lookahead(Context.Values).tok;
    if (next === Token.EndOfString || next === Token.Comma) return new Set(['']);
    const { tok, literal } = this.consume(Context.Values);
    if (tok === Token.Identifier) return new Set([literal]);
    throw new RequirementError(`found '${literal}', expected: identifier`);
  }
}
