/**
 * CEL's syntax errors in cel-go's words. kubekit builds its trees with @bufbuild/cel's parser, whose
 * messages (`found . but expecting end of input`) are not the apiserver's; so a source is first run
 * through a lexer and parser generated from kubekit's own ANTLR grammar of CEL (scripts/gen-cel-parser/
 * Cel.g4, written from the CEL language definition) by the ANTLR version cel-go's parser was generated
 * with, on ANTLR's JavaScript runtime. Its rules are the specification's productions and its tokens
 * are declared in the order the apiserver's messages list them, so the prediction, the error
 * recovery and the messages (`mismatched input '<EOF>' expecting {…}`,
 * `no viable alternative at input '.'`, `token recognition error at: '"x'`) are then ANTLR's, and
 * this module adds what cel-go's parser (parser/parser.go) adds around them: its error listener
 * (the `Syntax error: ` prefix, the reserved-word rewording, at most 100 reports), its recovery
 * strategy (at most 30 recoveries, each looking at most 256 tokens ahead), its recursion limit
 * (250 nested rules of one kind) and its size limit (100,000 code points), all at the defaults
 * kube-apiserver keeps.
 *
 * @see https://github.com/google/cel-go/blob/v0.26.0/parser/parser.go
 */
import * as antlr4 from 'antlr4';
import { CharStreams, CommonTokenStream } from 'antlr4';
import type { Token } from 'antlr4';
import { CelLexer } from './gen/celLexer.js';
import { CelParser } from './gen/celParser.js';
import { visitErrors } from './syntaxVisitor.js';

/** Where an error is: a UTF-16 offset into the source (-1: column -1 of line 1, see VisitLocation), or nowhere (cel-go's `NoLocation`, printed `-1:0`). */
export type IssueOffset = number | 'none';

/** One error as cel-go reports it, before its display (`ERROR: <input>:L:C: message` and a snippet). */
export interface SyntaxIssue {
  readonly offset: IssueOffset;
  readonly message: string;
}

const expressionSizeCodePointLimit = 100_000;
const errorReportingLimit = 100;
const errorRecoveryLimit = 30;
const errorRecoveryTokenLookaheadLimit = 256;
const maxRecursionDepth = 250;

// antlr4's own declarations are incomplete as an ES module sees them (their relative imports have no
// extension), so the few members used here are declared here.

/** A recognizer (lexer or parser) as its error listeners see it. */
interface RecognizerLike {
  removeErrorListeners(): void;
  addErrorListener(listener: object): void;
}

/** A parser as its error strategy and listeners see it. */
interface ParserLike extends RecognizerLike {
  consume(): Token;
  notifyErrorListeners(msg: string, offendingToken: Token | null, err: unknown): void;
  addParseListener(listener: object): void;
  _errHandler: object;
}

/** A rule's context, as a parse listener sees it. */
interface RuleContextLike {
  ruleIndex: number;
}

/** ANTLR's DefaultErrorStrategy: report, then resynchronize. */
interface ErrorStrategyLike {
  recover(recognizer: ParserLike, e: unknown): void;
  recoverInline(recognizer: ParserLike): Token;
}

const { DefaultErrorStrategy, ErrorListener } = antlr4 as unknown as {
  DefaultErrorStrategy: new () => ErrorStrategyLike;
  ErrorListener: new () => object;
};

/** A limit stopped the parse; the listener has already reported what the caller shows, if anything. */
class ParseStop extends Error {
  constructor(readonly internal?: string) {
    super(internal ?? 'parse stopped');
  }
}

/** cel-go's `recoveryLimitErrorStrategy`: ANTLR's default recovery, at most 30 times, 256 tokens each. */
class RecoveryLimitErrorStrategy extends DefaultErrorStrategy {
  private recoveryAttempts = 0;

  override recover(recognizer: ParserLike, e: unknown): void {
    this.checkAttempts(recognizer);
    super.recover(lookaheadConsumer(recognizer), e);
  }

  override recoverInline(recognizer: ParserLike): Token {
    this.checkAttempts(recognizer);
    return super.recoverInline(lookaheadConsumer(recognizer));
  }

  private checkAttempts(recognizer: ParserLike): void {
    if (this.recoveryAttempts === errorRecoveryLimit) {
      this.recoveryAttempts++;
      recognizer.notifyErrorListeners(`error recovery attempt limit exceeded: ${errorRecoveryLimit}`, null, null);
      throw new ParseStop();
    }
    this.recoveryAttempts++;
  }
}

/** The parser as one recovery sees it: consuming more than 256 tokens stops the parse (cel-go's `lookaheadConsumer`). */
function lookaheadConsumer(recognizer: ParserLike): ParserLike {
  let attempts = 0;
  return new Proxy(recognizer, {
    get(target, prop, receiver) {
      if (prop === 'consume') {
        return () => {
          if (attempts >= errorRecoveryTokenLookaheadLimit) {
            throw new ParseStop(`error recovery token lookahead limit exceeded: ${errorRecoveryTokenLookaheadLimit}`);
          }
          attempts++;
          return target.consume();
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

/** The offsets (UTF-16) at which each line (1-based) starts, and the code points of each line. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** The UTF-16 offset of ANTLR's line (1-based) and column (0-based, in code points). */
function offsetOf(source: string, starts: number[], line: number, column: number): number {
  let i = starts[line - 1] ?? source.length;
  for (let c = 0; c < column && i < source.length; c++) i += (source.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
  return i;
}

/**
 * cel-go's parser as an error listener: every message gets `Syntax error: `, a `no viable
 * alternative` at `.true`, `.false` or `.null` is reworded as cel-go rewords it, and the 101st report
 * becomes `More than 100 syntax errors` and stops the parse.
 */
class SyntaxErrorListener extends ErrorListener {
  readonly issues: SyntaxIssue[] = [];
  private reports = 0;
  private readonly starts: number[];

  constructor(private readonly source: string) {
    super();
    this.starts = lineStarts(source);
  }

  /** The UTF-16 offset of ANTLR's line (1-based) and column (0-based, in code points). */
  offset(line: number, column: number): number {
    return offsetOf(this.source, this.starts, line, column);
  }

  syntaxError(_recognizer: unknown, _offending: unknown, line: number, column: number, msg: string): void {
    const offset = this.offset(line, column);
    if (msg.includes('no viable alternative')) {
      msg = msg.replace(/no viable alternative at input '.(true|false|null)'/g, "mismatched input '$1' expecting IDENTIFIER");
    }
    if (this.reports < errorReportingLimit) {
      this.reports++;
      this.issues.push({ offset, message: `Syntax error: ${msg}` });
    } else {
      this.issues.push({ offset, message: `Syntax error: More than ${errorReportingLimit} syntax errors` });
      throw new ParseStop();
    }
  }
}

/** cel-go's `recursionListener`: at most 250 rules of one kind open at once. */
function recursionListener(): object {
  const depths = new Map<number, number>();
  return {
    enterEveryRule(ctx: RuleContextLike): void {
      const depth = (depths.get(ctx.ruleIndex) ?? 0) + 1;
      depths.set(ctx.ruleIndex, depth);
      if (depth > maxRecursionDepth) throw new ParseStop(`expression recursion limit exceeded: ${maxRecursionDepth}`);
    },
    exitEveryRule(ctx: RuleContextLike): void {
      const depth = depths.get(ctx.ruleIndex);
      if (depth !== undefined && depth > 0) depths.set(ctx.ruleIndex, depth - 1);
    },
    visitTerminal(): void {},
    visitErrorNode(): void {},
  };
}

/** Code points of `source`, counted up to just past `limit`. */
function codePoints(source: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < source.length && n <= limit; i++) {
    const c = source.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < source.length) i++;
    n++;
  }
  return n;
}

/**
 * Lexes and parses `source` as cel-go's parser does, with the apiserver's limits, and returns the
 * errors its lexer, parser, limits and visitor report, in report order (none: the source is CEL).
 */
export function celSyntaxErrors(source: string, options: { readonly bindings?: boolean } = {}): SyntaxIssue[] {
  if (codePoints(source, expressionSizeCodePointLimit) > expressionSizeCodePointLimit) {
    const size = [...source].length;
    return [{ offset: 'none', message: `expression code point size exceeds limit: size: ${size}, limit ${expressionSizeCodePointLimit}` }];
  }
  const listener = new SyntaxErrorListener(source);
  const lexer = new CelLexer(CharStreams.fromString(source));
  (lexer as unknown as RecognizerLike).removeErrorListeners();
  (lexer as unknown as RecognizerLike).addErrorListener(listener);
  const celParser = new CelParser(new CommonTokenStream(lexer) as unknown as ConstructorParameters<typeof CelParser>[0]);
  const parser = celParser as unknown as ParserLike;
  parser.removeErrorListeners();
  parser.addErrorListener(listener);
  parser.addParseListener(recursionListener());
  parser._errHandler = new RecoveryLimitErrorStrategy();
  try {
    const tree = celParser.celSource();
    const issues = listener.issues;
    // cel-go visits the tree, recovered errors and all, and reports what its visitor finds after them.
    visitErrors(tree, issues.length, (at, message) => {
      issues.push({ offset: at === 'none' ? 'none' : at === 'offset -1' ? -1 : listener.offset(at.line, at.column), message });
    }, options.bindings === true);
    return issues;
  } catch (err) {
    if (!(err instanceof ParseStop)) throw err;
    const issues = listener.issues;
    if (err.internal !== undefined) issues.push({ offset: 'none', message: err.internal });
    return issues;
  }
}
