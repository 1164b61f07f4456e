/**
 * cel-go's optional types (`cel.OptionalTypes()`): `optional.of`, `optional.ofNonZeroValue`,
 * `optional.none`, `hasValue`, `value`, `or`, `orValue`, optional indexing (`a[?k]`, and `a[k]`
 * on optionals). Optional field selection (`a.?f`) and `optMap`/`optFlatMap` are handled by the
 * parser and the interpreter.
 */
import { DurationVal, ListVal, MapVal, OptionalVal, TimestampVal, UintVal, sizeOf } from '../internal/values.js';
import { MIN_TIMESTAMP_NS } from '../internal/time.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, IntType, listType, mapType, optionalType, typeParam } from '../internal/types.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

const A = typeParam('A');
const K = typeParam('K');
const V = typeParam('V');

function isZero(v: CelVal): boolean {
  if (v === null || v === false || v === '' || v === 0n || v === 0) return true;
  if (v instanceof UintVal) return v.value === 0n;
  if (v instanceof DurationVal) return v.ns === 0n;
  // Go's zero time.Time: 0001-01-01T00:00:00Z.
  if (v instanceof TimestampVal) return v.ns === MIN_TIMESTAMP_NS;
  const n = sizeOf(v);
  return n !== undefined && typeof v !== 'string' && n === 0;
}

/** `list[?i]` / `map[?k]`: the element as an optional. */
export function optionalIndex(container: CelVal, key: CelVal): CelVal {
  if (container instanceof OptionalVal) {
    if (container.value === undefined) return container;
    return optionalIndex(container.value, key);
  }
  if (container instanceof ListVal) {
    if (typeof key !== 'bigint') return err('no such overload');
    const i = Number(key);
    return new OptionalVal(i >= 0 && i < container.size() ? container.get(i) : undefined);
  }
  if (container instanceof MapVal) return new OptionalVal(container.find(key));
  return err('no such overload');
}

/** The optionals library. */
export const optionalsLibrary: readonly FunctionDecl[] = [
  func('optional.of', overload('optional_of', [A], optionalType(A), (v) => new OptionalVal(v))),
  func('optional.ofNonZeroValue', overload('optional_ofNonZeroValue', [A], optionalType(A), (v) => new OptionalVal(isZero(v) ? undefined : v))),
  func('optional.none', overload('optional_none', [], optionalType(A), () => new OptionalVal(undefined))),
  func('value', memberOverload('optional_value', [optionalType(A)], A, (o) => {
    const v = (o as OptionalVal).value;
    return v === undefined ? err('optional.none() dereference') : v;
  })),
  func('hasValue', memberOverload('optional_hasValue', [optionalType(A)], BoolType, (o) => (o as OptionalVal).hasValue())),
  func('or', memberOverload('optional_or_optional', [optionalType(A), optionalType(A)], optionalType(A), (a, b) => ((a as OptionalVal).hasValue() ? a : b))),
  func('orValue', memberOverload('optional_orValue_value', [optionalType(A), A], A, (a, b) => (a as OptionalVal).value ?? b)),
  func('_[?_]',
    overload('list_optindex_optional_int', [listType(A), IntType], optionalType(A), optionalIndex),
    overload('optional_list_optindex_optional_int', [optionalType(listType(A)), IntType], optionalType(A), optionalIndex),
    overload('map_optindex_optional_value', [mapType(K, V), K], optionalType(V), optionalIndex),
    overload('optional_map_optindex_optional_value', [optionalType(mapType(K, V)), K], optionalType(V), optionalIndex)),
];

/** `_[_]` overloads on optionals (added to the standard index operator). */
export const optionalIndexOverloads = [
  overload('optional_list_index_int', [optionalType(listType(A)), IntType], optionalType(A), optionalIndex),
  overload('optional_map_index_value', [optionalType(mapType(K, V)), K], optionalType(V), optionalIndex),
];


