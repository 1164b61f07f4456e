/**
 * The errors cel-go's parser reports while it turns ANTLR's tree into an expression (its `Visit`
 * methods in parser/parser.go and the macro expanders): reserved identifiers, escaped identifiers
 * (`unsupported syntax: '`'`, the apiserver does not enable them), identifiers missing after a
 * recovered error (`unsupported ident kind`), literals out of range, string escapes that are not
 * characters, malformed macro calls, and the visit's own depth limit. The tree may hold recovered
 * syntax errors: cel-go visits it all the same, so these errors come with the syntax errors.
 *
 * Only errors are computed; the shape of an expression is kept only as far as a macro needs it
 * (an identifier's name, whether it is a field selection).
 *
 * @see https://github.com/google/cel-go/blob/v0.26.0/parser/parser.go
 */

// antlr4's declarations are incomplete as an ES module sees them: the members used are declared here.

/** A token: its place (line 1-based, column 0-based in code points) and text. */
interface Token {
  line: number;
  column: number;
  text: string;
}

/** A rule's context: where it starts. */
interface ParserRuleContext {
  start: Token;
}

/** A node of ANTLR's tree. */
type ParseTree = object;
import {
  BytesLitContext, CelSourceContext, ComparisonContext, ConjunctionContext, DisjunctionContext, ExprContext, FalseLitContext, FloatLitContext,
  FunctionCallContext, IntLitContext, ListLiteralContext, LiteralValueContext, MapLiteralContext, MemberOperandContext, MessageLiteralContext,
  MinusChainContext, NameRefContext, NotChainContext, NullLitContext, ParensContext, PlainMemberContext, PlainNameContext, ProductContext,
  QuotedNameContext, ReceiverCallContext, RelationOperandContext, ArithmeticOperandContext, SelectionContext,
  StringLitContext, SubscriptContext, SumContext, TrueLitContext, UintLitContext,
} from './gen/celParser.js';
import type { ExprListContext, FieldInitsContext, FieldNameContext, ListItemsContext, MapEntriesContext } from './gen/celParser.js';
import { parsesWithin, unescapeError } from './literalChecks.js';

/**
 * Where an error is: a place in the source (ANTLR's line, and column in code points), none (cel-go's
 * `NoLocation`, printed `-1:0`), or `'offset -1'`: the place of an expression cel-go made at no location,
 * whose offset is -1, which cel-go's `GetLocationByOffset` turns into column -1 of line 1 (printed `1:0`,
 * with a caret at the start of the first line).
 */
export type VisitLocation = { line: number; column: number } | 'none' | 'offset -1';

/** What a macro needs of an expression: its kind, an identifier's name, and where it is. */
interface Shape {
  /** As cel-go's ast.ExprKind, as far as macros look: `other` is a literal, a map, a message or an error. */
  kind: 'ident' | 'select' | 'list' | 'call' | 'comprehension' | 'other';
  name?: string;
  at: VisitLocation;
}

const maxRecursionDepth = 250;
const reservedIds = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let', 'loop', 'package',
  'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);
const accumulatorNames = new Set(['@result', '__result__']);
const operators = new Set(['<', '<=', '>=', '>', '==', '!=', 'in', '*', '/', '%', '+', '-']);

class VisitDepthExceeded extends Error {}

function tokenAt(t: Token | null | undefined): VisitLocation {
  return t === null || t === undefined ? 'none' : { line: t.line, column: t.column };
}

/** Where a rule's context starts (the generated contexts' declared base is antlr4's, which this module cannot see). */
function ctxAt(c: object | null | undefined): VisitLocation {
  return c === null || c === undefined ? 'none' : tokenAt((c as ParserRuleContext).start);
}

/**
 * Visits `tree` as cel-go's parser does and reports its errors, in cel-go's order, to `report`.
 * `reported` is how many errors (syntax errors included) were reported before: cel-go reports an
 * unknown element of the tree only when nothing else was.
 */
export function visitErrors(tree: CelSourceContext, reported: number, report: (at: VisitLocation, message: string) => void, bindings = false): void {
  let count = reported;
  let depth = 0;
  const error = (at: VisitLocation, message: string): Shape => {
    count++;
    report(at, message);
    return { kind: 'other', at };
  };

  const unnest = (t: ParseTree | null): ParseTree | null => {
    while (t !== null && t !== undefined) {
      if (t instanceof ExprContext) {
        if (t._question != null) return t;
        t = t._test;
      } else if (t instanceof DisjunctionContext || t instanceof ConjunctionContext) {
        if (t._ops.length > 0) return t;
        t = t._head;
      } else if (t instanceof RelationOperandContext) {
        t = t.arithmetic();
      } else if (t instanceof ArithmeticOperandContext) {
        t = t.unary();
      } else if (t instanceof PlainMemberContext) {
        t = t.member();
      } else if (t instanceof MemberOperandContext) {
        t = t.primary();
      } else if (t instanceof ParensContext) {
        t = t._inner;
      } else if (t instanceof LiteralValueContext) {
        t = t.literal();
      } else {
        return t;
      }
    }
    return null;
  };

  const deeper = <T>(f: () => T): T => {
    depth++;
    if (depth > maxRecursionDepth) throw new VisitDepthExceeded();
    try {
      return f();
    } finally {
      depth--;
    }
  };

  const visit = (tree: ParseTree | null | undefined): Shape => {
    const t = unnest(tree ?? null);
    if (t instanceof ExprContext) return deeper(() => visitExpr(t));
    if (t instanceof DisjunctionContext || t instanceof ConjunctionContext) return visitLogic(t);
    if (t instanceof ComparisonContext || t instanceof SumContext || t instanceof ProductContext) {
      return deeper(() => visitBinary(t, t._op, t._lhs, t._rhs));
    }
    if (t instanceof NotChainContext || t instanceof MinusChainContext) {
      if (t._ops.length % 2 === 0) return visit(t._operand);
      visit(t._operand);
      return { kind: 'call', at: tokenAt(t._ops[0]) };
    }
    if (t instanceof NameRefContext) return visitIdent(t);
    if (t instanceof FunctionCallContext) return visitGlobalCall(t);
    if (t instanceof SelectionContext) return deeper(() => visitSelect(t));
    if (t instanceof ReceiverCallContext) return deeper(() => visitMemberCall(t));
    if (t instanceof SubscriptContext) return deeper(() => visitIndex(t));
    if (t instanceof ListLiteralContext) {
      visitListItems(t._items);
      return { kind: 'list', at: tokenAt(t._open) };
    }
    if (t instanceof MapLiteralContext) {
      visitMapEntries(t._entries);
      return { kind: 'other', at: tokenAt(t._open) };
    }
    if (t instanceof MessageLiteralContext) {
      visitFields(t._fields);
      return { kind: 'other', at: tokenAt(t._open) };
    }
    if (t instanceof IntLitContext) return visitInt(t);
    if (t instanceof UintLitContext) return visitUint(t);
    if (t instanceof FloatLitContext) {
      const text = (t._sign != null ? t._sign.text : '') + t._value.text;
      if (!Number.isFinite(Number(text))) return error(ctxAt(t), 'invalid double literal');
      return { kind: 'other', at: ctxAt(t) };
    }
    if (t instanceof TrueLitContext || t instanceof FalseLitContext || t instanceof NullLitContext) return { kind: 'other', at: ctxAt(t) };
    if (t instanceof StringLitContext) return visitString(t, t._value.text, false);
    if (t instanceof BytesLitContext) return visitString(t, t._value.text.slice(1), true);
    if (t instanceof CelSourceContext) return visit(t.expr());
    if (count === 0) {
      const name = t === null || t === undefined ? '<<nil>>' : `<<${t.constructor.name}>>`;
      return error('none', `unknown parse element encountered: ${name}`);
    }
    return { kind: 'other', at: 'none' };
  };

  const visitExpr = (ctx: ExprContext): Shape => {
    visit(ctx._test);
    const at = tokenAt(ctx._question);
    visit(ctx._whenTrue);
    visit(ctx._whenFalse);
    return { kind: 'call', at };
  };

  const visitLogic = (ctx: DisjunctionContext | ConjunctionContext): Shape => {
    const first = visit(ctx._head);
    const rest = ctx._tail;
    for (let i = 0; i < ctx._ops.length; i++) {
      if (i >= rest.length) return error(ctxAt(ctx), ctx instanceof DisjunctionContext ? "unexpected character, wanted '||'" : "unexpected character, wanted '&&'");
      visit(rest[i]);
    }
    return ctx._ops.length > 0 ? { kind: 'call', at: tokenAt(ctx._ops[0]) } : first;
  };

  const visitBinary = (ctx: object, op: Token | null | undefined, lhs: ParseTree | null, rhs: ParseTree | null): Shape => {
    if (op == null || !operators.has(op.text)) return error(ctxAt(ctx), 'operator not found');
    visit(lhs);
    visit(rhs);
    return { kind: 'call', at: tokenAt(op) };
  };

  /** cel-go's normalizeIdent: the identifier, or why there is none. */
  const normalizeIdent = (ctx: FieldNameContext | null | undefined): { id?: string; err?: string } => {
    if (ctx instanceof PlainNameContext) return { id: ctx._name.text };
    if (ctx instanceof QuotedNameContext) return { err: "unsupported syntax: '`'" };
    return { err: 'unsupported ident kind' };
  };

  const visitSelect = (ctx: SelectionContext): Shape => {
    visit(ctx._target);
    if (ctx._field == null || ctx._dot == null) return { kind: 'other', at: ctxAt(ctx) };
    const { err } = normalizeIdent(ctx._field);
    if (err !== undefined) error(ctxAt(ctx._field), err);
    // An optional selection is a call (`_?._`), which has() does not accept.
    return { kind: ctx._opt != null ? 'call' : 'select', at: tokenAt(ctx._dot) };
  };

  const visitMemberCall = (ctx: ReceiverCallContext): Shape => {
    const target = visit(ctx._target);
    if (ctx._method == null) return { kind: 'other', at: ctxAt(ctx) };
    const args = visitExprList(ctx._args);
    return callOrMacro(tokenAt(ctx._open), ctx._method.text, target, args);
  };

  const visitIndex = (ctx: SubscriptContext): Shape => {
    visit(ctx._target);
    if (ctx._open == null) return { kind: 'other', at: ctxAt(ctx) };
    visit(ctx._key);
    return { kind: 'call', at: tokenAt(ctx._open) };
  };

  const visitIdent = (ctx: NameRefContext): Shape => {
    if (ctx._name == null) return { kind: 'other', at: ctxAt(ctx) };
    const id = ctx._name.text;
    if (reservedIds.has(id)) return error(ctxAt(ctx), `reserved identifier: ${id}`);
    return { kind: 'ident', name: (ctx._dot != null ? '.' : '') + id, at: tokenAt(ctx._name) };
  };

  const visitGlobalCall = (ctx: FunctionCallContext): Shape => {
    if (ctx._name == null) return { kind: 'other', at: ctxAt(ctx) };
    const id = ctx._name.text;
    if (reservedIds.has(id)) return error(ctxAt(ctx), `reserved identifier: ${id}`);
    const args = visitExprList(ctx._args);
    return callOrMacro(tokenAt(ctx._open), (ctx._dot != null ? '.' : '') + id, undefined, args);
  };

  const visitExprList = (ctx: ExprListContext | null | undefined): Shape[] => (ctx == null ? [] : ctx._items.map((e) => visit(e)));

  const visitListItems = (ctx: ListItemsContext | null | undefined): void => {
    if (ctx == null) return;
    for (const e of ctx._items) visit(e._value);
  };

  const visitFields = (ctx: FieldInitsContext | null | undefined): void => {
    if (ctx == null) return;
    for (let i = 0; i < ctx._names.length; i++) {
      if (i >= ctx._colons.length || i >= ctx._values.length) return;
      const { err } = normalizeIdent(ctx._names[i].fieldName());
      if (err !== undefined) {
        error(ctxAt(ctx), err);
        continue;
      }
      visit(ctx._values[i]);
    }
  };

  const visitMapEntries = (ctx: MapEntriesContext | null | undefined): void => {
    if (ctx == null) return;
    for (let i = 0; i < ctx._colons.length; i++) {
      if (i >= ctx._keys.length || i >= ctx._values.length) return;
      visit(ctx._keys[i]._value);
      visit(ctx._values[i]);
    }
  };

  const visitInt = (ctx: IntLitContext): Shape => {
    let text = ctx._value.text;
    let hex = false;
    if (text.startsWith('0x')) {
      hex = true;
      text = text.slice(2);
    }
    const negative = ctx._sign != null;
    if (!parsesWithin(text, hex, negative ? 2n ** 63n : 2n ** 63n - 1n)) return error(ctxAt(ctx), 'invalid int literal');
    return { kind: 'other', at: ctxAt(ctx) };
  };

  const visitUint = (ctx: UintLitContext): Shape => {
    let text = ctx._value.text.slice(0, -1);
    let hex = false;
    if (text.startsWith('0x')) {
      hex = true;
      text = text.slice(2);
    }
    if (!parsesWithin(text, hex, 2n ** 64n - 1n)) return error(ctxAt(ctx), 'invalid uint literal');
    return { kind: 'other', at: ctxAt(ctx) };
  };

  const visitString = (ctx: object, text: string, isBytes: boolean): Shape => {
    const err = unescapeError(text, isBytes);
    if (err !== undefined) error(ctxAt(ctx), err);
    return { kind: 'other', at: ctxAt(ctx) };
  };

  /** cel-go's globalCallOrMacro and receiverCallOrMacro. */
  const callOrMacro = (at: VisitLocation, fn: string, target: Shape | undefined, args: Shape[]): Shape => {
    const macro = macroOf(fn, target, args, bindings);
    if (macro === undefined) return { kind: 'call', at };
    const err = macro.check();
    // The expander places its error at the argument's offset; an argument made at no location has -1.
    if (err !== undefined) return error(err.at === 'none' ? 'offset -1' : err.at, err.message);
    return { kind: macro.expandsTo, at };
  };

  try {
    visit(tree);
  } catch (err) {
    if (!(err instanceof VisitDepthExceeded)) throw err;
    report('none', 'max recursion depth exceeded');
  }
}

type Issue = { at: VisitLocation; message: string } | undefined;

/**
 * The macro of the apiserver's environment a call is (cel-go's standard macros, ext.TwoVarComprehensions,
 * the optional library's optMap and optFlatMap, ext.Lists' sortBy; ext.Bindings' cel.bind only where `bindings`: the apiserver's base environment has no ext.Bindings, DRA's has),
 * with the check its expander makes of the arguments and the kind of expression it expands to.
 */
function macroOf(fn: string, target: Shape | undefined, args: Shape[], bindings: boolean): { check: () => Issue; expandsTo: Shape['kind'] } | undefined {
  const simple = (a: Shape, message: string): Issue => {
    if (a.kind !== 'ident') return { at: a.at, message };
    if (accumulatorNames.has(a.name ?? '')) return { at: a.at, message: 'iteration variable overwrites accumulator variable' };
    return undefined;
  };
  const twoVars = (): Issue => {
    const [a0, a1] = args;
    if (a0.kind !== 'ident') return { at: a0.at, message: 'argument must be a simple name' };
    if (a1.kind !== 'ident') return { at: a1.at, message: 'argument must be a simple name' };
    if (a0.name === a1.name) return { at: a1.at, message: `duplicate variable name: ${a0.name}` };
    if (accumulatorNames.has(a0.name ?? '')) return { at: a0.at, message: 'iteration variable overwrites accumulator variable' };
    if (accumulatorNames.has(a1.name ?? '')) return { at: a1.at, message: 'iteration variable overwrites accumulator variable' };
    return undefined;
  };
  const n = args.length;
  if (target === undefined) {
    if (fn !== 'has' || n !== 1) return undefined;
    return { check: () => (args[0].kind === 'select' ? undefined : { at: args[0].at, message: 'invalid argument to has() macro' }), expandsTo: 'select' };
  }
  switch (fn) {
    case 'all': case 'exists': case 'exists_one':
      if (n === 2) return { check: () => simple(args[0], 'argument must be a simple name'), expandsTo: 'comprehension' };
      return n === 3 ? { check: twoVars, expandsTo: 'comprehension' } : undefined;
    case 'existsOne':
      return n === 3 ? { check: twoVars, expandsTo: 'comprehension' } : undefined;
    case 'map':
      return n === 2 || n === 3 ? { check: () => simple(args[0], 'argument is not an identifier'), expandsTo: 'comprehension' } : undefined;
    case 'filter':
      return n === 2 ? { check: () => simple(args[0], 'argument is not an identifier'), expandsTo: 'comprehension' } : undefined;
    case 'transformList': case 'transformMap': case 'transformMapEntry':
      return n === 3 || n === 4 ? { check: twoVars, expandsTo: 'comprehension' } : undefined;
    case 'optMap': case 'optFlatMap':
      if (n !== 2) return undefined;
      return {
        check: () => (args[0].kind === 'ident' ? undefined : { at: args[0].at, message: `${fn}() variable name must be a simple identifier` }),
        expandsTo: 'call',
      };
    case 'bind':
      // ext.Bindings (where the environment has it): a receiver macro whose target is the identifier `cel`.
      if (!bindings || n !== 3 || target.kind !== 'ident' || target.name !== 'cel') return undefined;
      return { check: () => (args[0].kind === 'ident' ? undefined : { at: args[0].at, message: 'cel.bind() variable names must be simple identifiers' }), expandsTo: 'comprehension' };
    case 'sortBy':
      if (n !== 2) return undefined;
      return {
        check: () => {
          if (!['list', 'select', 'ident', 'comprehension', 'call'].includes(target.kind)) {
            return { at: target.at, message: 'sortBy can only be applied to a list, identifier, comprehension, call or select expression' };
          }
          return simple(args[0], 'argument is not an identifier');
        },
        expandsTo: 'comprehension',
      };
    default:
      return undefined;
  }
}
