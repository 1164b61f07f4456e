/**
 * The CEL type checker: a port of cel-go's checker (checker/checker.go) with its error messages —
 * `undeclared reference to 'x' (in container '')`, `undefined field 'f'`, `found no matching
 * overload for '_==_' applied to '(int, bool)'`, `expected type 'bool' but found 'int'` — over
 * kubekit's types, declarations and Kubernetes object types.
 */
import type { Expr, ParsedExpr } from './ast.js';
import type { CelIssues } from './issues.js';
import type { FunctionDecl, OverloadDecl } from '../libraries/library.js';
import { typeParamsOf } from '../libraries/library.js';
import {
  BoolType, BytesType, DoubleType, DynType, ErrorType, IntType, NullType, StringType, TypeMapping, UintType,
  formatType, isAssignable, isAssignableList, isDyn, isDynOrError, isExactType, listType, mapType, maybeUnwrapOptional,
  mostGeneral, optionalType, substitute, typeParam,
} from './types.js';
import type { CelType } from './types.js';
import { ErrVal, UintVal } from './values.js';
import { compileRegex } from './regex.js';
import { MAX_TIMESTAMP_NS, MIN_TIMESTAMP_NS, NS_PER_SECOND, parseGoDuration, parseRFC3339 } from './time.js';
import { celReservedSymbols } from './escaping.js';

/** Field types of an object type, by escaped field name. */
export type ObjectFields = ReadonlyMap<string, CelType>;

/** What a check resolves names against. */
export interface CheckEnv {
  readonly variables: ReadonlyMap<string, CelType>;
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly objectTypes: ReadonlyMap<string, ObjectFields>;
  /** Type identifiers (`int`, `string`, …) and their `type(T)` types. */
  readonly typeIdents: ReadonlyMap<string, CelType>;
  /** Function names kubekit knows Kubernetes declares but does not implement, with the reason. */
  readonly unsupported: ReadonlyMap<string, string>;
  /** Whether the environment has cel-go's ext.Bindings (`cel.bind`): the DRA environment does, the apiserver's base environment not. */
  readonly bindings?: boolean;
}

/** What a name or call in the tree refers to. */
export type Reference =
  | { kind: 'ident'; name: string }
  | { kind: 'function'; name: string; overloads: string[] };

/** The checker's result. */
export interface CheckedExpr {
  readonly parsed: ParsedExpr;
  readonly types: ReadonlyMap<number, CelType>;
  readonly references: ReadonlyMap<number, Reference>;
  readonly resultType: CelType;
}

function literalType(v: unknown): CelType {
  if (v === null) return NullType;
  switch (typeof v) {
    case 'boolean': return BoolType;
    case 'bigint': return IntType;
    case 'number': return DoubleType;
    case 'string': return StringType;
    default: return v instanceof UintVal ? UintType : v instanceof Uint8Array ? BytesType : DynType;
  }
}

class Checker {
  private mappings = new TypeMapping();
  private freeTypeVarCounter = 0;
  private readonly types = new Map<number, CelType>();
  private readonly refs = new Map<number, Reference>();
  private readonly scopes: Map<string, CelType>[] = [];

  constructor(private readonly env: CheckEnv, private readonly parsed: ParsedExpr, private readonly issues: CelIssues) {}

  private report(e: Expr | number, message: string): void {
    const id = typeof e === 'number' ? e : e.id;
    this.issues.report(this.parsed.offsets.get(id) ?? 0, message);
  }

  run(): CheckedExpr {
    this.check(this.parsed.expr);
    for (const [id, t] of this.types) this.types.set(id, substitute(this.mappings, t, true));
    if (this.issues.length === 0) this.validate(this.parsed.expr, false);
    return { parsed: this.parsed, types: this.types, references: this.refs, resultType: this.types.get(this.parsed.expr.id) ?? ErrorType };
  }

  private setType(e: Expr, t: CelType): void {
    this.types.set(e.id, t);
  }

  private getType(e: Expr): CelType {
    return this.types.get(e.id) ?? ErrorType;
  }

  private lookupIdent(name: string): CelType | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i].get(name);
      if (t !== undefined) return t;
    }
    return this.env.variables.get(name) ?? this.env.typeIdents.get(name);
  }

  private check(e: Expr): void {
    switch (e.kind) {
      case 'literal': this.setType(e, literalType(e.value)); break;
      case 'ident': this.checkIdent(e); break;
      case 'select': this.checkSelect(e); break;
      case 'call': this.checkCall(e); break;
      case 'list': this.checkList(e); break;
      case 'map': this.checkMap(e); break;
      case 'struct':
        this.report(e, `undeclared reference to '${e.typeName}' (in container '')`);
        this.setType(e, ErrorType);
        break;
      case 'comprehension': this.checkComprehension(e); break;
    }
  }

  private checkIdent(e: Extract<Expr, { kind: 'ident' }>): void {
    const t = this.lookupIdent(e.name);
    if (t !== undefined) {
      this.setType(e, t);
      this.refs.set(e.id, { kind: 'ident', name: e.name });
      return;
    }
    this.setType(e, ErrorType);
    this.report(e, `undeclared reference to '${e.name}' (in container '')`);
  }

  private qualifiedName(e: Expr): string | undefined {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select' && !e.testOnly && !e.optional) {
      const q = this.qualifiedName(e.operand);
      return q === undefined ? undefined : `${q}.${e.field}`;
    }
    return undefined;
  }

  private checkSelect(e: Extract<Expr, { kind: 'select' }>): void {
    if (!e.testOnly && !e.optional) {
      const q = this.qualifiedName(e);
      if (q !== undefined && this.scopes.every((s) => !s.has(q.split('.')[0]))) {
        const t = this.env.variables.get(q) ?? this.env.typeIdents.get(q);
        if (t !== undefined) {
          this.setType(e, t);
          this.refs.set(e.id, { kind: 'ident', name: q });
          return;
        }
      }
    }
    let result = this.checkSelectField(e, e.operand, e.field, e.optional);
    if (e.testOnly) result = BoolType;
    this.setType(e, substitute(this.mappings, result, false));
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const operandType = substitute(this.mappings, this.getType(operand), false);
    const [target, isOpt] = maybeUnwrapOptional(operandType);
    let result: CelType = ErrorType;
    switch (target.kind) {
      case 'map': result = target.params[1]; break;
      case 'object': {
        const fields = this.env.objectTypes.get(target.name);
        // Kubernetes 1.31+ resolves a reserved word used as a field name to its escaped form.
        const ft = fields?.get(field) ?? (celReservedSymbols.has(field) ? fields?.get(`__${field}__`) : undefined);
        if (ft !== undefined) result = ft;
        else this.report(e, `undefined field '${field}'`);
        break;
      }
      case 'typeParam':
        this.assignable(DynType, target);
        result = DynType;
        break;
      default:
        if (!isDynOrError(target)) this.report(e, `type '${formatType(target)}' does not support field selection`);
        result = DynType;
    }
    return isOpt || optional ? optionalType(result) : result;
  }

  private checkCall(e: Extract<Expr, { kind: 'call' }>): void {
    for (const a of e.args) this.check(a);
    if (e.target === undefined) {
      const fn = this.lookupFunction(e.fn, e);
      if (fn === undefined) {
        this.setType(e, ErrorType);
        return;
      }
      this.resolveOverloadOrError(e, fn, undefined);
      return;
    }
    const q = this.qualifiedName(e.target);
    if (q !== undefined && this.lookupIdent(q.split('.')[0]) === undefined) {
      const qualified = `${q}.${e.fn}`;
      const fn = this.env.functions.get(qualified);
      if (fn !== undefined || this.env.unsupported.has(qualified)) {
        const found = this.lookupFunction(qualified, e);
        if (found === undefined) {
          this.setType(e, ErrorType);
          return;
        }
        // A namespaced function: the target is part of its name.
        e.fn = qualified;
        e.target = undefined;
        this.resolveOverloadOrError(e, found, undefined);
        return;
      }
    }
    this.check(e.target);
    const fn = this.lookupFunction(e.fn, e);
    if (fn === undefined) {
      this.setType(e, ErrorType);
      return;
    }
    this.resolveOverloadOrError(e, fn, e.target);
  }

  private lookupFunction(name: string, e: Expr): FunctionDecl | undefined {
    const reason = this.env.unsupported.get(name);
    if (reason !== undefined) {
      this.report(e, reason);
      return undefined;
    }
    const fn = this.env.functions.get(name);
    if (fn === undefined) this.report(e, `undeclared reference to '${name}' (in container '')`);
    return fn;
  }

  private resolveOverloadOrError(e: Extract<Expr, { kind: 'call' }>, fn: FunctionDecl, target: Expr | undefined): void {
    const r = this.resolveOverload(e, fn, target);
    if (r === undefined) {
      this.setType(e, ErrorType);
      return;
    }
    this.setType(e, r.type);
    this.refs.set(e.id, { kind: 'function', name: fn.name, overloads: r.overloads });
  }

  private newTypeVar(): CelType {
    return typeParam(`_var${this.freeTypeVarCounter++}`);
  }

  private assignable(t1: CelType, t2: CelType): boolean {
    const m = isAssignable(this.mappings, t1, t2);
    if (m === undefined) return false;
    this.mappings = m;
    return true;
  }

  private resolveOverload(e: Extract<Expr, { kind: 'call' }>, fn: FunctionDecl, target: Expr | undefined): { type: CelType; overloads: string[] } | undefined {
    const argTypes: CelType[] = [];
    if (target !== undefined) argTypes.push(this.getType(target));
    for (const a of e.args) argTypes.push(this.getType(a));
    let resultType: CelType | undefined;
    const overloads: string[] = [];
    for (const o of fn.overloads) {
      if ((target === undefined) === o.member) continue;
      if (fn.name === '_&&_' || fn.name === '_||_') {
        let bad = false;
        argTypes.forEach((t, idx) => {
          if (!this.assignable(t, BoolType)) {
            this.report(e.args[idx], `expected type '${formatType(BoolType)}' but found '${formatType(t)}'`);
            bad = true;
          }
        });
        return bad ? undefined : { type: BoolType, overloads: [o.id] };
      }
      const [args, result] = this.instantiate(o);
      if (args.length !== argTypes.length) continue;
      const m = isAssignableList(this.mappings, argTypes, args);
      if (m === undefined) continue;
      this.mappings = m;
      overloads.push(o.id);
      const fnResult = substitute(this.mappings, result, false);
      if (resultType === undefined) resultType = fnResult;
      else if (!isDyn(resultType) && !isExactType(fnResult, resultType)) resultType = DynType;
    }
    if (resultType === undefined) {
      const shown = argTypes.map((t) => formatType(substitute(this.mappings, t, true)));
      const sig = target !== undefined ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.report(e, `found no matching overload for '${fn.name}' applied to '${sig}'`);
      return undefined;
    }
    return { type: resultType, overloads };
  }

  /** The overload's argument and result types with fresh type variables. */
  private instantiate(o: OverloadDecl): [CelType[], CelType] {
    const params = typeParamsOf(o);
    if (params.length === 0) return [[...o.args], o.result];
    const subs = new TypeMapping();
    for (const p of params) subs.add(typeParam(p), this.newTypeVar());
    return [o.args.map((a) => substitute(subs, a, false)), substitute(subs, o.result, false)];
  }

  /** Joins literal element types; mixed types become `dyn` (homogeneity is checked afterwards). */
  private joinTypes(previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    if (this.assignable(previous, current)) return mostGeneral(previous, current);
    return DynType;
  }

  /**
   * cel-go's AST validators of the Kubernetes environment: homogeneous aggregate literals (except in
   * `format` arguments), and literal arguments of `duration`, `timestamp` and `matches`.
   */
  validate(e: Expr, exempt: boolean): void {
    const typeOf = (x: Expr): CelType => this.types.get(x.id) ?? ErrorType;
    const mismatch = (x: Expr, expected: CelType, actual: CelType): void => {
      this.report(x, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
    };
    switch (e.kind) {
      case 'list': {
        if (!exempt && e.elements.length > 0) {
          const elemType = (idx: number): CelType => {
            const t = typeOf(e.elements[idx]);
            return e.optionalIndices.includes(idx) ? maybeUnwrapOptional(t)[0] : t;
          };
          for (let idx = 1; idx < e.elements.length; idx++) {
            if (!isExactType(elemType(0), elemType(idx))) {
              mismatch(e.elements[idx], elemType(0), elemType(idx));
              break;
            }
          }
        }
        e.elements.forEach((x) => this.validate(x, exempt));
        break;
      }
      case 'map': {
        if (!exempt && e.entries.length > 0) {
          const valType = (en: (typeof e.entries)[number]): CelType => (en.optional ? maybeUnwrapOptional(typeOf(en.value))[0] : typeOf(en.value));
          const [k0, v0] = [typeOf(e.entries[0].key), valType(e.entries[0])];
          for (const en of e.entries.slice(1)) {
            if (!isExactType(k0, typeOf(en.key))) mismatch(en.key, k0, typeOf(en.key));
            if (!isExactType(v0, valType(en))) mismatch(en.value, v0, valType(en));
          }
        }
        e.entries.forEach((en) => {
          this.validate(en.key, exempt);
          this.validate(en.value, exempt);
        });
        break;
      }
      case 'select': this.validate(e.operand, exempt); break;
      case 'call': {
        const arg = e.args[0];
        if (arg !== undefined && arg.kind === 'literal' && typeof arg.value === 'string') {
          if (e.fn === 'duration' && parseGoDuration(arg.value) === undefined) this.report(arg, 'invalid duration argument');
          if (e.fn === 'timestamp' && parseRFC3339(arg.value) === undefined) this.report(arg, 'invalid timestamp argument');
          if (e.fn === 'matches' && compileRegex(arg.value) instanceof ErrVal) this.report(arg, 'invalid matches argument');
        }
        if (e.fn === 'timestamp' && arg !== undefined && arg.kind === 'literal' && typeof arg.value === 'bigint') {
          const ns = arg.value * NS_PER_SECOND;
          if (ns < MIN_TIMESTAMP_NS || ns > MAX_TIMESTAMP_NS) this.report(arg, 'invalid timestamp argument');
        }
        const inner = exempt || e.fn === 'format';
        if (e.target !== undefined) this.validate(e.target, inner);
        e.args.forEach((a) => this.validate(a, inner));
        break;
      }
      case 'comprehension':
        for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) this.validate(x, exempt);
        break;
      default: break;
    }
  }

  private checkList(e: Extract<Expr, { kind: 'list' }>): void {
    let elems: CelType | undefined;
    const optional = new Set(e.optionalIndices);
    e.elements.forEach((el, idx) => {
      this.check(el);
      let t = this.getType(el);
      if (optional.has(idx)) {
        const [inner, isOpt] = maybeUnwrapOptional(t);
        if (!isOpt && !isDyn(inner)) this.report(el, `expected type '${formatType(optionalType(inner))}' but found '${formatType(inner)}'`);
        t = inner;
      }
      elems = this.joinTypes(elems, t);
    });
    this.setType(e, listType(elems ?? this.newTypeVar()));
  }

  private checkMap(e: Extract<Expr, { kind: 'map' }>): void {
    let k: CelType | undefined;
    let v: CelType | undefined;
    for (const en of e.entries) {
      this.check(en.key);
      k = this.joinTypes(k, this.getType(en.key));
      this.check(en.value);
      let vt = this.getType(en.value);
      if (en.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(vt);
        if (!isOpt && !isDyn(inner)) this.report(en.value, `expected type '${formatType(optionalType(inner))}' but found '${formatType(inner)}'`);
        vt = inner;
      }
      v = this.joinTypes(v, vt);
    }
    this.setType(e, k === undefined || v === undefined ? mapType(this.newTypeVar(), this.newTypeVar()) : mapType(k, v));
  }

  private checkComprehension(e: Extract<Expr, { kind: 'comprehension' }>): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    let varType: CelType;
    let var2Type: CelType | undefined;
    const two = e.iterVar2 !== '';
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.params[0];
        if (two) {
          var2Type = varType;
          varType = IntType;
        }
        break;
      case 'map':
        varType = rangeType.params[0];
        if (two) var2Type = rangeType.params[1];
        break;
      case 'dyn': case 'any': case 'error': case 'typeParam':
        this.assignable(DynType, rangeType);
        varType = DynType;
        if (two) var2Type = DynType;
        break;
      default:
        this.report(e.iterRange, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = ErrorType;
        if (two) var2Type = ErrorType;
    }
    const loop = new Map<string, CelType>([[e.iterVar, varType]]);
    if (two && var2Type !== undefined) loop.set(e.iterVar2, var2Type);
    this.scopes.push(loop);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BoolType);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.setType(e, substitute(this.mappings, this.getType(e.result), false));
  }

  private assertType(e: Expr, t: CelType): void {
    if (!this.assignable(t, this.getType(e))) {
      this.report(e, `expected type '${formatType(t)}' but found '${formatType(this.getType(e))}'`);
    }
  }
}

/** Type-checks a parsed expression; errors go to `issues`. */
export function checkExpr(env: CheckEnv, parsed: ParsedExpr, issues: CelIssues): CheckedExpr {
  return new Checker(env, parsed, issues).run();
}

