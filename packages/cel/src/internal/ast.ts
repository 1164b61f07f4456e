/**
 * The CEL syntax tree kubekit type-checks and evaluates, built from `@bufbuild/cel`'s parser output.
 *
 * On top of that parser this adds what cel-go's parser does and it does not: the optional syntax
 * (`a.?b`, `a[?b]`), the two-variable comprehension macros (`all(k, v, p)`, `transformList`,
 * `transformMap`), the optional macros (`optMap`, `optFlatMap`), the macro argument errors (`invalid
 * argument to has() macro`, `argument must be a simple name`), and cel-go's source positions (calls
 * are located at their `(`, conditionals at their `?`), which the error messages print. Whether a source
 * is CEL at all, and the words of its syntax errors, are decided by kubekit's ANTLR grammar of CEL
 * (syntaxErrors.ts): a source reaches `@bufbuild/cel` only once that grammar has accepted it, comments
 * blanked out.
 */
import { parse } from '@bufbuild/cel';
import type { CelIssues } from './issues.js';
import { BoundedCache } from './boundedCache.js';
import { UintVal } from './values.js';
import { celSyntaxErrors } from './syntaxErrors.js';

/** A literal value. */
export type Literal = null | boolean | bigint | number | string | Uint8Array | UintVal;

/** A node of the syntax tree. `id`s are unique in a tree. */
export type Expr =
  | { kind: 'literal'; id: number; value: Literal }
  | { kind: 'ident'; id: number; name: string }
  | { kind: 'select'; id: number; operand: Expr; field: string; testOnly: boolean; optional: boolean }
  | { kind: 'call'; id: number; fn: string; target?: Expr; args: Expr[] }
  | { kind: 'list'; id: number; elements: Expr[]; optionalIndices: number[] }
  | { kind: 'map'; id: number; entries: MapEntry[] }
  | { kind: 'struct'; id: number; typeName: string }
  | {
    kind: 'comprehension'; id: number; iterVar: string; iterVar2: string; iterRange: Expr; accuVar: string;
    accuInit: Expr; loopCondition: Expr; loopStep: Expr; result: Expr;
  };

/** An entry of a map literal. */
export interface MapEntry {
  id: number;
  key: Expr;
  value: Expr;
  optional: boolean;
}

/** A parsed expression: its tree and the source offset of every node. */
export interface ParsedExpr {
  expr: Expr;
  source: string;
  offsets: Map<number, number>;
}

/** The accumulator of macro comprehensions. */
export const accumulatorName = '@result';
/** The prefix of the variable kubekit binds an `optMap`/`optFlatMap` target to (cel-go copies the target instead). */
export const optionalTargetPrefix = '@opt';
const unusedIterVar = '#unused';

/** The protobuf `Expr` shape of `@bufbuild/cel` (only what is read here). */
interface PbExpr {
  id: bigint;
  exprKind: { case: string | undefined; value: unknown };
}

/**
 * How deep the conversion of @bufbuild/cel's tree may nest: a guard of the stack only, as cel-go's
 * own limits (250 nested rules of one kind, 250 nested operations) are enforced by {@link celSyntaxErrors}
 * before, and a tree within them nests less deep than this.
 */
const maxRecursionDepth = 2000;

/**
 * Rewrites a source cel-go accepts into one of the same length @bufbuild/cel accepts, and returns what
 * the converter needs to undo the rewriting: the `?` of `.?` and `[?` become spaces (the offsets of the
 * `.` and `[` mark the resulting nodes optional), comments become spaces, runs of unary operators are
 * written as cel-go reads them (see unaryRun), names that begin with `true` or `false` get a capital, and
 * an empty argument list with whitespace inside (`f( )`) is written `f()` followed by that many spaces.
 * String literals are skipped.
 */
function stripOptionalSyntax(src: string): {
  text: string; selects: Set<number>; indexes: Set<number>; entries: Map<number, Set<number>>; negations: Set<number>; renames: Map<string, string>;
} {
  const out = src.split('');
  const selects = new Set<number>();
  // Negations written as `!` (see unaryRun), by offset, which the converter names `-_`.
  const negations = new Set<number>();
  // Identifiers that begin with `true` or `false` (`trueCount`), which @bufbuild/cel lexes as the literal
  // followed by the rest: written with a capital (`TrueCount`) when that name is not in the source, and
  // named back by the converter (placeholder → name).
  const renames = new Map<string, string>();
  const indexes = new Set<number>();
  // Optional elements of list literals and entries of map literals: literal offset → element indexes.
  const entries = new Map<number, Set<number>>();
  const stack: { open: number; literal: boolean; index: number }[] = [];
  let prev = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") {
      const raw = i > 0 && /[rR]/.test(src[i - 1]) && (i < 2 || !/[A-Za-z0-9_]/.test(src[i - 2]) || /[bB]/.test(src[i - 2]));
      const triple = src.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      i += quote.length;
      while (i < src.length && !src.startsWith(quote, i)) {
        if (!raw && src[i] === '\\') i++;
        i++;
      }
      i += quote.length;
      prev = 'x';
      continue;
    }
    if ((c === 't' || c === 'f') && !isIdentChar(src[i - 1]) && prev !== '.') {
      const word = /^(?:true|false)[A-Za-z0-9_]+/.exec(src.slice(i))?.[0];
      const placeholder = word === undefined ? '' : c.toUpperCase() + word.slice(1);
      if (word !== undefined && !new RegExp(`\\b${placeholder}\\b`).test(src)) {
        out[i] = c.toUpperCase();
        renames.set(placeholder, word);
      }
    }
    if (c === '/' && src[i + 1] === '/') {
      // A comment, which @bufbuild/cel does not accept: blanked, as cel-go's lexer hides it.
      while (i < src.length && src[i] !== '\n') out[i++] = ' ';
      continue;
    }
    if ((c === '-' || c === '!') && isUnaryPosition(src, i, prev)) {
      i = unaryRun(src, out, i, negations);
      prev = c;
      continue;
    }
    let j = i + 1;
    while (j < src.length && /\s/.test(src[j])) j++;
    const nextIsQuestion = src[j] === '?';
    if (c === '.' && nextIsQuestion) {
      out[j] = ' ';
      selects.add(i);
    } else if (c === '[' || c === '{') {
      // `[` after an operand indexes; otherwise it opens a list literal (`{` opens a map literal).
      const literal = c === '{' || !/[A-Za-z0-9_)\]}'"]/.test(prev);
      stack.push({ open: i, literal, index: 0 });
      if (nextIsQuestion) {
        out[j] = ' ';
        if (literal) entries.set(i, new Set([0]));
        else indexes.add(i);
      }
    } else if (c === '(') {
      const close = emptyParensEnd(src, i);
      if (close > i + 1) {
        // `f( )`: an empty argument list with whitespace or a comment inside, which @bufbuild/cel
        // refuses; written `f()` followed by spaces (the `(`, where the call's node is, stays).
        out[i + 1] = ')';
        for (let k = i + 2; k <= close; k++) out[k] = ' ';
        i = close + 1;
        prev = ')';
        continue;
      }
      stack.push({ open: i, literal: false, index: 0 });
    } else if (c === ']' || c === '}' || c === ')') {
      stack.pop();
    } else if (c === ',' && stack.length > 0) {
      const top = stack[stack.length - 1];
      top.index++;
      if (nextIsQuestion && top.literal) {
        out[j] = ' ';
        const set = entries.get(top.open) ?? new Set<number>();
        set.add(top.index);
        entries.set(top.open, set);
      }
    }
    if (!/\s/.test(c)) prev = c;
    i++;
  }
  return { text: out.join(''), selects, indexes, entries, negations, renames };
}

/** Whether the operator at `i` is unary: nothing that ends an operand (nor the operator `in`) comes before it. */
function isUnaryPosition(src: string, i: number, prev: string): boolean {
  if (!/[A-Za-z0-9_)\]}'"]/.test(prev)) return true;
  return /(?:^|[^A-Za-z0-9_])in\s*$/.test(src.slice(Math.max(0, i - 40), i));
}

/**
 * Writes a run of one unary operator (`- -a`, `! !a`, `-1u`) as cel-go reads it and as @bufbuild/cel
 * accepts it: an even number of them as spaces (cel-go drops them), an odd number as one operator where
 * the first stands, the others as spaces. @bufbuild/cel refuses whitespace inside such a run, and lexes a
 * minus right before a uint literal as a negative int followed by `u`; that minus is written `!` and its
 * offset kept in `negations`. Comments inside the run are blanked. A run without whitespace, comment or
 * uint literal is left as it is. Returns the offset after the run.
 */
function unaryRun(src: string, out: string[], i: number, negations: Set<number>): number {
  const op = src[i];
  let j = i;
  let n = 0;
  while (j < src.length && (src[j] === op || /\s/.test(src[j]) || src.startsWith('//', j))) {
    if (src[j] === op) n++;
    if (src.startsWith('//', j)) while (j < src.length && src[j] !== '\n') j++;
    else j++;
  }
  while (j > i && /\s/.test(src[j - 1])) j--;
  const spaced = src.slice(i, j).length !== n;
  const uint = op === '-' && /^(?:0x[0-9a-fA-F]+|[0-9]+)[uU]/.test(src.slice(j, j + 40));
  if (!spaced && !uint) return j;
  for (let k = i; k < j; k++) if (!/\s/.test(src[k])) out[k] = ' ';
  if (n % 2 === 1) {
    out[i] = uint ? '!' : op;
    if (uint) negations.add(i);
  }
  return j;
}

/**
 * The offset of the `)` that closes the `(` at `open` when only whitespace and comments stand between
 * them, -1 otherwise.
 */
function emptyParensEnd(src: string, open: number): number {
  let k = open + 1;
  while (k < src.length) {
    if (/\s/.test(src[k])) k++;
    else if (src.startsWith('//', k)) while (k < src.length && src[k] !== '\n') k++;
    else return src[k] === ')' ? k : -1;
  }
  return -1;
}

/** The first offset from `i` that is not whitespace (the parser may place a node at the whitespace before it). */
function skipSpace(src: string, i: number): number {
  while (i < src.length && /\s/.test(src[i])) i++;
  return i;
}

function isIdentChar(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z0-9_]/.test(c);
}

/** The offset of the `(` of a call whose node starts at `start` (an identifier, or the `.` of a member call). */
function openParen(src: string, start: number): number {
  let i = start;
  if (src[i] === '.') i++;
  while (i < src.length && /\s/.test(src[i])) i++;
  while (isIdentChar(src[i])) i++;
  while (i < src.length && /\s/.test(src[i])) i++;
  return src[i] === '(' ? i : start;
}

/** The offset of the top-level `?` of a conditional whose condition starts at `start`. */
function questionMark(src: string, start: number): number {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      i += quote.length;
      while (i < src.length && !src.startsWith(quote, i)) {
        if (src[i] === '\\') i++;
        i++;
      }
      i += quote.length - 1;
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if (c === ')' || c === ']' || c === '}') {
      depth--;
    } else if (c === '?' && depth === 0) {
      return i;
    }
  }
  return start;
}

class Converter {
  private nextId = 0;
  private byId: Map<bigint, PbExpr> | undefined;
  readonly offsets = new Map<number, number>();
  private depth = 0;

  constructor(
    private readonly src: string,
    private readonly pbOffsets: Record<string, number>,
    private readonly root: PbExpr,
    private readonly macroCalls: Record<string, PbExpr>,
    private readonly optionalSelects: Set<number>,
    private readonly optionalIndexes: Set<number>,
    private readonly optionalEntries: Map<number, Set<number>>,
    private readonly negations: Set<number>,
    private readonly renames: Map<string, string>,
    private readonly issues: CelIssues,
    private readonly options: ParseOptions,
  ) {}

  private newId(offset: number): number {
    const id = ++this.nextId;
    this.offsets.set(id, offset);
    return id;
  }

  private offsetOf(e: PbExpr | { id: bigint }): number {
    return this.pbOffsets[String(e.id)] ?? 0;
  }

  convert(e: PbExpr): Expr {
    if (++this.depth > maxRecursionDepth) {
      this.depth--;
      throw new CelRecursionError();
    }
    try {
      return this.convertInner(e);
    } finally {
      this.depth--;
    }
  }

  private convertInner(e: PbExpr): Expr {
    const offset = this.offsetOf(e);
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = (k.value as { constantKind: { case: string; value: unknown } }).constantKind;
        let value: Literal;
        switch (c.case) {
          case 'uint64Value': value = new UintVal(c.value as bigint); break;
          case 'nullValue': value = null; break;
          default: value = c.value as Literal;
        }
        return { kind: 'literal', id: this.newId(offset), value };
      }
      case 'identExpr':
        return { kind: 'ident', id: this.newId(offset), name: this.name((k.value as { name: string }).name) };
      case 'selectExpr': {
        const s = k.value as { operand: PbExpr; field: string; testOnly: boolean };
        const operand = this.convert(s.operand);
        return { kind: 'select', id: this.newId(offset), operand, field: s.field, testOnly: s.testOnly, optional: this.optionalSelects.has(offset) };
      }
      case 'callExpr': return this.convertCall(k.value as { function: string; target?: PbExpr; args: PbExpr[] }, offset);
      case 'listExpr': {
        const l = k.value as { elements: PbExpr[] };
        const optional = [...(this.optionalEntries.get(offset) ?? [])].filter((n) => n < l.elements.length);
        return { kind: 'list', id: this.newId(offset), elements: l.elements.map((x) => this.convert(x)), optionalIndices: optional };
      }
      case 'structExpr': {
        const s = k.value as { messageName: string; entries: { id: bigint; keyKind: { case: string; value: unknown }; value: PbExpr; optionalEntry: boolean }[] };
        if (s.messageName !== '') {
          return { kind: 'struct', id: this.newId(offset), typeName: s.messageName };
        }
        const optional = this.optionalEntries.get(offset) ?? new Set<number>();
        const entries: MapEntry[] = s.entries.map((en, idx) => {
          const key = this.convert(en.keyKind.value as PbExpr);
          const value = this.convert(en.value);
          return { id: this.newId(this.offsetOf(en)), key, value, optional: en.optionalEntry || optional.has(idx) };
        });
        return { kind: 'map', id: this.newId(offset), entries };
      }
      case 'comprehensionExpr': {
        // @bufbuild/cel expands `existsOne(x, p)`, which is not among cel-go's standard macros (only the
        // two-variable form of ext.TwoVarComprehensions is): the apiserver checks it as a plain call.
        const macro = this.macroCalls[String(e.id)]?.exprKind;
        if (macro?.case === 'callExpr') {
          const call = macro.value as { function: string; target?: PbExpr; args: PbExpr[] };
          if (call.function === 'existsOne' && call.target !== undefined && call.args.length === 2) return this.convertCall(call, offset);
        }
        const c = k.value as {
          iterVar: string; iterVar2: string; iterRange: PbExpr; accuVar: string; accuInit: PbExpr;
          loopCondition: PbExpr; loopStep: PbExpr; result: PbExpr;
        };
        const iterRange = this.convert(c.iterRange);
        const accuInit = this.convert(c.accuInit);
        const loopCondition = this.convert(c.loopCondition);
        const loopStep = this.convert(c.loopStep);
        const result = this.convert(c.result);
        return {
          kind: 'comprehension', id: this.newId(openParen(this.src, offset)), iterVar: this.name(c.iterVar), iterVar2: this.name(c.iterVar2),
          iterRange, accuVar: c.accuVar, accuInit, loopCondition, loopStep, result,
        };
      }
      default: {
        // A macro call's argument that is itself an expanded macro is recorded by id only.
        const expanded = k.case === undefined ? this.expansion(e.id) : undefined;
        if (expanded !== undefined) return this.convert(expanded);
        this.issues.report(offset, 'unsupported expression');
        return { kind: 'literal', id: this.newId(offset), value: null };
      }
    }
  }

  /** The expression of id `id` in the tree being converted (built once, on the first lookup). */
  private expansion(id: bigint): PbExpr | undefined {
    if (this.byId === undefined) {
      this.byId = new Map();
      const stack: unknown[] = [this.root];
      while (stack.length > 0) {
        const node = stack.pop();
        if (node === null || typeof node !== 'object') continue;
        const x = node as Partial<PbExpr>;
        if (typeof x.id === 'bigint' && x.exprKind?.case !== undefined) this.byId.set(x.id, x as PbExpr);
        for (const v of Object.values(node)) if (v !== null && typeof v === 'object') stack.push(v);
      }
    }
    return this.byId.get(id);
  }

  /** A name as the source spells it (see `renames` of stripOptionalSyntax). */
  private name(n: string): string {
    return this.renames.size === 0 ? n : this.renames.get(n) ?? n;
  }

  private convertCall(c: { function: string; target?: PbExpr; args: PbExpr[] }, offset: number): Expr {
    const fn = this.name(c.function);
    if (fn === '_[_]') {
      const args = c.args.map((a) => this.convert(a));
      const name = this.optionalIndexes.has(offset) ? '_[?_]' : '_[_]';
      return { kind: 'call', id: this.newId(offset), fn: name, args };
    }
    if (fn === '_?_:_') {
      const args = c.args.map((a) => this.convert(a));
      return { kind: 'call', id: this.newId(questionMark(this.src, offset)), fn, args };
    }
    if (fn === '!_' && this.negations.size > 0 && this.negations.has(skipSpace(this.src, offset))) {
      return { kind: 'call', id: this.newId(skipSpace(this.src, offset)), fn: '-_', args: c.args.map((a) => this.convert(a)) };
    }
    if (fn.startsWith('_') || fn.startsWith('@') || fn === '!_' || fn === '-_') {
      const args = c.args.map((a) => this.convert(a));
      // The parser locates binary operators at the whitespace before them; cel-go at the operator.
      let at = offset;
      while (at < this.src.length && /\s/.test(this.src[at])) at++;
      return { kind: 'call', id: this.newId(at), fn, args };
    }
    const callOffset = openParen(this.src, offset);
    if (c.target === undefined) {
      if (fn === 'has' && c.args.length === 1) {
        const arg = this.convert(c.args[0]);
        this.issues.report(this.offsets.get(arg.id) ?? callOffset, 'invalid argument to has() macro');
        return { kind: 'call', id: this.newId(callOffset), fn, args: [arg] };
      }
      return { kind: 'call', id: this.newId(callOffset), fn, args: c.args.map((a) => this.convert(a)) };
    }
    const target = this.convert(c.target);
    const args = c.args.map((a) => this.convert(a));
    const expanded = this.expandMacro(fn, target, args, callOffset);
    if (expanded !== undefined) return expanded;
    return { kind: 'call', id: this.newId(callOffset), fn, target, args };
  }

  private identName(e: Expr): string | undefined {
    return e.kind === 'ident' ? e.name : undefined;
  }

  private accu(offset: number): Expr {
    return { kind: 'ident', id: this.newId(offset), name: accumulatorName };
  }

  private call(offset: number, fn: string, args: Expr[], target?: Expr): Expr {
    return { kind: 'call', id: this.newId(offset), fn, args, target };
  }

  private lit(offset: number, value: Literal): Expr {
    return { kind: 'literal', id: this.newId(offset), value };
  }

  /** cel-go macros that `@bufbuild/cel` leaves as calls. */
  private expandMacro(fn: string, target: Expr, args: Expr[], at: number): Expr | undefined {
    if (fn === 'bind' && args.length === 3 && this.options.bindings === true && target.kind === 'ident' && target.name === 'cel') return this.bind(args, at);
    const quantifiers = ['all', 'exists', 'exists_one', 'existsOne'];
    // existsOne is a macro of two variables only (ext.TwoVarComprehensions); with one it is a plain call.
    const oneVar = ['all', 'exists', 'exists_one', 'map', 'filter'];
    if (oneVar.includes(fn) && (args.length === 2 || (fn === 'map' && args.length === 3))) {
      // The parser expands these when the first argument is an identifier.
      this.issues.report(this.offsets.get(args[0].id) ?? at, 'argument must be a simple name');
      return undefined;
    }
    const twoVar = quantifiers.includes(fn) ? 3 : fn === 'transformList' || fn === 'transformMap' || fn === 'transformMapEntry' ? 0 : -1;
    if (twoVar === 3 && args.length === 3) return this.twoVarQuantifier(fn, target, args, at);
    if (twoVar === 0 && (args.length === 3 || args.length === 4)) return this.transform(fn, target, args, at);
    if ((fn === 'optMap' || fn === 'optFlatMap') && args.length === 2) {
      const v = this.identName(args[0]);
      if (v === undefined) {
        this.issues.report(this.offsets.get(args[0].id) ?? at, `${fn}() variable name must be a simple identifier`);
        return undefined;
      }
      // cel-go copies the target into `.value()`; binding it once keeps chained calls linear in size.
      const opt = `${optionalTargetPrefix}${this.nextId}`;
      const optIdent = (): Expr => ({ kind: 'ident', id: this.newId(at), name: opt });
      const inner: Expr = {
        kind: 'comprehension', id: this.newId(at), iterVar: unusedIterVar, iterVar2: '',
        iterRange: { kind: 'list', id: this.newId(at), elements: [], optionalIndices: [] },
        accuVar: v, accuInit: this.call(at, 'value', [], optIdent()), loopCondition: this.lit(at, false),
        loopStep: { kind: 'ident', id: this.newId(at), name: v }, result: args[1],
      };
      const some = fn === 'optMap' ? this.call(at, 'optional.of', [inner]) : inner;
      return {
        kind: 'comprehension', id: this.newId(at), iterVar: unusedIterVar, iterVar2: '',
        iterRange: { kind: 'list', id: this.newId(at), elements: [], optionalIndices: [] },
        accuVar: opt, accuInit: target, loopCondition: this.lit(at, false), loopStep: optIdent(),
        result: this.call(at, '_?_:_', [this.call(at, 'hasValue', [], optIdent()), some, this.call(at, 'optional.none', [])]),
      };
    }
    return undefined;
  }

  /**
   * ext.Bindings' `cel.bind(v, init, result)`: `result` with `v` bound to `init`, as cel-go expands it (a
   * comprehension over an empty list whose accumulator is `v`, which the cost estimate and the
   * interpreter recognise as a binding).
   */
  private bind(args: Expr[], at: number): Expr | undefined {
    const v = this.identName(args[0]);
    if (v === undefined) {
      this.issues.report(this.offsets.get(args[0].id) ?? at, 'cel.bind() variable names must be simple identifiers');
      return undefined;
    }
    return {
      kind: 'comprehension', id: this.newId(at), iterVar: unusedIterVar, iterVar2: '',
      iterRange: { kind: 'list', id: this.newId(at), elements: [], optionalIndices: [] },
      accuVar: v, accuInit: args[1], loopCondition: this.lit(at, false), loopStep: { kind: 'ident', id: this.newId(at), name: v }, result: args[2],
    };
  }

  private checkVars(args: Expr[], at: number): [string, string] | undefined {
    const v1 = this.identName(args[0]);
    const v2 = this.identName(args[1]);
    if (v1 === undefined) {
      this.issues.report(this.offsets.get(args[0].id) ?? at, 'argument must be a simple name');
      return undefined;
    }
    if (v2 === undefined) {
      this.issues.report(this.offsets.get(args[1].id) ?? at, 'argument must be a simple name');
      return undefined;
    }
    for (const v of [v1, v2]) {
      if (v === accumulatorName || v === '__result__') {
        this.issues.report(at, 'iteration variable overwrites accumulator variable');
        return undefined;
      }
    }
    if (v1 === v2) {
      this.issues.report(this.offsets.get(args[1].id) ?? at, 'duplicate variable name: ' + v1);
      return undefined;
    }
    return [v1, v2];
  }

  private twoVarQuantifier(fn: string, target: Expr, args: Expr[], at: number): Expr | undefined {
    const vars = this.checkVars(args, at);
    if (vars === undefined) return undefined;
    const pred = args[2];
    let init: Expr;
    let cond: Expr;
    let step: Expr;
    let result: Expr;
    if (fn === 'all') {
      init = this.lit(at, true);
      cond = this.call(at, '@not_strictly_false', [this.accu(at)]);
      step = this.call(at, '_&&_', [this.accu(at), pred]);
      result = this.accu(at);
    } else if (fn === 'exists') {
      init = this.lit(at, false);
      cond = this.call(at, '@not_strictly_false', [this.call(at, '!_', [this.accu(at)])]);
      step = this.call(at, '_||_', [this.accu(at), pred]);
      result = this.accu(at);
    } else {
      init = this.lit(at, 0n);
      cond = this.lit(at, true);
      step = this.call(at, '_?_:_', [pred, this.call(at, '_+_', [this.accu(at), this.lit(at, 1n)]), this.accu(at)]);
      result = this.call(at, '_==_', [this.accu(at), this.lit(at, 1n)]);
    }
    return {
      kind: 'comprehension', id: this.newId(at), iterVar: vars[0], iterVar2: vars[1], iterRange: target,
      accuVar: accumulatorName, accuInit: init, loopCondition: cond, loopStep: step, result,
    };
  }

  private transform(fn: string, target: Expr, args: Expr[], at: number): Expr | undefined {
    const vars = this.checkVars(args, at);
    if (vars === undefined) return undefined;
    const filter = args.length === 4 ? args[2] : undefined;
    const transform = args[args.length - 1];
    let init: Expr;
    let step: Expr;
    if (fn === 'transformList') {
      init = { kind: 'list', id: this.newId(at), elements: [], optionalIndices: [] };
      step = this.call(at, '_+_', [this.accu(at), { kind: 'list', id: this.newId(at), elements: [transform], optionalIndices: [] }]);
    } else if (fn === 'transformMap') {
      init = { kind: 'map', id: this.newId(at), entries: [] };
      step = this.call(at, 'cel.@mapInsert', [this.accu(at), { kind: 'ident', id: this.newId(at), name: vars[0] }, transform]);
    } else {
      init = { kind: 'map', id: this.newId(at), entries: [] };
      step = this.call(at, 'cel.@mapInsert', [this.accu(at), transform]);
    }
    if (filter !== undefined) step = this.call(at, '_?_:_', [filter, step, this.accu(at)]);
    return {
      kind: 'comprehension', id: this.newId(at), iterVar: vars[0], iterVar2: vars[1], iterRange: target,
      accuVar: accumulatorName, accuInit: init, loopCondition: this.lit(at, true), loopStep: step, result: this.accu(at),
    };
  }
}

class CelRecursionError extends Error {}

/** What a parse expands besides cel-go's standard macros and the apiserver's libraries' (which it always does). */
export interface ParseOptions {
  /** The `cel.bind` macro of cel-go's ext.Bindings (the DRA environment has it; the apiserver's base environment does not). */
  readonly bindings?: boolean;
}

/** Parses `source`; syntax and macro errors are reported to `issues` (the tree is then unusable). */
export function parseExpr(source: string, issues: CelIssues, options: ParseOptions = {}): ParsedExpr | undefined {
  // cel-go's parser decides what is syntactically CEL and words the errors; @bufbuild/cel builds the tree.
  const syntaxErrors = celSyntaxErrors(source, options);
  if (syntaxErrors.length > 0) {
    for (const issue of syntaxErrors) issues.report(issue.offset, issue.message);
    return undefined;
  }
  const { text, selects, indexes, entries, negations, renames } = stripOptionalSyntax(source);
  let pb: ReturnType<typeof parse>;
  try {
    pb = parse(text);
  } catch (err) {
    const loc = (err as { location?: { start?: { offset?: number } } }).location;
    const raw = (err as { rawMessage?: string }).rawMessage ?? (err instanceof Error ? err.message : String(err));
    issues.report(loc?.start?.offset ?? 0, `Syntax error: ${raw}`);
    return undefined;
  }
  const root = pb.expr as unknown as PbExpr;
  const conv = new Converter(source, pb.sourceInfo?.positions ?? {}, root, (pb.sourceInfo?.macroCalls ?? {}) as unknown as Record<string, PbExpr>, selects, indexes, entries, negations, renames, issues, options);
  try {
    const expr = conv.convert(root);
    return { expr, source, offsets: conv.offsets };
  } catch (err) {
    if (err instanceof CelRecursionError) {
      issues.report(0, 'expression recursion limit exceeded: 250');
      return undefined;
    }
    throw err;
  }
}

/**
 * A deep copy of a tree, with the same ids (the checker rewrites namespaced calls in place). Each kind
 * is built in one shape, so the passes over trees stay monomorphic.
 */
function cloneExpr(e: Expr): Expr {
  switch (e.kind) {
    case 'literal': return { kind: 'literal', id: e.id, value: e.value };
    case 'ident': return { kind: 'ident', id: e.id, name: e.name };
    case 'struct': return { kind: 'struct', id: e.id, typeName: e.typeName };
    case 'select': return { kind: 'select', id: e.id, operand: cloneExpr(e.operand), field: e.field, testOnly: e.testOnly, optional: e.optional };
    case 'call': {
      const args: Expr[] = [];
      for (const a of e.args) args.push(cloneExpr(a));
      return { kind: 'call', id: e.id, fn: e.fn, target: e.target === undefined ? undefined : cloneExpr(e.target), args };
    }
    case 'list': {
      const elements: Expr[] = [];
      for (const x of e.elements) elements.push(cloneExpr(x));
      return { kind: 'list', id: e.id, elements, optionalIndices: e.optionalIndices };
    }
    case 'map': {
      const entries: MapEntry[] = [];
      for (const en of e.entries) entries.push({ id: en.id, key: cloneExpr(en.key), value: cloneExpr(en.value), optional: en.optional });
      return { kind: 'map', id: e.id, entries };
    }
    case 'comprehension':
      return {
        kind: 'comprehension', id: e.id, iterVar: e.iterVar, iterVar2: e.iterVar2, iterRange: cloneExpr(e.iterRange), accuVar: e.accuVar,
        accuInit: cloneExpr(e.accuInit), loopCondition: cloneExpr(e.loopCondition), loopStep: cloneExpr(e.loopStep), result: cloneExpr(e.result),
      };
  }
}

/**
 * The trees {@link parseExprCached} keeps: of at most 512 sources, 2^20 characters of source in all (a
 * tree grows with its source), the least recently used forgotten first.
 */
const parseCache = new BoundedCache<ParsedExpr>(512, 2 ** 20);

/**
 * {@link parseExpr}, remembering the trees of sources that parsed without issues: a CRD's rules are
 * compiled when it is validated and again when its validator is built, and every version repeats
 * them. Each call returns its own copy of the tree.
 */
export function parseExprCached(source: string, issues: CelIssues, options: ParseOptions = {}): ParsedExpr | undefined {
  // A source parses to another tree where cel.bind is a macro.
  const key = options.bindings === true ? `\0bind\0${source}` : source;
  let parsed = parseCache.get(key);
  if (parsed === undefined) {
    const before = issues.length;
    parsed = parseExpr(source, issues, options);
    if (parsed === undefined || issues.length > before) return parsed;
    parseCache.set(key, parsed, source.length);
  }
  return { expr: cloneExpr(parsed.expr), source: parsed.source, offsets: parsed.offsets };
}
