/**
 * The CEL interpreter: evaluates a checked expression over an activation, charging cel-go's
 * runtime cost for every step and stopping with `operation cancelled: actual cost limit exceeded`
 * once the limit is passed, so that no rule, however hostile its input, runs away. Errors are
 * values, absorbed by `&&`, `||` and the quantifier macros as CEL specifies.
 */
import type { Expr } from './ast.js';
import type { CheckedExpr } from './checker.js';
import type { FunctionDecl, OverloadDecl } from '../libraries/library.js';
import { valueMatchesType } from '../libraries/library.js';
import { typeIdentifierValue } from '../libraries/standard.js';
import { optionalIndex } from '../libraries/optionals.js';
import { callCost } from '../cost.js';
import {
  ArrayList, DurationVal, ErrVal, ListVal, LiteralMap, MapVal, OptionalVal, TimestampVal, UintVal, equals, noSuchOverload,
} from './values.js';
import type { CelVal } from './values.js';

/** Thrown when the runtime cost limit is passed. */
export class CostLimitExceededError extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
    this.name = 'CostLimitExceededError';
  }
}

/** The result of an evaluation. */
export interface EvalResult {
  value: CelVal;
  cost: number;
}

/** A compiled program's runtime needs: functions by name and their overloads by id. */
export interface Runtime {
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly overloads: ReadonlyMap<string, OverloadDecl>;
}

class Frame {
  constructor(readonly vars: Map<string, CelVal>, readonly parent: Frame | undefined) {}

  find(name: string): CelVal | undefined {
    for (let f: Frame | undefined = this; f !== undefined; f = f.parent) {
      if (f.vars.has(name)) return f.vars.get(name);
    }
    return undefined;
  }

  has(name: string): boolean {
    for (let f: Frame | undefined = this; f !== undefined; f = f.parent) if (f.vars.has(name)) return true;
    return false;
  }
}

const maxDepth = 1000;

/** cel-go's `overloads.IsTypeConversionFunction`. */
const typeConversions: ReadonlySet<string> = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

/**
 * Whether cel-go plans `e` as an attribute (a variable with its selections and indexes, or a
 * conditional): a selection or index on anything else starts a relative attribute, one unit more.
 */
function isAttribute(e: Expr): boolean {
  switch (e.kind) {
    case 'ident': return true;
    case 'select': return !e.testOnly;
    case 'call': return e.fn === '_[_]' || e.fn === '_[?_]' || e.fn === '_?_:_';
    default: return false;
  }
}

const primitive = (v: CelVal): boolean => v === null || ['boolean', 'bigint', 'number', 'string'].includes(typeof v) || v instanceof UintVal;

/**
 * The subtrees cel-go's planner folds into constants (with `OptOptimize`, as the apiserver plans
 * rules): literals, type names, list and map literals of constants, and calls with a single constant
 * argument. They cost nothing at run time. `@in` against a constant list becomes a set lookup, also free.
 */
function constantIds(checked: CheckedExpr): Set<number> {
  const out = new Set<number>();
  const visit = (e: Expr): boolean => {
    let c = false;
    switch (e.kind) {
      case 'literal': c = true; break;
      case 'ident': {
        const ref = checked.references.get(e.id);
        c = ref?.kind === 'ident' && ref.name === e.name && typeIdentifierValue(e.name) !== undefined && !['self', 'oldSelf'].includes(e.name);
        break;
      }
      case 'select': {
        const ref = checked.references.get(e.id);
        if (ref?.kind === 'ident') c = typeIdentifierValue(ref.name) !== undefined;
        else visit(e.operand);
        break;
      }
      case 'list': c = e.elements.map(visit).every(Boolean); break;
      case 'map': c = e.entries.map((en) => [visit(en.key), visit(en.value)].every(Boolean)).every(Boolean); break;
      case 'call': {
        const operands = e.target !== undefined ? [e.target, ...e.args] : e.args;
        const consts = operands.map(visit);
        // cel-go folds only type conversions of a constant (`double(5)`), not other unary calls.
        c = e.target === undefined && e.args.length === 1 && typeConversions.has(e.fn) && consts[0];
        break;
      }
      case 'comprehension':
        [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(visit);
        break;
      default: break;
    }
    if (c) out.add(e.id);
    return c;
  };
  visit(checked.parsed.expr);
  return out;
}

const constantCache = new WeakMap<CheckedExpr, Set<number>>();

class Evaluator {
  cost = 0;
  private depth = 0;
  private readonly constants: Set<number>;

  constructor(private readonly checked: CheckedExpr, private readonly runtime: Runtime, private readonly limit: number) {
    let c = constantCache.get(checked);
    if (c === undefined) {
      c = constantIds(checked);
      constantCache.set(checked, c);
    }
    this.constants = c;
  }

  private charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) throw new CostLimitExceededError();
  }

  eval(e: Expr, frame: Frame): CelVal {
    if (++this.depth > maxDepth) {
      this.depth--;
      return new ErrVal('max recursion depth exceeded');
    }
    try {
      if (this.constants.has(e.id)) {
        const saved = this.cost;
        const v = this.evalInner(e, frame);
        this.cost = saved;
        return v;
      }
      return this.evalInner(e, frame);
    } catch (err) {
      if (err instanceof RangeError) return new ErrVal(err.message);
      throw err;
    } finally {
      this.depth--;
    }
  }

  private evalInner(e: Expr, frame: Frame): CelVal {
    switch (e.kind) {
      case 'literal': return e.value;
      case 'ident': {
        this.charge(1);
        return this.resolve(e.name, frame);
      }
      case 'select': return this.evalSelect(e, frame);
      case 'call': return this.evalCall(e, frame);
      case 'list': {
        const items: CelVal[] = [];
        for (let idx = 0; idx < e.elements.length; idx++) {
          const v = this.eval(e.elements[idx], frame);
          if (v instanceof ErrVal) return v;
          if (e.optionalIndices.includes(idx)) {
            if (!(v instanceof OptionalVal)) return noSuchOverload();
            if (v.value !== undefined) items.push(v.value);
          } else {
            items.push(v);
          }
        }
        this.charge(10);
        return new ArrayList(items);
      }
      case 'map': {
        const m = new LiteralMap();
        for (const en of e.entries) {
          const k = this.eval(en.key, frame);
          if (k instanceof ErrVal) return k;
          let v = this.eval(en.value, frame);
          if (v instanceof ErrVal) return v;
          if (en.optional) {
            if (!(v instanceof OptionalVal)) return noSuchOverload();
            if (v.value === undefined) continue;
            v = v.value;
          }
          if (!m.set(k, v)) return new ErrVal(`Failed with repeated key: ${String(k)}`);
        }
        this.charge(30);
        return m;
      }
      case 'struct': return new ErrVal(`unknown type: ${e.typeName}`);
      case 'comprehension': return this.evalComprehension(e, frame);
    }
  }

  private resolve(name: string, frame: Frame): CelVal {
    if (frame.has(name)) return frame.find(name) as CelVal;
    const t = typeIdentifierValue(name);
    if (t !== undefined) return t;
    return new ErrVal(`no such attribute(s): ${name}`);
  }

  private evalSelect(e: Extract<Expr, { kind: 'select' }>, frame: Frame): CelVal {
    const ref = this.checked.references.get(e.id);
    if (ref?.kind === 'ident') {
      this.charge(1);
      return this.resolve(ref.name, frame);
    }
    const operand = this.eval(e.operand, frame);
    if (operand instanceof ErrVal) return operand;
    if (e.testOnly) return this.presence(operand, e.field);
    this.charge(isAttribute(e.operand) ? 1 : 2);
    if (operand instanceof OptionalVal) {
      if (operand.value === undefined) return operand;
      return this.optionalField(operand.value, e.field);
    }
    if (e.optional) return this.optionalField(operand, e.field);
    return this.field(operand, e.field);
  }

  // A field of a value that is neither map nor list (a dyn scalar) is qualified as cel-go v0.26's
  // refQualify does (interpreter/attributes.go): "no such key", or absent for a presence test (Kubernetes
  // 1.34 leaves errorOnBadPresenceTest off); a list refuses the string index.
  private presence(v: CelVal, field: string): CelVal {
    if (v instanceof OptionalVal) return v.value === undefined ? false : this.presence(v.value, field);
    if (v instanceof MapVal) {
      // A present field whose value does not convert (invalid data) is an error, as in the apiserver.
      const f = v.find(field);
      return f instanceof ErrVal ? f : f !== undefined;
    }
    if (v instanceof ListVal) return listStringIndex();
    return false;
  }

  private field(v: CelVal, field: string): CelVal {
    if (v instanceof MapVal) {
      const f = v.find(field);
      return f === undefined ? new ErrVal(`no such key: ${field}`) : f;
    }
    if (v instanceof ListVal) return listStringIndex();
    return new ErrVal(`no such key: ${field}`);
  }

  private optionalField(v: CelVal, field: string): CelVal {
    if (v instanceof MapVal) return new OptionalVal(v.find(field));
    if (v instanceof ListVal) return listStringIndex();
    return new OptionalVal(undefined);
  }

  private evalCall(e: Extract<Expr, { kind: 'call' }>, frame: Frame): CelVal {
    switch (e.fn) {
      case '_&&_': case '_||_': {
        const stop = e.fn === '_||_';
        const l = this.eval(e.args[0], frame);
        if (l === stop) return stop;
        const r = this.eval(e.args[1], frame);
        if (r === stop) return stop;
        if (l instanceof ErrVal) return l;
        if (r instanceof ErrVal) return r;
        if (typeof l !== 'boolean' || typeof r !== 'boolean') return noSuchOverload();
        return !stop;
      }
      case '_?_:_': {
        const c = this.eval(e.args[0], frame);
        if (c instanceof ErrVal) return c;
        if (typeof c !== 'boolean') return noSuchOverload();
        return this.eval(e.args[c ? 1 : 2], frame);
      }
      case '@not_strictly_false': {
        const v = this.eval(e.args[0], frame);
        this.charge(1);
        return v !== false;
      }
      default: break;
    }
    const ref = this.checked.references.get(e.id);
    const args: CelVal[] = [];
    if (e.target !== undefined) {
      const t = this.eval(e.target, frame);
      args.push(t);
    }
    for (const a of e.args) args.push(this.eval(a, frame));
    for (const a of args) if (a instanceof ErrVal) return a;
    const ids = ref?.kind === 'function' ? ref.overloads : [];
    let result: CelVal;
    let used = ids[0] ?? '';
    switch (e.fn) {
      case '_==_': result = equals(args[0], args[1]); break;
      case '_!=_': {
        const eq = equals(args[0], args[1]);
        result = eq instanceof ErrVal ? eq : !eq;
        break;
      }
      case '@in':
        result = this.contains(args[1], args[0]);
        used = args[1] instanceof ListVal ? 'in_list' : 'in_map';
        if (used === 'in_list' && this.constants.has(e.args[1].id) && [...(args[1] as ListVal)].every(primitive)) return result;
        break;
      case '_[_]': result = this.index(args[0], args[1]); this.charge(isAttribute(e.args[0]) ? 1 : 2); return result;
      case '_[?_]': result = optionalIndex(args[0], args[1]); this.charge(isAttribute(e.args[0]) ? 1 : 2); return result;
      case 'cel.@mapInsert': {
        const m = args[0];
        if (!(m instanceof LiteralMap)) return noSuchOverload();
        let inserted: LiteralMap | undefined;
        if (args.length === 3) inserted = m.with(args[1], args[2]);
        else if (args[1] instanceof MapVal) {
          let cur: LiteralMap | undefined = m;
          for (const k of args[1].keys()) cur = cur?.with(k, args[1].find(k) ?? null);
          inserted = cur;
        }
        result = inserted ?? new ErrVal('insert failed: key already exists');
        break;
      }
      default: {
        const pick = this.dispatch(ids, args);
        if (pick === undefined) {
          this.charge(1);
          return lacksTrait(e.fn, args) ? new ErrVal(`no such overload: ${e.fn}`) : noSuchOverload();
        }
        used = pick.id;
        result = pick.impl !== undefined ? pick.impl(...args) : noSuchOverload();
      }
    }
    this.charge(callCost(e.fn, used, args, result));
    return result;
  }

  private dispatch(ids: readonly string[], args: CelVal[]): OverloadDecl | undefined {
    for (const id of ids) {
      const o = this.runtime.overloads.get(id);
      if (o === undefined || o.args.length !== args.length) continue;
      if (o.args.every((t, i) => valueMatchesType(args[i], t))) return o;
    }
    return undefined;
  }

  private contains(container: CelVal, v: CelVal): CelVal {
    if (container instanceof ListVal) {
      let failure: ErrVal | undefined;
      for (const x of container) {
        const eq = equals(x, v);
        if (eq === true) return true;
        if (eq instanceof ErrVal) failure ??= eq;
      }
      return failure ?? false;
    }
    if (container instanceof MapVal) return container.find(v) !== undefined;
    return noSuchOverload();
  }

  private index(container: CelVal, key: CelVal): CelVal {
    if (container instanceof OptionalVal) return optionalIndex(container, key);
    if (container instanceof ListVal) {
      let i: number;
      if (typeof key === 'bigint') i = Number(key);
      else if (key instanceof UintVal) i = Number(key.value);
      else if (typeof key === 'number' && Number.isInteger(key)) i = key;
      else return new ErrVal(`unsupported index type '${typeof key}' in list`);
      if (i < 0 || i >= container.size()) return new ErrVal(`index '${i}' out of range in list size '${container.size()}'`);
      return container.get(i);
    }
    if (container instanceof MapVal) {
      const v = container.find(key);
      return v === undefined ? new ErrVal(`no such key: ${String(key)}`) : v;
    }
    return noSuchOverload();
  }

  private evalComprehension(e: Extract<Expr, { kind: 'comprehension' }>, frame: Frame): CelVal {
    const range = this.eval(e.iterRange, frame);
    if (range instanceof ErrVal) return range;
    const accuFrame = new Frame(new Map(), frame);
    accuFrame.vars.set(e.accuVar, this.eval(e.accuInit, frame));
    const two = e.iterVar2 !== '';
    const step = (k: CelVal, v: CelVal | undefined): boolean => {
      const loop = new Frame(new Map([[e.iterVar, k]]), accuFrame);
      if (two) loop.vars.set(e.iterVar2, v ?? null);
      const cond = this.eval(e.loopCondition, loop);
      if (cond === false) return false;
      accuFrame.vars.set(e.accuVar, this.eval(e.loopStep, loop));
      return true;
    };
    if (range instanceof ListVal) {
      const n = range.size();
      for (let i = 0; i < n; i++) {
        if (!(two ? step(BigInt(i), range.get(i)) : step(range.get(i), undefined))) break;
      }
    } else if (range instanceof MapVal) {
      for (const k of range.keys()) {
        if (!step(k, two ? range.find(k) ?? null : undefined)) break;
      }
    } else {
      return noSuchOverload();
    }
    return this.eval(e.result, accuFrame);
  }
}

/** Evaluates a checked expression with `vars` bound; throws {@link CostLimitExceededError} past `limit`. */
export function evaluate(checked: CheckedExpr, runtime: Runtime, vars: ReadonlyMap<string, CelVal>, limit: number): EvalResult {
  const ev = new Evaluator(checked, runtime, limit);
  const value = ev.eval(checked.parsed.expr, new Frame(new Map(vars), undefined));
  return { value, cost: ev.cost };
}

/** cel-go's `IndexOrError` for a field name used on a list. */
function listStringIndex(): ErrVal {
  return new ErrVal("unsupported index type 'string' in list");
}

/** The operand trait cel-go's standard functions require (`traits.SizerType`, …), by function. */
const functionTraits: ReadonlyMap<string, string> = new Map([
  ['size', 'sizer'], ['_<_', 'comparer'], ['_<=_', 'comparer'], ['_>_', 'comparer'], ['_>=_', 'comparer'], ['_+_', 'adder'],
  ['_-_', 'subtractor'], ['_*_', 'multiplier'], ['_/_', 'divider'], ['_%_', 'modder'], ['-_', 'negater'], ['matches', 'matcher'],
]);

/** The traits of cel-go's built-in value types (by the methods each type implements). */
function traitsOf(v: CelVal): readonly string[] | undefined {
  if (v === null) return [];
  switch (typeof v) {
    case 'boolean': return ['comparer', 'negater'];
    case 'bigint': return ['comparer', 'adder', 'subtractor', 'multiplier', 'divider', 'modder', 'negater'];
    case 'number': return ['comparer', 'adder', 'subtractor', 'multiplier', 'divider', 'negater'];
    case 'string': return ['sizer', 'comparer', 'adder', 'matcher'];
    default: break;
  }
  if (v instanceof Uint8Array) return ['sizer', 'comparer', 'adder'];
  if (v instanceof UintVal) return ['comparer', 'adder', 'subtractor', 'multiplier', 'divider', 'modder'];
  if (v instanceof DurationVal) return ['comparer', 'adder', 'subtractor', 'negater'];
  if (v instanceof TimestampVal) return ['comparer', 'adder', 'subtractor'];
  if (v instanceof ListVal) return ['sizer', 'adder'];
  if (v instanceof MapVal) return ['sizer'];
  return undefined;
}

/**
 * Whether a unary or binary standard function's operand (its first argument) lacks the trait the
 * function requires: cel-go then answers "no such overload: <function>" (evalUnary/evalBinary), where a
 * type that has the trait but not the overload answers a plain "no such overload".
 */
function lacksTrait(fn: string, args: readonly CelVal[]): boolean {
  const trait = functionTraits.get(fn);
  if (trait === undefined || args.length < 1 || args.length > 2) return false;
  const traits = traitsOf(args[0]);
  return traits !== undefined && !traits.includes(trait);
}
