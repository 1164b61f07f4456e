/**
 * Kubernetes' quantity library (`quantity`, `isQuantity`, `sign`, `isGreaterThan`, `isLessThan`,
 * `compareTo`, `asApproximateFloat`, `asInteger`, `isInteger`, `add`, `sub`), with exact
 * arithmetic on `resource.Quantity` values (`1Gi`, `500m`, `1e3`).
 */
import { ErrVal, OpaqueVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, DoubleType, IntType, StringType, objectType } from '../internal/types.js';
import { INT64_MAX, INT64_MIN } from './standard.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `kubernetes.Quantity`. */
export const QuantityType = objectType('kubernetes.Quantity');

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** A quantity as an exact fraction. */
export class QuantityVal extends OpaqueVal {
  readonly celType = QuantityType;
  readonly num: bigint;
  readonly den: bigint;

  constructor(num: bigint, den: bigint) {
    super();
    const g = gcd(num, den);
    this.num = num / g;
    this.den = den / g;
  }

  compare(o: QuantityVal): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof QuantityVal && this.compare(other) === 0;
  }
}

const binary: Record<string, bigint> = { Ki: 2n ** 10n, Mi: 2n ** 20n, Gi: 2n ** 30n, Ti: 2n ** 40n, Pi: 2n ** 50n, Ei: 2n ** 60n };
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const invalid = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** `resource.ParseQuantity`. */
export function parseQuantity(s: string): QuantityVal | string {
  if (s.length === 0) return 'quantities must match the regular expression';
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(s);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return invalid;
  const sign = m[1] === '-' ? -1n : 1n;
  const frac = m[3] ?? '';
  const mantissa = BigInt((m[2] || '0') + frac) * sign;
  let num = mantissa;
  let den = 10n ** BigInt(frac.length);
  const suffix = m[4];
  if (Object.hasOwn(binary, suffix)) {
    num *= binary[suffix];
  } else if (Object.hasOwn(decimal, suffix)) {
    const e = decimal[suffix];
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  } else {
    const ex = /^[eE]([+-]?[0-9]+)$/.exec(suffix);
    if (ex === null) return 'unable to parse quantity\'s suffix';
    const e = Number(ex[1]);
    if (Math.abs(e) > 1000) return 'unable to parse quantity\'s suffix';
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  }
  return new QuantityVal(num, den);
}

function toQuantity(v: CelVal): CelVal {
  const q = parseQuantity(v as string);
  return typeof q === 'string' ? err(q) : q;
}

const q = (v: CelVal): QuantityVal => v as QuantityVal;

/** The quantity library. */
export const quantityLibrary: readonly FunctionDecl[] = [
  func('quantity', overload('string_to_quantity', [StringType], QuantityType, toQuantity)),
  func('isQuantity', overload('is_quantity_string', [StringType], BoolType, (v) => !(toQuantity(v) instanceof ErrVal))),
  func('sign', overload('quantity_sign', [QuantityType], IntType, (v) => BigInt(q(v).num > 0n ? 1 : q(v).num < 0n ? -1 : 0))),
  func('isGreaterThan', memberOverload('quantity_is_greater_than', [QuantityType, QuantityType], BoolType, (a, b) => q(a).compare(q(b)) > 0)),
  func('isLessThan', memberOverload('quantity_is_less_than', [QuantityType, QuantityType], BoolType, (a, b) => q(a).compare(q(b)) < 0)),
  func('compareTo', memberOverload('quantity_compare_to', [QuantityType, QuantityType], IntType, (a, b) => BigInt(q(a).compare(q(b))))),
  func('asApproximateFloat', memberOverload('quantity_get_float', [QuantityType], DoubleType, (v) => Number(q(v).num) / Number(q(v).den))),
  func('asInteger', memberOverload('quantity_get_int', [QuantityType], IntType, (v) => {
    const x = q(v);
    if (x.den !== 1n || x.num < INT64_MIN || x.num > INT64_MAX) return err('cannot convert value to integer');
    return x.num;
  })),
  func('isInteger', memberOverload('quantity_is_integer', [QuantityType], BoolType, (v) => q(v).den === 1n && q(v).num >= INT64_MIN && q(v).num <= INT64_MAX)),
  func('add',
    memberOverload('quantity_add', [QuantityType, QuantityType], QuantityType, (a, b) => new QuantityVal(q(a).num * q(b).den + q(b).num * q(a).den, q(a).den * q(b).den)),
    memberOverload('quantity_add_int', [QuantityType, IntType], QuantityType, (a, b) => new QuantityVal(q(a).num + (b as bigint) * q(a).den, q(a).den))),
  func('sub',
    memberOverload('quantity_sub', [QuantityType, QuantityType], QuantityType, (a, b) => new QuantityVal(q(a).num * q(b).den - q(b).num * q(a).den, q(a).den * q(b).den)),
    memberOverload('quantity_sub_int', [QuantityType, IntType], QuantityType, (a, b) => new QuantityVal(q(a).num - (b as bigint) * q(a).den, q(a).den))),
];
