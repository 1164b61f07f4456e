import type { LabelRequirement } from '../labelRequirement.js';
import { internalize } from './goStrings.js';
import { parseInt64 } from './int64.js';

/** What a compiled requirement tests, given the label's value (`undefined` when absent). */
export const enum Test {
  /** Present and equal to `value` (`=`, `==`, `in` with one value). */
  Equal,
  /** Present and one of `values`. */
  OneOf,
  /** Absent or different from `value` (`!=`, `notin` with one value). */
  NotEqual,
  /** Absent or none of `values`. */
  NoneOf,
  Exists,
  DoesNotExist,
  /** Present, an int64, and greater than `bound`. */
  Greater,
  /** Present, an int64, and less than `bound`. */
  Less,
  /** Never matches: an unknown operator (Go's zero `Requirement`) or a `gt`/`lt` bound that is not an int64. */
  Never,
}

/** A requirement prepared for matching: one switch on `test`, no allocation. */
export interface CompiledRequirement {
  readonly key: string;
  readonly test: Test;
  readonly value: string;
  readonly values: readonly string[];
  readonly bound: number | bigint;
}

/** Prepares `r` for {@link matchRequirement}, following `Requirement.Matches` case by case. */
export function compileRequirement(r: LabelRequirement): CompiledRequirement {
  const values = r.values;
  const one = values.length === 1;
  let test: Test;
  let bound: number | bigint = 0;
  switch (r.operator) {
    case 'in': case '=': case '==':
      test = one ? Test.Equal : Test.OneOf;
      break;
    case 'notin': case '!=':
      test = one ? Test.NotEqual : Test.NoneOf;
      break;
    case 'exists':
      test = Test.Exists;
      break;
    case '!':
      test = Test.DoesNotExist;
      break;
    case 'gt': case 'lt': {
      const parsed = one ? parseInt64(values[0]) : undefined;
      if (parsed === undefined) {
        test = Test.Never;
      } else {
        test = r.operator === 'gt' ? Test.Greater : Test.Less;
        bound = parsed;
      }
      break;
    }
    default:
      test = Test.Never;
  }
  return { key: internalize(r.key), test, value: one ? internalize(values[0]) : '', values, bound };
}

/** Whether a label with value `v` (`undefined`: absent) satisfies `r`. */
export function matchRequirement(r: CompiledRequirement, v: string | undefined): boolean {
  switch (r.test) {
    case Test.Equal: return v === r.value;
    case Test.OneOf: return v !== undefined && r.values.includes(v);
    case Test.NotEqual: return v !== r.value;
    case Test.NoneOf: return v === undefined || !r.values.includes(v);
    case Test.Exists: return v !== undefined;
    case Test.DoesNotExist: return v === undefined;
    case Test.Greater: {
      if (v === undefined) return false;
      const n = parseInt64(v);
      return n !== undefined && n > r.bound;
    }
    case Test.Less: {
      if (v === undefined) return false;
      const n = parseInt64(v);
      return n !== undefined && n < r.bound;
    }
    default: return false;
  }
}
