/**
 * List functions: Kubernetes' `lists` library (`isSorted`, `sum`, `min`, `max`, `indexOf`,
 * `lastIndexOf`) and cel-go's `ext.Lists` at version 3 (`distinct`, `flatten`, `lists.range`,
 * `reverse`, `slice`, `sort`, `first`, `last`), as the apiserver's base environment declares them.
 */
import { ArrayList, DurationVal, ErrVal, ListVal, OptionalVal, UintVal, compareValues, equals } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import {
  BoolType, BytesType, DoubleType, DurationType, DynType, IntType, StringType, TimestampType, UintType, listType, optionalType, typeParam,
} from '../internal/types.js';
import type { CelType } from '../internal/types.js';
import { checkedInt } from './standard.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl, OverloadDecl } from './library.js';

const A = typeParam('A');
const comparable: [string, CelType][] = [
  ['int', IntType], ['uint', UintType], ['double', DoubleType], ['bool', BoolType], ['duration', DurationType],
  ['timestamp', TimestampType], ['string', StringType], ['bytes', BytesType],
];
const summable: [string, CelType][] = [['int', IntType], ['uint', UintType], ['double', DoubleType], ['duration', DurationType]];

function isSorted(l: CelVal): CelVal {
  let prev: CelVal | undefined;
  for (const v of l as ListVal) {
    if (prev !== undefined) {
      const c = compareValues(prev, v);
      if (c instanceof ErrVal) return c;
      if (c > 0) return false;
    }
    prev = v;
  }
  return true;
}

function sum(zero: CelVal) {
  return (l: CelVal): CelVal => {
    let acc = zero;
    for (const v of l as ListVal) {
      if (typeof acc === 'bigint' && typeof v === 'bigint') {
        const r = checkedInt(acc + v);
        if (r instanceof ErrVal) return r;
        acc = r;
      } else if (typeof acc === 'number' && typeof v === 'number') acc = acc + v;
      else if (acc instanceof UintVal && v instanceof UintVal) acc = new UintVal(acc.value + v.value);
      else if (acc instanceof DurationVal && v instanceof DurationVal) acc = new DurationVal(acc.ns + v.ns);
      else return err('no such overload');
    }
    return acc;
  };
}

function extreme(name: string, prefer: number) {
  return (l: CelVal): CelVal => {
    let result: CelVal | undefined;
    for (const v of l as ListVal) {
      if (result === undefined) result = v;
      else {
        const c = compareValues(result, v);
        if (c instanceof ErrVal) return c;
        if (c === prefer) result = v;
      }
    }
    return result === undefined ? err(`${name} called on empty list`) : result;
  };
}

function find(l: CelVal, item: CelVal, last: boolean): CelVal {
  const list = l as ListVal;
  const n = list.size();
  for (let k = 0; k < n; k++) {
    const i = last ? n - 1 - k : k;
    if (equals(list.get(i), item) === true) return BigInt(i);
  }
  return -1n;
}

function templated(types: [string, CelType][], make: (name: string, t: CelType) => OverloadDecl): OverloadDecl[] {
  return types.map(([n, t]) => make(n, t));
}

function flatten(l: ListVal, depth: number, out: CelVal[]): ErrVal | undefined {
  for (const v of l) {
    if (v instanceof ListVal && depth > 0) {
      const e = flatten(v, depth - 1, out);
      if (e !== undefined) return e;
    } else out.push(v);
  }
  return undefined;
}

/** The list libraries. */
export const listsLibrary: readonly FunctionDecl[] = [
  func('isSorted', ...templated(comparable, (n, t) => memberOverload(`list_${n}_is_sorted_bool`, [listType(t)], BoolType, isSorted))),
  func('sum', ...templated(summable, (n, t) => memberOverload(`list_${n}_sum_${n}`, [listType(t)], t,
    sum(n === 'int' ? 0n : n === 'uint' ? new UintVal(0n) : n === 'double' ? 0 : new DurationVal(0n))))),
  func('max', ...templated(comparable, (n, t) => memberOverload(`list_${n}_max_${n}`, [listType(t)], t, extreme('max', -1)))),
  func('min', ...templated(comparable, (n, t) => memberOverload(`list_${n}_min_${n}`, [listType(t)], t, extreme('min', 1)))),
  func('indexOf', memberOverload('list_a_index_of_int', [listType(A), A], IntType, (l, x) => find(l, x, false))),
  func('lastIndexOf', memberOverload('list_a_last_index_of_int', [listType(A), A], IntType, (l, x) => find(l, x, true))),
  func('distinct', memberOverload('list_distinct', [listType(A)], listType(A), (l) => {
    const out: CelVal[] = [];
    for (const v of l as ListVal) if (!out.some((o) => equals(o, v) === true)) out.push(v);
    return new ArrayList(out);
  })),
  func('flatten',
    memberOverload('list_flatten', [listType(listType(A))], listType(A), (l) => {
      const out: CelVal[] = [];
      const e = flatten(l as ListVal, 1, out);
      return e ?? new ArrayList(out);
    }),
    memberOverload('list_flatten_int', [listType(DynType), IntType], listType(DynType), (l, d) => {
      if ((d as bigint) < 0n) return err('level must be non-negative');
      const out: CelVal[] = [];
      const e = flatten(l as ListVal, Number(d), out);
      return e ?? new ArrayList(out);
    })),
  func('lists.range', overload('lists_range', [IntType], listType(IntType), (n) => {
    const out: CelVal[] = [];
    for (let k = 0n; k < (n as bigint); k++) out.push(k);
    return new ArrayList(out);
  })),
  func('reverse', memberOverload('list_reverse', [listType(A)], listType(A), (l) => new ArrayList([...(l as ListVal)].reverse()))),
  func('slice', memberOverload('list_slice', [listType(A), IntType, IntType], listType(A), (l, s, e) => {
    const list = l as ListVal;
    const a = Number(s as bigint);
    const b = Number(e as bigint);
    if (a < 0 || b < 0) return err(`cannot slice(${a}, ${b}), negative indexes not supported`);
    if (a > b) return err(`cannot slice(${a}, ${b}), start index must be less than or equal to end index`);
    if (list.size() < b) return err(`cannot slice(${a}, ${b}), list is length ${list.size()}`);
    return new ArrayList([...list].slice(a, b));
  })),
  func('sort', memberOverload('list_sort', [listType(A)], listType(A), (l) => {
    const items = [...(l as ListVal)];
    let failure: ErrVal | undefined;
    items.sort((x, y) => {
      const c = compareValues(x, y);
      if (c instanceof ErrVal) {
        failure ??= c;
        return 0;
      }
      return c;
    });
    return failure ?? new ArrayList(items);
  })),
  func('first', memberOverload('list_first', [listType(A)], optionalType(A), (l) => {
    const list = l as ListVal;
    return new OptionalVal(list.size() > 0 ? list.get(0) : undefined);
  })),
  func('last', memberOverload('list_last', [listType(A)], optionalType(A), (l) => {
    const list = l as ListVal;
    return new OptionalVal(list.size() > 0 ? list.get(list.size() - 1) : undefined);
  })),
];
