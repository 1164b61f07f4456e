/**
 * CEL cost: the static estimate the apiserver computes when a CRD is written (cel-go's
 * checker/cost.go with Kubernetes' `library.CostEstimator` and the schema's size bounds), and the
 * runtime cost charged while a rule runs (cel-go's interpreter/runtimecost.go), with the limits of
 * the apiserver.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#resource-use-by-validation-functions
 */
import type { Expr } from './internal/ast.js';
import { accumulatorName, optionalTargetPrefix } from './internal/ast.js';
import type { CheckedExpr } from './internal/checker.js';
import type { CelType } from './internal/types.js';
import { isScalarType } from './internal/types.js';
import type { CelVal } from './internal/values.js';
import { actualSize, ListVal, MapVal, OpaqueVal } from './internal/values.js';
import type { DeclType } from './schemaTypes.js';

/** The runtime cost limit of one evaluation of one rule (`celconfig.PerCallLimit`). */
export const perCallLimit = 1_000_000;
/** The runtime cost budget of all rules of one object (`celconfig.RuntimeCELCostBudget`). */
export const runtimeCELCostBudget = 10_000_000;
/** The largest estimated cost of one rule (`StaticEstimatedCostLimit`). */
export const staticEstimatedCostLimit = 10_000_000;
/** The largest estimated cost of all rules of a CRD version (`StaticEstimatedCRDCostLimit`). */
export const staticEstimatedCRDCostLimit = 100_000_000;

const MAX = 2n ** 64n - 1n;
const TWO64 = 2 ** 64;
const stringTraversalCostFactor = 0.1;
const regexStringLengthCostFactor = 0.25;

/** A `[min, max]` range of uint64 costs or sizes. */
export interface Range {
  readonly min: bigint;
  readonly max: bigint;
}

const range = (min: bigint, max: bigint = min): Range => ({ min, max });
const unknownSize: Range = range(0n, MAX);

function add(x: bigint, y: bigint): bigint {
  return y > 0n && x > MAX - y ? MAX : x + y;
}

function mul(x: bigint, y: bigint): bigint {
  return y !== 0n && x > MAX / y ? MAX : x * y;
}

function mulFactor(x: bigint, f: number): bigint {
  const xf = Number(x);
  if (xf > 0 && f > 0 && xf > TWO64 / f) return MAX;
  const c = Math.ceil(xf * f);
  return c >= TWO64 ? MAX : BigInt(c);
}

const addR = (a: Range, b: Range): Range => range(add(a.min, b.min), add(a.max, b.max));
const mulR = (a: Range, b: Range): Range => range(mul(a.min, b.min), mul(a.max, b.max));
const factorR = (a: Range, f: number): Range => range(mulFactor(a.min, f), mulFactor(a.max, f));
const unionR = (a: Range, b: Range): Range => range(a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max);

interface EntrySize {
  container: 'list' | 'map';
  key: Range;
  val: Range;
}

interface LocalVar {
  path: string[] | undefined;
  size: Range | undefined;
  entry: EntrySize | undefined;
  /** What a reference costs, when not 1: the copied target of cel-go's `optMap` expansion. */
  refCost?: Range;
}

/** What the Kubernetes estimator sees of an argument. */
interface Node {
  path: string[] | undefined;
  type: CelType;
  expr: Expr | undefined;
  size: Range | undefined;
}

class Coster {
  private readonly paths = new Map<number, string[]>();
  private readonly sizes = new Map<number, Range>();
  private readonly entries = new Map<number, EntrySize>();
  private readonly locals = new Map<string, LocalVar[]>();

  constructor(private readonly checked: CheckedExpr, private readonly root: DeclType | undefined, private readonly rootVariable: string | undefined) {}

  private typeOf(e: Expr): CelType {
    return this.checked.types.get(e.id) ?? { kind: 'dyn', name: 'dyn', params: [] };
  }

  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s !== undefined && s.length > 0 ? s[s.length - 1] : undefined;
  }

  private push(name: string, v: LocalVar): void {
    const s = this.locals.get(name) ?? [];
    s.push(v);
    this.locals.set(name, s);
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  private getPath(e: Expr): string[] | undefined {
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v !== undefined) return v.path;
    }
    return this.paths.get(e.id);
  }

  /**
   * Size of a value at a path of `self` (the apiserver's `sizeEstimator.EstimateSize`). The CRD estimator
   * takes any path as one of `self` (its first element is not looked at: a list literal's items too); with
   * `rootVariable` (DRA's `device`) only the paths that start there are sized.
   */
  private estimateSize(path: string[] | undefined): Range | undefined {
    if (path === undefined || path.length === 0 || this.root === undefined) return undefined;
    if (this.rootVariable !== undefined && path[0] !== this.rootVariable) return undefined;
    let cur: DeclType | undefined = this.root;
    for (const name of path.slice(1)) {
      if (name === '@items' || name === '@values') cur = cur.elem;
      else if (name === '@keys') cur = cur.key;
      else cur = cur.fields?.get(name)?.type ?? cur.anyField;
      if (cur === undefined) return undefined;
    }
    return range(0n, BigInt(cur.maxElements));
  }

  private computeSize(e: Expr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known !== undefined) return known;
    const lit = exprSize(e);
    if (lit !== undefined) return lit;
    const est = this.estimateSize(this.getPath(e));
    if (est !== undefined) {
      this.sizes.set(e.id, est);
      return est;
    }
    if (isScalarType(this.typeOf(e))) return range(1n);
    if (e.kind === 'ident') return this.peek(e.name)?.size;
    return undefined;
  }

  private sizeOrUnknown(e: Expr | Node): Range {
    if ('kind' in e) return this.computeSize(e) ?? unknownSize;
    return e.size ?? unknownSize;
  }

  private entrySize(e: Expr): EntrySize | undefined {
    const known = this.entries.get(e.id);
    if (known !== undefined) return known;
    if (e.kind === 'ident') return this.peek(e.name)?.entry;
    return undefined;
  }

  private node(e: Expr): Node {
    let path = this.getPath(e);
    if (path !== undefined && path.length > 0 && (path[0] === accumulatorName || path[0] === '__result__')) path = undefined;
    return { path, type: this.typeOf(e), expr: e, size: this.computeSize(e) };
  }

  cost(e: Expr): Range {
    switch (e.kind) {
      case 'literal': return range(0n);
      case 'ident': {
        const v = this.peek(e.name);
        this.paths.set(e.id, v !== undefined && v.path !== undefined ? v.path : [e.name]);
        return v?.refCost ?? range(1n);
      }
      case 'select': {
        const ref = this.checked.references.get(e.id);
        if (ref?.kind === 'ident') {
          this.paths.set(e.id, [ref.name]);
          return range(1n);
        }
        if (e.testOnly) return this.cost(e.operand);
        // `a.?b` is a call of `_?._` in cel-go: one unit besides its operand, no field selection, and no
        // path, so its size is not looked up in the schema.
        if (e.optional) return addR(this.cost(e.operand), range(1n));
        let sum = this.cost(e.operand);
        const k = this.typeOf(e.operand).kind;
        if (k === 'map' || k === 'object' || k === 'typeParam') sum = addR(sum, range(1n));
        this.paths.set(e.id, [...(this.getPath(e.operand) ?? []), e.field]);
        return sum;
      }
      case 'call': return this.costCall(e);
      case 'list': {
        let sum = range(0n);
        let item = range(e.elements.length === 0 ? 0n : MAX, 0n);
        for (const el of e.elements) {
          sum = addR(sum, this.cost(el));
          item = unionR(item, this.sizeOrUnknown(el));
        }
        this.entries.set(e.id, { container: 'list', key: range(1n), val: item });
        return addR(sum, range(10n));
      }
      case 'map': {
        let sum = range(0n);
        let key = range(e.entries.length === 0 ? 0n : MAX, 0n);
        let val = range(e.entries.length === 0 ? 0n : MAX, 0n);
        for (const en of e.entries) {
          sum = addR(addR(sum, this.cost(en.key)), this.cost(en.value));
          key = unionR(key, this.sizeOrUnknown(en.key));
          val = unionR(val, this.sizeOrUnknown(en.value));
        }
        this.entries.set(e.id, { container: 'map', key, val });
        return addR(sum, range(30n));
      }
      case 'struct': return range(40n);
      case 'comprehension': return this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  private isBind(e: Extract<Expr, { kind: 'comprehension' }>): boolean {
    return e.iterRange.kind === 'list' && e.iterRange.elements.length === 0 && e.loopCondition.kind === 'literal' &&
      e.loopCondition.value === false && e.accuVar !== accumulatorName;
  }

  private costBind(e: Extract<Expr, { kind: 'comprehension' }>): Range {
    // kubekit binds the target of `optMap`/`optFlatMap` once where cel-go's macro copies it into
    // `target.hasValue()` and `target.value()`: estimate it as the copies, each reference costing the target.
    const copied = e.accuVar.startsWith(optionalTargetPrefix);
    const init = this.cost(e.accuInit);
    let sum = copied ? range(0n) : addR(this.cost(e.iterRange), init);
    this.push(e.accuVar, {
      path: this.getPath(e.accuInit), size: this.computeSize(e.accuInit), entry: this.entrySize(e.accuInit), refCost: copied ? init : undefined,
    });
    sum = addR(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const s = this.computeSize(e.result);
    if (s !== undefined) this.sizes.set(e.id, s);
    const en = this.entrySize(e.result);
    if (en !== undefined) this.entries.set(e.id, en);
    return sum;
  }

  private pushIter(name: string, rangeExpr: Expr, which: 'single' | 'key' | 'value'): void {
    const entry = this.entrySize(rangeExpr);
    let container = entry?.container;
    if (container === undefined) container = this.typeOf(rangeExpr).kind === 'list' ? 'list' : 'map';
    let size: Range | undefined;
    let sub: string;
    if (which === 'key') {
      size = entry?.key;
      sub = container === 'list' ? '@indices' : '@keys';
    } else if (which === 'value') {
      size = entry?.val;
      sub = container === 'list' ? '@items' : '@values';
    } else if (container === 'list') {
      size = entry?.val;
      sub = '@items';
    } else {
      size = entry?.key;
      sub = '@keys';
    }
    this.push(name, { path: [...(this.getPath(rangeExpr) ?? []), sub], size, entry: undefined });
  }

  private costComprehension(e: Extract<Expr, { kind: 'comprehension' }>): Range {
    let sum = addR(this.cost(e.iterRange), this.cost(e.accuInit));
    this.push(e.accuVar, { path: this.getPath(e.accuInit), size: this.computeSize(e.accuInit), entry: this.entrySize(e.accuInit) });
    if (e.iterVar2 !== '') {
      this.pushIter(e.iterVar, e.iterRange, 'key');
      this.pushIter(e.iterVar2, e.iterRange, 'value');
    } else {
      this.pushIter(e.iterVar, e.iterRange, 'single');
    }
    const loop = this.cost(e.loopCondition);
    const step = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== '') this.pop(e.iterVar2);
    sum = addR(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const rangeCnt = this.sizeOrUnknown(e.iterRange);
    sum = addR(sum, mulR(rangeCnt, addR(step, loop)));
    if (e.accuInit.kind === 'literal') {
      const s = this.computeSize(e.accuInit);
      if (s !== undefined) this.sizes.set(e.id, s);
    } else if (e.accuInit.kind === 'list' || e.accuInit.kind === 'map') {
      this.sizes.set(e.id, rangeCnt);
      const stepEntry = this.entrySize(e.loopStep);
      if (stepEntry !== undefined) this.entries.set(e.id, stepEntry);
    }
    return sum;
  }

  private costCall(e: Extract<Expr, { kind: 'call' }>): Range {
    if (e.fn === 'dyn' && e.args.length === 1 && e.target === undefined) {
      const c = this.cost(e.args[0]);
      const s = this.computeSize(e.args[0]);
      if (s !== undefined) this.sizes.set(e.id, s);
      const en = this.entrySize(e.args[0]);
      if (en !== undefined) this.entries.set(e.id, en);
      return addR(range(1n), c);
    }
    const argCosts = e.args.map((a) => this.cost(a));
    const argNodes = e.args.map((a) => this.node(a));
    const ref = this.checked.references.get(e.id);
    const overloads = ref?.kind === 'function' ? ref.overloads : [];
    if (overloads.length === 0) return range(0n);
    let sum = range(0n);
    let target: Node | undefined;
    if (e.target !== undefined) {
      sum = addR(sum, this.cost(e.target));
      target = this.node(e.target);
    }
    let fnCost: Range = range(MAX, 0n);
    let resultSize: Range | undefined;
    for (const id of overloads) {
      const est = this.functionCost(e, e.fn, id, target, argNodes, argCosts);
      fnCost = unionR(fnCost, est.cost);
      if (est.size !== undefined) resultSize = resultSize === undefined ? est.size : unionR(resultSize, est.size);
      if (id === 'index_list' && e.args.length > 0) {
        resultSize = this.entrySize(e.args[0])?.val;
        this.paths.set(e.id, [...(this.getPath(e.args[0]) ?? []), '@items']);
      } else if (id === 'index_map' && e.args.length > 0) {
        resultSize = this.entrySize(e.args[0])?.val;
        this.paths.set(e.id, [...(this.getPath(e.args[0]) ?? []), '@values']);
      }
      if (resultSize === undefined) resultSize = this.computeSize(e);
    }
    if (resultSize !== undefined) this.sizes.set(e.id, resultSize);
    return addR(sum, fnCost);
  }

  private functionCost(e: Expr, fn: string, id: string, target: Node | undefined, args: Node[], argCosts: Range[]): { cost: Range; size?: Range } {
    const argSum = argCosts.reduce(addR, range(0n));
    const setsFactor = id === 'list_sets_equivalent_list' ? 2 : id === 'list_sets_contains_list' || id === 'list_sets_intersects_list' ? 1 : 0;
    if (setsFactor > 0 && args.length === 2) {
      // cel-go's ext.Sets estimator: |a|·|b|·factor + 1.
      const c = addR(factorR(mulR(this.sizeOrUnknown(args[0]), this.sizeOrUnknown(args[1])), setsFactor), range(1n));
      return { cost: addR(c, argSum) };
    }
    const lists = this.listsCallCost(id, target, args);
    if (lists !== undefined) return { cost: addR(lists.cost, argSum), size: lists.size };
    const k8s = this.kubernetesCallCost(fn, id, target, args);
    if (k8s !== undefined) return { cost: addR(k8s.cost, argSum), size: k8s.size };
    switch (id) {
      case 'string_format':
        if (target !== undefined) return { cost: addR(factorR(this.sizeOrUnknown(target), stringTraversalCostFactor), argSum) };
        break;
      case 'string_to_bytes': {
        const sz = this.sizeOrUnknown(args[0]);
        return { cost: addR(factorR(sz, stringTraversalCostFactor), argSum), size: range(sz.min, mul(sz.max, 4n)) };
      }
      case 'bytes_to_string': {
        const sz = this.sizeOrUnknown(args[0]);
        return { cost: addR(factorR(sz, stringTraversalCostFactor), argSum), size: range(sz.min / 4n, sz.max) };
      }
      case 'strings_quote': {
        const sz = this.sizeOrUnknown(args[0]);
        return { cost: addR(factorR(sz, stringTraversalCostFactor), argSum), size: range(add(sz.min, 2n), add(mul(sz.max, 2n), 2n)) };
      }
      case 'starts_with_string': case 'ends_with_string':
        if (args.length === 1) return { cost: addR(factorR(this.sizeOrUnknown(args[0]), stringTraversalCostFactor), argSum) };
        break;
      case 'in_list':
        if (args.length === 2) return { cost: addR(factorR(this.sizeOrUnknown(args[1]), 1), argSum) };
        break;
      case 'matches_string':
        if (target !== undefined && args.length === 1) {
          const str = factorR(addR(this.sizeOrUnknown(target), range(1n)), stringTraversalCostFactor);
          const re = factorR(this.sizeOrUnknown(args[0]), regexStringLengthCostFactor);
          return { cost: addR(mulR(str, re), argSum) };
        }
        break;
      case 'contains_string':
        if (target !== undefined && args.length === 1) {
          const str = factorR(this.sizeOrUnknown(target), stringTraversalCostFactor);
          const sub = factorR(this.sizeOrUnknown(args[0]), stringTraversalCostFactor);
          return { cost: addR(mulR(str, sub), argSum) };
        }
        break;
      case 'logical_or': case 'logical_and':
        return { cost: range(argCosts[0].min, addR(argCosts[0], argCosts[1]).max) };
      case 'conditional': {
        const size = unionR(this.sizeOrUnknown(args[1]), this.sizeOrUnknown(args[2]));
        const a = args[1].expr !== undefined ? this.entrySize(args[1].expr) : undefined;
        const b = args[2].expr !== undefined ? this.entrySize(args[2].expr) : undefined;
        if (a !== undefined && b !== undefined) this.entries.set(e.id, { container: a.container, key: unionR(a.key, b.key), val: unionR(a.val, b.val) });
        return { cost: addR(argCosts[0], unionR(argCosts[1], argCosts[2])), size };
      }
      case 'add_string': case 'add_bytes': case 'add_list':
        if (args.length === 2) {
          const result = addR(this.sizeOrUnknown(args[0]), this.sizeOrUnknown(args[1]));
          const a = args[0].expr !== undefined ? this.entrySize(args[0].expr) : undefined;
          const b = args[1].expr !== undefined ? this.entrySize(args[1].expr) : undefined;
          if (a !== undefined && b !== undefined) this.entries.set(e.id, { container: a.container, key: unionR(a.key, b.key), val: unionR(a.val, b.val) });
          if (id === 'add_list') return { cost: addR(range(1n), argSum), size: result };
          return { cost: addR(factorR(result, stringTraversalCostFactor), argSum), size: result };
        }
        break;
      default:
        if (/^(less|greater)(_equals)?_(string|bytes)$/.test(id) || id === 'equals' || id === 'not_equals') {
          const l = this.sizeOrUnknown(args[0]);
          const r = this.sizeOrUnknown(args[1]);
          const smallest = l.max < r.max ? l.max : r.max;
          return { cost: addR(factorR(range(smallest > 0n ? 1n : 0n, smallest), stringTraversalCostFactor), argSum) };
        }
    }
    return { cost: addR(range(1n), argSum) };
  }

  private listElementNode(list: Node): Node | undefined {
    if (list.type.kind !== 'list') return undefined;
    return { path: list.path === undefined ? undefined : [...list.path, '@items'], type: list.type.params[0], expr: undefined, size: undefined };
  }

  private sizeEstimate(n: Node): Range {
    return n.size ?? this.estimateSize(n.path) ?? unknownSize;
  }

  /**
   * cel-go's ext.Lists (version 3, as Kubernetes declares it) estimators, which take precedence over
   * Kubernetes' own: a call unit and a list allocation, plus the result's size times a factor.
   */
  private listsCallCost(id: string, target: Node | undefined, args: Node[]): { cost: Range; size: Range } | undefined {
    const allocating = (factor: number, size: Range): { cost: Range; size: Range } => ({ cost: addR(factorR(size, factor), range(1n + listCreateBaseCost)), size });
    switch (id) {
      case 'list_slice': {
        if (target === undefined || args.length !== 2) return undefined;
        const start = nodeAsUint(args[0], 0n);
        const end = nodeAsUint(args[1], this.sizeEstimate(target).max);
        // uint64 arithmetic: an end before the start wraps around, as in Go.
        return allocating(1, range((end - start + TWO64N) % TWO64N));
      }
      case 'lists_range':
        if (target !== undefined || args.length !== 1) return undefined;
        return allocating(1, range(nodeAsUint(args[0], MAX)));
      case 'list_reverse':
        if (target === undefined || args.length !== 0) return undefined;
        return allocating(1, this.sizeEstimate(target));
      case 'list_flatten': case 'list_flatten_int': {
        if (target === undefined || args.length > 1) return undefined;
        const depth = args.length === 1 ? nodeAsUint(args[0], MAX) : 1n;
        return allocating(Number(depth), this.sizeEstimate(target));
      }
      case 'list_distinct': {
        if (target === undefined || args.length !== 0) return undefined;
        const sz = this.sizeEstimate(target);
        return allocating(2, mulR(sz, sz));
      }
      case 'list_sort': {
        if (target === undefined || args.length !== 0) return undefined;
        const sz = this.sizeEstimate(target);
        const n = mulR(sz, sz);
        // cel-go has one overload per comparable element type; strings and bytes cost a traversal more.
        const elem = target.type.kind === 'list' ? target.type.params[0].kind : 'dyn';
        if (elem === 'string' || elem === 'bytes') return allocating(2 + stringTraversalCostFactor, n);
        if (elem === 'dyn') {
          const low = allocating(2, n);
          return { cost: range(low.cost.min, allocating(2 + stringTraversalCostFactor, n).cost.max), size: n };
        }
        return allocating(2, n);
      }
      default: return undefined;
    }
  }

  /** Kubernetes' `CostEstimator.EstimateCallCost` (the cost of the call itself, without its arguments). */
  private kubernetesCallCost(fn: string, id: string, target: Node | undefined, args: Node[]): { cost: Range; size?: Range } | undefined {
    const nominal = { cost: range(1n) };
    switch (fn) {
      case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': case 'includes':
        if (target !== undefined) {
          let el = range(1n);
          const elNode = this.listElementNode(target);
          if (elNode !== undefined) {
            if (elNode.type.kind === 'string' || elNode.type.kind === 'bytes') el = addR(el, factorR(this.sizeEstimate(elNode), stringTraversalCostFactor));
            return { cost: mulR(this.sizeEstimate(target), el) };
          }
          if (fn === 'includes') return { cost: mulR(this.sizeEstimate(target), el) };
          return { cost: factorR(this.sizeEstimate(target), stringTraversalCostFactor) };
        }
        break;
      case 'url':
        if (args.length === 1) {
          const sz = this.sizeEstimate(args[0]);
          return { cost: factorR(sz, stringTraversalCostFactor), size: sz };
        }
        break;
      case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
        if (target !== undefined) {
          const sz = this.sizeEstimate(target);
          return { cost: factorR(sz, stringTraversalCostFactor), size: sz };
        }
        break;
      case 'replace':
        if (target !== undefined && args.length >= 2) {
          const sz = this.sizeEstimate(target);
          const toReplace = this.sizeEstimate(args[0]);
          const replaceWith = this.sizeEstimate(args[1]);
          let countMax: bigint;
          let countMin: bigint;
          let retainedMax = 0n;
          let retainedMin = 0n;
          if (toReplace.min === 0n) {
            countMax = sz.max < MAX ? sz.max + 1n : sz.max;
            retainedMax = sz.max;
          } else if (replaceWith.max <= toReplace.min) {
            countMax = 0n;
            retainedMax = sz.max;
          } else {
            countMax = BigInt(Math.ceil(Number(sz.max) / Number(toReplace.min)));
          }
          if (toReplace.max === 0n) {
            countMin = sz.min < MAX ? sz.min + 1n : sz.min;
            retainedMin = sz.min;
          } else if (toReplace.max <= replaceWith.min) {
            countMin = 0n;
            retainedMin = sz.min;
          } else {
            countMin = BigInt(Math.ceil(Number(sz.min) / Number(toReplace.max)));
          }
          const size = addR(mulR(range(countMin, countMax), replaceWith), range(retainedMin, retainedMax));
          return { cost: factorR(sz, 2 * stringTraversalCostFactor), size };
        }
        break;
      case 'split':
        if (target !== undefined) {
          const sz = this.sizeEstimate(target);
          let max = sz.max;
          const lit = args[1]?.expr;
          if (lit !== undefined && lit.kind === 'literal' && typeof lit.value === 'bigint') max = lit.value < 0n ? MAX : lit.value;
          return { cost: factorR(sz, 2 * stringTraversalCostFactor), size: range(0n, max) };
        }
        break;
      case 'join':
        if (target !== undefined) {
          let sz = range(0n);
          const listSize = this.sizeEstimate(target);
          const elNode = this.listElementNode(target);
          if (elNode !== undefined) sz = mulR(listSize, this.sizeEstimate(elNode));
          if (args.length > 0) {
            const sep = this.sizeEstimate(args[0]);
            sz = addR(sz, mulR(sep, range(listSize.min > 0n ? listSize.min - 1n : 0n, listSize.max > 0n ? listSize.max - 1n : 0n)));
          }
          return { cost: factorR(sz, stringTraversalCostFactor), size: sz };
        }
        break;
      case 'find': case 'findAll':
        if (target !== undefined && args.length >= 1) {
          const sz = this.sizeEstimate(target);
          const str = factorR(addR(sz, range(1n)), stringTraversalCostFactor);
          const re = factorR(this.sizeEstimate(args[0]), regexStringLengthCostFactor);
          return { cost: mulR(str, re), size: range(0n, sz.max) };
        }
        break;
      case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
        if (args.length >= 1) return { cost: factorR(this.sizeEstimate(args[0]), stringTraversalCostFactor) };
        break;
      case 'ip':
        if (id === 'cidr_ip') return nominal;
        if (args.length >= 1) return { cost: factorR(this.sizeEstimate(args[0]), stringTraversalCostFactor) };
        break;
      case 'ip.isCanonical':
        if (args.length >= 1) return { cost: factorR(this.sizeEstimate(args[0]), 2 * stringTraversalCostFactor) };
        break;
      case 'masked': case 'prefixLength': case 'family': case 'isUnspecified': case 'isLoopback': case 'isLinkLocalMulticast':
      case 'isLinkLocalUnicast': case 'isGlobalUnicast': case 'format.named':
      case 'sign': case 'asInteger': case 'isInteger': case 'asApproximateFloat': case 'isGreaterThan': case 'isLessThan':
      case 'compareTo': case 'add': case 'sub': case 'major': case 'minor': case 'patch':
      case 'getScheme': case 'getHostname': case 'getHost': case 'getPort': case 'getEscapedPath': case 'getQuery':
        return nominal;
      case 'containsIP': case 'containsCIDR':
        if (args.length >= 1) {
          const sz = range(4n, 16n);
          let c = factorR(addR(sz, sz), stringTraversalCostFactor);
          if (fn === 'containsCIDR') c = addR(addR(c, factorR(sz, stringTraversalCostFactor)), range(1n));
          if (id === 'cidr_contains_ip_string' || id === 'cidr_contains_cidr_string') c = addR(c, factorR(this.sizeEstimate(args[0]), stringTraversalCostFactor));
          return { cost: c };
        }
        break;
      case '_==_':
        if (args.length === 2 && args[0].type.name === args[1].type.name) {
          const t = args[0].type;
          if (t.name === 'net.IP' || t.name === 'net.CIDR' || t.name === 'kubernetes.Quantity' || t.name === 'kubernetes.Semver') return nominal;
          if (t.name === 'kubernetes.URL') return { cost: factorR(range(1n, args[1].size?.max ?? 1n), stringTraversalCostFactor) };
        }
        break;
      default: break;
    }
    return undefined;
  }
}

const TWO64N = 2n ** 64n;
const listCreateBaseCost = 10n;

/** cel-go's `nodeAsIntValue`: an int literal as uint64 (negatives as 0), else `fallback`. */
function nodeAsUint(n: Node, fallback: bigint): bigint {
  const e = n.expr;
  if (e === undefined || e.kind !== 'literal' || typeof e.value !== 'bigint') return fallback;
  return e.value < 0n ? 0n : e.value;
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

function exprSize(e: Expr): Range | undefined {
  switch (e.kind) {
    case 'literal':
      if (typeof e.value === 'string') return range(BigInt(codePoints(e.value)));
      if (e.value instanceof Uint8Array) return range(BigInt(e.value.length));
      return range(1n);
    case 'list': return range(BigInt(e.elements.length));
    case 'map': return range(BigInt(e.entries.length));
    default: return undefined;
  }
}

/**
 * The estimated cost range of a checked expression; `root` bounds the sizes of `self` (of `rootVariable`
 * only, when given).
 */
export function estimateCost(checked: CheckedExpr, root: DeclType | undefined, rootVariable?: string): Range {
  return new Coster(checked, root, rootVariable).cost(checked.parsed.expr);
}

/** The runtime cost of a call (cel-go `CostTracker.costCall` with Kubernetes' `CallCost`). */
export function callCost(fn: string, id: string, args: readonly CelVal[], result: CelVal): number {
  const size = (v: CelVal | undefined): number => (v === undefined ? 1 : actualSize(v));
  const traversal = (v: CelVal | undefined, factor = stringTraversalCostFactor): number => Math.ceil(size(v) * factor);
  switch (fn) {
    case 'isSorted': case 'sum': case 'max': case 'min': case 'indexOf': case 'lastIndexOf': case 'includes':
      if (args[0] instanceof ListVal || args[0] instanceof MapVal || typeof args[0] === 'string') return traversalCost(args[0]);
      break;
    case 'url': case 'lowerAscii': case 'upperAscii': case 'substring': case 'trim':
    case 'cidr': case 'isIP': case 'isCIDR': case 'quantity': case 'isQuantity': case 'semver': case 'isSemver':
      return traversal(args[0]);
    case 'replace': case 'split': return traversal(args[0], 2 * stringTraversalCostFactor);
    case 'join': return traversal(result, 2 * stringTraversalCostFactor);
    case 'find': case 'findAll': return Math.ceil((1 + size(args[0])) * stringTraversalCostFactor) * Math.ceil(size(args[1]) * regexStringLengthCostFactor);
    case 'ip': return id === 'cidr_ip' ? 1 : traversal(args[0]);
    case 'ip.isCanonical': return traversal(args[0], 2 * stringTraversalCostFactor);
    case 'masked': case 'prefixLength': case 'family': case 'isUnspecified': case 'isLoopback': case 'isLinkLocalMulticast':
    case 'isLinkLocalUnicast': case 'isGlobalUnicast': case 'format.named':
    case 'sign': case 'asInteger': case 'isInteger': case 'asApproximateFloat': case 'isGreaterThan': case 'isLessThan':
    case 'compareTo': case 'add': case 'sub': case 'major': case 'minor': case 'patch':
    case 'getScheme': case 'getHostname': case 'getHost': case 'getPort': case 'getEscapedPath': case 'getQuery':
      return 1;
    case 'containsIP': case 'containsCIDR': {
      const c = size(args[0]);
      let cost = Math.ceil((c + c) * stringTraversalCostFactor);
      if (fn === 'containsCIDR') cost += Math.ceil(c * stringTraversalCostFactor) + 1;
      if (id.endsWith('_string')) cost += traversal(args[1]);
      return cost;
    }
    case '_==_':
      if (args[0] instanceof OpaqueVal) return 1;
      break;
    // The authorizer library: a check is priced to allow two per expression; a selector is parsed.
    case 'check': return 350_000;
    case 'fieldSelector': case 'labelSelector': {
      const n = size(args[1]);
      return 10 + Math.ceil(n * stringTraversalCostFactor) + Math.ceil(Math.ceil(n * 0.5) * 50);
    }
    default: break;
  }
  switch (id) {
    // cel-go's ext.Lists (version 3) trackers: a call unit and a list allocation, plus a factor of a size.
    case 'list_slice': case 'lists_range': case 'list_reverse': return 11 + size(result);
    case 'list_flatten': case 'list_flatten_int': return 11 + Math.floor(size(args[0]) * (args.length === 2 ? Number(args[1]) : 1));
    case 'list_distinct': case 'list_sort': {
      const n = size(args[0]);
      const first = args[0] instanceof ListVal && args[0].size() > 0 ? args[0].get(0) : undefined;
      const factor = typeof first === 'string' || first instanceof Uint8Array ? 2 + stringTraversalCostFactor : 2;
      return 11 + Math.floor(n * n * factor);
    }
    case 'list_sets_contains_list': case 'list_sets_intersects_list': return 1 + Math.floor(size(args[0]) * size(args[1]));
    case 'list_sets_equivalent_list': return 1 + Math.floor(size(args[0]) * size(args[1]) * 2);
    // cel-go v0.26 charges prefix and suffix checks by the receiver's size (celcoststability_test.go of
    // Kubernetes 1.34: self.val1.startsWith('Rook') on 'Rook takes 👑' costs 4 in all).
    case 'starts_with_string': case 'ends_with_string': return traversal(args[0]);
    case 'string_to_bytes': case 'bytes_to_string': case 'strings_quote': case 'string_format':
      return traversal(args[0]);
    case 'in_list': return size(args[1]);
    case 'add_string': case 'add_bytes': return Math.ceil((size(args[0]) + size(args[1])) * stringTraversalCostFactor);
    case 'matches_string': case 'matches':
      return Math.ceil((1 + size(args[0])) * stringTraversalCostFactor) * Math.ceil(size(args[1]) * regexStringLengthCostFactor);
    case 'contains_string': return traversal(args[0]) * traversal(args[1]);
    default:
      if (/^(less|greater)(_equals)?_(string|bytes)$/.test(id) || id === 'equals' || id === 'not_equals') {
        return Math.ceil(Math.min(size(args[0]), size(args[1])) * stringTraversalCostFactor);
      }
      return 1;
  }
}

/** The cost of traversing a value as a data tree (Kubernetes' `traversalCost`). */
function traversalCost(v: CelVal): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * stringTraversalCostFactor);
  if (v instanceof Uint8Array) return Math.floor(v.length * stringTraversalCostFactor);
  if (v instanceof ListVal) {
    let c = 0;
    for (const x of v) c += traversalCost(x);
    return c;
  }
  if (v instanceof MapVal) {
    let c = 0;
    for (const k of v.keys()) c += traversalCost(k) + traversalCost(v.find(k) ?? null);
    return c;
  }
  return 1;
}

/**
 * The apiserver's message for an estimated cost over its limit, e.g. `estimated rule cost exceeds
 * budget by factor of more than 100x (try simplifying the rule, or adding maxItems,
 * maxProperties, and maxLength where arrays, maps, and strings are declared)`.
 */
export function costErrorMessage(costName: string, cost: bigint, limit: number): string {
  const factor = Number(cost) / limit;
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${factor.toFixed(6)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
