/**
 * cel-go's `ext.Sets`: `sets.contains`, `sets.equivalent`, `sets.intersects`, with CEL equality.
 */
import { ListVal, equals } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, listType, typeParam } from '../internal/types.js';
import { func, overload } from './library.js';
import type { FunctionDecl } from './library.js';

const listT = listType(typeParam('T'));

function has(list: ListVal, v: CelVal): boolean {
  for (const x of list) if (equals(x, v) === true) return true;
  return false;
}

function contains(a: CelVal, b: CelVal): boolean {
  for (const v of b as ListVal) if (!has(a as ListVal, v)) return false;
  return true;
}

/** The sets extension. */
export const setsLibrary: readonly FunctionDecl[] = [
  func('sets.contains', overload('list_sets_contains_list', [listT, listT], BoolType, contains)),
  func('sets.equivalent', overload('list_sets_equivalent_list', [listT, listT], BoolType, (a, b) => contains(a, b) && contains(b, a))),
  func('sets.intersects', overload('list_sets_intersects_list', [listT, listT], BoolType, (a, b) => {
    for (const v of b as ListVal) if (has(a as ListVal, v)) return true;
    return false;
  })),
];
