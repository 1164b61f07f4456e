/**
 * Kubernetes' quantity library (`quantity`, `isQuantity`, `sign`, `isGreaterThan`, `isLessThan`,
 * `compareTo`, `asApproximateFloat`, `asInteger`, `isInteger`, `add`, `sub`) on `@kubekit/core`'s
 * {@link Quantity}: `resource.Quantity` as Go holds it (an int64Amount or an `inf.Dec`, which decides
 * `isInteger`), exact for every exponent the parser takes (`1e2000`, `1e-2000000000`).
 * @see https://github.com/kubernetes/apiserver/blob/v0.34.4/pkg/cel/library/quantity.go
 */
import { Quantity } from '@kubekit/core';
import { ErrVal, OpaqueVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, DoubleType, IntType, StringType, objectType } from '../internal/types.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.Quantity`. */
export const QuantityType = objectType('kubernetes.Quantity');

/** A CEL `kubernetes.Quantity` value. */
export class QuantityVal extends OpaqueVal {
  readonly celType = QuantityType;

  constructor(readonly quantity: Quantity) {
    super();
  }

  /** -1, 0 or 1 as this quantity is below, equal to or above `o` (Go's `Cmp`, exact). */
  compare(o: QuantityVal): number {
    return this.quantity.cmp(o.quantity);
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof QuantityVal && this.compare(other) === 0;
  }
}

/** `resource.ParseQuantity`: the quantity, or the parser's error text. */
export function parseQuantity(s: string): QuantityVal | string {
  const q = Quantity.parse(s);
  return typeof q === 'string' ? q : new QuantityVal(q);
}

function toQuantity(v: CelVal): CelVal {
  const q = parseQuantity(v as string);
  return typeof q === 'string' ? err(q) : q;
}

const q = (v: CelVal): Quantity => (v as QuantityVal).quantity;
const wrap = (x: Quantity): QuantityVal => new QuantityVal(x);

/** The quantity library. */
export const quantityLibrary: readonly FunctionDecl[] = [
  func('quantity', overload('string_to_quantity', [StringType], QuantityType, toQuantity)),
  func('isQuantity', overload('is_quantity_string', [StringType], BoolType, (v) => !(toQuantity(v) instanceof ErrVal))),
  func('sign', overload('quantity_sign', [QuantityType], IntType, (v) => BigInt(q(v).sign()))),
  func('isGreaterThan', memberOverload('quantity_is_greater_than', [QuantityType, QuantityType], BoolType, (a, b) => q(a).cmp(q(b)) > 0)),
  func('isLessThan', memberOverload('quantity_is_less_than', [QuantityType, QuantityType], BoolType, (a, b) => q(a).cmp(q(b)) < 0)),
  func('compareTo', memberOverload('quantity_compare_to', [QuantityType, QuantityType], IntType, (a, b) => BigInt(q(a).cmp(q(b))))),
  func('asApproximateFloat', memberOverload('quantity_get_float', [QuantityType], DoubleType, (v) => q(v).asApproximateFloat64())),
  func('asInteger', memberOverload('quantity_get_int', [QuantityType], IntType, (v) => q(v).asInt64() ?? err('cannot convert value to integer'))),
  func('isInteger', memberOverload('quantity_is_integer', [QuantityType], BoolType, (v) => q(v).asInt64() !== undefined)),
  func('add',
    memberOverload('quantity_add', [QuantityType, QuantityType], QuantityType, (a, b) => wrap(q(a).add(q(b)))),
    memberOverload('quantity_add_int', [QuantityType, IntType], QuantityType, (a, b) => wrap(q(a).add(Quantity.fromInt64(b as bigint))))),
  func('sub',
    memberOverload('quantity_sub', [QuantityType, QuantityType], QuantityType, (a, b) => wrap(q(a).sub(q(b)))),
    memberOverload('quantity_sub_int', [QuantityType, IntType], QuantityType, (a, b) => wrap(q(a).sub(Quantity.fromInt64(b as bigint))))),
];
